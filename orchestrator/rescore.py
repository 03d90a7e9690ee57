"""Rescoring: replay recorded trajectories in fresh sessions and recompute their rewards.

Reads trajectories in OpenAI chat form as τ-bench's tool-calling agents record them (only tool
calls answered by a tool message ran; τ-bench ran just the first of several) and in the text form
of its act/react agents (``Action: {"name": ..., "arguments": ...}`` answered by ``API output: ...``).
"""

from __future__ import annotations

import asyncio
import json
import re
from functools import partial
from pathlib import Path
from typing import Any

from pydantic import BaseModel
from rich.console import Console

from taumesh.convert import message_to_proto, task_ref_to_proto, termination_to_proto, tool_call_to_proto
from taumesh.env.v1 import env_pb2
from taumesh.models import STOP_TOKEN, ChatMessage, TaskRef, ToolCall
from taumesh.orchestrator.clients import ServiceClients, with_retries
from taumesh.orchestrator.config import ServiceAddresses
from taumesh.orchestrator.results import RunResult, load_results, write_json_atomically
from taumesh.orchestrator.stack import service_stack
from taumesh.scorer.v1 import scorer_pb2

_ACTION = re.compile(r"Action:\s*(\{.*\})\s*$", re.DOTALL)
_TIMEOUT = 60.0


class Replay(BaseModel):
    """What a trajectory did: tool calls in order, the agent's messages to the user, whether it ended."""

    tool_calls: list[ToolCall]
    responses: list[str]
    user_stopped: bool


class RescoreRow(BaseModel):
    """One trajectory's recorded and recomputed reward."""

    task_id: int | str
    trial: int
    recorded_reward: float | None
    reward: float | None
    error: str | None = None


def _text_action(content: str) -> dict[str, Any] | None:
    match = _ACTION.search(content)
    if not match:
        return None
    try:
        action = json.loads(match.group(1))
    except json.JSONDecodeError:
        return None
    return action if isinstance(action, dict) and "name" in action else None


def parse_trajectory(traj: list[dict[str, Any]]) -> Replay:
    """Extract the actions a recorded trajectory took."""
    answered = {m.get("tool_call_id") for m in traj if m.get("role") == "tool"}
    calls: list[ToolCall] = []
    responses: list[str] = []
    stopped = False
    for raw in traj:
        role = raw.get("role")
        if role == "user" and STOP_TOKEN in (raw.get("content") or ""):
            stopped = True
        if role != "assistant":
            continue
        message = ChatMessage.from_openai(raw)
        if message.tool_calls:
            calls += [call for call in message.tool_calls if call.id in answered]
            continue
        action = _text_action(message.content)
        if action is None:
            responses.append(message.content)
        elif action["name"] == "respond":
            responses.append(str(action.get("arguments", {}).get("content", "")))
        else:
            calls.append(
                ToolCall(
                    id=f"text_{len(calls)}", name=action["name"], arguments=json.dumps(action.get("arguments", {}))
                )
            )
    return Replay(tool_calls=calls, responses=responses, user_stopped=stopped)


async def rescore_one(clients: ServiceClients, task: TaskRef, replay: Replay, terminate_tools: set[str]) -> float:
    """Replay one trajectory in a fresh session and return the scorer's reward."""
    opened: env_pb2.OpenSessionResponse = await with_retries(
        lambda: clients.env.OpenSession(env_pb2.OpenSessionRequest(task=task_ref_to_proto(task)), timeout=_TIMEOUT)
    )
    try:
        terminated = False
        for n, call in enumerate(replay.tool_calls):
            request = env_pb2.CallToolRequest(
                session_id=opened.session_id, tool_call=tool_call_to_proto(call), request_id=f"rescore:{n}"
            )
            result: env_pb2.CallToolResponse = await with_retries(
                partial(clients.env.CallTool, request, timeout=_TIMEOUT)
            )
            if result.status in (env_pb2.TOOL_CALL_STATUS_TERMINATED, env_pb2.TOOL_CALL_STATUS_ABORTED):
                terminated = result.status == env_pb2.TOOL_CALL_STATUS_TERMINATED and call.name in terminate_tools
                break
        final: env_pb2.GetFinalStateResponse = await with_retries(
            lambda: clients.env.GetFinalState(
                env_pb2.GetFinalStateRequest(session_id=opened.session_id), timeout=_TIMEOUT
            )
        )
        conversation = [message_to_proto(ChatMessage(role="assistant", content=text)) for text in replay.responses]
        score: scorer_pb2.ScoreEpisodeResponse = await with_retries(
            lambda: clients.scorer.ScoreEpisode(
                scorer_pb2.ScoreEpisodeRequest(
                    task=task_ref_to_proto(task),
                    termination=termination_to_proto(
                        "terminate_tool" if terminated else "user_stop" if replay.user_stopped else "max_steps"
                    ),
                    final_data_hash=final.data_hash,
                    conversation=conversation,
                ),
                timeout=_TIMEOUT,
            )
        )
        return score.reward
    finally:
        await clients.env.CloseSession(env_pb2.CloseSessionRequest(session_id=opened.session_id), timeout=_TIMEOUT)


async def rescore_file(
    path: Path,
    env: str,
    split: str,
    data_dir: Path,
    addresses: ServiceAddresses,
    out: Path | None = None,
    concurrency: int = 8,
) -> list[RescoreRow]:
    """Rescore every trajectory of a results file; write the rows to ``out`` when given."""
    results = load_results(path)
    semaphore = asyncio.Semaphore(concurrency)
    async with service_stack(addresses, data_dir) as clients:
        domains: env_pb2.ListDomainsResponse = await clients.env.ListDomains(
            env_pb2.ListDomainsRequest(), timeout=_TIMEOUT
        )
        terminate = {t for d in domains.domains if d.name == env for t in d.terminate_tools}

        async def one(result: RunResult) -> RescoreRow:
            row = RescoreRow(task_id=result.task_id, trial=result.trial, recorded_reward=result.reward, reward=None)
            if not result.traj:
                return row.model_copy(update={"error": "empty trajectory (the original run aborted this task)"})
            async with semaphore:
                task = TaskRef(domain=env, split=split, task_id=str(result.task_id))
                reward = await rescore_one(clients, task, parse_trajectory(result.traj), terminate)
            return row.model_copy(update={"reward": reward})

        rows = await asyncio.gather(*(one(r) for r in results))
    if out is not None:
        write_json_atomically(out, [row.model_dump() for row in rows])
    return list(rows)


def print_rescore(rows: list[RescoreRow], console: Console) -> bool:
    """Print the agreement; True when every recomputed reward equals the recorded one."""
    comparable = [r for r in rows if r.reward is not None and r.recorded_reward is not None]
    agree = sum(1 for r in comparable if abs((r.reward or 0) - (r.recorded_reward or 0)) < 1e-6)
    console.print(f"rescored {len(comparable)} trajectories: {agree} agree, {len(comparable) - agree} differ")
    for row in comparable:
        if abs((row.reward or 0) - (row.recorded_reward or 0)) >= 1e-6:
            console.print(f"  task {row.task_id} trial {row.trial}: recorded {row.recorded_reward}, now {row.reward}")
    skipped = [r for r in rows if r not in comparable]
    if skipped:
        console.print(f"skipped {len(skipped)} (no trajectory or no recorded reward)")
    return agree == len(comparable)
