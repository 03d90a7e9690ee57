"""The viewer follows its folder while it serves: runs written, changed or removed after it started show at once."""

from __future__ import annotations

import json
import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from taumesh.orchestrator.results.names import errors_path
from taumesh.viewer import RunLibrary
from taumesh.viewer.runs import Run, load_run, run_id
from tests.helpers.viewer import TASKS, TRIALS
from tests.helpers.viewer_thread import ThreadViewer


def write_atomically(path: Path, payload: Any) -> None:
    """As ``taumesh run`` rewrites its results file: a temporary file beside it, then a rename."""
    temporary = path.with_name(f".{path.name}.tmp")
    temporary.write_text(json.dumps(payload), encoding="utf-8")
    os.replace(temporary, path)


def copy_run(source: Path, folder: Path, name: str) -> Path:
    """``source`` (and its errors file, if any) copied into ``folder`` as ``name``."""
    target = folder / name
    shutil.copy(source, target)
    if errors_path(source).exists():
        shutil.copy(errors_path(source), errors_path(target))
    return target


def names(viewer: ThreadViewer) -> set[str]:
    return {run["name"] for run in viewer.get("/api/runs")}


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    path = tmp_path / "results"
    path.mkdir()
    return path


@pytest.fixture
def served(folder: Path) -> Iterator[ThreadViewer]:
    """The viewer's app over real HTTP, in a thread: what it follows is the point here, not its process."""
    viewer = ThreadViewer([folder])
    yield viewer
    viewer.close()


def test_health_answers_without_reading_files(served: ThreadViewer) -> None:
    assert served.get("/healthz") == {"status": "ok"}


def test_runs_written_after_start_are_listed(served: ThreadViewer, folder: Path, oracle_run: Path) -> None:
    assert served.get("/api/runs") == []  # started on an empty folder
    copy_run(oracle_run, folder, "first.json")
    assert names(served) == {"first.json"}
    second = copy_run(oracle_run, folder, "second.json")
    runs = {run["name"]: run for run in served.get("/api/runs")}
    assert set(runs) == {"first.json", "second.json"}
    assert runs["second.json"]["episodes"] == len(TASKS) * TRIALS
    assert runs["second.json"]["run_id"] == run_id(second)


def test_a_new_runs_page_answers_before_any_listing(served: ThreadViewer, folder: Path, failing_run: Path) -> None:
    """The API's ``viewer_url`` links straight to a run page: its id is found without listing first."""
    path = copy_run(failing_run, folder, "linked.json")
    detail = served.get(f"/api/runs/{run_id(path)}")
    assert detail["summary"]["name"] == "linked.json"
    assert detail["summary"]["errors"] == 1  # its errors file was read with it


def test_a_changed_file_is_read_again(served: ThreadViewer, folder: Path, oracle_run: Path) -> None:
    path = copy_run(oracle_run, folder, "run.json")
    (before,) = served.get("/api/runs")
    assert before["successes"] == len(TASKS) * TRIALS
    entries = json.loads(path.read_text(encoding="utf-8"))
    for entry in entries:
        if str(entry["task_id"]) == TASKS[0]:
            entry["reward"] = 0.0
    write_atomically(path, entries)
    (after,) = served.get("/api/runs")
    assert after["run_id"] == before["run_id"]
    assert after["successes"] == len(TASKS) * TRIALS - TRIALS
    rows = served.get(f"/api/runs/{after['run_id']}/tasks?filter=failed")["rows"]
    assert [row["task_id"] for row in rows] == [TASKS[0]]
    error = {"cause": "UNAVAILABLE"}
    errors: list[dict[str, Any]] = [{"task_id": 0, "reward": None, "info": {"error": error}, "traj": [], "trial": 9}]
    errors_path(path).write_text(json.dumps(errors), encoding="utf-8")  # the errors file alone changes
    assert served.get(f"/api/runs/{after['run_id']}")["summary"]["errors"] == 1


def test_a_deleted_file_is_dropped(served: ThreadViewer, folder: Path, oracle_run: Path) -> None:
    kept = copy_run(oracle_run, folder, "kept.json")
    gone = copy_run(oracle_run, folder, "gone.json")
    assert names(served) == {"kept.json", "gone.json"}
    gone.unlink()
    assert names(served) == {kept.name}
    assert httpx.get(f"{served.url}/api/runs/{run_id(gone)}", timeout=10).status_code == 404


def test_a_truncated_file_is_reported_and_the_others_still_served(
    served: ThreadViewer, folder: Path, oracle_run: Path
) -> None:
    copy_run(oracle_run, folder, "good.json")
    whole = oracle_run.read_bytes()
    partial = folder / "partial.json"
    partial.write_bytes(whole[: whole.rindex(b",", 0, len(whole) // 2)])  # a writer caught halfway (not atomic)
    assert names(served) == {"good.json"}
    (bad,) = served.get("/api/unreadable")
    assert (bad["name"], bad["path"], bad["run_id"]) == ("partial.json", str(partial), run_id(partial))
    assert bad["reason"].startswith("JSONDecodeError")
    assert httpx.get(f"{served.url}/api/runs/{run_id(partial)}", timeout=10).status_code == 404
    (folder / "not-results.json").write_text('{"some": "document"}', encoding="utf-8")
    assert {f["name"] for f in served.get("/api/unreadable")} == {"partial.json", "not-results.json"}
    partial.write_bytes(whole)  # the writer finished
    assert names(served) == {"good.json", "partial.json"}
    assert [f["name"] for f in served.get("/api/unreadable")] == ["not-results.json"]


def test_unchanged_files_are_not_parsed_again(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Hundreds of runs: a rescan only stats them; one changed file is the only one read again."""
    entry = {"task_id": 0, "reward": 1.0, "info": {}, "traj": [], "trial": 0}
    paths = [tmp_path / f"run-{n:03}.json" for n in range(300)]
    for path in paths:
        path.write_text(json.dumps([entry]), encoding="utf-8")
    library = RunLibrary([tmp_path])
    library.refresh()
    assert len(library.runs()) == len(paths)
    parsed: list[Path] = []

    def counting_load_run(path: Path) -> Run:
        parsed.append(path)
        return load_run(path)

    monkeypatch.setattr("taumesh.viewer.library.load_run", counting_load_run)
    before = library.runs()
    library.refresh()
    assert parsed == []
    assert all(a is b for a, b in zip(library.runs(), before, strict=True))  # each parsed run and its summary kept
    write_atomically(paths[7], [entry, {**entry, "trial": 1, "reward": 0.0}])
    library.refresh()
    assert parsed == [paths[7]]
    assert library.runs()[0].run.name == paths[7].name  # newest first
    assert library.runs()[0].summary.scored == 2
