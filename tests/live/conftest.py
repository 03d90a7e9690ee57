"""The live tier's real model: llama.cpp's server on 127.0.0.1 (``taumesh.testing.llama``), warmed per domain.

Opt in with ``bash scripts/test-live.sh``, which installs the weights and names them and the server binary in
``TAUMESH_LIVE_MODEL`` and ``TAUMESH_LIVE_SERVER``; without them every test here skips saying so. One server for
the whole session.
"""

from __future__ import annotations

import json
import os
import time
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from taumesh.domains import Catalog
from taumesh.testing.llama import llama_server

MODEL_NAME = "openai/qwen2.5-coder-1.5b-instruct"
"""The name taumesh sends (litellm's OpenAI route to ``--api-base``); the server serves whatever it loaded."""
MODEL_TIMEOUT = 900
"""Seconds one model call may take: a cold 6k-token prompt takes 3.5–5 minutes on 2 shared cores."""
OPT_IN = "opt in: the live tier (a real model) runs by `bash scripts/test-live.sh`"


@dataclass
class LiveServer:
    """The running llama.cpp server and what the tier has asked of it."""

    url: str
    """OpenAI-compatible base URL (``--api-base``)."""
    log: Path
    warmed: set[str] = field(default_factory=set)
    timings: dict[str, float] = field(default_factory=dict)
    """Seconds each warm-up and run took, printed at the end."""

    def chat(self, body: dict[str, Any], timeout: float = MODEL_TIMEOUT) -> dict[str, Any]:
        request = urllib.request.Request(
            f"{self.url}/chat/completions", json.dumps(body).encode(), {"content-type": "application/json"}
        )
        with urllib.request.urlopen(request, timeout=timeout) as response:
            answer: dict[str, Any] = json.loads(response.read())
        return answer

    def warm(self, catalog: Catalog, domain: str) -> None:
        """Cache ``domain``'s policy-and-tools prefix (what every tool-calling agent request starts with)."""
        if domain in self.warmed:
            return
        plugin = catalog.get(domain)
        started = time.monotonic()
        self.chat(
            {
                "model": MODEL_NAME,
                "messages": [{"role": "system", "content": plugin.policy}, {"role": "user", "content": "Hi."}],
                "tools": plugin.tool_schemas,
                "max_tokens": 1,
                "temperature": 0,
            }
        )
        self.timings[f"warm {domain}"] = time.monotonic() - started
        self.warmed.add(domain)


def _required(name: str) -> Path:
    value = os.environ.get(name, "")
    if not value:
        pytest.skip(OPT_IN)
    path = Path(value)
    if not path.is_file():
        pytest.fail(f"{name}={value} names no file (scripts/test-live.sh sets it)")
    return path


@pytest.fixture(scope="session")
def live_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    model = _required("TAUMESH_LIVE_MODEL")
    binary = _required("TAUMESH_LIVE_SERVER")
    log = tmp_path_factory.mktemp("llama-server") / "server.log"
    threads = int(os.environ.get("TAUMESH_LIVE_THREADS", "2"))
    with llama_server(binary, model, log, threads=threads) as url:
        server = LiveServer(url=url, log=log)
        yield server
        print("\nlive tier timings (s): " + json.dumps({k: round(v, 1) for k, v in server.timings.items()}))
