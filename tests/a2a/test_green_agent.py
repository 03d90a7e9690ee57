"""``taumesh serve a2a``: the SDK's A2A client asks taumesh to evaluate the gold purple agent on 5 tasks."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import httpx
import pytest
from a2a.client import ClientConfig, ClientFactory
from a2a.helpers import get_data_parts, get_text_parts, new_data_message
from a2a.types.a2a_pb2 import Role, SendMessageRequest, TaskState

from tests.helpers.a2a import StartAgent, wait_for_card
from tests.helpers.processes import free_port


def start_green(
    tmp_path: Path, data_dir: Path, allow: str, *more: str, env: dict[str, str] | None = None
) -> tuple[str, subprocess.Popen[bytes]]:
    """The green agent on a free port; another port when another process took the one chosen first (the agent
    card names its URL, so the agent cannot take port 0). ``more``: further flags; ``env``: variables it gets."""
    log = tmp_path / "green.log"
    env = {**{k: v for k, v in os.environ.items() if k != "TAUMESH_PROGRESS_INTERVAL"}, **(env or {})}
    for _ in range(3):
        port = free_port()
        argv = [sys.executable, "-m", "taumesh.cli", "serve", "a2a", "--port", str(port), "--data-dir", str(data_dir)]
        argv += ["--log-dir", str(tmp_path / "results"), "--allow-agent", allow, "--progress-interval", "0.1", *more]
        with log.open("wb") as out:
            proc = subprocess.Popen(argv, stdout=out, stderr=subprocess.STDOUT, env=env)
        url = f"http://127.0.0.1:{port}"
        try:
            wait_for_card(url, proc, log)
            return url, proc
        except pytest.fail.Exception:
            proc.kill()
            proc.wait()
            if "address already in use" not in log.read_text(errors="replace"):
                raise
    pytest.fail(f"the green agent found no free port: {log.read_text()}")


async def ask(
    green: str, request: dict[str, object], token: str = ""
) -> tuple[list[str], list[object], list[object], int]:
    """Send an assessment request (as the caller of ``token``); the progress texts, artifact data parts, artifact
    parts and the final state."""
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    async with httpx.AsyncClient(timeout=120, headers=headers) as http:
        client = await ClientFactory(ClientConfig(streaming=True, httpx_client=http)).create_from_url(green)
        message = new_data_message(request, role=Role.ROLE_USER)
        progress: list[str] = []
        data: list[object] = []
        parts: list[object] = []
        state = TaskState.TASK_STATE_UNSPECIFIED
        async for event in client.send_message(SendMessageRequest(message=message)):
            if event.HasField("status_update"):
                state = event.status_update.status.state
                progress += get_text_parts(event.status_update.status.message.parts)
            elif event.HasField("artifact_update"):
                parts += list(event.artifact_update.artifact.parts)
                data += get_data_parts(event.artifact_update.artifact.parts)
            elif event.HasField("task"):
                state = event.task.status.state
        return progress, data, parts, state


@pytest.mark.slow
async def test_green_agent_evaluates_a_purple_agent(start_agent: StartAgent, v1_data_dir: Path, tmp_path: Path) -> None:
    purple = start_agent("text")
    green, proc = start_green(tmp_path, v1_data_dir, purple)
    try:
        request = {
            "participants": {"agent": purple},
            "config": {"domain": "retail", "split": "test", "task_ids": [0, 1, 2, 3, 4], "user_strategy": "scripted"},
        }
        progress, data, parts, state = await ask(green, request)
        assert state == TaskState.TASK_STATE_COMPLETED, progress
        assert progress[0].startswith(f"evaluating {purple}")
        assert any(line.startswith("progress: retail test 5/5") for line in progress), progress
        [result] = data
        assert isinstance(result, dict)
        assert result["pass_hat_k"] == {"1": 1.0} and result["solved"] == 5 and result["errors"] == 0
        results_file = next(p for p in parts if p.HasField("raw"))  # type: ignore[attr-defined]
        assert results_file.filename == result["results_file"]
        assert (tmp_path / "results" / result["results_file"]).is_file()

        refused = {"participants": {"agent": "http://127.0.0.1:1"}, "config": {"task_ids": [0]}}
        progress, data, _, state = await ask(green, refused)
        assert state == TaskState.TASK_STATE_REJECTED and not data
        assert "not one this server's operator allowed" in progress[-1]

        malformed = {"participants": {"agent": purple}, "config": {"num_trials": 0}}
        progress, _, _, state = await ask(green, malformed)
        assert state == TaskState.TASK_STATE_REJECTED and "num_trials" in progress[-1]
    finally:
        proc.terminate()
        proc.wait(timeout=10)
