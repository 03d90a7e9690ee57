"""Each completed run links to its page in ``taumesh view`` (TAUMESH_API_VIEWER_URL), and that page is the run.

A real uvicorn (in a thread) plays oracle/scripted runs on τ-bench v1 retail and writes their results files; the
viewer's app, its library built as ``taumesh view`` builds it, serves over real HTTP the results folder (or a folder
holding it), and the page each link names.
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from pydantic import ValidationError

from taumesh.api.settings import ApiSettings
from taumesh.api.viewer_link import viewer_url, write_results
from taumesh.orchestrator.results.records import RunResult
from tests.helpers.api import ApiServer
from tests.helpers.api_thread import start_thread_server
from tests.helpers.viewer_thread import ThreadViewer

VIEWER_BASE = "http://viewer.test:8765/"
ORACLE = {"env": "retail", "agent_strategy": "oracle", "user_strategy": "scripted", "task_ids": [3, 5]}
LINK = re.compile(re.escape(VIEWER_BASE.rstrip("/")) + r"/#/run/([0-9a-f]{12})")


@pytest.fixture(scope="module")
def results_root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("results")


@pytest.fixture(scope="module")
def api(results_root: Path, v1_data_dir: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[ApiServer]:
    root = tmp_path_factory.mktemp("api")
    server = start_thread_server(
        f"sqlite:///{root / 'api.db'}",
        root,
        v1_data_dir,
        TAUMESH_API_RESULTS_DIR=str(results_root / "api"),
        TAUMESH_API_VIEWER_URL=VIEWER_BASE,
    )
    try:
        yield server
    finally:
        server.stop()


def linked_run_id(link: str | None) -> str:
    assert link is not None
    match = LINK.fullmatch(link)
    assert match, link
    return match.group(1)


@pytest.mark.slow
def test_synchronous_run_links_to_the_viewer_page_showing_it(api: ApiServer, results_root: Path) -> None:
    answer = httpx.post(f"{api.base_url}/api/v1/validate-tasks", json=ORACLE, headers=api.headers, timeout=300)
    assert answer.status_code == 200, answer.text
    body: dict[str, Any] = answer.json()
    assert body["status"] == "completed"
    page_id = linked_run_id(body["viewer_url"])
    assert (results_root / "api" / f"{body['run_id']}.json").is_file()

    run = httpx.get(f"{api.base_url}/api/v1/runs/{body['run_id']}", headers=api.headers).json()
    assert run["viewer_url"] == body["viewer_url"]
    listed = httpx.get(f"{api.base_url}/api/v1/runs", headers=api.headers).json()["runs"]
    assert {r["id"]: r["viewer_url"] for r in listed}[body["run_id"]] == body["viewer_url"]

    # the viewer over the folder the API writes to, and over a folder holding it: the same page
    for folder in (results_root / "api", results_root):
        viewer = ThreadViewer([folder])
        try:
            shown = httpx.get(f"{viewer.url}/api/runs/{page_id}", timeout=10)
        finally:
            viewer.close()
        assert shown.status_code == 200, shown.text
        summary = shown.json()["summary"]
        assert summary["domain"] == "retail" and summary["strategy"] == "oracle"
        assert summary["episodes"] == len(body["results"]) == 2
        assert summary["successes"] == body["metrics"]["successful_tasks"]
        assert {str(k): v for k, v in summary["pass_hat_k"].items()} == body["metrics"]["pass_hat_k"]


@pytest.mark.slow
def test_asynchronous_run_links_once_completed(api: ApiServer) -> None:
    accepted = httpx.post(
        f"{api.base_url}/api/v1/validate-tasks", json={**ORACLE, "task_ids": [4], "wait": False}, headers=api.headers
    )
    assert accepted.status_code == 202, accepted.text
    run_url = f"{api.base_url}{accepted.json()['links']['self']}"
    deadline = time.monotonic() + 120
    while True:
        run = httpx.get(run_url, headers=api.headers).json()
        if run["status"] == "completed":
            break
        assert run["viewer_url"] is None  # no page before the results file exists
        assert time.monotonic() < deadline, run
        time.sleep(0.3)
    linked_run_id(run["viewer_url"])


def test_no_viewer_configured_means_no_link(tmp_path: Path) -> None:
    settings = ApiSettings(results_dir=tmp_path, data_root=tmp_path)
    write_results(settings, "abc", [RunResult(task_id=1, reward=1.0, info={}, traj=[], trial=0)])
    assert (tmp_path / "abc.json").is_file()
    assert viewer_url(settings, "abc") is None
    with_viewer = settings.model_copy(update={"viewer_url": VIEWER_BASE})
    assert viewer_url(with_viewer, "missing") is None  # a run without a results file has no page
    linked_run_id(viewer_url(with_viewer, "abc"))


def test_viewer_url_needs_the_results_dir(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TAUMESH_API_VIEWER_URL", VIEWER_BASE)
    monkeypatch.delenv("TAUMESH_API_RESULTS_DIR", raising=False)
    with pytest.raises(ValidationError, match="TAUMESH_API_RESULTS_DIR"):
        ApiSettings()
