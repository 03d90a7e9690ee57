"""Purple A2A agents started as processes: where they are, waiting for their card."""

from __future__ import annotations

import subprocess
import time
from collections.abc import Callable
from pathlib import Path

import httpx
import pytest

AGENT = Path(__file__).resolve().parents[1] / "external_agent" / "a2a_gold_agent.py"


def wait_for_card(url: str, proc: subprocess.Popen[bytes], log: Path) -> None:
    """Return once ``url`` serves its agent card; fail with the agent's log if it exits first."""
    deadline = time.monotonic() + 60
    with httpx.Client(timeout=1) as http:  # one client: each new one builds an SSL context (~30 ms of CPU)
        while time.monotonic() < deadline:
            if proc.poll() is not None:
                pytest.fail(f"A2A agent exited: {log.read_text()}")
            try:
                if http.get(f"{url}/.well-known/agent-card.json").status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            time.sleep(0.05)
    pytest.fail(f"A2A agent at {url} never served its card: {log.read_text()}")


StartAgent = Callable[..., str]
