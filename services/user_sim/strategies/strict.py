"""``strict`` and ``strict-taumesh``: the LLM user with each message checked against its instruction before it is sent.

LLM users are "excessively cooperative": they recite their goal, make up an id the agent asked for, or say
``###STOP###`` before the goal is met, and the agent is scored on a conversation a real customer would not have
had. Here a second model call (the user's model, at the run's user temperature: a classifier, not a player) reads
the instruction, the conversation and the candidate message, and answers a JSON verdict naming any of three
problems (:data:`~taumesh.services.user_sim.strategies.base.TurnProblem`). A candidate that fails is redrawn once,
the user's model told what the check found; the redraw is checked too and sent whatever its check says, marked
``sent_failing`` when it fails (a third draft would make the user's cost unbounded, and a turn refused outright
would end the episode on the simulator's account). A message that only calls the user's own tools is not checked:
its text never reaches the agent.

The verdict is read strictly: one JSON object (a Markdown code fence around it allowed), exactly its three keys,
``problems`` empty exactly when it passes. An answer that does not read is asked for again under the model retry
policy (``TAUMESH_LLM_MAX_ATTEMPTS``), then the model counts as unavailable: an infrastructure error of the episode,
never a pass and never a fail.

What the checks spent travels apart from the user's usage (:class:`~.base.TurnCheck`, ``TurnCheck`` of the proto),
so ``info.user_usage`` stays comparable with the unchecked user's.

``strict`` drafts as ``llm`` does (τ-bench's prompts in its domains, τ²'s user simulator in τ²'s);
``strict-taumesh`` as ``llm-taumesh`` (taumesh's persona prompt).
"""

from __future__ import annotations

import logging
import re
from collections.abc import Awaitable, Callable
from typing import Any, ClassVar, Literal

from pydantic import BaseModel, ConfigDict, ValidationError, model_validator

from taumesh.llm import ModelUnavailable, RetryPolicy, complete
from taumesh.models import ChatMessage, Usage
from taumesh.services.user_sim.strategies.base import TurnCheck, TurnProblem, UserReply, UserTurn
from taumesh.services.user_sim.strategies.llm import LlmUser
from taumesh.services.user_sim.strategies.prompts import CHECK_REQUEST, CHECK_SYSTEM, REDRAW, check_transcript
from taumesh.services.user_sim.strategies.taubench import Messages, TaubenchLlmUser
from taumesh.services.user_sim.strategies.taubench_prompts import TaubenchUserPrompts

log = logging.getLogger(__name__)

Redraw = Callable[[str], Awaitable[tuple[ChatMessage, Usage]]]
"""Writes the candidate again, given the note that says what the check found; returns it with its usage."""

_FENCED = re.compile(r"\A```(?:json)?[ \t]*\n(.*?)\n?```\Z", re.DOTALL)


class MalformedVerdict(ValueError):
    """The check's answer is not the verdict its prompt asks for."""


class Verdict(BaseModel):
    """The check's answer: ``{"verdict": "pass"|"fail", "problems": [...], "reason": "..."}``, nothing more."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    verdict: Literal["pass", "fail"]
    problems: list[TurnProblem]
    reason: str

    @model_validator(mode="after")
    def problems_say_the_verdict(self) -> Verdict:
        """A pass names no problem and a fail at least one: an answer that contradicts itself is not read."""
        if (self.verdict == "fail") != bool(self.problems):
            raise ValueError(f"verdict {self.verdict!r} with problems {self.problems}")
        return self

    @property
    def passed(self) -> bool:
        return self.verdict == "pass"


def read_verdict(text: str) -> Verdict:
    """The verdict in the check's answer; :class:`MalformedVerdict` for anything else (never a default pass)."""
    body = text.strip()
    fenced = _FENCED.match(body)
    if fenced:  # small local models fence their JSON whatever the prompt says
        body = fenced.group(1).strip()
    try:
        return Verdict.model_validate_json(body)
    except ValidationError as exc:
        problem = exc.errors()[0]
        raise MalformedVerdict(f"{problem['msg']} at {'.'.join(map(str, problem['loc'])) or 'the top'}") from exc


async def check(turn: UserTurn, candidate: ChatMessage) -> tuple[Verdict, Usage]:
    """The check's verdict on ``candidate`` and what it cost; an unreadable answer is asked for again.

    Tokens of answers that did not read are billed (in the usage) but not counted as calls, as τ-bench's users'
    unparsable replies are (:meth:`TaubenchLlmUser.parsed`).
    """
    request = CHECK_REQUEST.format(
        instruction=turn.instruction, transcript=check_transcript(turn.conversation), candidate=candidate.content
    )
    messages = [{"role": "system", "content": CHECK_SYSTEM}, {"role": "user", "content": request}]
    attempts = RetryPolicy.from_env().max_attempts
    unread = Usage()
    problem = ""
    for attempt in range(1, attempts + 1):
        completion = await complete(turn.settings.model, messages)
        try:
            return read_verdict(completion.message.content), unread + completion.usage
        except MalformedVerdict as exc:
            unread += completion.usage.model_copy(update={"calls": 0})
            problem = str(exc)
            log.warning("unreadable verdict of the strict user's check (%s), attempt %d", problem, attempt)
    raise ModelUnavailable(f"no verdict of the strict user's check read: {problem}", attempts)


def redraw_note(verdict: Verdict) -> str:
    """What the user's model is told before its one redraw."""
    return REDRAW.format(problems=", ".join(verdict.problems), reason=verdict.reason or "see above")


async def checked(turn: UserTurn, candidate: ChatMessage, usage: Usage, redraw: Redraw) -> UserReply:
    """``candidate`` checked, redrawn once when it fails; the reply with the check's record beside the user's usage."""
    record = TurnCheck()
    for attempt in (1, 2):
        if candidate.tool_calls:  # only the user's own tools hear it: nothing the agent is told
            break
        verdict, spent = await check(turn, candidate)
        record.usage += spent
        record.checks += 1
        if verdict.passed:
            break
        record.problems += verdict.problems
        record.reasons.append(verdict.reason)
        if attempt == 2:
            record.sent_failing = True
            break
        candidate, drawn = await redraw(redraw_note(verdict))
        usage += drawn
        record.redrawn = True
    return UserReply(message=candidate, usage=usage, check=record)


def rejected(candidate: str, note: str) -> list[dict[str, Any]]:
    """The failed candidate as the model's own turn, then the note: appended to the prompt for the redraw."""
    return [{"role": "assistant", "content": candidate}, {"role": "user", "content": note}]


class StrictLlmUser(LlmUser):
    """``llm-taumesh`` checked (and ``strict`` in τ² domains: τ²'s user simulator, checked)."""

    name = "strict-taumesh"
    follows_tau2: ClassVar[bool] = True

    async def reply(self, turn: UserTurn) -> UserReply:
        draft, usage = await self.draft(turn)
        return await checked(turn, draft, usage, lambda note: self.draft(turn, rejected(self.own_turn(draft), note)))


class StrictUser(TaubenchLlmUser):
    """τ-bench's ``llm`` user, checked: the sent message is what its later requests hold as its own turn."""

    name = "strict"
    in_tau2 = StrictLlmUser

    async def play(self, turn: UserTurn, prompts: TaubenchUserPrompts, history: Messages) -> UserReply:
        text, usage = await self.generate(turn, history)

        async def redraw(note: str) -> tuple[ChatMessage, Usage]:
            again, spent = await self.generate(turn, [*history, *rejected(text, note)])
            return ChatMessage(role="user", content=again), spent

        return await checked(turn, ChatMessage(role="user", content=text), usage, redraw)
