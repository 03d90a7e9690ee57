"""``react``: the simulated customer writes a thought, then its message, read exactly as τ-bench's ReAct user reads it.

τ-bench (``ReactUserSimulationEnv.parse_response``) takes the model's text thus, in this order:

* ``###STOP###`` anywhere: the message is ``###STOP###``;
* ``Thought:`` exactly once: everything after it, stripped. With the usual ``Thought: … User Response: …`` the
  thought, the ``User Response:`` marker and the reply all reach the agent: τ-bench checks ``Thought:`` first;
* ``User Response:`` exactly once (and no ``Thought:``): everything after it, stripped;
* anything else (neither marker, or the first one found appearing twice) raises.

The model's whole text travels in ``reasoning``, so it comes back verbatim as the customer's own turn of later
prompts, as τ-bench keeps the raw message in its history.

A text τ-bench cannot parse is an invalid model answer, treated like an empty reply: drawn again, up to
``TAUMESH_LLM_MAX_ATTEMPTS`` times (no wait: the fault is the text, not the load), then the model is unavailable
(UNAVAILABLE, an infrastructure error of the episode, resumable). τ-bench instead let the ValueError end the episode
with reward 0, which would blame the agent under test for the user simulator's output.
"""

from __future__ import annotations

import logging

from taumesh.llm import ModelUnavailable, RetryPolicy, complete
from taumesh.models import STOP_TOKEN, ChatMessage, Usage
from taumesh.rpc.errors import InvalidArgument
from taumesh.services.user_sim.strategies.base import UserReply, UserTurn
from taumesh.services.user_sim.strategies.llm import LlmUser
from taumesh.services.user_sim.strategies.prompts import persona_prompt

log = logging.getLogger(__name__)

THOUGHT_MARKER = "Thought:"
RESPONSE_MARKER = "User Response:"


class UnparsableReply(ValueError):
    """The model's text has no reply τ-bench's ReAct user could read."""


def parse_react_reply(text: str) -> str:
    """The message τ-bench's ReAct user sends for the model's ``text``; :class:`UnparsableReply` where it raises."""
    if STOP_TOKEN in text:
        return STOP_TOKEN
    for marker in (THOUGHT_MARKER, RESPONSE_MARKER):
        if marker in text:
            parts = text.split(marker)
            if len(parts) != 2:  # τ-bench unpacks exactly two parts
                raise UnparsableReply(f"{marker!r} appears {len(parts) - 1} times")
            return parts[1].strip()
    raise UnparsableReply(f"neither {THOUGHT_MARKER!r} nor {RESPONSE_MARKER!r} in the reply")


class ReactUser(LlmUser):
    """Thought, then reply."""

    name = "react-taumesh"

    def system_prompt(self, instruction: str) -> str:
        return persona_prompt(instruction, react=True)

    def own_turn(self, message: ChatMessage) -> str:
        return message.reasoning or message.content

    def parse(self, text: str) -> ChatMessage:
        return ChatMessage(role="user", content=parse_react_reply(text), reasoning=text)

    async def reply(self, turn: UserTurn) -> UserReply:
        """The customer's next message, drawn again while the model's text cannot be parsed."""
        if not turn.settings.model.model:
            raise InvalidArgument(f"user strategy {self.name!r} needs a model (--user-model)")
        attempts = RetryPolicy.from_env().max_attempts
        spent = Usage()  # tokens of the texts that could not be parsed: billed, not successful calls
        problem = ""
        for attempt in range(1, attempts + 1):
            completion = await complete(turn.settings.model, self.prompt(turn))
            try:
                message = self.parse(completion.message.content)
            except UnparsableReply as exc:
                spent += completion.usage.model_copy(update={"calls": 0})
                problem = str(exc)
                log.warning(
                    "unparsable ReAct reply from %s (%s), attempt %d", turn.settings.model.model, problem, attempt
                )
                continue
            return UserReply(message=message, usage=spent + completion.usage)
        raise ModelUnavailable(f"no reply τ-bench's ReAct user could parse: {problem}", attempts)
