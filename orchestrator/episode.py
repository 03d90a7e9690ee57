"""The turn loop: one episode of user ↔ agent ↔ tools, across the four services.

    user opens → agent answers → its tool calls run in the env → … → the agent speaks to the user →
    the user replies → … until the user stops, a terminate tool runs, or the step limit is hit.

Then the env reports the final state, the scorer scores it, and the session is closed.
"""

from __future__ import annotations

import contextlib
import json
import time
import uuid
from functools import partial
from typing import Any, Literal

import grpc
from pydantic import BaseModel, Field

from taumesh.agent.v1 import agent_pb2
from taumesh.convert import (
    agent_settings_to_proto,
    episode_to_proto,
    message_from_proto,
    message_to_proto,
    task_ref_to_proto,
    tool_call_to_proto,
    usage_from_proto,
    user_settings_to_proto,
)
from taumesh.env.v1 import env_pb2
from taumesh.models import ChatMessage, EpisodeContext, TaskRef, ToolCall, Usage
from taumesh.orchestrator import tracing
from taumesh.orchestrator.clients import ServiceClients, with_retries
from taumesh.orchestrator.config import RunConfig
from taumesh.scorer.v1 import scorer_pb2
from taumesh.user_sim.v1 import user_sim_pb2

Termination = Literal["user_stop", "terminate_tool", "max_steps", "env_abort", "agent_gave_up"]


MODEL_RPC_ATTEMPTS = 2
"""Attempts at an agent or user-sim call. Those services already retry their model with backoff, so the
orchestrator retries only once more (a replica that died); retrying a provider that is down several times
over would multiply the load on it."""


class Transcript(BaseModel):
    """The three views of one conversation the loop keeps in step."""

    agent: list[ChatMessage] = Field(default_factory=list)
    """What the agent sees: user turns (without the user's private reasoning), its own turns, tool results."""
    user: list[ChatMessage] = Field(default_factory=list)
    """What the user simulator sees: its own turns (with reasoning) and the agent's texts."""
    traj: list[ChatMessage] = Field(default_factory=list)
    """τ-bench's trajectory: the policy as system message, then everything the agent saw."""

    def user_said(self, message: ChatMessage) -> None:
        self.user.append(message)
        visible = ChatMessage(role="user", content=message.content)
        self.agent.append(visible)
        self.traj.append(visible)

    def agent_said(self, message: ChatMessage) -> None:
        self.agent.append(message)
        self.traj.append(message)

    def agent_told_user(self, message: ChatMessage) -> None:
        self.user.append(ChatMessage(role="assistant", content=message.content))

    def tool_answered(self, message: ChatMessage) -> None:
        self.agent.append(message)
        self.traj.append(message)


class EpisodeOutcome(BaseModel):
    """What one episode produced: its reward, reward info and trajectory."""

    task: TaskRef
    trial: int
    episode_id: str
    reward: float
    reward_info: dict[str, Any] | None
    termination: Termination
    steps: int
    traj: list[ChatMessage]
    agent_usage: Usage
    user_usage: Usage
    duration_s: float
    final_data_hash: str
    source: str
    required_outputs: list[str]
    gave_up: str = ""
    """Why the agent stopped, when it could not go on (termination ``agent_gave_up``)."""


def _reward_info(score: scorer_pb2.ScoreEpisodeResponse) -> dict[str, Any] | None:
    """τ-bench's ``reward_info`` dict from the scorer's response."""
    which = score.WhichOneof("info")
    if which is None:
        return None
    if which == "actions_check":
        info: dict[str, Any] = {
            "r_actions": score.actions_check.r_actions,
            "gt_data_hash": score.actions_check.gt_data_hash,
        }
    else:
        info = {
            "r_outputs": score.outputs_check.r_outputs,
            "outputs": {check.output: check.found for check in score.outputs_check.outputs},
        }
    actions = [{"name": a.name, "kwargs": json.loads(a.kwargs_json)} for a in score.gold_actions]
    return {"reward": score.reward, "info": info, "actions": actions}


class EpisodeInterrupted(Exception):
    """An infrastructure fault ended an attempt at an episode, after it had spent ``agent_usage``/``user_usage``.

    The spend travels with the fault so that no model cost goes unaccounted when the episode is retried.
    """

    def __init__(self, error: grpc.aio.AioRpcError, agent_usage: Usage, user_usage: Usage) -> None:
        super().__init__(f"{error.code().name}: {error.details()}")
        self.error = error
        self.agent_usage = agent_usage
        self.user_usage = user_usage


class _Episode:
    """One episode in progress: the services, the session, the transcript and the running totals."""

    def __init__(self, clients: ServiceClients, config: RunConfig, task: TaskRef, trial: int) -> None:
        self.clients, self.config, self.task = clients, config, task
        self.context = EpisodeContext(task=task, trial=trial, episode_id=uuid.uuid4().hex)
        self.context_pb = episode_to_proto(self.context)
        self.agent_config = agent_settings_to_proto(config.agent)
        self.user_config = user_settings_to_proto(config.user)
        self.transcript = Transcript()
        self.agent_usage, self.user_usage = Usage(), Usage()
        self.steps, self.agent_steps, self.source = 0, 0, "user"
        self.termination: Termination | None = None
        self.turns = tracing.Turns(config)
        self.session = env_pb2.OpenSessionResponse()  # filled by open()
        self.gave_up = ""  # why the agent stopped, when it answered OUT_OF_RANGE

    async def open(self) -> env_pb2.OpenSessionResponse:
        """A fresh env session for the task; the policy starts the trajectory."""
        opened: env_pb2.OpenSessionResponse = await with_retries(
            partial(
                self.clients.env.OpenSession,
                env_pb2.OpenSessionRequest(task=task_ref_to_proto(self.task)),
                timeout=self.config.rpc_timeout,
            )
        )
        self.session = opened
        self.transcript.traj.append(ChatMessage(role="system", content=opened.policy))
        return opened

    async def user_opens(self) -> None:
        """The simulated user's first message."""
        request = user_sim_pb2.StartConversationRequest(
            config=self.user_config, instruction=self.session.user_instruction, episode=self.context_pb
        )
        with tracing.user_turn(self.config.user, "start") as span:
            started: user_sim_pb2.StartConversationResponse = await with_retries(
                partial(self.clients.user.StartConversation, request, timeout=self.config.model_timeout),
                attempts=MODEL_RPC_ATTEMPTS,
            )
            span.replied(message_from_proto(started.message), usage_from_proto(started.usage))
        self.user_usage += usage_from_proto(started.usage)
        self.transcript.user_said(message_from_proto(started.message))

    async def agent_answers(self) -> ChatMessage:
        """The agent's next message, given the whole conversation so far."""
        request = agent_pb2.NextMessageRequest(
            episode=self.context_pb,
            policy=self.session.policy,
            tools=self.session.tools,
            conversation=[message_to_proto(m) for m in self.transcript.agent],
            config=self.agent_config,
        )
        self.agent_steps += 1
        with tracing.agent_step(self.config.agent, self.context, self.agent_steps) as span:
            answer: agent_pb2.NextMessageResponse = await with_retries(
                partial(self.clients.agent.NextMessage, request, timeout=self.config.model_timeout),
                attempts=MODEL_RPC_ATTEMPTS,
            )
            message = message_from_proto(answer.message).model_copy(update={"role": "assistant"})
            span.answered(message, usage_from_proto(answer.usage))
        self.agent_usage += usage_from_proto(answer.usage)
        self.transcript.agent_said(message)
        return message

    async def run_tools(self, calls: list[ToolCall]) -> None:
        """Run the agent's tool calls in order, each one step, until one ends the episode."""
        for call in calls:
            if self.steps >= self.config.max_steps:
                return
            self.steps += 1
            request = env_pb2.CallToolRequest(
                session_id=self.session.session_id,
                tool_call=tool_call_to_proto(call),
                request_id=f"{self.context.episode_id}:{self.steps}",  # a retried call runs once
            )
            with tracing.tool_call(call, self.session.session_id) as span:
                result: env_pb2.CallToolResponse = await with_retries(
                    partial(self.clients.env.CallTool, request, timeout=self.config.rpc_timeout)
                )
                span.answered(result.observation, error=result.error, done=result.done, aborted=result.aborted)
            self.source = call.name
            self.transcript.tool_answered(
                ChatMessage(role="tool", content=result.observation, tool_call_id=call.id, name=call.name)
            )
            if result.aborted or result.done:
                self.termination = "env_abort" if result.aborted else "terminate_tool"
                return

    async def user_replies(self, message: ChatMessage) -> None:
        """Send the agent's text to the user and take the reply (one step)."""
        self.steps += 1
        self.source = "user"
        self.transcript.agent_told_user(message)
        request = user_sim_pb2.ReplyRequest(
            config=self.user_config,
            instruction=self.session.user_instruction,
            conversation=[message_to_proto(m) for m in self.transcript.user],
            episode=self.context_pb,
        )
        with tracing.user_turn(self.config.user, "reply") as span:
            reply: user_sim_pb2.ReplyResponse = await with_retries(
                partial(self.clients.user.Reply, request, timeout=self.config.model_timeout),
                attempts=MODEL_RPC_ATTEMPTS,
            )
            span.replied(message_from_proto(reply.message), usage_from_proto(reply.usage), reply.stop)
        self.user_usage += usage_from_proto(reply.usage)
        self.transcript.user_said(message_from_proto(reply.message))
        if reply.stop:
            self.termination = "user_stop"

    async def play(self) -> None:
        """The turn loop: agent steps until the user stops, a tool ends the episode, or the steps run out."""
        await self.user_opens()
        while self.steps < self.config.max_steps and self.termination is None:
            with self.turns.step():
                try:
                    message = await self.agent_answers()
                except grpc.aio.AioRpcError as exc:
                    if exc.code() != grpc.StatusCode.OUT_OF_RANGE:
                        raise
                    self.termination = "agent_gave_up"  # the agent's failure: scored as it stands
                    self.gave_up = exc.details() or "agent cannot continue"
                    break
                if message.tool_calls:
                    await self.run_tools(message.tool_calls)
                    continue
                await self.user_replies(message)
                self.turns.end()  # the user answered: the next agent step opens a new turn
        self.turns.end()

    async def score(self) -> tuple[scorer_pb2.ScoreEpisodeResponse, str, dict[str, Any] | None]:
        """The final state from the env and the scorer's reward: (response, final data hash, reward info)."""
        rpc = self.config.rpc_timeout
        with tracing.scoring() as span:
            final: env_pb2.GetFinalStateResponse = await with_retries(
                partial(
                    self.clients.env.GetFinalState,
                    env_pb2.GetFinalStateRequest(session_id=self.session.session_id),
                    timeout=rpc,
                )
            )
            request = scorer_pb2.ScoreEpisodeRequest(
                task=task_ref_to_proto(self.task),
                ended=self.termination in ("user_stop", "terminate_tool"),
                final_data_hash=final.data_hash,
                conversation=[message_to_proto(m) for m in self.transcript.agent],
            )
            score: scorer_pb2.ScoreEpisodeResponse = await with_retries(
                partial(self.clients.scorer.ScoreEpisode, request, timeout=rpc)
            )
            reward_info = _reward_info(score)
            span.scored(score.reward, final.data_hash, reward_info)
        return score, final.data_hash, reward_info

    async def close(self) -> None:
        """Close the session; a failure here loses nothing (the session expires on its own)."""
        self.turns.end()
        with contextlib.suppress(grpc.aio.AioRpcError):
            await self.clients.env.CloseSession(
                env_pb2.CloseSessionRequest(session_id=self.session.session_id), timeout=self.config.rpc_timeout
            )


async def run_episode(clients: ServiceClients, config: RunConfig, task: TaskRef, trial: int) -> EpisodeOutcome:
    """Play one episode to its end and score it. An infrastructure fault raises :class:`EpisodeInterrupted`."""
    started = time.monotonic()
    episode = _Episode(clients, config, task, trial)
    try:
        await episode.open()
        try:
            await episode.play()
            score, final_hash, reward_info = await episode.score()
        finally:
            await episode.close()
    except grpc.aio.AioRpcError as exc:
        raise EpisodeInterrupted(exc, episode.agent_usage, episode.user_usage) from exc
    return EpisodeOutcome(
        task=task,
        trial=trial,
        episode_id=episode.context.episode_id,
        reward=score.reward,
        reward_info=reward_info,
        termination=episode.termination or "max_steps",
        steps=episode.steps,
        traj=episode.transcript.traj,
        agent_usage=episode.agent_usage,
        user_usage=episode.user_usage,
        duration_s=time.monotonic() - started,
        final_data_hash=final_hash,
        source=episode.source,
        required_outputs=list(score.required_outputs),
        gave_up=episode.gave_up,
    )
