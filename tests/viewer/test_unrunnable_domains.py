"""The viewer shows runs of domains that cannot run where it serves them: it needs a domain's description, not a
runnable domain (``Catalog.describe``, not ``Catalog.get``).

``tau2-banking-knowledge`` (its plain name, alltools) needs an embedding model to run; its results are shown with
``TAUMESH_EMBEDDING_MODEL`` unset. ``gated_clinic`` (tests/viewer/plugin_path) is healthcare's tasks and labels
behind a gate: a real oracle run while the gate is open, then served with it shut, still shows each task's labels.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from taumesh.domains import DOMAIN_PATH_ENV, Registry
from taumesh.llm.knowledge_models import EMBEDDING_MODEL_ENV
from tests.helpers.cli import ORACLE, explain_result, invoke
from tests.helpers.viewer_thread import ThreadViewer

PLUGIN_PATH = Path(__file__).resolve().parent / "plugin_path"
GATE = "TAUMESH_TEST_CLINIC_GATE"
BANKING = "tau2-banking-knowledge"


def banking_entry(task_id: str, reward: float) -> dict[str, Any]:
    """One episode of a tool-calling run of banking's plain name, as ``taumesh run`` records it."""
    run = {"env": BANKING, "task_split": "base", "agent": {"strategy": "tool-calling", "model": "gpt-4o"}}
    traj = [
        {"role": "system", "content": "You are a banking agent."},
        {"role": "user", "content": "I want to close my account."},
        {"role": "assistant", "content": "Done."},
    ]
    info = {"run": {**run, "user": {"strategy": "llm", "model": "gpt-4o"}}, "reward_info": {"reward": reward}}
    return {"task_id": task_id, "reward": reward, "info": info, "traj": traj, "trial": 0}


def test_a_banking_run_is_shown_without_an_embedding_model(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(EMBEDDING_MODEL_ENV, raising=False)
    assert Registry.discover().get(BANKING).run_problem() is not None, "the plain name cannot run here"
    results = tmp_path / "tool-calling-gpt-4o-0.0_range_0--1_user-gpt-4o-llm_20261127000000.json"
    results.write_text(json.dumps([banking_entry("task_001", 1.0), banking_entry("task_002", 0.0)]), encoding="utf-8")
    viewer = ThreadViewer([tmp_path])
    try:
        [run] = viewer.get("/api/runs")
        assert (run["domain"], run["episodes"], run["successes"]) == (BANKING, 2, 1)
        page = viewer.get(f"/api/runs/{run['run_id']}/tasks")
        assert [row["task_id"] for row in page["rows"]] == ["task_001", "task_002"]
        episode = viewer.get(f"/api/runs/{run['run_id']}/episodes/task_002/0")["episode"]
        assert episode["reward"] == 0.0 and episode["messages"][-1]["content"] == "Done."
    finally:
        viewer.close()


def test_a_labelled_domain_that_cannot_run_here_keeps_its_labels(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(DOMAIN_PATH_ENV, str(PLUGIN_PATH))
    monkeypatch.setenv(GATE, "open")
    args: list[str | Path] = ["--env", "gated_clinic", "--task-split", "test", "--task-ids", "0", "1", "2"]
    args += ["--log-dir", tmp_path]
    result = invoke("run", *ORACLE, *args)
    assert result.exit_code == 0, explain_result(result)
    monkeypatch.delenv(GATE)
    refused = invoke("run", *ORACLE, *args)
    assert refused.exit_code == 2 and f"runs only with {GATE} set" in refused.output, explain_result(refused)
    viewer = ThreadViewer([tmp_path])
    try:
        [run] = viewer.get("/api/runs")
        page = viewer.get(f"/api/runs/{run['run_id']}/tasks")
        assert page["total"] == 3 and set(page["labels"]) >= {"intent", "tier"}, page["labels"]
        assert all(row["labels"]["intent"] and row["labels"]["tier"] for row in page["rows"]), page["rows"]
    finally:
        viewer.close()
