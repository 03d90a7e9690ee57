"""429 from a real uvicorn whose keys may make 2 requests a second each: the client waits Retry-After and retries.

The uvicorn serves from a thread of the test process (over real HTTP). Each test takes a key of its own (the limit
is per key), so none waits for another's window to free. The tests of this module run one after another (one xdist
worker): each counts the audit lines written after it began.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from email.utils import format_datetime
from pathlib import Path

import pytest

from taumesh.client import AsyncTaumeshClient, RateLimitError, TaumeshClient
from taumesh.client.errors import retry_after_header
from tests.helpers.api import ApiServer
from tests.helpers.client import sqlite_thread_server


@pytest.fixture(scope="module")
def limited(v1_data_dir: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[ApiServer]:
    server = sqlite_thread_server(tmp_path_factory.mktemp("limited"), v1_data_dir, TAUMESH_API_RATE_LIMIT="2/second")
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def token(limited: ApiServer) -> str:
    """A fresh key of this test's own: its window starts full."""
    return limited.store().create_key("rate-limit")[1]


def statuses(server: ApiServer, after: int = 0, ok: int = 0, total: int = 0) -> list[int]:
    """Statuses of the audited ``/api/v1/runs`` requests after the first ``after``.

    The server writes an audit line once its answer is sent: wait for ``ok`` 200s and ``total`` lines.
    """
    deadline = time.monotonic() + 5
    while True:
        # the file appears with the first audited answer: under load that may come after the client has it
        lines = server.audit_path.read_text().splitlines() if server.audit_path.exists() else []
        seen = [json.loads(line)["status"] for line in lines if '"/api/v1/runs"' in line][after:]
        if (seen.count(200) >= ok and len(seen) >= total) or time.monotonic() > deadline:
            return seen
        time.sleep(0.05)


def test_client_waits_retry_after_then_succeeds(limited: ApiServer, token: str) -> None:
    before = len(statuses(limited))
    started = time.monotonic()
    with TaumeshClient(limited.base_url, token, max_retries=5) as client:
        answers = [client.runs.list(limit=1) for _ in range(5)]
    assert len(answers) == 5 and time.monotonic() - started >= 1.0  # five requests at two a second
    seen = statuses(limited, before, ok=5)
    assert 429 in seen and seen.count(200) == 5 and seen[-1] == 200


def test_without_retries_the_error_carries_retry_after(limited: ApiServer, token: str) -> None:
    before = len(statuses(limited))
    with TaumeshClient(limited.base_url, token, max_retries=0) as client:
        client.runs.list()
        client.runs.list()
        with pytest.raises(RateLimitError) as limited_error:
            client.runs.list()
    error = limited_error.value
    assert error.status_code == 429 and error.error_type == "rate_limit_error"
    assert error.retry_after is not None and 0 < error.retry_after <= 1.0
    assert error.details["limit"] == "2 per 1 second"
    assert statuses(limited, before, total=3) == [200, 200, 429]  # its lines are written before the next test counts


def test_a_wait_longer_than_max_retry_wait_is_raised_at_once(limited: ApiServer, token: str) -> None:
    with TaumeshClient(limited.base_url, token, max_retries=3, max_retry_wait=0.0) as client:
        before = len(statuses(limited))
        client.runs.list()
        client.runs.list()
        with pytest.raises(RateLimitError):
            client.runs.list()
    time.sleep(0.5)
    assert statuses(limited, before, total=3) == [200, 200, 429]  # the 429 was not retried


async def test_async_client_honours_retry_after_too(limited: ApiServer, token: str) -> None:
    before = len(statuses(limited))
    async with AsyncTaumeshClient(limited.base_url, token, max_retries=5) as client:
        for _ in range(4):
            await client.runs.list(limit=1)
    seen = statuses(limited, before, ok=4)
    assert 429 in seen and seen.count(200) == 4


def test_retry_after_header_in_seconds_or_as_a_date() -> None:
    assert retry_after_header("3") == 3.0
    assert retry_after_header(None) is None and retry_after_header("soon") is None
    later = retry_after_header(format_datetime(datetime.now(UTC) + timedelta(seconds=30), usegmt=True))
    assert later is not None and 25 < later <= 30
