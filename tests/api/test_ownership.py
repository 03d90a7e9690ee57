"""Alice and Bob: a run belongs to the key that created it; admin keys see every run (SQLite and PostgreSQL).

A real uvicorn (in a thread of the test process: these tests are about what the API answers), raw HTTP. Bob gets
404 on each of Alice's run routes (as for a run that does not exist) and never sees her runs in lists or in
``/scores``; an admin key sees both. A database made by the previous migration head, with a run in it, migrates: the
old run belongs to no one and only admin keys see it.
"""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from alembic import command
from alembic.config import Config
from sqlalchemy import text

from taumesh.api.database import MIGRATIONS, make_engine
from taumesh.api.store import token_digest
from tests.helpers.api import ApiServer, Postgres, create_database
from tests.helpers.api_thread import ThreadApi, start_thread_server

ORACLE = {"env": "retail", "agent_strategy": "oracle", "user_strategy": "scripted"}
SCORES_TIMEOUT = 120
"""/scores reads the model's provider from litellm's list: its first call imports litellm (seconds when loaded)."""


def keyed(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


@pytest.fixture(scope="module")
def api(thread_api: ThreadApi) -> ApiServer:
    return thread_api


@pytest.fixture(scope="module")
def people(api: ApiServer) -> dict[str, str]:
    """Tokens: alice (the server's own key), bob, and an admin key."""
    store = api.store()
    return {"alice": api.token, "bob": store.create_key("bob")[1], "admin": store.create_key("ops", admin=True)[1]}


@pytest.fixture(scope="module")
def alice_run(api: ApiServer, people: dict[str, str]) -> str:
    response = httpx.post(
        f"{api.base_url}/api/v1/validate-tasks",
        json={**ORACLE, "task_ids": [0, 1]},
        headers=keyed(people["alice"]),
        timeout=120,
    )
    assert response.status_code == 200 and response.json()["status"] == "completed", response.text
    run_id: str = response.json()["run_id"]
    return run_id


def run_routes(run_id: str) -> list[tuple[str, str]]:
    base = f"/api/v1/runs/{run_id}"
    return [
        ("GET", base),
        ("GET", f"{base}/results"),
        ("GET", f"{base}/trajectories"),
        ("GET", f"{base}/events"),
        ("POST", f"{base}/cancel"),
    ]


def listed(api: ApiServer, token: str) -> list[str]:
    body = httpx.get(f"{api.base_url}/api/v1/runs", params={"limit": 200}, headers=keyed(token)).json()
    assert body["total"] == len(body["runs"]), body
    return [run["id"] for run in body["runs"]]


def test_bob_gets_404_on_each_of_alices_run_routes(api: ApiServer, people: dict[str, str], alice_run: str) -> None:
    for method, path in run_routes(alice_run):
        response = httpx.request(method, f"{api.base_url}{path}", headers=keyed(people["bob"]))
        assert response.status_code == 404, (method, path, response.text)
        body = response.json()
        assert body["error_type"] == "not_found" and body["details"] == {"resource": "run", "id": alice_run}
    # the same answer as for a run that does not exist: nothing tells Bob the id is taken
    nowhere = httpx.get(f"{api.base_url}/api/v1/runs/{uuid.uuid4().hex}", headers=keyed(people["bob"])).json()
    assert nowhere["message"].replace(nowhere["details"]["id"], alice_run) == f"no run {alice_run!r}"
    # and Bob's cancel did not cancel it
    run = httpx.get(f"{api.base_url}/api/v1/runs/{alice_run}", headers=keyed(people["alice"])).json()
    assert run["status"] == "completed"


def test_bob_does_not_see_alices_runs_in_lists_or_scores(
    api: ApiServer, people: dict[str, str], alice_run: str
) -> None:
    assert alice_run in listed(api, people["alice"])
    assert alice_run not in listed(api, people["bob"])
    scores = {"model": "oracle", "subset": "retail", "fresh": "false"}
    alices = httpx.get(f"{api.base_url}/scores", params=scores, headers=keyed(people["alice"]), timeout=SCORES_TIMEOUT)
    assert alices.status_code == 200
    refused = httpx.get(f"{api.base_url}/scores", params=scores, headers=keyed(people["bob"]), timeout=SCORES_TIMEOUT)
    assert refused.status_code == 404 and refused.json()["error_type"] == "not_found"


def test_bob_cannot_cancel_alices_running_run(api: ApiServer, people: dict[str, str]) -> None:
    url = f"{api.base_url}/api/v1"
    accepted = httpx.post(f"{url}/validate-tasks", json={**ORACLE, "wait": False}, headers=keyed(people["alice"]))
    run_id = accepted.json()["run_id"]
    try:
        assert httpx.post(f"{url}/runs/{run_id}/cancel", headers=keyed(people["bob"])).status_code == 404
        assert httpx.get(f"{url}/runs/{run_id}", headers=keyed(people["alice"])).json()["status"] != "cancelled"
    finally:
        cancelled = httpx.post(f"{url}/runs/{run_id}/cancel", headers=keyed(people["alice"]))
    assert cancelled.status_code == 200 and cancelled.json()["status"] == "cancelled"


def test_an_admin_key_sees_both(api: ApiServer, people: dict[str, str], alice_run: str) -> None:
    bobs = httpx.post(
        f"{api.base_url}/api/v1/validate-tasks",
        json={**ORACLE, "task_ids": [2]},
        headers=keyed(people["bob"]),
        timeout=120,
    ).json()["run_id"]
    assert bobs in listed(api, people["bob"]) and bobs not in listed(api, people["alice"])
    assert {alice_run, bobs} <= set(listed(api, people["admin"]))
    for run_id in (alice_run, bobs):
        for method, path in run_routes(run_id):
            response = httpx.request(method, f"{api.base_url}{path}", headers=keyed(people["admin"]), timeout=30)
            assert response.status_code == 200, (method, path, response.text)
    scores = {"model": "oracle", "subset": "retail", "fresh": "false"}
    admins = httpx.get(f"{api.base_url}/scores", params=scores, headers=keyed(people["admin"]), timeout=SCORES_TIMEOUT)
    assert admins.status_code == 200


# an old database


def database_at_0001(url: str) -> None:
    """The schema of the previous migration head, as a server of that version left it."""
    engine = make_engine(url)
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        command.upgrade(config, "0001")
    engine.dispose()


def old_rows(url: str, token: str, run_id: str) -> None:
    """A key and a completed run with one result, written with the 0001 schema's columns only."""
    key_id = token.split(".")[0]
    engine = make_engine(url)
    with engine.begin() as connection:
        connection.execute(
            text("INSERT INTO api_keys (id, name, token_sha256, created_at) VALUES (:id, 'old', :sha, :now)"),
            {"id": key_id, "sha": token_digest(token), "now": "2026-01-01 00:00:00"},
        )
        connection.execute(
            text(
                "INSERT INTO runs (id, status, env, model, config, request, key_id, total_episodes, created_at, "
                "started_at, finished_at) VALUES (:id, 'completed', 'retail', 'oracle', '{}', :request, :key, 1, "
                ":now, :now, :now)"
            ),
            {"id": run_id, "request": '{"env": "retail"}', "key": key_id, "now": "2026-01-01 00:00:00"},
        )
        connection.execute(
            text(
                "INSERT INTO results (run_id, task_id, trial, reward, cost_usd, info, traj, created_at) "
                "VALUES (:id, '0', 0, 1.0, 0.0, '{}', '[]', :now)"
            ),
            {"id": run_id, "now": "2026-01-01 00:00:00"},
        )
    engine.dispose()


@pytest.fixture(params=["sqlite", "postgresql"])
def old_database(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'old.db'}"
        return
    postgres: Postgres = request.getfixturevalue("postgres")
    yield create_database(postgres, f"old_{os.getpid()}_{uuid.uuid4().hex[:8]}")


def test_an_old_database_migrates_and_its_runs_are_visible_to_admins_only(
    old_database: str, v1_data_dir: Path, tmp_path: Path
) -> None:
    database_at_0001(old_database)
    old_token, run_id = "tmk_0123456789ab.old-secret-of-the-old-key", uuid.uuid4().hex
    old_rows(old_database, old_token, run_id)
    (tmp_path / "api").mkdir()
    server = start_thread_server(old_database, tmp_path / "api", v1_data_dir)  # migrates to head as it starts
    try:
        admin = server.store().create_key("ops", admin=True)[1]
        url = f"{server.base_url}/api/v1/runs/{run_id}"
        # the key that sent it, and any other, no longer see it: old runs belong to no one
        for token in (old_token, server.token):
            assert httpx.get(url, headers=keyed(token)).status_code == 404
            assert run_id not in listed(server, token)
        seen = httpx.get(url, headers=keyed(admin))
        assert seen.status_code == 200 and seen.json()["status"] == "completed" and seen.json()["done_episodes"] == 1
        assert run_id in listed(server, admin)
        assert [r["task_id"] for r in httpx.get(f"{url}/results", headers=keyed(admin)).json()] == [0]
        # new runs of the old key are its own
        response = httpx.post(
            f"{server.base_url}/api/v1/validate-tasks",
            json={**ORACLE, "task_ids": [3]},
            headers=keyed(old_token),
            timeout=120,
        )
        assert response.status_code == 200, response.text
        assert listed(server, old_token) == [response.json()["run_id"]]
    finally:
        server.stop()
