"""The user's turn: the simulated user opens the conversation or replies to it, and whether it said to stop."""

from __future__ import annotations

from typing import Any, NamedTuple

from taumesh.common.v1 import common_pb2
from taumesh.convert import episode_to_proto, message_from_proto, usage_from_proto, user_settings_to_proto
from taumesh.env.v1 import env_pb2
from taumesh.models import STOP_TOKEN, ChatMessage, EpisodeContext, Usage
from taumesh.orchestrator import tracing
from taumesh.orchestrator.clients import ServiceClients
from taumesh.orchestrator.config import RunConfig
from taumesh.orchestrator.episode.model_calls import call_model_service
from taumesh.orchestrator.episode.usage import UserChecks
from taumesh.user_sim.v1 import user_sim_pb2


class UserAnswer(NamedTuple):
    """One message of the simulated user, whether the user-sim said it stops, and what it spent.

    ``check`` and ``check_usage``: the strict user's checks of the message and their spend (none for other users).
    """

    message: ChatMessage
    stop: bool
    usage: Usage
    check: UserChecks
    check_usage: Usage


def _checked(check: user_sim_pb2.TurnCheck) -> tuple[UserChecks, Usage]:
    counted = UserChecks(checks=check.checks, redrawn=int(check.redrawn), sent_failing=int(check.sent_failing))
    return counted, usage_from_proto(check.usage)


class UserTurn:
    """Asks the user-sim service for the simulated user's messages, with the instruction and tools of the session."""

    def __init__(self, clients: ServiceClients, config: RunConfig, context: EpisodeContext) -> None:
        self.clients, self.config = clients, config
        self.settings = user_settings_to_proto(config.user)
        self.episode = episode_to_proto(context)

    async def opens(self, session: env_pb2.OpenSessionResponse) -> UserAnswer:
        """The user's first message (StartConversation)."""
        request = user_sim_pb2.StartConversationRequest(
            config=self.settings,
            instruction=session.user_instruction,
            episode=self.episode,
            tools=session.user_tools,
            stop_tokens=session.user_stop_tokens,
        )
        return await self._ask(self.clients.user.StartConversation, request, "start")

    async def replies(self, session: env_pb2.OpenSessionResponse, conversation: list[common_pb2.Message]) -> UserAnswer:
        """The user's answer to the last message of its conversation (the agent's, or its own tool's result)."""
        request = user_sim_pb2.ReplyRequest(
            config=self.settings,
            instruction=session.user_instruction,
            conversation=conversation,
            episode=self.episode,
            tools=session.user_tools,
            stop_tokens=session.user_stop_tokens,
        )
        return await self._ask(self.clients.user.Reply, request, "reply")

    async def _ask(self, method: Any, request: Any, kind: str) -> UserAnswer:
        """One call of the user-sim (StartConversation or Reply, which answer alike), traced as the user's turn."""
        with tracing.user_turn(self.config.user, kind) as span:
            answered = await call_model_service(method, request, self.config.model_timeout)
            message = message_from_proto(answered.message, role="user")
            span.replied(message, usage_from_proto(answered.usage), answered.stop if kind == "reply" else False)
        return UserAnswer(message, answered.stop, usage_from_proto(answered.usage), *_checked(answered.check))


def says_stop(session: env_pb2.OpenSessionResponse, message: ChatMessage, opening: bool) -> bool:
    """Whether the user's text holds one of the domain's stop tokens (``OpenSessionResponse.user_stop_tokens``).

    Checked whatever the user-sim's ``stop`` said (τ²'s ``UserSimulator.is_stop``, τ-bench's ``env.step``); the
    opening only where the domain says so (τ²), as τ-bench never checks it. A session opened by an env that
    sends no tokens is checked for ``###STOP###`` alone.
    """
    if message.tool_calls or (opening and not session.user_opening_stops):
        return False
    tokens = session.user_stop_tokens or (STOP_TOKEN,)
    return any(token in message.content for token in tokens)
