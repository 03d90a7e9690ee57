"""``taumesh domain check`` fails the three defects the scorer alone used to find (issue 41), as real commands.

Each small domain's gold replays without an error; before, check passed all three and the scorer then failed them:
a transfer tool that writes (the v1 gold hash skips it), a tool that answers differently each time, and a required
output holding a comma (τ-bench's comparison removes commas from what is said).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.domains.test_domain_commands import explain
from tests.helpers.domain_cli import domain

_PLUGIN = """
from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

from pydantic import BaseModel

from taumesh.domains import Data, DomainPlugin, Tool


class Counter(BaseModel):
    counter_id: str
    value: int


class Database(BaseModel):
    counters: dict[str, Counter]


class Increment(Tool):
    name = "increment_counter"
    writes = True
    description = "Add one."
    parameters: dict[str, Any] = {{
        "type": "object", "properties": {{"counter_id": {{"type": "string"}}}}, "required": ["counter_id"]
    }}

    @staticmethod
    def invoke(data: Data, counter_id: str) -> str:
        data["counters"][counter_id]["value"] += {step}
        return json.dumps(data["counters"][counter_id])


class Transfer(Tool):
    name = "transfer_to_human_agents"
    writes = {transfer_writes}
    description = "Hand over to a human."
    parameters: dict[str, Any] = {{"type": "object", "properties": {{}}, "required": []}}

    @staticmethod
    def invoke(data: Data) -> str:
        if {transfer_writes}:
            data["counters"]["visits"]["value"] = 0
        return "Transfer successful"


plugin = DomainPlugin(
    name="{name}",
    tools=(Increment, Transfer),
    database=Database,
    splits=("test",),
    own_data=Path(__file__).resolve().parent / "data",
)
"""


def _domain(root: Path, name: str, *, step: str = "1", transfer_writes: bool = False, outputs: list[str]) -> None:
    package = root / "domains" / name
    (package / "data").mkdir(parents=True)
    text = _PLUGIN.format(name=name, step=step, transfer_writes=transfer_writes)
    (package / "__init__.py").write_text(text, encoding="utf-8")
    counters = {"visits": {"counter_id": "visits", "value": 41}}
    (package / "data" / "counters.json").write_text(json.dumps(counters), encoding="utf-8")
    (package / "data" / "wiki.md").write_text("Add one when asked.\n", encoding="utf-8")
    actions = [{"name": "increment_counter", "kwargs": {"counter_id": "visits"}}]
    if transfer_writes:
        actions.append({"name": "transfer_to_human_agents", "kwargs": {}})
    task = {"user_id": "u", "instruction": "Add one to visits.", "actions": actions, "outputs": outputs}
    (package / "data" / "tasks_test.json").write_text(json.dumps([task]), encoding="utf-8")


@pytest.mark.parametrize(
    ("name", "options", "message"),
    [
        ("writing_transfer", {"transfer_writes": True}, "terminate tool transfer_to_human_agents writes"),
        ("dice", {"step": "random.randint(1, 10**9)"}, "nondeterministic: a second replay of the gold differs"),
        ("comma", {"outputs": ["1,042"]}, "output '1,042' has a comma"),
    ],
)
def test_check_fails_what_the_scorer_would(tmp_path: Path, name: str, options: dict[str, object], message: str) -> None:
    _domain(tmp_path, name, **{"outputs": [], **options})  # type: ignore[arg-type]
    checked = domain(tmp_path, "check", name)
    assert checked.returncode == 1, explain(checked)
    assert message in " ".join(checked.stdout.split()), explain(checked)
    assert "1 tasks, 0 replay cleanly, 1 with problems" in " ".join(checked.stdout.split())


def test_the_same_domain_without_the_defect_passes(tmp_path: Path) -> None:
    _domain(tmp_path, "clean", outputs=["42"])
    checked = domain(tmp_path, "check", "clean")
    assert checked.returncode == 0, explain(checked)


def test_check_opens_each_task_in_its_own_initial_state(tau2_data: Path) -> None:
    """τ² mock's tasks set their own initial state: replayed from the base data, 3 of 9 golds erred; now none does."""
    from taumesh.domains import check_domain
    from tests.helpers.tau2 import tau2_domain

    report = check_domain(tau2_domain("mock"))
    assert report.ok, [t.problems for t in report.failed]
    assert len(report.tasks) == 9 and len(report.unchanged) == 3
