"""Schemathesis fuzzes the running API from its own OpenAPI document: no 500, every answer matches its schema.

``POST /api/v1/validate-tasks`` and ``GET /scores`` are left out: a valid random request there starts a whole
benchmark run with a model this machine has no key for; their validation is tested in test_api.py. So is
``POST /api/v1/validate-tasks/check``, which answers validate-tasks' body with its refusals: a schema-valid body it
must refuse (an agent address the operator did not allow, a model litellm does not list) is 422 by design, which
schemathesis counts as a failure; tests/client/ tests it. ``POST /api/v1/rollouts`` too: a valid random body plays a
group with a model (or is refused for this server's concurrency cap, 422 by design); tests/rollout/test_rest_rollouts.py
tests it. The API is served
by uvicorn from a thread of the test process (real HTTP, no server process to start and import): what this shows is
what the API answers. Its first ``/health`` (litellm's model lists) is answered before schemathesis starts, so the
response-time check times the answers, not that one-off import.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from tests.helpers.api_thread import ThreadApi, start_thread_server

pytestmark = pytest.mark.slow

MAX_EXAMPLES = 10
"""Per operation, seeded: every operation still gets examples of each kind; bounded for CI time."""


@pytest.fixture(scope="module")
def fuzzed_api(v1_data_dir: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[ThreadApi]:
    root = tmp_path_factory.mktemp("fuzz")
    server = start_thread_server(
        f"sqlite:///{root / 'api.db'}",
        root,
        v1_data_dir,
        TAUMESH_API_RATE_LIMIT="100000/minute",
        TAUMESH_API_AUTH_FAILURE_LIMIT="100000/minute",  # schemathesis sends wrong keys on purpose
    )
    try:
        # litellm's model lists, imported by the first /health, before schemathesis times its answers
        httpx.get(f"{server.base_url}/health", timeout=120).raise_for_status()
        yield server
    finally:
        server.stop()


def test_schemathesis_finds_no_server_error_and_no_schema_mismatch(fuzzed_api: ThreadApi, tmp_path: Path) -> None:
    cli = shutil.which("schemathesis", path=str(Path(sys.executable).parent)) or shutil.which("st")
    if cli is None:
        pytest.skip("schemathesis is not installed")
    completed = subprocess.run(
        [
            cli,
            "run",
            f"{fuzzed_api.base_url}/openapi.json",
            "--checks",
            "all",
            "--max-examples",
            str(MAX_EXAMPLES),
            "--seed",
            "7",
            "--header",
            f"Authorization: Bearer {fuzzed_api.token}",
            "--exclude-path",
            "/api/v1/validate-tasks",
            "--exclude-path",
            "/api/v1/validate-tasks/check",
            "--exclude-path",
            "/scores",
            "--exclude-path",
            "/api/v1/rollouts",
            "--request-timeout",
            "30",
        ],
        capture_output=True,
        text=True,
        timeout=600,
        cwd=tmp_path,
    )
    assert completed.returncode == 0, completed.stdout[-6000:] + completed.stderr[-2000:]
