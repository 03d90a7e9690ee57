"""A broken event stream resumes with Last-Event-ID: the server is killed mid-run and restarted.

The server's run lease is 1.5 s and the client reconnects after 0.2 s: what the test waits out after the crash is
the restart, not the production defaults.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from taumesh.client import EpisodeDone, RunEnded, TaumeshClient, _core
from tests.helpers.api import ApiServer
from tests.helpers.client import sqlite_server


@pytest.fixture
def restartable(v1_data_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[ApiServer]:
    monkeypatch.setattr(_core, "STREAM_RECONNECT_WAIT", 0.2)
    server = sqlite_server(tmp_path, v1_data_dir, TAUMESH_API_LEASE_SECONDS="1.5")
    try:
        yield server
    finally:
        server.stop()


@pytest.mark.kill
def test_stream_survives_a_server_crash(restartable: ApiServer) -> None:
    with TaumeshClient(restartable.base_url, restartable.token, max_retries=5) as client:
        run_id = client.runs.create(
            env="retail", agent_strategy="oracle", user_strategy="scripted", start_index=40, end_index=60
        ).run_id
        events = []
        for event in client.stream_events(run_id):
            events.append(event)
            if len(events) == 3:
                restartable.stop(kill=True)  # a crash: the connection drops, the run's lease stays until it expires
                restartable.start()
        run = client.runs.get(run_id)

    ids = [e.id for e in events]
    assert ids == sorted(set(ids)), "an event was repeated or came out of order"
    episodes = [(e.task_id, e.trial) for e in events if isinstance(e, EpisodeDone)]
    assert len(episodes) == len(set(episodes)) == 20
    assert isinstance(events[-1], RunEnded) and events[-1].event == "run_completed"
    assert run.status == "completed" and run.done_episodes == 20
    # the first stream died with the server before its audit line; the one written is the reconnection's
    streams = [line for line in restartable.audit_path.read_text().splitlines() if "/events" in line]
    assert len(streams) == 1 and '"status":200' in streams[0].replace(" ", "")
