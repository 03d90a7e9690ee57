"""How a τ² episode ends at a transfer.

τ² has no terminate tool: ``transfer_to_human_agents`` answers and the conversation goes on; the agent then tells
the user (its policy names the message), and the simulated user, once told, ends the conversation with
``###TRANSFER###`` (τ²'s user guidelines), a user stop like ``###STOP###``.
"""

from __future__ import annotations

import re

TRANSFER_TOOL = "transfer_to_human_agents"
"""τ²'s transfer tool, in every toolkit."""
TRANSFER_TOKEN = "###TRANSFER###"  # noqa: S105 - not a password
"""What τ²'s simulated user says once transferred (one of ``taumesh.models.USER_STOP_TOKENS``)."""
FALLBACK_ANNOUNCEMENT = "You are being transferred to a human agent."
"""What the oracle says after a transfer where the policy names no message (τ²'s mock)."""

_POLICY_MESSAGE = re.compile(rf"{TRANSFER_TOOL}, and then send the message '([^']+)' to the user")
_ANNOUNCES = re.compile(r"\btransferr(?:ed|ing)\b[^.!?\n]*\bhuman\b", re.IGNORECASE)


def transfer_announcement(policy: str) -> str:
    """The message the policy tells the agent to send after transferring, else :data:`FALLBACK_ANNOUNCEMENT`.

    τ²'s airline, retail and telecom policies name one; mock's does not.
    """
    match = _POLICY_MESSAGE.search(policy)
    return match.group(1) if match else FALLBACK_ANNOUNCEMENT


def announces_transfer(text: str) -> bool:
    """Whether an agent's words tell the user they are being (or have been) transferred to a human."""
    return _ANNOUNCES.search(text) is not None
