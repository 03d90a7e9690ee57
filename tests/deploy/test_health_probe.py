"""``python -m taumesh.commands.health`` (the image's HEALTHCHECK, compose's health checks) against real servers."""

from __future__ import annotations

import asyncio
import os
import sys
from collections.abc import AsyncIterator

import pytest

from taumesh.commands.health import SERVICE_NAMES, full_service_name
from taumesh.rpc.server import RunningServer, start_server
from taumesh.services.user_sim import user_sim_service
from taumesh.settings import ServiceName


async def probe(*args: str, port: str | None = None) -> tuple[int, str]:
    """Run the probe as a container would; its exit status and what it printed."""
    env = {"TAUMESH_PORT": port} if port else {}
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "taumesh.commands.health",
        *args,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.STDOUT,
        env={**_base_env(), **env},
    )
    output, _ = await process.communicate()
    assert process.returncode is not None
    return process.returncode, output.decode()


def _base_env() -> dict[str, str]:
    return {k: v for k, v in os.environ.items() if not k.startswith("TAUMESH_")}


@pytest.fixture
async def user_sim() -> AsyncIterator[RunningServer]:
    running = await start_server([user_sim_service()])
    try:
        yield running
    finally:
        await running.stop(grace=0.5)


def test_short_names_are_the_served_services() -> None:
    assert set(SERVICE_NAMES) == {name.value for name in ServiceName}
    assert full_service_name("user-sim") == "taumesh.user_sim.v1.UserSimService"
    assert full_service_name("") == ""


async def test_serving_server_exits_zero(user_sim: RunningServer) -> None:
    status, output = await probe(user_sim.address, "--service", "user-sim")
    assert status == 0, output
    assert "taumesh.user_sim.v1.UserSimService" in output and "SERVING" in output


async def test_default_address_is_loopback_at_taumesh_port(user_sim: RunningServer) -> None:
    status, output = await probe(port=str(user_sim.port))
    assert status == 0, output
    assert f"127.0.0.1:{user_sim.port}" in output


async def test_service_the_server_does_not_run_fails(user_sim: RunningServer) -> None:
    status, output = await probe(user_sim.address, "--service", "env")
    assert status == 1
    assert "NOT_FOUND" in output


async def test_draining_server_fails() -> None:
    running = await start_server([user_sim_service()])
    await running.health.enter_graceful_shutdown()  # what SIGTERM does first
    try:
        status, output = await probe(running.address, "--service", "user-sim")
    finally:
        await running.stop(grace=0.5)
    assert status == 1
    assert "NOT_SERVING" in output


async def test_unreachable_server_fails_within_the_timeout() -> None:
    status, output = await probe("127.0.0.1:1", "--timeout", "1")
    assert status == 1
    assert "UNAVAILABLE" in output or "DEADLINE_EXCEEDED" in output
