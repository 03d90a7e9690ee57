"""What a Gym seat sees: the conversation as JSON text, in spaces that ``gymnasium.utils.env_checker`` accepts.

An observation is ``{"messages": [...]}``, the seat's view of the conversation in OpenAI chat form (``role``,
``content``, ``tool_calls`` with ``function.name``/``function.arguments``, ``tool_call_id``), written with ASCII
escapes so that every character is printable ASCII. When a conversation outgrows :data:`MAX_OBSERVATION_CHARS`, its
oldest messages are left out and ``"omitted"`` says how many.
"""

from __future__ import annotations

import json
from collections.abc import Sequence

from gymnasium import spaces

from taumesh.models import ChatMessage

PRINTABLE_ASCII = "".join(chr(code) for code in range(32, 127))
"""The characters of an observation (JSON with ``ensure_ascii``) and of a sampled action."""
MAX_OBSERVATION_CHARS = 1 << 20
"""Longest observation: 1 MiB of JSON text, far beyond a 30-step τ-bench conversation."""
MAX_ACTION_CHARS = 8192
"""Longest sampled action (``step`` takes longer text, and any Unicode, too)."""


def observation_space() -> spaces.Text:
    """JSON text of printable ASCII."""
    return spaces.Text(max_length=MAX_OBSERVATION_CHARS, min_length=0, charset=PRINTABLE_ASCII)


def action_space() -> spaces.Text:
    """A message or a tool call, as text (:mod:`taumesh.orchestrator.gym.actions`)."""
    return spaces.Text(max_length=MAX_ACTION_CHARS, min_length=0, charset=PRINTABLE_ASCII)


def _dump(value: object) -> str:
    return json.dumps(value, ensure_ascii=True, separators=(",", ":"))


def render_observation(messages: Sequence[ChatMessage], limit: int = MAX_OBSERVATION_CHARS) -> str:
    """``messages`` as an observation of at most ``limit`` characters (the oldest left out when needed)."""
    items = [_dump(message.openai()) for message in messages]
    total = sum(len(item) + 1 for item in items)  # each with its comma
    if total + len('{"messages":[]}') <= limit:
        return '{"messages":[' + ",".join(items) + "]}"
    budget = limit - len('{"messages":[],"omitted":}') - len(str(len(items)))
    omitted = 0
    while omitted < len(items) and total > budget:
        total -= len(items[omitted]) + 1
        omitted += 1
    return '{"messages":[' + ",".join(items[omitted:]) + '],"omitted":' + str(omitted) + "}"
