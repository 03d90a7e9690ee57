"""``taumesh view`` shows a healthcare run's task labels (intent, tier, trap) and filters its task grid by them."""

from __future__ import annotations

from pathlib import Path

from tests.helpers.cli import ORACLE, explain_result, invoke
from tests.helpers.healthcare import V1
from tests.helpers.viewer import ServedViewer


def test_the_task_grid_shows_and_filters_intent_and_tier(tmp_path: Path) -> None:
    result = invoke("run", "--env", V1, "--task-split", "test", *ORACLE, "--log-dir", tmp_path)
    assert result.exit_code == 0, explain_result(result)
    viewer = ServedViewer([tmp_path])
    try:
        run_id = viewer.get("/api/runs")[0]["run_id"]
        page = viewer.get(f"/api/runs/{run_id}/tasks")
        assert page["total"] == 45
        assert page["labels"]["tier"] == ["easy", "hard", "medium"]
        assert len(page["labels"]["intent"]) == 15
        row = next(r for r in page["rows"] if r["task_id"] == "refill-03")
        assert row["labels"]["intent"] == "refill" and row["labels"]["tier"] in page["labels"]["tier"]
        refills = viewer.get(f"/api/runs/{run_id}/tasks?label=intent%3Drefill")
        assert [r["task_id"] for r in refills["rows"]] == ["refill-03", "refill-06", "refill-09"]
        hard = viewer.get(f"/api/runs/{run_id}/tasks?label=tier%3Dhard")["rows"]
        assert hard and all(r["labels"]["tier"] == "hard" for r in hard)
        assert viewer.get(f"/api/runs/{run_id}/tasks?label=intent%3Dnone")["total"] == 0
    finally:
        viewer.close()
