"""``taumesh view`` given a path that is not there (issue 40, item 7): a mistyped folder is an error naming it and
the close names, before anything serves; a missing folder beside ones that exist is followed, as deployments need."""

from __future__ import annotations

import os
import socket
import subprocess
import time
from pathlib import Path

import httpx
import pytest

from tests.helpers.cli import invoke
from tests.helpers.paths import PROJECT_ROOT


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def test_a_mistyped_folder_is_refused_naming_the_close_one(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "results").mkdir()
    result = invoke("view", "reuslts", "--port", str(free_port()))
    said = " ".join(result.output.split())
    assert result.exit_code == 2, said  # before: served an empty viewer until Ctrl-C
    assert "error: reuslts: no such file or folder (did you mean results?)" in said, said
    assert "taumesh view:" not in said  # nothing served


def test_a_missing_file_among_others_is_refused_only_when_none_is_there(tmp_path: Path) -> None:
    result = invoke("view", tmp_path / "a.json", tmp_path / "b.json", "--port", str(free_port()))
    said = " ".join(result.output.split())
    assert result.exit_code == 2 and said.count("no such file or folder") == 2, said


def answered(url: str, seconds: float = 30.0) -> int:
    """The status ``url`` answers once it listens: the viewer says its start line before uvicorn has bound."""
    deadline = time.monotonic() + seconds
    while True:
        try:
            return httpx.get(url, timeout=10).status_code
        except httpx.ConnectError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.1)


def test_a_missing_folder_beside_one_that_is_there_is_followed(tmp_path: Path) -> None:
    """As the Kubernetes viewer starts: /results there, the API's results folder not yet written."""
    (tmp_path / "results").mkdir()
    port = free_port()
    viewer = subprocess.Popen(
        [str(PROJECT_ROOT / ".venv" / "bin" / "taumesh"), "view", "results", "api-results", "--port", str(port)],
        cwd=tmp_path,
        env={**os.environ, "COLUMNS": "200"},
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        assert viewer.stdout is not None
        lines = []
        while not any(line.startswith("taumesh view:") for line in lines):
            line = viewer.stdout.readline()
            assert line, "".join(lines)
            lines.append(line)
        said = " ".join("".join(lines).split())
        assert "api-results: no such file or folder" in said and "followed, its runs show once written" in said, said
        assert answered(f"http://127.0.0.1:{port}/healthz") == 200
    finally:
        viewer.terminate()
        viewer.wait(timeout=30)
