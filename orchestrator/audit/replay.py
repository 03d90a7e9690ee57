"""Plays a trajectory through the env service and has the scorer service grade it, as an episode would be.

The conversation the scorer gets is the one a run sends (``Transcript.scored``): the task's history, or the domain's
opening message and the user's instruction; each call with the env's own observation; the agent's message; the
user's stop token.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import partial

import grpc

from taumesh.convert import (
    message_from_proto,
    message_to_proto,
    task_ref_to_proto,
    termination_to_proto,
    tool_call_to_proto,
)
from taumesh.env.v1 import env_pb2
from taumesh.models import STOP_TOKEN, ChatMessage, TaskRef, Termination
from taumesh.orchestrator.audit.trajectories import Trajectory
from taumesh.orchestrator.clients import ServiceClients, with_retries
from taumesh.scorer.v1 import scorer_pb2

TIMEOUT = 60.0
_ENDS: dict[int, Termination] = {
    env_pb2.TOOL_CALL_STATUS_TERMINATED: "terminate_tool",
    env_pb2.TOOL_CALL_STATUS_ABORTED: "env_abort",
}


@dataclass
class Played:
    """What a trajectory did in the env: each call's observation and status, how it ended, the final hash."""

    results: list[env_pb2.CallToolResponse] = field(default_factory=list)
    conversation: list[ChatMessage] = field(default_factory=list)
    termination: Termination = "user_stop"
    initial_hash: str = ""
    """The data hash of the task's initial state (its own initialization and history applied)."""
    final_hash: str = ""

    def errors(self) -> list[tuple[int, str]]:
        """(position, observation) of each call the env reported as an error or that broke the episode."""
        failed = (env_pb2.TOOL_CALL_STATUS_ERROR, env_pb2.TOOL_CALL_STATUS_ABORTED)
        return [(n, result.observation) for n, result in enumerate(self.results) if result.status in failed]


async def play(clients: ServiceClients, task: TaskRef, trajectory: Trajectory, instruction: str) -> Played:
    """Play ``trajectory`` in a fresh session of ``task``; the session is closed on return."""
    opened: env_pb2.OpenSessionResponse = await with_retries(
        lambda: clients.env.OpenSession(env_pb2.OpenSessionRequest(task=task_ref_to_proto(task)), timeout=TIMEOUT)
    )
    played = Played(
        conversation=[message_from_proto(message) for message in opened.history],
        initial_hash=opened.initial_data_hash,
    )
    if not played.conversation:
        if opened.opening_agent_message:
            played.conversation.append(ChatMessage(role="assistant", content=opened.opening_agent_message))
        played.conversation.append(ChatMessage(role="user", content=instruction))
    try:
        for n, call in enumerate(trajectory.calls):
            request = env_pb2.CallToolRequest(
                session_id=opened.session_id, tool_call=tool_call_to_proto(call), request_id=f"audit:{n}"
            )
            result: env_pb2.CallToolResponse = await with_retries(
                partial(clients.env.CallTool, request, timeout=TIMEOUT)
            )
            played.results.append(result)
            played.conversation += [
                ChatMessage(role=call.requestor, tool_calls=[call]),
                ChatMessage(role="tool", content=result.observation, tool_call_id=call.id, name=call.name),
            ]
            if result.status in _ENDS:
                played.termination = _ENDS[result.status]
                break
        if played.termination == "user_stop":
            if trajectory.says is not None:
                played.conversation.append(ChatMessage(role="assistant", content=trajectory.says))
            played.conversation.append(ChatMessage(role="user", content=STOP_TOKEN))
        final: env_pb2.GetFinalStateResponse = await with_retries(
            lambda: clients.env.GetFinalState(
                env_pb2.GetFinalStateRequest(session_id=opened.session_id), timeout=TIMEOUT
            )
        )
        played.final_hash = final.data_hash
    finally:
        await clients.env.CloseSession(env_pb2.CloseSessionRequest(session_id=opened.session_id), timeout=TIMEOUT)
    return played


class NeedsJudge(Exception):
    """The scorer cannot grade the task without a judge model (τ²'s NL assertions in the basis)."""


class ScorerFailed(Exception):
    """The scorer broke on the trajectory (an env assertion that raises, in τ² as here): the task cannot be graded."""


async def score(clients: ServiceClients, task: TaskRef, played: Played) -> float:
    """The scorer's reward of a played trajectory; NeedsJudge when its task needs a judge model."""
    request = scorer_pb2.ScoreEpisodeRequest(
        task=task_ref_to_proto(task),
        termination=termination_to_proto(played.termination),
        final_data_hash=played.final_hash,
        conversation=[message_to_proto(message) for message in played.conversation],
    )
    try:
        response: scorer_pb2.ScoreEpisodeResponse = await with_retries(
            lambda: clients.scorer.ScoreEpisode(request, timeout=TIMEOUT)
        )
    except grpc.aio.AioRpcError as exc:
        if exc.code() == grpc.StatusCode.FAILED_PRECONDITION:
            raise NeedsJudge(exc.details() or "") from exc
        if exc.code() in (grpc.StatusCode.INTERNAL, grpc.StatusCode.INVALID_ARGUMENT):
            raise ScorerFailed(exc.details() or exc.code().name) from exc
        raise
    return response.reward
