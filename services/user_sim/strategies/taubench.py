"""``llm``, ``react``, ``verify``, ``reflection``: τ-bench v1's user simulators, request for request.

Each model request is τ-bench's ``{"model", "messages"}``: no temperature, no seed (the provider's defaults), the
prompts read at run time from the imported τ-bench data (:mod:`.taubench_prompts`). The model's history is
τ-bench's: its system prompt with the instruction, the hard-coded greeting as a ``user`` turn, then the agent's
messages as ``user`` turns and the simulated customer's own replies as ``assistant`` turns (``{"content", "role"}``,
the key order of litellm's ``Message.model_dump()``).

The service is stateless, so what τ-bench's history holds beyond the conversation travels in the user's messages
and comes back with every call: react's raw reply (thought included) in ``reasoning``; in ``model_turns`` the
replies the history holds when they are not the message itself (verify: none when every check rejected the draft;
reflection: the first draft and the one written after reflecting, both kept).

τ-bench's construction calls (``load_user`` already runs ``reset()`` without an instruction, and throws the reply
away) are not made: they change neither the conversation nor τ-bench's ``user_cost``, only the provider's bill.

A reply τ-bench cannot parse (react's ``Thought:``/``User Response:`` layout, reflection's ``Response:``) raised
``ValueError`` there, ending the task with reward 0: the agent under test was blamed for the user simulator's text.
Here the same request is sent again, up to ``TAUMESH_LLM_MAX_ATTEMPTS`` times, then the model counts as
unavailable (UNAVAILABLE: an infrastructure error of the episode, kept out of pass^k and resumable).

In τ² domains (and wherever the user has tools) these names keep taumesh's behaviour: ``llm`` plays τ²'s user
simulator, the others play as their ``-taumesh`` versions.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any, ClassVar

from taumesh.domains import Registry
from taumesh.llm import ModelUnavailable, RetryPolicy, complete
from taumesh.models import ChatMessage, Usage
from taumesh.rpc.errors import InvalidArgument
from taumesh.services.user_sim.strategies.base import UserReply, UserTurn
from taumesh.services.user_sim.strategies.llm import LlmUser
from taumesh.services.user_sim.strategies.react import ReactUser, UnparsableReply, parse_react_reply
from taumesh.services.user_sim.strategies.taubench_prompts import TaubenchUserPrompts, taubench_user_prompts
from taumesh.services.user_sim.strategies.verify import ReflectionUser, VerifyUser

log = logging.getLogger(__name__)

Messages = list[dict[str, Any]]

VERIFY_ATTEMPTS = 3
"""τ-bench's ``VerifyUserSimulationEnv.max_attempts``: drafts per reply, each checked once."""
REFLECTION_ATTEMPTS = 2
"""τ-bench's ``ReflectionUserSimulationEnv.max_attempts``: the first draft and one written after reflecting."""
REFLECTED_MARKER = "Response:"
"""What τ-bench's ``reflect`` splits the reflection on (exactly once)."""


def accepts(verdict: str) -> bool:
    """τ-bench's reading of the supervisor's answer: ``"true"`` anywhere, any case (so ``not true`` accepts)."""
    return "true" in verdict.lower()


def litellm_message_text(content: str) -> str:
    """``str()`` of the litellm ``Message`` τ-bench's verify prompt embeds, for a text reply.

    The structure of litellm 1.110's rendering of a ``{"role", "content"}`` reply; other litellm versions, and
    providers that add fields (api.openai.com's ``annotations``, ``refusal``), render more fields.
    """
    return (
        f"Message(content={content!r}, role='assistant', tool_calls=None, function_call=None, "
        "provider_specific_fields=None)"
    )


def parse_reflection(text: str) -> str:
    """The new reply in a reflect answer: the text after its one ``Response:``; :class:`UnparsableReply` otherwise."""
    parts = text.split(REFLECTED_MARKER)
    if len(parts) != 2:
        raise UnparsableReply(f"{REFLECTED_MARKER!r} appears {len(parts) - 1} times")
    return parts[1].strip()


class TaubenchLlmUser(LlmUser):
    """τ-bench's ``LLMUserSimulationEnv``: one call per reply, the reply returned as the model wrote it."""

    name = "llm"
    system_kind: ClassVar[str] = "llm"
    """Which of τ-bench's system prompts (``llm`` or ``react``)."""
    in_tau2: ClassVar[type[LlmUser]] = LlmUser
    """Who plays in τ² domains (and where the user has tools)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._tau2_player: LlmUser | None = None

    async def reply(self, turn: UserTurn) -> UserReply:
        if not turn.settings.model.model:
            raise InvalidArgument(f"user strategy {self.name!r} needs a model (--user-model)")
        if turn.episode is not None and self._registry is None:  # discovering plugins takes seconds: off the loop
            self._registry = await asyncio.to_thread(Registry.discover)
        if turn.tools or (turn.episode is not None and self.domain_prompts_user(turn.episode.task.domain)):
            if self._tau2_player is None:
                self._tau2_player = self.in_tau2(self._registry)
            return await self._tau2_player.reply(turn)
        prompts = taubench_user_prompts(turn.data_dir)
        return await self.play(turn, prompts, self.history(turn, prompts))

    def history(self, turn: UserTurn, prompts: TaubenchUserPrompts) -> Messages:
        """τ-bench's ``self.messages`` before this reply, rebuilt from the conversation."""
        messages: Messages = [
            {"role": "system", "content": prompts.system_prompt(self.system_kind, turn.instruction)},
            {"role": "user", "content": prompts.greeting},
        ]
        for message in turn.conversation:
            if message.role == "user":
                kept = (
                    message.model_turns if message.model_turns is not None else [message.reasoning or message.content]
                )
                messages += [{"content": text, "role": "assistant"} for text in kept]
            elif message.role == "assistant":
                messages.append({"role": "user", "content": message.content})
        return messages

    async def generate(self, turn: UserTurn, messages: Messages) -> tuple[str, Usage]:
        """One request of τ-bench's: model and messages, nothing else."""
        completion = await complete(turn.settings.model, messages, sampling=False)
        return completion.message.content, completion.usage

    async def play(self, turn: UserTurn, prompts: TaubenchUserPrompts, history: Messages) -> UserReply:
        """The reply to ``history``."""
        text, usage = await self.generate(turn, history)
        return UserReply(message=ChatMessage(role="user", content=text), usage=usage)

    async def parsed(self, turn: UserTurn, messages: Messages, parse: Any) -> tuple[str, str, Usage]:
        """(raw text, parsed text, usage) of a request whose answer must parse, sent again while it does not."""
        attempts = RetryPolicy.from_env().max_attempts
        spent = Usage()  # tokens of the texts that could not be parsed: billed, not successful calls
        problem = ""
        for attempt in range(1, attempts + 1):
            text, usage = await self.generate(turn, messages)
            try:
                return text, parse(text), spent + usage
            except UnparsableReply as exc:
                spent += usage.model_copy(update={"calls": 0})
                problem = str(exc)
                log.warning("unparsable reply for %s (%s), attempt %d", self.name, problem, attempt)
        raise ModelUnavailable(f"no reply τ-bench's {self.name} user could parse: {problem}", attempts)


class TaubenchReactUser(TaubenchLlmUser):
    """τ-bench's ``ReactUserSimulationEnv``: ``Thought:`` then ``User Response:``, parsed as τ-bench parses it.

    The parsed text is what τ-bench returns, so after ``Thought:`` the thought and the ``User Response:`` label
    reach the agent too; any ``###STOP###`` makes the reply exactly ``###STOP###``. The raw reply goes in
    ``reasoning``: τ-bench's history keeps it.
    """

    name = "react"
    system_kind = "react"
    in_tau2 = ReactUser

    async def play(self, turn: UserTurn, prompts: TaubenchUserPrompts, history: Messages) -> UserReply:
        raw, text, usage = await self.parsed(turn, history, parse_react_reply)
        return UserReply(message=ChatMessage(role="user", content=text, reasoning=raw), usage=usage)


class TaubenchVerifyUser(TaubenchLlmUser):
    """τ-bench's ``VerifyUserSimulationEnv``: each draft checked by a supervisor call, at most 3 drafts.

    An accepted draft joins the history. When all three are rejected the last one is sent but not kept
    (``model_turns`` empty), so the next request holds two ``user`` turns in a row, as τ-bench's does.
    """

    name = "verify"
    in_tau2 = VerifyUser

    async def verify(
        self, turn: UserTurn, prompts: TaubenchUserPrompts, history: Messages, response: str
    ) -> tuple[bool, Usage]:
        """τ-bench's ``verify``: the whole history as a transcript, then ``response``, in one ``user`` message."""
        prompt = prompts.verify.format(transcript=prompts.transcript(history), response=response)
        verdict, usage = await self.generate(turn, [{"role": "user", "content": prompt}])
        return accepts(verdict), usage

    async def play(self, turn: UserTurn, prompts: TaubenchUserPrompts, history: Messages) -> UserReply:
        usage = Usage()
        draft = ""
        for _ in range(VERIFY_ATTEMPTS):
            draft, spent = await self.generate(turn, history)
            accepted, checked = await self.verify(turn, prompts, history, litellm_message_text(draft))
            usage += spent + checked
            if accepted:
                return UserReply(message=ChatMessage(role="user", content=draft), usage=usage)
        return UserReply(message=ChatMessage(role="user", content=draft, model_turns=[]), usage=usage)


class TaubenchReflectionUser(TaubenchVerifyUser):
    """τ-bench's ``ReflectionUserSimulationEnv``: on a rejected first draft, reflect, rewrite, check again.

    The reflection's new reply is put, as a ``user`` turn, into a copy of the history the rewrite and its check
    see. Both drafts join the real history (``model_turns``: two ``assistant`` turns in a row); the rewrite is sent
    when its check accepts it, the first draft otherwise.
    """

    name = "reflection"
    in_tau2 = ReflectionUser

    async def play(self, turn: UserTurn, prompts: TaubenchUserPrompts, history: Messages) -> UserReply:
        current = list(history)
        initial, usage = await self.generate(turn, current)
        accepted, checked = await self.verify(turn, prompts, current, initial)
        usage += checked
        if accepted:
            return UserReply(message=ChatMessage(role="user", content=initial), usage=usage)
        kept = [initial]
        for _ in range(1, REFLECTION_ATTEMPTS):
            prompt = prompts.reflect.format(transcript=prompts.transcript(current), response=initial)
            _, reflected, spent = await self.parsed(turn, [{"role": "user", "content": prompt}], parse_reflection)
            current.append({"role": "user", "content": reflected})
            rewritten, drafted = await self.generate(turn, current)
            kept.append(rewritten)
            accepted, checked = await self.verify(turn, prompts, current, rewritten)
            usage += spent + drafted + checked
            if accepted:
                return UserReply(message=ChatMessage(role="user", content=rewritten, model_turns=kept), usage=usage)
        return UserReply(message=ChatMessage(role="user", content=initial, model_turns=kept), usage=usage)
