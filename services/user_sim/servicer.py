"""UserSimService over gRPC. Stateless: the conversation comes with every call."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Sequence
from pathlib import Path

from taumesh.convert import (
    episode_from_proto,
    message_to_proto,
    messages_from_proto,
    tool_schema_from_proto,
    usage_to_proto,
    user_settings_from_proto,
)
from taumesh.llm.access import current_grants
from taumesh.llm.status import model_errors_as_status
from taumesh.models import STOP_TOKEN, USER_STOP_TOKENS, ChatMessage, UserSettings
from taumesh.rpc.errors import Context, InvalidArgument, status_codes
from taumesh.rpc.server import Service
from taumesh.services.user_sim.strategies import STRATEGIES, TurnCheck, UserReply, UserStrategy, UserTurn
from taumesh.user_sim.v1 import user_sim_pb2, user_sim_pb2_grpc


class UserSimServicer(user_sim_pb2_grpc.UserSimServiceServicer):
    """Serves the user-simulation strategies."""

    def __init__(self, reply_cpu_ms: float = 0.0, reply_latency_ms: float = 0.0, data_dir: Path | None = None) -> None:
        self._strategies: dict[str, UserStrategy] = {}
        self.data_dir = data_dir
        self.reply_cpu_ms = reply_cpu_ms
        self.reply_latency_ms = reply_latency_ms

    async def _load(self) -> None:
        """Spend ``reply_cpu_ms`` of CPU, then wait ``reply_latency_ms``, as a model would (capacity benchmarks)."""
        if self.reply_cpu_ms > 0:
            until = time.process_time() + self.reply_cpu_ms / 1000
            while time.process_time() < until:
                pass
        if self.reply_latency_ms > 0:
            await asyncio.sleep(self.reply_latency_ms / 1000)

    def strategy(self, settings: UserSettings) -> UserStrategy:
        """The strategy ``settings`` names, once the operator allows its model endpoint (and ``human``)."""
        name = settings.strategy
        if name not in STRATEGIES:
            raise InvalidArgument(f"unknown user strategy {name!r}; known: {sorted(STRATEGIES)}")
        grants = current_grants()
        if name == "human":
            grants.check_human_user("config.strategy")
        if name not in self._strategies:
            self._strategies[name] = STRATEGIES[name]()
        strategy = self._strategies[name]
        if strategy.calls_model:
            grants.check_api_base(settings.model.api_base, "config.model.api_base")
        return strategy

    @staticmethod
    def _instruction(instruction: str) -> str:
        if not instruction.strip():
            raise InvalidArgument("instruction is empty")
        return instruction

    async def _reply(
        self,
        request: user_sim_pb2.StartConversationRequest | user_sim_pb2.ReplyRequest,
        settings: UserSettings,
        conversation: list[ChatMessage],
        context: Context,
    ) -> UserReply:
        """The strategy's reply to the request's turn (a model's failure raised as the status it means)."""
        turn = UserTurn(
            instruction=self._instruction(request.instruction),
            conversation=conversation,
            settings=settings,
            episode=episode_from_proto(request.episode) if request.HasField("episode") else None,
            tools=[tool_schema_from_proto(schema) for schema in request.tools],
            data_dir=self.data_dir,
        )
        with model_errors_as_status(context):
            reply = await self.strategy(settings).reply(turn)
        await self._load()
        return reply

    @status_codes
    async def StartConversation(
        self, request: user_sim_pb2.StartConversationRequest, context: Context
    ) -> user_sim_pb2.StartConversationResponse:
        settings = user_settings_from_proto(request.config)
        reply = await self._reply(request, settings, [], context)
        return user_sim_pb2.StartConversationResponse(
            message=message_to_proto(reply.message),
            usage=usage_to_proto(reply.usage),
            stop=settings.strategy == "human" and STOP_TOKEN in reply.message.content,  # τ-bench checks no opening
            check=turn_check_to_proto(reply.check),
        )

    @status_codes
    async def Reply(self, request: user_sim_pb2.ReplyRequest, context: Context) -> user_sim_pb2.ReplyResponse:
        settings = user_settings_from_proto(request.config)
        conversation = messages_from_proto(request.conversation)
        if not conversation or conversation[-1].role not in ("assistant", "tool"):
            raise InvalidArgument(
                "conversation must end with the message to answer: the agent's, or a result of the user's tool call",
                fields=[("conversation", "must end with an ASSISTANT or TOOL message")],
            )
        if any(m.role not in ("user", "assistant", "tool") for m in conversation):
            raise InvalidArgument(
                "the user's conversation holds only USER, ASSISTANT and TOOL messages",
                fields=[("conversation.role", "SYSTEM is not allowed")],
            )
        reply = await self._reply(request, settings, conversation, context)
        return user_sim_pb2.ReplyResponse(
            message=message_to_proto(reply.message),
            stop=not reply.message.tool_calls and says_stop(reply.message.content, request.stop_tokens),
            usage=usage_to_proto(reply.usage),
            check=turn_check_to_proto(reply.check),
        )


def turn_check_to_proto(check: TurnCheck | None) -> user_sim_pb2.TurnCheck | None:
    """The strict user's check as the response carries it; None (the field unset) for strategies that check nothing."""
    if check is None:
        return None
    return user_sim_pb2.TurnCheck(
        usage=usage_to_proto(check.usage),
        checks=check.checks,
        redrawn=check.redrawn,
        sent_failing=check.sent_failing,
        problems=[user_sim_pb2.TurnProblem.Value(f"TURN_PROBLEM_{problem.upper()}") for problem in check.problems],
        reasons=check.reasons,
    )


def says_stop(text: str, stop_tokens: Sequence[str]) -> bool:
    """Whether ``text`` holds one of the domain's stop tokens (none sent: τ²'s three, as before the field)."""
    return any(token in text for token in (stop_tokens or USER_STOP_TOKENS))


def user_sim_service(reply_cpu_ms: float = 0.0, reply_latency_ms: float = 0.0, data_dir: Path | None = None) -> Service:
    """UserSimService with every strategy; τ-bench's user prompts are looked for in ``data_dir`` first.

    Each reply also burns ``reply_cpu_ms`` of CPU and then waits ``reply_latency_ms`` (0: neither): operator
    settings that simulate a model for capacity benchmarks.
    """
    return Service(
        name=user_sim_pb2.DESCRIPTOR.services_by_name["UserSimService"].full_name,
        register=user_sim_pb2_grpc.add_UserSimServiceServicer_to_server,
        servicer=UserSimServicer(reply_cpu_ms, reply_latency_ms, data_dir),
    )
