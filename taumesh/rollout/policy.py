"""A training loop's own policy function as the agent of a rollout: a real AgentService served on loopback.

``group_rollouts(..., policy=fn)`` plays the run's episodes with ``fn`` as the agent. The function is not called by
the turn loop directly: :func:`serving_policy` serves it as an ``AgentService`` on 127.0.0.1 for the run, and the
run reaches it by address (``agent_addr``), as any external agent. So the episode path is the ordinary one: the
same turn loop, tool calls, retries, scoring and results file as ``taumesh run --agent-addr``.

Each ``NextMessage`` becomes one call ``fn(request)`` with a :class:`PolicyRequest` (what the agent sees) and
returns the next assistant message. At most ``max_concurrency`` calls are in flight; a plain (synchronous) function
runs in a worker thread so that the other episodes go on meanwhile.

A policy that raises, or answers something that is not a message, is the **agent's** failure: the service answers
OUT_OF_RANGE, the episode ends there (termination ``agent_gave_up``, the cause in ``info.agent_gave_up``) and is
scored as it stands, as for any agent service that cannot go on (docs/agent-contract.md). It is never an
infrastructure error, which would be retried and then left out of the group: a trainer must see a policy that
crashes on some inputs as the low reward it earns.
"""

from __future__ import annotations

import asyncio
import inspect
import re
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from typing import Any, TypeAlias

from pydantic import BaseModel, ValidationError

from taumesh.agent.v1 import agent_pb2, agent_pb2_grpc
from taumesh.convert import message_to_proto, messages_from_proto, tool_schema_from_proto
from taumesh.models import ChatMessage, ToolCall
from taumesh.rpc.errors import Context, OutOfRange, clip, status_codes
from taumesh.rpc.server import Service, start_server

POLICY_AGENT_NAME = "taumesh-policy"
"""What the policy's agent service says it is (``AgentService.Describe``): results name it so."""
POLICY_RAISED = "POLICY_RAISED"
"""The OUT_OF_RANGE reason when the policy function raised."""
POLICY_ANSWER_INVALID = "POLICY_ANSWER_INVALID"
"""The OUT_OF_RANGE reason when the policy function answered something that is not an assistant message."""


class PolicyRequest(BaseModel):
    """What the agent sees at one turn: the conversation, its tools and policy, and which episode it is."""

    messages: list[dict[str, Any]]
    """The conversation so far, oldest first, as OpenAI chat messages, without the policy: the user's words, the
    agent's own messages (with their tool calls) and the tools' results. The last one is the one to answer."""
    tools: list[dict[str, Any]]
    """The tools the agent may call, as OpenAI tool schemas (``{"type": "function", "function": {...}}``)."""
    policy: str
    """The domain's policy (τ-bench gives it to the model as the system prompt)."""
    domain: str
    task_split: str
    task_id: str
    trial: int
    seed: int
    """The episode's seed (:func:`taumesh.rollout.seed_for` of the run's seed, the task and the trial)."""
    episode_id: str
    """The id of this attempt at the episode (the run chooses it; a retried episode gets a new one)."""
    rollout_token: str = ""
    """The episode's signed rollout token for a model gateway, when the run has a gateway key (else empty)."""

    def chat(self) -> list[dict[str, Any]]:
        """The messages a chat model would be given: the policy as the system message, then the conversation."""
        return [{"role": "system", "content": self.policy}, *self.messages]


PolicyAnswer: TypeAlias = ChatMessage | dict[str, Any] | str
"""The next assistant message: taumesh's ChatMessage, an OpenAI chat message (``content`` and/or ``tool_calls``,
whose ``function.arguments`` may be JSON text or an object), or plain text."""
Policy: TypeAlias = Callable[[PolicyRequest], PolicyAnswer | Awaitable[PolicyAnswer]]
"""A policy function: async or plain, called once per agent turn."""


def is_async(policy: Policy) -> bool:
    """Whether calling ``policy`` gives an awaitable without blocking (an ``async def`` function or ``__call__``)."""
    return inspect.iscoroutinefunction(policy) or inspect.iscoroutinefunction(type(policy).__call__)


def request_of(request: agent_pb2.NextMessageRequest) -> PolicyRequest:
    """The policy's view of an agent service request."""
    return PolicyRequest(
        messages=[message.openai() for message in messages_from_proto(request.conversation)],
        tools=[tool_schema_from_proto(tool).openai() for tool in request.tools],
        policy=request.policy,
        domain=request.episode.task.domain,
        task_split=request.episode.task.split,
        task_id=request.episode.task.task_id,
        trial=request.episode.trial,
        seed=request.config.model.seed,
        episode_id=request.episode.episode_id,
        rollout_token=request.episode.rollout_token,
    )


def message_of(answer: object, turn: int) -> ChatMessage:
    """The assistant message ``answer`` stands for; a tool call without an id gets ``call_<turn>_<n>``.

    Raises OUT_OF_RANGE (the agent's failure) for anything else.
    """
    try:
        if isinstance(answer, ChatMessage):
            message = answer
        elif isinstance(answer, str):
            message = ChatMessage(role="assistant", content=answer)
        elif isinstance(answer, dict):
            message = ChatMessage.from_openai({**answer, "role": "assistant"})
        else:
            raise TypeError(f"a policy answers a message (dict, ChatMessage or str), not {type(answer).__name__}")
    except (TypeError, ValueError, AttributeError, ValidationError) as exc:
        raise OutOfRange(f"the policy's answer is not a message: {exc}", reason=POLICY_ANSWER_INVALID) from exc
    calls = [
        call if call.id else ToolCall(id=f"call_{turn}_{n}", name=call.name, arguments=call.arguments)
        for n, call in enumerate(message.tool_calls)
    ]
    return message.model_copy(update={"role": "assistant", "tool_calls": calls})


class PolicyAgent(agent_pb2_grpc.AgentServiceServicer):
    """AgentService whose every answer is one call of the policy function, at most ``max_concurrency`` at a time."""

    def __init__(self, policy: Policy, max_concurrency: int) -> None:
        if max_concurrency < 1:
            raise ValueError(f"max_concurrency must be at least 1, not {max_concurrency}")
        self.policy, self.max_concurrency = policy, max_concurrency
        self.permits = asyncio.Semaphore(max_concurrency)
        self.name = getattr(policy, "__qualname__", type(policy).__qualname__)

    async def Describe(self, request: agent_pb2.DescribeRequest, context: Context) -> agent_pb2.DescribeResponse:
        return agent_pb2.DescribeResponse(
            name=POLICY_AGENT_NAME,
            version=re.sub(r"[^A-Za-z0-9._-]", "_", self.name)[:64],
            description=f"the policy function {self.name} of a taumesh.rollout call",
        )

    @status_codes
    async def NextMessage(
        self, request: agent_pb2.NextMessageRequest, context: Context
    ) -> agent_pb2.NextMessageResponse:
        seen = request_of(request)
        async with self.permits:
            answer = await self.ask(seen)
        message = message_of(answer, len(request.conversation))
        return agent_pb2.NextMessageResponse(message=message_to_proto(message))

    async def ask(self, request: PolicyRequest) -> object:
        """The policy's answer to ``request``; its exception is the agent's failure (OUT_OF_RANGE)."""
        try:
            if is_async(self.policy):
                answer: object = self.policy(request)
            else:  # a plain function blocks: a worker thread, so that the other episodes go on meanwhile
                answer = await asyncio.to_thread(self.policy, request)
            if inspect.isawaitable(answer):
                answer = await answer
        except Exception as exc:
            raise OutOfRange(clip(f"the policy raised {type(exc).__name__}: {exc}"), reason=POLICY_RAISED) from exc
        return answer


def policy_service(agent: PolicyAgent) -> Service:
    """The policy's agent service as a service to start."""
    return Service(
        name=agent_pb2.DESCRIPTOR.services_by_name["AgentService"].full_name,
        register=agent_pb2_grpc.add_AgentServiceServicer_to_server,
        servicer=agent,
    )


@asynccontextmanager
async def serving_policy(policy: Policy, max_concurrency: int) -> AsyncIterator[str]:
    """Serve ``policy`` as an AgentService on 127.0.0.1 (any free port) until the exit; yields its address."""
    server = await start_server([policy_service(PolicyAgent(policy, max_concurrency))])
    try:
        yield server.address
    finally:
        await server.stop(grace=1.0)
