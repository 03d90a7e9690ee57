"""``taumesh domain new``: write a working skeleton of a domain package."""

from __future__ import annotations

import importlib.util
import keyword
from pathlib import Path

_INIT = '''"""The {name} domain: counters that a user asks the agent to increase."""

from __future__ import annotations

from pathlib import Path

from taumesh.domains import DomainPlugin

from .models import {title}Database
from .tools import IncrementCounter

plugin = DomainPlugin(
    name="{name}",
    tools=(IncrementCounter,),
    database={title}Database,
    splits=("test",),
    terminate_tools=frozenset(),
    own_data=Path(__file__).resolve().parent / "data",
)
"""What the registry loads: found in ``TAUMESH_DOMAIN_PATH``, or through an entry point once packaged."""
'''

_MODELS = '''"""The {name} database: one pydantic model per record, one field per table (``data/<table>.json``)."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict


class Counter(BaseModel):
    """A named counter."""

    model_config = ConfigDict(extra="forbid")

    counter_id: str
    value: int


class {title}Database(BaseModel):
    """Every table, by record id; validates the files when the domain loads."""

    counters: dict[str, Counter]
'''

_TOOLS = '''"""The {name} tools: one class each, tagged read (the default) or write (``writes = True``)."""

from __future__ import annotations

import json
from typing import Any

from taumesh.domains import Data, Refusal, Tool


class IncrementCounter(Tool):
    """Adds ``amount`` to a counter. It changes data, so it is tagged ``writes = True``."""

    name = "increment_counter"
    writes = True
    description = "Increase a counter by a positive amount and return the counter."
    parameters: dict[str, Any] = {{
        "type": "object",
        "properties": {{
            "counter_id": {{"type": "string", "description": "The counter's id, such as 'visits'."}},
            "amount": {{"type": "integer", "description": "How much to add (at least 1)."}},
        }},
        "required": ["counter_id", "amount"],
    }}

    @staticmethod
    def invoke(data: Data, counter_id: str, amount: int) -> str:
        counters = data["counters"]
        if counter_id not in counters:
            raise Refusal("counter not found")
        if amount < 1:
            raise Refusal("amount must be at least 1")
        counter = counters[counter_id]  # a private copy: this tool writes
        counter["value"] += amount
        return json.dumps(counter)
'''

_COUNTERS = """{
  "visits": {"counter_id": "visits", "value": 41},
  "signups": {"counter_id": "signups", "value": 7}
}
"""

_POLICY = """# {name} agent policy

You help users with their counters. Before you change a counter, tell the user the counter and the
amount and get their explicit confirmation (yes). Never decrease a counter.
"""

_TASKS = """[
  {{
    "user_id": "user_1",
    "instruction": "You want the 'visits' counter increased by 2. Confirm when asked.",
    "actions": [{{"name": "increment_counter", "kwargs": {{"counter_id": "visits", "amount": 2}}}}],
    "outputs": []
  }}
]
"""

_TEST = '''"""The {name} domain: its gold actions replay cleanly, and its tool changes only the session's copy."""

from __future__ import annotations

from pathlib import Path

from taumesh.domains import Catalog, Registry, Session, check_domain

HERE = Path(__file__).resolve().parent


def catalog() -> Catalog:
    # found like any local domain: the folder holding this package is a domain path
    return Catalog(HERE / "data", Registry.discover([HERE.parent]))


def test_gold_actions_replay_cleanly() -> None:
    report = check_domain(catalog().get("{name}"))
    assert report.ok, [task.problems for task in report.failed]
    assert not report.unchanged


def test_increment_changes_the_session_only() -> None:
    domain = catalog().get("{name}")
    session = Session(domain)
    step = session.call("increment_counter", {{"counter_id": "visits", "amount": 2}})
    assert step.observation == '{{"counter_id": "visits", "value": 43}}'
    assert session.data_hash() != domain.initial_hash
    assert Session(domain).data_hash() == domain.initial_hash
    assert domain.base_data["counters"]["visits"]["value"] == 41


def test_refusals_are_observations() -> None:
    session = Session(catalog().get("{name}"))
    assert session.call("increment_counter", {{"counter_id": "nope", "amount": 1}}).observation == (
        "Error: counter not found"
    )
'''


class ScaffoldError(Exception):
    """The skeleton cannot be written (bad name, folder exists)."""


def check_name(name: str) -> None:
    """Refuse names that cannot be a domain package: not an identifier, or an importable module's name."""
    if not name.isidentifier() or keyword.iskeyword(name) or name != name.lower():
        raise ScaffoldError(f"{name!r} is not a valid domain name: use a lowercase Python identifier (my_domain)")
    if importlib.util.find_spec(name) is not None:
        raise ScaffoldError(f"{name!r} is already an importable module's name; pick another domain name")


def write_skeleton(name: str, directory: Path) -> list[Path]:
    """Write the package ``directory/name`` (one tool, one task, a policy, its data and a test); its files."""
    check_name(name)
    package = directory / name
    if package.exists():
        raise ScaffoldError(f"{package} already exists")
    title = "".join(part.capitalize() for part in name.split("_"))
    files = {
        "__init__.py": _INIT,
        "models.py": _MODELS,
        "tools.py": _TOOLS,
        f"test_{name}.py": _TEST,
        "data/counters.json": _COUNTERS,
        "data/wiki.md": _POLICY,
        "data/tasks_test.json": _TASKS,
    }
    written = []
    for relative, template in files.items():
        path = package / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        text = template if relative == "data/counters.json" else template.format(name=name, title=title)
        path.write_text(text, encoding="utf-8")
        written.append(path)
    return written
