"""Keep API keys and authorization headers out of spans, logs and results.

Three nets: attribute *names* that say "secret" have their value replaced; text that *looks* like a
key (``sk-…``, ``Bearer …``, ``api_key=…``) is masked; and the *values* of secret-looking
environment variables (``OPENAI_API_KEY``, ``OTEL_EXPORTER_OTLP_HEADERS``' values, …) are masked
wherever they turn up. :class:`taumesh.telemetry.export.ScrubbingSpanExporter` applies them to every
span before it leaves the process; the log-record factory to every log line. No maintained
OpenTelemetry package does this (the Collector's redaction processor runs too late: after export).
This module loads no OpenTelemetry SDK.
"""

from __future__ import annotations

import logging
import os
import re
from collections.abc import Mapping, Sequence
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


_LOG_SCRUBBER_INSTALLED = False


def install_log_scrubber() -> None:
    """Mask secrets in every log record from now on (message, arguments and traceback), once per process."""
    global _LOG_SCRUBBER_INSTALLED
    if _LOG_SCRUBBER_INSTALLED:
        return
    previous = logging.getLogRecordFactory()
    formatter = logging.Formatter()

    def factory(*args: Any, **kwargs: Any) -> logging.LogRecord:
        record = previous(*args, **kwargs)
        try:
            message = record.getMessage()
        except Exception:  # noqa: BLE001 - a malformed record is the logger's problem, not ours
            return record
        record.msg, record.args = scrub(message), ()
        if record.exc_info and not record.exc_text:
            record.exc_text = scrub(formatter.formatException(record.exc_info))
        return record

    logging.setLogRecordFactory(factory)
    _LOG_SCRUBBER_INSTALLED = True
