"""``taumesh rescore --fresh-tasks``: results graded with older tasks, re-graded against the data now given.

The "newer release" is a copy of τ-bench's retail data with one task's gold action edited, as a release fixing a
task would; the results come from an oracle run on the original data.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from tests.helpers.cli import explain_result, invoke, load_json, oracle_invoke, results_path
from tests.helpers.paths import V1_DATA

EDITED = 1
"""The task whose gold exchange now pays with another method."""

pytestmark = [
    pytest.mark.skipif(not (V1_DATA / "retail").is_dir(), reason="τ-bench v1 data is not there"),
    pytest.mark.slow,  # an oracle run and two rescores of three tasks: ~5 s
]


def newer_release(root: Path) -> tuple[Path, dict[str, object], dict[str, object]]:
    """A copy of retail's data with task EDITED's exchange paid otherwise; the action before and after."""
    shutil.copytree(V1_DATA / "retail", root / "retail")
    path = root / "retail" / "tasks_test.json"
    tasks = json.loads(path.read_text(encoding="utf-8"))
    action = next(a for a in tasks[EDITED]["actions"] if a["name"] == "exchange_delivered_order_items")
    before = json.loads(json.dumps(action))
    action["kwargs"]["payment_method_id"] = "gift_card_0000000"
    path.write_text(json.dumps(tasks), encoding="utf-8")
    return root, before, action


def test_fresh_tasks_reports_the_changed_verdict_and_why(tmp_path: Path) -> None:
    oracle_invoke(tmp_path / "logs", "retail", "test", "--task-ids", "0", "--task-ids", str(EDITED), "--task-ids", "2")
    results = results_path(tmp_path / "logs")
    data, before, after = newer_release(tmp_path / "newer")
    out = tmp_path / "rows.json"
    common = ("rescore", results, "--task-split", "test", "--data-dir", data, "--out", out)

    fresh = invoke(*common, "--fresh-tasks")  # fails the test on an escaped exception (a traceback for a user)
    assert fresh.exit_code == 0, explain_result(fresh)
    assert "Traceback" not in fresh.output and "AioRpcError" not in fresh.output, explain_result(fresh)
    text = " ".join(fresh.stdout.split())
    assert "re-graded against the current tasks: 1 tasks changed, 1 verdicts changed" in text, explain_result(fresh)
    assert f"task {EDITED} trial 0: 1.0 -> 0.0 (gold action" in text, explain_result(fresh)
    assert '"payment_method_id": "gift_card_0000000"' in text and "exchange_delivered_order_items" in text
    rows = {row["task_id"]: row for row in load_json(out)}
    assert {task: row["reward"] for task, row in rows.items()} == {0: 1.0, EDITED: 0.0, 2: 1.0}
    (change,) = rows[EDITED]["task_changes"]
    assert change.startswith(f"gold action {1 + _index(before, EDITED)} changed: exchange_delivered_order_items(")
    assert json.dumps(after["kwargs"], sort_keys=True) in change
    assert rows[0]["task_changes"] == rows[2]["task_changes"] == []

    plain = invoke(*common)  # without the flag: the disagreement stands, with a warning naming the task
    assert plain.exit_code == 1, explain_result(plain)
    assert f"tasks differ from those the results were graded with ({EDITED})" in " ".join(plain.stdout.split())


def _index(action: dict[str, object], task: int) -> int:
    tasks = json.loads((V1_DATA / "retail" / "tasks_test.json").read_text(encoding="utf-8"))
    return [a["name"] for a in tasks[task]["actions"]].index(str(action["name"]))
