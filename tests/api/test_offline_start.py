"""``tau-bench-server`` started outside the bootstrap (no LITELLM_LOCAL_MODEL_COST_MAP) on an offline machine
(issue 40, item 7): it never tries litellm's remote price list, which held /health back ~7-12 s over three attempts."""

from __future__ import annotations

import os
import subprocess
import time
from pathlib import Path

import httpx

from tests.helpers.paths import PROJECT_ROOT
from tests.helpers.processes import free_port


def test_the_fork_server_answers_health_without_fetching_the_cost_map(tmp_path: Path) -> None:
    port = free_port()
    env = {k: v for k, v in os.environ.items() if k != "LITELLM_LOCAL_MODEL_COST_MAP"}
    env["TAUMESH_API_DATA_ROOT"] = str(tmp_path)
    log = tmp_path / "server.log"
    with log.open("w") as out:
        server = subprocess.Popen(
            [str(PROJECT_ROOT / ".venv" / "bin" / "tau-bench-server"), "--host", "127.0.0.1", "--port", str(port),
             "--log-dir", str(tmp_path)],
            env=env, stdout=out, stderr=subprocess.STDOUT,
        )  # fmt: skip
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                if httpx.get(f"http://127.0.0.1:{port}/health", timeout=2).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            assert time.monotonic() < deadline and server.poll() is None, log.read_text()
            time.sleep(0.2)
    finally:
        server.terminate()
        server.wait(timeout=30)
    text = log.read_text()
    assert "model cost map" not in text, text  # before: "Failed to fetch remote model cost map …", then retries
