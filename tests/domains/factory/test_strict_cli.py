"""The factory's flags through the commands: ``taumesh domain audit`` reports a domain's own flags (``non_unique``,
``trap_cue``, ``output_spec``) beside its own, and ``taumesh domain check --strict`` fails on any of them.

Real subprocesses in a temporary directory (``./domains`` is searched by default): the scaffold as ``domain new``
writes it, and the same scaffold with three defects planted in its test split.
"""

from __future__ import annotations

import json
from pathlib import Path

from tests.domains.test_domain_commands import explain
from tests.helpers.domain_cli import domain

CUE = " If the agent says it is locked, accept that."
GOLD_ONLY = '''

from taumesh.domains import V1_REWARD


class GoldOnly(FactoryPlugin):
    """Graded by the gold's hash alone, as healthcare's first release was: other allowed outcomes score 0."""

    def reward_components(self, task):  # type: ignore[no-untyped-def]
        return V1_REWARD


plugin = GoldOnly(**{name: getattr(plugin, name) for name in plugin.__dataclass_fields__})
'''


def _plant(tmp_path: Path) -> dict[str, str]:
    """Plant one defect of each kind in the scaffold ``demo``'s test split; the task each is planted in, by kind.

    - ``trap_cue``: every trap's instruction tells the user the trap is there;
    - ``non_unique``: a trap may also be refused without verifying (the counter is seen locked first), and the
      grader takes the gold's hash alone;
    - ``output_spec``: a task requires the output ``9``, the amount the user's own instruction says.
    """
    package = tmp_path / "domains" / "demo"
    path = package / "data" / "tasks_test.json"
    tasks = json.loads(path.read_text(encoding="utf-8"))
    traps = [task for task in tasks if task["trap"]]
    for task in traps:
        task["instruction"] += CUE
    unverified = traps[0]
    find = unverified["steps"][0]["alternatives"][0][0]
    look = {"name": "get_counters", "kwargs": {"user_id": unverified["user_id"]}, "requestor": "assistant"}
    unverified["steps"][0]["alternatives"].append([find, look])
    said = next(task for task in tasks if not task["trap"])
    said["outputs"] = [str(said["steps"][-1]["alternatives"][0][0]["kwargs"]["amount"])]
    path.write_text(json.dumps(tasks, indent=1), encoding="utf-8")
    init = package / "__init__.py"
    init.write_text(init.read_text(encoding="utf-8") + GOLD_ONLY, encoding="utf-8")
    return {"trap_cue": traps[1]["id"], "non_unique": unverified["id"], "output_spec": said["id"]}


def test_the_audit_reports_the_planted_flags(tmp_path: Path) -> None:
    """That healthcare release 2 raises none, on every split: tests/domains/healthcare/test_v2.py, in process."""
    assert domain(tmp_path, "new", "demo").returncode == 0
    planted = _plant(tmp_path)
    report = tmp_path / "audit.json"
    audited = domain(tmp_path, "audit", "demo", "--task-split", "test", "--json", report)
    assert audited.returncode == 0, explain(audited)
    found = {
        t["task_id"]: {f["kind"] for f in t["flags"]} for t in json.loads(report.read_text(encoding="utf-8"))["tasks"]
    }
    for kind, task_id in planted.items():
        assert kind in found[task_id], (kind, task_id, found)
    assert {kind for kinds in found.values() for kind in kinds} >= {"non_unique", "trap_cue", "output_spec"}
    assert "trap_cue" in audited.stdout and "non_unique" in audited.stdout


def test_strict_passes_the_scaffold_as_generated_and_fails_a_planted_defect(tmp_path: Path) -> None:
    assert domain(tmp_path, "new", "demo").returncode == 0
    passed = domain(tmp_path, "check", "demo", "--strict")
    assert passed.returncode == 0, explain(passed)
    assert "strict check passed" in passed.stdout

    planted = _plant(tmp_path)
    failed = domain(tmp_path, "check", "demo", "--strict")
    assert failed.returncode == 1, explain(failed)
    for kind, task_id in planted.items():
        assert kind in failed.stdout and task_id in failed.stdout, explain(failed)
    assert "strict check failed" in failed.stdout

    unknown = domain(tmp_path, "check", "nosuchdomain", "--strict")
    assert unknown.returncode == 2 and "nosuchdomain" in unknown.stderr, explain(unknown)
