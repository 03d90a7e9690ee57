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

from orchestrator import tracing
from orchestrator.clients import ServiceClients, with_retries
from orchestrator.config import RunConfig
from tau.agent.v1 import agent_pb2
from tau.env.v1 import env_pb2
from tau.scorer.v1 import scorer_pb2
from tau.user_sim.v1 import user_sim_pb2
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
from taumesh.models import ChatMessage, EpisodeContext, TaskRef, Usage

Termination = Literal["user_stop", "terminate_tool", "max_steps", "env_abort"]


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


async def run_episode(clients: ServiceClients, config: RunConfig, task: TaskRef, trial: int) -> EpisodeOutcome:
    """Play one episode to its end and score it. Infrastructure faults propagate as ``grpc.aio.AioRpcError``."""
    started = time.monotonic()
    episode = EpisodeContext(task=task, trial=trial, episode_id=uuid.uuid4().hex)
    episode_pb = episode_to_proto(episode)
    rpc, model_rpc = config.rpc_timeout, config.model_timeout

    opened: env_pb2.OpenSessionResponse = await with_retries(
        lambda: clients.env.OpenSession(env_pb2.OpenSessionRequest(task=task_ref_to_proto(task)), timeout=rpc)
    )
    session_id = opened.session_id
    turns = tracing.Turns(config)
    try:
        transcript = Transcript(traj=[ChatMessage(role="system", content=opened.policy)])
        agent_usage, user_usage = Usage(), Usage()
        user_config = user_settings_to_proto(config.user)

        with tracing.user_turn(config.user, "start") as opening:
            started_reply: user_sim_pb2.StartConversationResponse = await with_retries(
                lambda: clients.user.StartConversation(
                    user_sim_pb2.StartConversationRequest(
                        config=user_config, instruction=opened.user_instruction, episode=episode_pb
                    ),
                    timeout=model_rpc,
                ),
                attempts=MODEL_RPC_ATTEMPTS,
            )
            opening.replied(message_from_proto(started_reply.message), usage_from_proto(started_reply.usage))
        user_usage += usage_from_proto(started_reply.usage)
        transcript.user_said(message_from_proto(started_reply.message))

        steps, ended, source, agent_steps = 0, False, "user", 0
        termination: Termination = "max_steps"
        agent_config = agent_settings_to_proto(config.agent)
        while steps < config.max_steps and not ended:
            with turns.step():
                request = agent_pb2.NextMessageRequest(
                    episode=episode_pb,
                    policy=opened.policy,
                    tools=opened.tools,
                    conversation=[message_to_proto(m) for m in transcript.agent],
                    config=agent_config,
                )
                agent_steps += 1
                with tracing.agent_step(config.agent, episode, agent_steps) as agent_step:
                    answer: agent_pb2.NextMessageResponse = await with_retries(
                        partial(clients.agent.NextMessage, request, timeout=model_rpc), attempts=MODEL_RPC_ATTEMPTS
                    )
                    message = message_from_proto(answer.message).model_copy(update={"role": "assistant"})
                    agent_step.answered(message, usage_from_proto(answer.usage))
                agent_usage += usage_from_proto(answer.usage)
                transcript.agent_said(message)

                if message.tool_calls:
                    for call in message.tool_calls:
                        if steps >= config.max_steps:
                            break
                        steps += 1
                        call_request = env_pb2.CallToolRequest(
                            session_id=session_id,
                            tool_call=tool_call_to_proto(call),
                            request_id=f"{episode.episode_id}:{steps}",
                        )
                        with tracing.tool_call(call, session_id) as tool_span:
                            result: env_pb2.CallToolResponse = await with_retries(
                                partial(clients.env.CallTool, call_request, timeout=rpc)
                            )
                            tool_span.answered(
                                result.observation, error=result.error, done=result.done, aborted=result.aborted
                            )
                        source = call.name
                        transcript.tool_answered(
                            ChatMessage(role="tool", content=result.observation, tool_call_id=call.id, name=call.name)
                        )
                        if result.aborted:
                            termination, ended = "env_abort", True
                            break
                        if result.done:
                            termination, ended = "terminate_tool", True
                            break
                    continue

                steps += 1
                source = "user"
                transcript.agent_told_user(message)
                reply_request = user_sim_pb2.ReplyRequest(
                    config=user_config,
                    instruction=opened.user_instruction,
                    conversation=[message_to_proto(m) for m in transcript.user],
                    episode=episode_pb,
                )
                with tracing.user_turn(config.user, "reply") as user_reply:
                    reply: user_sim_pb2.ReplyResponse = await with_retries(
                        partial(clients.user.Reply, reply_request, timeout=model_rpc), attempts=MODEL_RPC_ATTEMPTS
                    )
                    user_reply.replied(message_from_proto(reply.message), usage_from_proto(reply.usage), reply.stop)
                user_usage += usage_from_proto(reply.usage)
                transcript.user_said(message_from_proto(reply.message))
                if reply.stop:
                    termination, ended = "user_stop", True
                turns.end()  # the user answered: the next agent step opens a new turn
        turns.end()

        with tracing.scoring() as scoring:
            final: env_pb2.GetFinalStateResponse = await with_retries(
                lambda: clients.env.GetFinalState(env_pb2.GetFinalStateRequest(session_id=session_id), timeout=rpc)
            )
            scored = termination in ("user_stop", "terminate_tool")
            score: scorer_pb2.ScoreEpisodeResponse = await with_retries(
                lambda: clients.scorer.ScoreEpisode(
                    scorer_pb2.ScoreEpisodeRequest(
                        task=task_ref_to_proto(task),
                        ended=scored,
                        final_data_hash=final.data_hash,
                        conversation=[message_to_proto(m) for m in transcript.agent],
                    ),
                    timeout=rpc,
                )
            )
            reward_info = _reward_info(score)
            scoring.scored(score.reward, final.data_hash, reward_info)
    finally:
        turns.end()
        with contextlib.suppress(grpc.aio.AioRpcError):  # the session expires on its own; the outcome matters more
            await clients.env.CloseSession(env_pb2.CloseSessionRequest(session_id=session_id), timeout=rpc)

    return EpisodeOutcome(
        task=task,
        trial=trial,
        episode_id=episode.episode_id,
        reward=score.reward,
        reward_info=reward_info,
        termination=termination,
        steps=steps,
        traj=transcript.traj,
        agent_usage=agent_usage,
        user_usage=user_usage,
        duration_s=time.monotonic() - started,
        final_data_hash=final.data_hash,
        source=source,
        required_outputs=list(score.required_outputs),
    )
