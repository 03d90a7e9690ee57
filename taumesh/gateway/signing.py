"""Signed rollout ids: ``<rollout_id>.<hex HMAC-SHA256(key, rollout_id)>``, the ``X-Taumesh-Rollout`` header.

The orchestrator and the gateway share one key (``TAUMESH_GATEWAY_KEY``, or the gateway's ``--key-file``). The
orchestrator signs each episode's id; the model-calling agent forwards the token unchanged; the gateway files the
call's trace under the rollout id only when the signature checks out (compared in constant time). A caller without
the key cannot attribute traffic to a rollout, nor read a rollout's traces.
"""

from __future__ import annotations

import hashlib
import hmac
import os
import re
from pathlib import Path

ROLLOUT_HEADER = "X-Taumesh-Rollout"
"""The request header that carries a signed rollout id."""
WEIGHT_VERSION_HEADER = "X-Taumesh-Weight-Version"
"""The request (or backend response) header naming the policy's weight version."""
GATEWAY_KEY_ENV = "TAUMESH_GATEWAY_KEY"
"""Environment variable: the key shared by the orchestrator (which signs) and the gateway (which checks)."""
UNATTRIBUTED = "unattributed"
"""The rollout id a gateway started with ``--allow-unattributed`` files calls without a valid signature under."""
ROLLOUT_ID = re.compile(r"[A-Za-z0-9_-]{1,128}")
"""What a rollout id may be: it names a file of the trace store, so no dot, slash or other path character."""


class GatewayKeyError(ValueError):
    """The gateway key is missing or unusable."""


def valid_rollout_id(rollout_id: str) -> bool:
    """Whether ``rollout_id`` may name a rollout (and so a file of the trace store)."""
    return ROLLOUT_ID.fullmatch(rollout_id) is not None


def signature(key: bytes, rollout_id: str) -> str:
    """The hex HMAC-SHA256 of ``rollout_id`` under ``key``."""
    return hmac.new(key, rollout_id.encode(), hashlib.sha256).hexdigest()


def sign_rollout(key: bytes, rollout_id: str) -> str:
    """The ``X-Taumesh-Rollout`` value for ``rollout_id``: the id, a dot, its signature."""
    if not valid_rollout_id(rollout_id):
        raise ValueError(f"a rollout id is 1-128 letters, digits, '_' or '-': {rollout_id[:200]!r}")
    return f"{rollout_id}.{signature(key, rollout_id)}"


def verified_rollout(key: bytes, token: str | None) -> str | None:
    """The rollout id ``token`` carries when its signature is ``key``'s; None when missing, malformed or forged."""
    if not token:
        return None
    rollout_id, dot, given = token.strip().rpartition(".")
    if not dot or not valid_rollout_id(rollout_id):
        return None
    if not hmac.compare_digest(given.encode(), signature(key, rollout_id).encode()):
        return None
    return rollout_id


def gateway_key(key_file: Path | None = None, *, required: bool = True) -> bytes | None:
    """The shared key: ``key_file``'s contents (stripped) when given, else ``TAUMESH_GATEWAY_KEY``.

    Raises :class:`GatewayKeyError` when ``required`` and there is none, or when it is shorter than 16 bytes.
    """
    if key_file is not None:
        try:
            text = key_file.read_text().strip()
        except OSError as exc:
            raise GatewayKeyError(f"cannot read the gateway key file {key_file}: {exc.strerror}") from exc
    else:
        text = os.environ.get(GATEWAY_KEY_ENV, "").strip()
    if not text:
        if required:
            where = str(key_file) if key_file is not None else GATEWAY_KEY_ENV
            raise GatewayKeyError(f"no gateway key: set {where} (the key the orchestrator signs rollout ids with)")
        return None
    if len(text) < 16:
        raise GatewayKeyError("the gateway key is shorter than 16 characters: use a random one (openssl rand -hex 32)")
    return text.encode()
