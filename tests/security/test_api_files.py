"""The REST API's SQLite database and audit log are its owner's alone, whatever the umask: a real ``uvicorn`` process
over the real store, and files an older taumesh left readable."""

from __future__ import annotations

import logging
import os
import stat
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from taumesh.api.audit import AuditLog
from taumesh.api.database import make_engine, migrate
from tests.helpers.api import start_server


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


@pytest.fixture
def open_umask() -> Iterator[None]:
    """The usual umask (022), which made the files 0644 before: the test does not depend on the runner's."""
    previous = os.umask(0o022)
    try:
        yield
    finally:
        os.umask(previous)


@pytest.mark.usefixtures("open_umask")
def test_a_new_database_and_audit_log_are_0600_in_folders_of_0700(tmp_path: Path, v1_data_dir: Path) -> None:
    root = tmp_path / "api" / "root"  # neither folder exists yet
    database = root / "taumesh-api.db"
    server = start_server(f"sqlite:///{database}", root, v1_data_dir)
    try:
        response = httpx.get(f"{server.base_url}/api/v1/runs", headers=server.headers, timeout=30)
        assert response.status_code == 200, response.text
    finally:
        server.stop()
    assert server.audit_path.read_text().strip(), "the request was audited"
    files = [database, server.audit_path, *root.glob("taumesh-api.db-*")]
    assert {path.name for path in files} >= {"taumesh-api.db", "audit.jsonl"}
    for path in files:
        assert mode(path) == 0o600, f"{path.name}: {mode(path):o}"
    for folder in (root, server.audit_path.parent, tmp_path / "api"):
        assert mode(folder) == 0o700, f"{folder}: {mode(folder):o}"


@pytest.mark.usefixtures("open_umask")
def test_files_left_readable_are_tightened_with_a_warning(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    database, audit = tmp_path / "taumesh-api.db", tmp_path / "logs" / "audit.jsonl"
    migrate(make_engine(f"sqlite:///{database}"))
    audit.parent.mkdir()
    audit.write_text('{"earlier": true}\n')
    for path in (database, audit):
        path.chmod(0o644)
    with caplog.at_level(logging.WARNING, logger="taumesh.api.private_files"):
        make_engine(f"sqlite:///{database}").dispose()
        AuditLog(audit).write({"later": True})
    assert mode(database) == 0o600 and mode(audit) == 0o600
    assert audit.read_text().splitlines() == ['{"earlier": true}', '{"later":true}'], "nothing lost"
    warned = caplog.text
    assert f"{database} was open to other users (mode 644): tightened to 600" in warned
    assert f"{audit} was open to other users (mode 644)" in warned


@pytest.mark.usefixtures("open_umask")
def test_a_rotated_audit_log_is_created_0600_again(tmp_path: Path) -> None:
    log = AuditLog(tmp_path / "audit.jsonl")
    log.path.unlink()  # logrotate moved it away
    log.write({"after": "rotation"})
    assert mode(log.path) == 0o600


@pytest.mark.usefixtures("open_umask")
def test_a_folder_every_user_may_write_is_warned_about(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    shared = tmp_path / "shared"
    shared.mkdir()
    shared.chmod(0o777)
    with caplog.at_level(logging.WARNING, logger="taumesh.api.private_files"):
        AuditLog(shared / "audit.jsonl")
    assert f"{shared} is writable by every user (mode 777)" in caplog.text
    assert mode(shared) == 0o777, "a folder that exists is the operator's to change"
