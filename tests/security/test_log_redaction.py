"""Log redaction keeps records usable by any formatter, uvicorn's included, and keeps bodies out of logs.

The redaction once cleared ``record.args``: uvicorn's access formatter unpacks them, so every request printed a
"Logging error" traceback instead of its access line. These tests put uvicorn's own formatters behind the filter,
then run 1,000 requests through a real uvicorn serving the API and read its log.
"""

from __future__ import annotations

import io
import logging
import re
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from pydantic import BaseModel, ValidationError
from uvicorn.logging import AccessFormatter, DefaultFormatter

from taumesh.telemetry.redact import MAX_LOG_TEXT, REDACTED, RedactingFilter, install_log_scrubber
from tests.helpers.api import ApiServer, start_server

MARKER = "BODYMARKER7f3a"
"""Text every request body carries; it must never reach a log."""
SECRET = "sk-live-0123456789abcdefABCDEF"
ACCESS_FORMAT = '%(levelprefix)s %(client_addr)s - "%(request_line)s" %(status_code)s'
ACCESS_LINE = re.compile(r'INFO: +127\.0\.0\.1:\d+ - "(GET|POST) (\S+) HTTP/1\.1" (\d{3})')


@pytest.fixture
def logged() -> Iterator[tuple[logging.Logger, io.StringIO]]:
    """A logger writing through uvicorn's formatters (access for ``.access``), with the filter on the handler."""
    out = io.StringIO()
    loggers = []
    for name, formatter in [
        ("test.uvicorn.access", AccessFormatter(ACCESS_FORMAT, use_colors=False)),
        ("test.uvicorn.error", DefaultFormatter("%(levelprefix)s %(message)s", use_colors=False)),
    ]:
        handler = logging.StreamHandler(out)
        handler.setFormatter(formatter)
        handler.addFilter(RedactingFilter())
        logger = logging.getLogger(name)
        logger.handlers, logger.propagate = [handler], False
        logger.setLevel(logging.INFO)
        loggers.append(logger)
    yield loggers[0], out
    for logger in loggers:
        logger.handlers = []


def test_access_lines_stay_whole_with_secrets_masked(
    logged: tuple[logging.Logger, io.StringIO], capsys: pytest.CaptureFixture[str]
) -> None:
    access, out = logged
    access.info('%s - "%s %s HTTP/%s" %d', "127.0.0.1:5000", "GET", f"/runs?api_key={SECRET}", "1.1", 200)
    access.info('%s - "%s %s HTTP/%s" %d', "127.0.0.1:5000", "POST", "/validate-tasks", "1.1", 422)
    lines = out.getvalue().splitlines()
    assert len(lines) == 2
    assert lines[0] == f'INFO:     127.0.0.1:5000 - "GET /runs?api_key={REDACTED} HTTP/1.1" 200 OK'
    assert lines[1].startswith('INFO:     127.0.0.1:5000 - "POST /validate-tasks HTTP/1.1" 422 Unprocessable')
    assert "Logging error" not in capsys.readouterr().err


def test_the_installed_redaction_keeps_uvicorn_access_lines(
    logged: tuple[logging.Logger, io.StringIO], capsys: pytest.CaptureFixture[str]
) -> None:
    install_log_scrubber()  # the record factory every taumesh process installs: runs before any handler
    access, out = logged
    access.handlers[0].filters = []
    access.info('%s - "%s %s HTTP/%s" %d', "127.0.0.1:5000", "GET", "/health", "1.1", 200)
    assert out.getvalue() == 'INFO:     127.0.0.1:5000 - "GET /health HTTP/1.1" 200 OK\n'
    assert "Logging error" not in capsys.readouterr().err


class Body(BaseModel):
    count: int


def test_bodies_echoed_by_errors_are_cut_or_left_out(logged: tuple[logging.Logger, io.StringIO]) -> None:
    _, out = logged
    error_log = logging.getLogger("test.uvicorn.error")
    body = MARKER * 5_000
    with pytest.raises(ValidationError) as invalid:
        Body.model_validate({"count": body})
    error_log.warning("refused: %s", invalid.value)  # pydantic's text echoes the input
    error_log.warning("refused: %r", {"body": body})
    try:
        raise ValueError(f"cannot parse {body}") from invalid.value
    except ValueError:
        error_log.exception("chained")
    text = out.getvalue()
    assert "refused: ValidationError: 1 error(s): count: Input should be a valid integer" in text
    assert MARKER not in text.split("refused: {")[0]  # the validation error's input is left out
    assert all(len(line) <= MAX_LOG_TEXT + 100 for line in text.splitlines())
    assert "Traceback" in text and "ValueError: cannot parse" in text
    assert len(text) < 5 * MAX_LOG_TEXT + 3_000


def test_a_secret_formed_by_template_and_argument_is_masked(logged: tuple[logging.Logger, io.StringIO]) -> None:
    _, out = logged
    logging.getLogger("test.uvicorn.error").warning("calling with api_key=%s and %d retries", "abc12345xyz", 3)
    assert out.getvalue().strip() == f"WARNING:  calling with api_key={REDACTED} and 3 retries"


# ---- 1,000 requests through uvicorn serving the API -----------------------------------------------------------


@pytest.fixture
def api_server(tmp_path: Path, v1_data_dir: Path) -> Iterator[ApiServer]:
    server = start_server(
        f"sqlite:///{tmp_path / 'api.db'}", tmp_path, v1_data_dir, TAUMESH_API_RATE_LIMIT="100000/minute"
    )
    try:
        yield server
    finally:
        server.stop()


@pytest.mark.slow  # an API server process and 1,000 requests: ~12 s
def test_a_thousand_requests_log_every_access_line_and_no_body(api_server: ApiServer) -> None:
    invalid = ("{" + MARKER * 4_000)[:50_000].encode()  # 50 KB, not JSON
    wrong_shape = {"env": MARKER * 100, "agent": {"model": MARKER}, "task_ids": MARKER}
    sent: list[tuple[str, str]] = []
    with httpx.Client(base_url=api_server.base_url, headers=api_server.headers, timeout=30) as client:
        for i in range(1_000):
            kind = i % 5
            if kind == 0:
                client.get("/health")
                sent.append(("GET", "/health"))
            elif kind == 1:
                client.get("/api/v1/runs")
                sent.append(("GET", "/api/v1/runs"))
            elif kind == 2:
                client.post("/api/v1/validate-tasks", content=invalid, headers={"Content-Type": "application/json"})
                sent.append(("POST", "/api/v1/validate-tasks"))
            elif kind == 3:
                client.post("/api/v1/validate-tasks", json=wrong_shape)
                sent.append(("POST", "/api/v1/validate-tasks"))
            else:
                client.post("/api/v1/list-tasks", json={"env": MARKER, "task_split": MARKER * 50})
                sent.append(("POST", "/api/v1/list-tasks"))
    api_server.stop()
    log = (api_server.root / "uvicorn.log").read_text(encoding="utf-8", errors="replace")
    access = [(m.group(1), m.group(2), m.group(3)) for m in ACCESS_LINE.finditer(log)]
    assert [line[:2] for line in access[-1_000:]] == sent, log[-3000:]  # before them: the fixture's /health probes
    assert {line[2] for line in access[-1_000:]} <= {"200", "400", "404", "422"}
    assert "Logging error" not in log
    assert MARKER not in log
