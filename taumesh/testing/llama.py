"""llama.cpp's OpenAI-compatible server on 127.0.0.1, as the live tier and the parity bench run it.

One slot (``-np 1``), a host-RAM prompt cache (``--cache-ram``) so that the agent's and the user's prefixes survive
each other, at most ``max_tokens`` tokens written per request, and the chat template beside this module: Qwen2.5's
own template makes the model write tool calls as fenced JSON in its text, this one as ``tool_calls``
(docs/testing.md, the live tier).
"""

from __future__ import annotations

import socket
import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx

from taumesh.testing.processes import ProcessFailed

CHAT_TEMPLATE = Path(__file__).with_name("qwen2.5-tool-calls.jinja")
MAX_TOKENS = 256
"""The cap on the tokens written per request (``-n``): the model writes 6–13 tokens/s here; a judge's verdicts on
two assertions need about 200."""
STARTUP_SECONDS = 180.0


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@contextmanager
def llama_server(
    binary: Path, model: Path, log: Path, *, threads: int = 2, max_tokens: int = MAX_TOKENS
) -> Iterator[str]:
    """Serve ``model`` with ``binary`` until the block ends; yields the base URL (``http://127.0.0.1:PORT/v1``)."""
    port = _free_port()
    argv = [
        str(binary), "-m", str(model), "--host", "127.0.0.1", "--port", str(port), "-np", "1", "-c", "16384",
        "-n", str(max_tokens), "--jinja", "--chat-template-file", str(CHAT_TEMPLATE), "--no-webui",
        "--cache-ram", "4096", "-t", str(threads),
    ]  # fmt: skip
    with log.open("wb") as sink:
        process = subprocess.Popen(argv, stdout=sink, stderr=subprocess.STDOUT)  # noqa: S603 - the operator's binary
    try:
        deadline = time.monotonic() + STARTUP_SECONDS
        with httpx.Client(timeout=5) as client:
            while True:
                if process.poll() is not None:
                    raise ProcessFailed(f"llama-server exited ({process.returncode}): {log.read_text()[-2000:]}")
                try:
                    if client.get(f"http://127.0.0.1:{port}/health").status_code == 200:
                        break
                except httpx.HTTPError:
                    pass
                if time.monotonic() > deadline:
                    waited = f"{STARTUP_SECONDS:.0f} s"
                    raise ProcessFailed(f"llama-server did not serve in {waited}: {log.read_text()[-2000:]}")
                time.sleep(0.5)
        yield f"http://127.0.0.1:{port}/v1"
    finally:
        process.terminate()
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
