"""Keep API keys and authorization headers out of spans, logs and results.

Three nets: attribute *names* that say "secret" have their value replaced; text that *looks* like a
key (``sk-…``, ``Bearer …``, ``api_key=…``) is masked; and the *values* of secret-looking
environment variables (``OPENAI_API_KEY``, ``OTEL_EXPORTER_OTLP_HEADERS``' values, …) are masked
wherever they turn up. :class:`taumesh.telemetry.export.ScrubbingSpanExporter` applies them to every
span before it leaves the process; :class:`RedactingFilter` to every log record, keeping it usable by
any formatter. No maintained OpenTelemetry package does this (the Collector's redaction processor runs too
late: after export).
This module loads no OpenTelemetry SDK.
"""

from __future__ import annotations

import contextlib
import logging
import numbers
import os
import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any
from urllib.parse import unquote

from opentelemetry.util.types import Attributes

REDACTED = "[REDACTED]"

SECRET_ENV_NAME = re.compile(r"(?i)(api[_-]?key|token|secret|password|passwd|credential|auth|_headers$)")
"""Environment variables whose values are secrets (``OTEL_EXPORTER_OTLP_HEADERS`` carries auth headers)."""

SECRET_ATTRIBUTE_NAME = re.compile(
    r"(?i)(authorization|api[_.-]?key|x-api-key|password|passwd|secret|cookie|credential|"
    r"(^|[._-])(access|refresh|id|auth|bearer|session)?[_-]?token$)"
)
"""Attribute names whose values are secrets (``http.request.header.authorization``, ``llm.api_key``, …).

``gen_ai.usage.input_tokens`` does not match: a token *count* is not a token.
"""

SECRET_PATTERNS: list[tuple[tuple[str, ...], re.Pattern[str]]] = [
    # (lower-case substrings one of which the text must contain for the pattern to be tried, pattern)
    (
        ("key", "token", "secret", "password", "authorization"),
        # key=value and "key": "value" forms, keeping the name
        re.compile(
            r"(?i)((?:api[_-]?key|x-api-key|access[_-]?token|auth[_-]?token|secret|password|authorization)"
            r"[\"']?\s*[:=]\s*[\"']?)(?:bearer\s+|basic\s+)?[^\s\"',;&}]+"
        ),
    ),
    (("bearer", "basic"), re.compile(r"(?i)\b(bearer|basic)\s+[a-z0-9._~+/=-]{8,}")),
    (("sk-",), re.compile(r"\bsk-[A-Za-z0-9_-]{8,}")),  # OpenAI, Anthropic (sk-ant-…), many proxies
    (("akia", "asia"), re.compile(r"\b(?:AKIA|ASIA)[0-9A-Z]{16}\b")),  # AWS access key ids
    (("aiza",), re.compile(r"\bAIza[0-9A-Za-z_-]{30,}")),  # Google API keys
    (  # GitHub tokens
        ("ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat"),
        re.compile(r"\b(?:gh[pousr]|github_pat)_[A-Za-z0-9_]{20,}"),
    ),
    (("hf_",), re.compile(r"\bhf_[A-Za-z0-9]{20,}")),  # Hugging Face tokens
    (("xox",), re.compile(r"\bxox[abprs]-[A-Za-z0-9-]{10,}")),  # Slack tokens
    (("://",), re.compile(r"(?i)(://[^/\s:@]*:)[^/\s@]+@")),  # password in a URL's userinfo
]
"""Text that looks like a secret. Each pattern is tried only when the text holds one of its triggers
(Python's regular expressions are slow on long texts; a substring test is not)."""
MIN_SECRET_LENGTH = 8
"""Shorter environment values (``true``, ``1``) are not worth masking everywhere."""
SHORT_TEXT = 256
SHORT_CACHE_SIZE = 8192
"""Short texts (names, ids, models) repeat from span to span: their masked form is remembered."""


def secret_values(env: Mapping[str, str] | None = None) -> set[str]:
    """Values of secret-looking environment variables (and of the headers in ``*_HEADERS`` lists)."""
    env = os.environ if env is None else env
    values: set[str] = set()
    for name, value in env.items():
        if not SECRET_ENV_NAME.search(name) or len(value) < MIN_SECRET_LENGTH:
            continue
        values.add(value)
        if name.upper().endswith("_HEADERS"):
            for item in value.split(","):
                _, _, header = item.partition("=")
                header = unquote(header).strip()
                for part in (header, header.split(" ", 1)[-1]):
                    if len(part) >= MIN_SECRET_LENGTH:
                        values.add(part)
    return values


class Scrubber:
    """Masks secrets in text, attribute maps and spans."""

    def __init__(self, env: Mapping[str, str] | None = None) -> None:
        # longest first, so a value containing another is masked whole
        self._secrets = sorted(secret_values(env), key=len, reverse=True)
        self._short: dict[str, str] = {}
        self._names: dict[str, bool] = {}

    def text(self, value: str) -> str:
        """``value`` with anything that looks like a secret masked."""
        if len(value) > SHORT_TEXT:
            return self._text(value)
        cached = self._short.get(value)
        if cached is None:
            if len(self._short) >= SHORT_CACHE_SIZE:
                self._short.clear()
            cached = self._short[value] = self._text(value)
        return cached

    def _text(self, value: str) -> str:
        for secret in self._secrets:
            if secret in value:
                value = value.replace(secret, REDACTED)
        lowered = value.lower()
        for triggers, pattern in SECRET_PATTERNS:
            if not any(trigger in lowered for trigger in triggers):
                continue
            if pattern.groups:
                value = pattern.sub(lambda m: (m.group(1) or "") + REDACTED, value)
            else:
                value = pattern.sub(REDACTED, value)
        return value

    def _value(self, value: Any) -> Any:
        if isinstance(value, str):
            return self.text(value)
        if isinstance(value, bool | int | float):
            return value
        if isinstance(value, Sequence) and not isinstance(value, bytes | bytearray):
            return tuple(self.text(v) if isinstance(v, str) else v for v in value)
        return value

    def secret_name(self, key: str) -> bool:
        """Whether attribute ``key`` names a secret (remembered: spans repeat a few dozen names)."""
        secret = self._names.get(key)
        if secret is None:
            if len(self._names) >= SHORT_CACHE_SIZE:
                self._names.clear()
            secret = self._names[key] = SECRET_ATTRIBUTE_NAME.search(key) is not None
        return secret

    def attributes(self, attributes: Attributes) -> Attributes:
        """``attributes`` with secret names emptied and secret-looking text masked (the same map if nothing was).

        Runs on every span of every service before export, so the common case (nothing to mask) copies nothing.
        """
        if not attributes:
            return attributes
        out: dict[str, Any] | None = None
        for key, value in attributes.items():
            new = REDACTED if self.secret_name(key) else self._value(value)
            if new is not value and new != value:
                if out is None:
                    out = dict(attributes)
                out[key] = new
        return attributes if out is None else out


_SCRUBBER: Scrubber | None = None


def default_scrubber() -> Scrubber:
    """The process's scrubber (secrets read from the environment on first use)."""
    global _SCRUBBER
    if _SCRUBBER is None:
        _SCRUBBER = Scrubber()
    return _SCRUBBER


def scrub(text: str) -> str:
    """``text`` with secrets masked, by the process's scrubber."""
    return default_scrubber().text(text)


MAX_LOG_TEXT = 1_000
"""Characters a log argument, or a line of a traceback, keeps: a request body echoed by an error never enters a
log whole (one 50 MB body once made one 50 MB log line)."""
MAX_LOG_MESSAGE = 8_000
"""Characters a message template keeps (longer ones are rendered, masked and cut)."""
MAX_LOG_TRACEBACK = 20_000
"""Characters a traceback keeps (its last ones: the exception and the innermost frames)."""
_SECRET_MARGIN = 256
"""Text is masked over this many characters past the cut, so a secret straddling it is masked before it is cut."""


def clip_text(text: str, limit: int = MAX_LOG_TEXT) -> str:
    """``text`` with secrets masked and cut to ``limit`` characters, saying how long it was."""
    if len(text) <= limit:
        return scrub(text)
    return scrub(text[: limit + _SECRET_MARGIN])[:limit] + f"… ({len(text)} chars)"


def _validation_summary(value: Any) -> str | None:
    """A pydantic or FastAPI validation error without the input it echoes (its ``str`` holds the whole body)."""
    errors = getattr(value, "errors", None)
    if not callable(errors) or not type(value).__name__.endswith("ValidationError"):
        return None
    try:
        found = errors(include_input=False) if "pydantic" in type(value).__module__ else errors()
    except Exception:  # noqa: BLE001 - an exotic errors(): fall back to the cut text
        return None
    parts = [f"{'.'.join(map(str, e.get('loc', ())))}: {e.get('msg', '')}" for e in found if isinstance(e, dict)]
    return f"{type(value).__name__}: {len(parts)} error(s): " + "; ".join(parts)


class _Shown:
    """A log argument that is neither text nor a number, as ``%s`` and ``%r`` show it: masked and cut."""

    __slots__ = ("_repr", "_str", "_value")

    def __init__(self, value: Any) -> None:
        self._value = value
        self._str: str | None = None
        self._repr: str | None = None

    def __str__(self) -> str:
        if self._str is None:
            self._str = _validation_summary(self._value) or clip_text(str(self._value))
        return self._str

    def __repr__(self) -> str:
        if self._repr is None:
            self._repr = _validation_summary(self._value) or clip_text(repr(self._value))
        return self._repr


def _arg(value: Any) -> Any:
    if isinstance(value, str):
        return clip_text(value)
    if value is None or isinstance(value, numbers.Number):
        return value  # %d, %f and uvicorn's status code need the number itself
    return _Shown(value)


def _blank(value: Any) -> Any:
    return value if value is None or isinstance(value, numbers.Number) else REDACTED


def _traceback(text: str) -> str:
    lines = [clip_text(line) for line in text.splitlines()]
    joined = "\n".join(lines)
    return joined if len(joined) <= MAX_LOG_TRACEBACK else "…\n" + joined[-MAX_LOG_TRACEBACK:]


class RedactingFilter(logging.Filter):
    """Masks secrets in a log record and cuts long texts, keeping the record's shape for any formatter.

    ``msg`` stays the template and ``args`` keep their number and kinds: text is masked and cut to
    :data:`MAX_LOG_TEXT`, numbers are left alone, other objects show masked and cut (validation errors without the
    input they echo). uvicorn's access formatter, which unpacks ``args``, still formats the line. When the rendered
    message holds a secret that no argument held alone (the template and an argument together), the text arguments
    become ``[REDACTED]``. Tracebacks are rendered once into ``exc_text``, masked, each line cut. A record is
    redacted once, however many handlers carry the filter.
    """

    def filter(self, record: logging.LogRecord) -> bool:
        if getattr(record, "taumesh_redacted", False):
            return True
        record.taumesh_redacted = True
        with contextlib.suppress(Exception):  # a malformed record is the logger's problem: logging reports it
            self._redact(record)
        return True

    @staticmethod
    def _redact(record: logging.LogRecord) -> None:
        record.args = _each(record.args, _arg)
        if isinstance(record.msg, str) and len(record.msg) <= MAX_LOG_MESSAGE and record.args:
            _mask_rendered(record)  # a template: masking "api_key=%s" alone would eat its placeholder
        else:  # the whole message (text without arguments, an object, a huge template)
            record.msg, record.args = clip_text(record.getMessage(), MAX_LOG_MESSAGE), ()
        if record.exc_info and not record.exc_text:
            record.exc_text = _traceback(_FORMATTER.formatException(record.exc_info))
        elif record.exc_text:
            record.exc_text = _traceback(record.exc_text)
        if record.stack_info:
            record.stack_info = _traceback(record.stack_info)


def _each(args: Any, change: Callable[[Any], Any]) -> Any:
    """Log arguments (a tuple, or a mapping for ``%(name)s``) with ``change`` applied to each."""
    if isinstance(args, Mapping):
        return {key: change(value) for key, value in args.items()}
    return tuple(change(value) for value in args) if args else args


def _mask_rendered(record: logging.LogRecord) -> None:
    """Blank the text arguments when the rendered message shows a secret; render it if that is not enough."""
    rendered = record.getMessage()
    if scrub(rendered) == rendered:
        return
    record.args = _each(record.args, _blank)
    rendered = record.getMessage()
    if scrub(rendered) != rendered:  # in the template itself, or spanning it and a number
        record.msg, record.args = scrub(rendered), ()


_FORMATTER = logging.Formatter()
_LOG_SCRUBBER_INSTALLED = False


def install_log_scrubber() -> None:
    """Redact every log record of this process from now on, once per process (:class:`RedactingFilter`).

    The filter runs as each record is made (a record factory), so every handler sees the redacted record,
    handlers configured later (uvicorn's) included; it can also be put on a handler by ``logging.config``.
    """
    global _LOG_SCRUBBER_INSTALLED
    if _LOG_SCRUBBER_INSTALLED:
        return
    previous = logging.getLogRecordFactory()
    redact = RedactingFilter()

    def factory(*args: Any, **kwargs: Any) -> logging.LogRecord:
        record = previous(*args, **kwargs)
        redact.filter(record)
        return record

    logging.setLogRecordFactory(factory)
    _LOG_SCRUBBER_INSTALLED = True
