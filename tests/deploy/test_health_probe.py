"""``python -m taumesh.commands.health`` (the image's HEALTHCHECK, compose's health checks) against real servers."""

from __future__ import annotations

import asyncio
import os
import socket
import sys
import threading
from collections.abc import AsyncIterator, Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

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


@pytest.fixture
def http_server() -> Iterator[str]:
    """A real HTTP server on loopback: /ok answers 200, /down 503, /moved a 302 to /ok."""

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            status = {"/ok": 200, "/down": 503, "/moved": 302}.get(self.path, 404)
            self.send_response(status)
            if status == 302:
                self.send_header("Location", "/ok")
            self.end_headers()

        def log_message(self, *args: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


async def test_http_probe_is_healthy_only_on_a_2xx(http_server: str) -> None:
    status, output = await probe("--http", f"{http_server}/ok")
    assert status == 0 and "HTTP 200" in output, output
    for path in ("/down", "/moved", "/missing"):  # a redirect is not followed: the probe asks one URL
        status, output = await probe("--http", http_server + path)
        assert status == 1, (path, output)


async def test_http_probe_of_nothing_listening_fails_and_of_a_bad_url_is_a_usage_error(http_server: str) -> None:
    with socket.socket() as free:
        free.bind(("127.0.0.1", 0))
        port = free.getsockname()[1]
    status, output = await probe("--http", f"http://127.0.0.1:{port}/health", "--timeout", "2")
    assert status == 1, output
    status, output = await probe("--http", "file:///etc/passwd")
    assert status == 2 and "http://" in output, output
