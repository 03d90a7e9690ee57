"""``verify`` and ``reflection``: a second model call reviews each draft against the instruction.

``verify`` regenerates a rejected draft (told why it was rejected); ``reflection`` first has the model reflect on
the rejection, then rewrite. Both are bounded: after :data:`MAX_REVIEWS` reviews the last draft is sent.
"""

from __future__ import annotations

from typing import Any

from taumesh.llm import complete, find_json_object
from taumesh.models import ChatMessage, Usage
from taumesh.services.user_sim.strategies.base import UserReply, UserTurn
from taumesh.services.user_sim.strategies.llm import LlmUser
from taumesh.services.user_sim.strategies.prompts import (
    REFLECT,
    REGENERATE,
    VERIFY_REQUEST,
    VERIFY_SYSTEM,
    transcript_text,
)

MAX_REVIEWS = 3
"""Reviews per reply: a draft and at most two rewrites (τ-bench's bound)."""


def read_verdict(text: str) -> tuple[bool, str]:
    """(accepted, reason) from the reviewer's answer; an unreadable answer accepts (the draft is not blocked)."""
    answer = find_json_object(text)
    if answer is not None:
        verdict = str(answer.get("verdict", "")).strip().lower()
        reason = str(answer.get("reason", "")).strip()
        if verdict in ("accept", "reject", "true", "false"):
            return verdict in ("accept", "true"), reason
    lowered = text.lower()
    return "reject" not in lowered, text.strip()


class VerifyUser(LlmUser):
    """Draft, review, regenerate while rejected."""

    name = "verify-taumesh"

    async def review(self, turn: UserTurn, draft: ChatMessage) -> tuple[bool, str, Usage]:
        """The reviewer's call: whether ``draft`` is faithful to the instruction, why, and its usage."""
        request = VERIFY_REQUEST.format(
            instruction=turn.instruction, transcript=transcript_text(turn.conversation), draft=draft.content
        )
        messages = [{"role": "system", "content": VERIFY_SYSTEM}, {"role": "user", "content": request}]
        completion = await complete(turn.settings.model, messages)
        accepted, reason = read_verdict(completion.message.content)
        return accepted, reason, completion.usage

    async def revise(self, turn: UserTurn, draft: ChatMessage, reason: str) -> tuple[ChatMessage, Usage]:
        """A new draft, the model told why the last one was rejected."""
        note = REGENERATE.format(draft=draft.content, reason=reason or "not faithful to your situation")
        return await self.draft(turn, self.rejection(draft, note))

    def rejection(self, draft: ChatMessage, note: str) -> list[dict[str, Any]]:
        """The rejected draft and the reviewer's note, appended to the prompt."""
        return [{"role": "assistant", "content": self.own_turn(draft)}, {"role": "user", "content": note}]

    async def reply(self, turn: UserTurn) -> UserReply:
        draft, usage = await self.draft(turn)
        for review in range(1, MAX_REVIEWS + 1):
            accepted, reason, spent = await self.review(turn, draft)
            usage += spent
            if accepted or review == MAX_REVIEWS:
                break
            draft, spent = await self.revise(turn, draft, reason)
            usage += spent
        return UserReply(message=draft, usage=usage)


class ReflectionUser(VerifyUser):
    """Verify, and on rejection reflect on the reason before rewriting."""

    name = "reflection-taumesh"

    async def revise(self, turn: UserTurn, draft: ChatMessage, reason: str) -> tuple[ChatMessage, Usage]:
        note = REFLECT.format(draft=draft.content, reason=reason or "not faithful to your situation")
        message, usage = await self.draft(turn, self.rejection(draft, note))
        reflection, marker, response = message.content.rpartition("Response:")
        if not marker:
            return message, usage
        reflection = reflection.strip().removeprefix("Reflection:").strip()
        return ChatMessage(role="user", content=response.strip(), reasoning=reflection), usage
