"""Rescoring: replay recorded trajectories in fresh sessions and recompute their rewards.

Reads trajectories in OpenAI chat form as τ-bench's tool-calling agents record them (only tool
calls answered by a tool message ran; τ-bench ran just the first of several) and in the text form
of its act/react agents (``Action: {"name": ..., "arguments": ...}`` answered by ``API output: ...``).
Reads τ²'s ``Results`` documents too (τ²'s own and taumesh's ``--output-format tau2``): each simulation's
answered tool calls, the agent's and the user's, are replayed in order, and the recorded termination is scored.
A τ-bench-layout file of a τ² domain is read the same way, from each entry's whole timeline
(:meth:`RunResult.timeline`: ``traj`` with the user's own tool calls put back); a τ-bench v1 domain's, from ``traj``.
"""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import Mapping
from functools import partial
from pathlib import Path
from typing import Any, get_args

import grpc
from pydantic import BaseModel, Field
from rich.console import Console

from taumesh.common.v1 import common_pb2
from taumesh.convert import (
    message_to_proto,
    model_to_proto,
    run_defaults_from_proto,
    task_ref_to_proto,
    termination_to_proto,
    tool_call_to_proto,
)
from taumesh.domains import VARIANT_SEPARATOR
from taumesh.env.v1 import env_pb2
from taumesh.models import (
    STOP_TOKEN,
    ChatMessage,
    ModelSettings,
    ReplayMode,
    TaskRef,
    Termination,
    ToolCall,
)
from taumesh.orchestrator.after.recorded_settings import RecordedSettings, recorded_settings
from taumesh.orchestrator.after.task_changes import GradedTask, recorded_tasks, task_changes
from taumesh.orchestrator.clients import ServiceClients, list_tasks, with_retries
from taumesh.orchestrator.config import ServiceAddresses
from taumesh.orchestrator.domain_info import domain_info, listing_request
from taumesh.orchestrator.episode.grading import GRADERS
from taumesh.orchestrator.provider_limits import judge_limits
from taumesh.orchestrator.results.atomic_files import write_json_atomically
from taumesh.orchestrator.results.records import RunResult
from taumesh.orchestrator.results.results_file import load_results
from taumesh.orchestrator.run.data_check import REFUSALS, DataUnreadable, check_domain_data
from taumesh.orchestrator.run.stack import service_stack
from taumesh.scorer.v1 import scorer_pb2

_ACTION = re.compile(r"Action:\s*(\{.*\})\s*$", re.DOTALL)
_TIMEOUT = 60.0


class Replay(BaseModel):
    """What a trajectory did: tool calls in order, the agent's messages to the user, whether it ended."""

    tool_calls: list[ToolCall]
    responses: list[str]
    user_stopped: bool
    termination: Termination | None = None
    """The episode's recorded ending (τ²'s files record it); None: judged from the replay."""
    conversation: list[ChatMessage] = Field(default_factory=list)
    """What the agent saw, in order, as the scorer gets it from an episode (τ²'s scorer replays its tool calls);
    empty: the agent's texts alone."""


class RecordedEpisode(BaseModel):
    """One episode of a results file, ready to replay."""

    task_id: int | str
    trial: int
    reward: float | None
    replay: Replay | None
    """None: nothing to replay (the original run aborted the task)."""


TAU2_TERMINATIONS: dict[str, Termination] = {
    "user_stop": "user_stop",
    "agent_stop": "terminate_tool",
    "max_steps": "max_steps",
    "too_many_errors": "too_many_errors",
}
"""τ²'s ``TerminationReason`` → taumesh's (τ² scores only user_stop and agent_stop, as taumesh its two)."""
_TERMINATIONS: dict[str, Termination] = {ending: ending for ending in get_args(Termination)}
"""taumesh's terminations by name, as ``info.termination`` records them."""


class RescoreRow(BaseModel):
    """One trajectory's recorded and recomputed reward."""

    task_id: int | str
    trial: int
    recorded_reward: float | None
    reward: float | None
    error: str | None = None
    failed: bool = False
    """The services refused to replay or score it (``error`` says why): it counts as a disagreement."""
    task_changes: list[str] = Field(default_factory=list)
    """How the task now graded differs from the one the results file records (gold actions, outputs, basis)."""


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


def parse_tau2_messages(messages: list[dict[str, Any]], termination: str) -> Replay:
    """What a τ² simulation did: its answered tool calls (agent's and user's) in order, the agent's texts."""
    answered = {m.get("id") for m in messages if m.get("role") == "tool"}
    answered |= {t.get("id") for m in messages for t in m.get("tool_messages") or []}  # MultiToolMessage
    calls: list[ToolCall] = []
    responses: list[str] = []
    conversation: list[ChatMessage] = []  # the scorer's timeline: the user's own tool calls and results too
    for message in messages:
        role = message.get("role")
        if role == "tool":
            for tool in message.get("tool_messages") or [message]:
                conversation.append(
                    ChatMessage(role="tool", content=tool.get("content") or "", tool_call_id=tool["id"])
                )
            continue
        if role not in ("assistant", "user"):
            continue
        made = [
            ToolCall(
                id=call["id"],
                name=call["name"],
                arguments=json.dumps(call.get("arguments") or {}),
                requestor=call.get("requestor") or role,
            )
            for call in message.get("tool_calls") or []
            if call.get("id") in answered
        ]
        calls += made
        text = message.get("content") or ""
        if role == "assistant":
            if text.strip():
                responses.append(text)
            conversation.append(ChatMessage(role="assistant", content=text, tool_calls=made))
        elif text or made:
            conversation.append(ChatMessage(role="user", content=text, tool_calls=made))
    ending = TAU2_TERMINATIONS.get(termination, "max_steps")
    return Replay(
        tool_calls=calls,
        responses=responses,
        user_stopped=ending == "user_stop",
        termination=ending,
        conversation=conversation,
    )


def parse_timeline(timeline: list[dict[str, Any]], termination: str) -> Replay:
    """What an episode of a τ² domain did, from its timeline in OpenAI form (:meth:`RunResult.timeline`).

    Its answered tool calls in order, the user's (those of user messages) with requestor ``user``; the conversation
    the run sent the scorer (``Transcript.scored``: the timeline less the system prompt); the recorded termination,
    else the one the replay shows.
    """
    answered = {m.get("tool_call_id") for m in timeline if m.get("role") == "tool"}
    conversation: list[ChatMessage] = []
    for raw in timeline:
        if raw.get("role") == "system":
            continue
        message = ChatMessage.from_openai(raw)
        requestor = "user" if message.role == "user" else "assistant"
        calls = [call.model_copy(update={"requestor": requestor}) for call in message.tool_calls if call.id in answered]
        conversation.append(message.model_copy(update={"tool_calls": calls}))
    return Replay(
        tool_calls=[call for message in conversation for call in message.tool_calls],
        responses=[m.content for m in conversation if m.role == "assistant" and m.content.strip()],
        user_stopped=any(m.role == "user" and STOP_TOKEN in m.content for m in conversation),
        termination=_TERMINATIONS.get(termination),
        conversation=conversation,
    )


def _replay(result: RunResult, replay: ReplayMode) -> Replay | None:
    """An entry's replay as its domain re-grades: the whole timeline (τ², dual control), or what the agent saw (v1)."""
    if not result.traj:
        return None
    if replay == "timeline":
        return parse_timeline(result.timeline(), str(result.info.get("termination", "")))
    return parse_trajectory(result.traj)


def load_episodes(path: Path, replay: ReplayMode = "trajectory") -> list[RecordedEpisode]:
    """The episodes of a results file: τ-bench's list (taumesh's, with its errors) or τ²'s ``Results``.

    ``replay`` is what the domain's re-grading replays of a τ-bench list's entries (``RunDefaults.replay``); a τ²
    document records every message, so it is replayed whole.
    """
    with path.open(encoding="utf-8") as handle:
        raw = json.load(handle)
    if isinstance(raw, dict) and isinstance(raw.get("simulations"), list):
        return [
            RecordedEpisode(
                task_id=str(sim["task_id"]),
                trial=int(sim.get("trial") or 0),
                reward=(sim.get("reward_info") or {}).get("reward"),
                replay=parse_tau2_messages(sim.get("messages") or [], str(sim.get("termination_reason"))),
            )
            for sim in raw["simulations"]
        ]
    return [
        RecordedEpisode(task_id=r.task_id, trial=r.trial, reward=r.reward, replay=_replay(r, replay))
        for r in load_results(path)
    ]


async def rescore_one(
    clients: ServiceClients,
    task: TaskRef,
    replay: Replay,
    terminate_tools: set[str],
    judge: common_pb2.ModelConfig | None = None,
) -> float:
    """Replay one trajectory in a fresh session and return the scorer's reward (``judge``: τ²'s NL assertions)."""
    return (await replay_and_score(clients, task, replay, terminate_tools, judge)).reward


async def replay_and_score(
    clients: ServiceClients,
    task: TaskRef,
    replay: Replay,
    terminate_tools: set[str],
    judge: common_pb2.ModelConfig | None = None,
    grader: str = "faithful",
) -> scorer_pb2.ScoreEpisodeResponse:
    """Replay one trajectory in a fresh session; the scorer's answer (reward, and the task as graded now).

    ``grader``: the grading the scorer applies (``--grader``: faithful, strict), as the file records it.
    """
    opened: env_pb2.OpenSessionResponse = await with_retries(
        lambda: clients.env.OpenSession(env_pb2.OpenSessionRequest(task=task_ref_to_proto(task)), timeout=_TIMEOUT)
    )
    # the task's message history, which a τ² trajectory starts with, ran when the session opened
    ran = {call.id for message in opened.history for call in message.tool_calls}
    try:
        terminated = False
        for n, call in enumerate(replay.tool_calls):
            if call.id in ran:
                continue
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
        conversation = [
            message_to_proto(message)
            for message in replay.conversation
            or [ChatMessage(role="assistant", content=text) for text in replay.responses]
        ]
        score: scorer_pb2.ScoreEpisodeResponse = await with_retries(
            lambda: clients.scorer.ScoreEpisode(
                scorer_pb2.ScoreEpisodeRequest(
                    task=task_ref_to_proto(task),
                    termination=termination_to_proto(
                        replay.termination
                        or ("terminate_tool" if terminated else "user_stop" if replay.user_stopped else "max_steps")
                    ),
                    final_data_hash=final.data_hash,
                    conversation=conversation,
                    judge=judge,
                    grader=GRADERS[grader],
                ),
                timeout=_TIMEOUT,
            )
        )
        return score
    finally:
        await clients.env.CloseSession(env_pb2.CloseSessionRequest(session_id=opened.session_id), timeout=_TIMEOUT)


async def rescore_file(
    path: Path,
    env: str,
    split: str | None,
    data_dir: Path,
    addresses: ServiceAddresses,
    out: Path | None = None,
    concurrency: int = 8,
    judge: ModelSettings | None = None,
    allow_release_change: bool = False,
    provider_limits: Mapping[str, int] | None = None,
    grader: str | None = None,
) -> list[RescoreRow]:
    """Rescore every trajectory of a results file (τ-bench's or τ²'s); write the rows to ``out`` when given.

    ``split`` and ``grader`` override what the file records only when given: otherwise its split (else the domain's
    first with data, the split a run takes by default) and its grader (a strict run is re-graded strictly). ``judge``
    is the model that judges τ²'s NL assertions (tasks whose reward needs it fail without one). Each row names how
    its task now differs from the one the file records (``task_changes``). A file recorded on another release of the
    domain's data is refused unless ``allow_release_change``, and one whose tasks are none of the split's is refused.
    Each ScoreEpisode holds a permit of the judge's provider, as in a run: at most ``provider_limits``'s cap in
    flight, 429s asked again under it.
    """
    recorded = recorded_settings(path)
    grader = grader or recorded.grader
    if grader not in GRADERS:
        raise RescoreError(f"unknown grader {grader!r} (known: {', '.join(GRADERS)})")
    graded = recorded_tasks(path)
    judge_config = model_to_proto(judge) if judge is not None and judge.model else None
    semaphore = asyncio.Semaphore(concurrency)
    limits = judge_limits(judge or ModelSettings(), provider_limits or {}, concurrency)
    async with service_stack(addresses, data_dir) as clients:
        domains: env_pb2.ListDomainsResponse = await clients.env.ListDomains(listing_request(env), timeout=_TIMEOUT)
        served_info = _check_domain(domains, env)
        defaults = run_defaults_from_proto(served_info)  # the domain's own: its default split, how it replays
        episodes = load_episodes(path, defaults.replay)
        chosen = recorded.split_for(split) or defaults.split or str(served_info.splits[0].name)
        served = await _check_data(clients, env, chosen)
        releases = await _family_releases(clients, domains, env)
        if not allow_release_change:  # first: another release is why a file's tasks may be missing
            _check_release(path, env, recorded.data_releases, releases)
        _check_tasks(path, episodes, served, TaskRef(domain=env, split=chosen, task_id=""), recorded, releases)
        terminate = {t for d in domains.domains if d.name == env for t in d.terminate_tools}

        async def one(episode: RecordedEpisode) -> RescoreRow:
            row = RescoreRow(task_id=episode.task_id, trial=episode.trial, recorded_reward=episode.reward, reward=None)
            if episode.replay is None:
                return row.model_copy(update={"error": "empty trajectory (the original run aborted this task)"})
            task = TaskRef(domain=env, split=chosen, task_id=str(episode.task_id))
            try:
                async with semaphore:
                    score = await replay_and_score(clients, task, episode.replay, terminate, judge_config, grader)
            except grpc.aio.AioRpcError as exc:  # this trajectory's failure (or an outage past the retries): its row
                return row.model_copy(update={"error": f"{exc.code().name}: {exc.details()}", "failed": True})
            before = graded.get(str(episode.task_id))
            changes = task_changes(before, GradedTask.from_score(score)) if before is not None else []
            return row.model_copy(update={"reward": score.reward, "task_changes": changes})

        with limits:  # the scorer's channel takes the permits (ServiceClients' provider-limit interceptor)
            rows = await asyncio.gather(*(one(e) for e in episodes))
    if out is not None:
        write_json_atomically(out, [row.model_dump() for row in rows])
    return list(rows)


class RescoreError(Exception):
    """The rescore cannot start (the message says why).

    An unknown domain, split or grader, data the env cannot read, or a file none of whose tasks the split holds.
    """


def _check_domain(domains: env_pb2.ListDomainsResponse, env: str) -> env_pb2.DomainInfo:
    """What the env says of ``env``; refused, with one message, when it serves no data for it.

    Otherwise every trajectory's row would say so.
    """
    served = domain_info(domains, env)
    if served is None:
        known = ", ".join(sorted(domain.name for domain in domains.domains)) or "none"
        raise RescoreError(f"unknown domain {env!r}; domains with data: {known}")
    return served


async def _check_data(clients: ServiceClients, env: str, split: str) -> set[str]:
    """The ids of the split's tasks; refuse, with one message, a split or data the env cannot read.

    Otherwise every trajectory's row would carry the same failure.
    """
    try:
        tasks = await list_tasks(clients, env, split, _TIMEOUT)
        if tasks:
            await check_domain_data(clients, TaskRef(domain=env, split=split, task_id=tasks[0].task_id), _TIMEOUT)
    except grpc.aio.AioRpcError as exc:
        if exc.code() in REFUSALS:
            raise RescoreError(exc.details() or exc.code().name) from exc
        raise
    except DataUnreadable as exc:
        raise RescoreError(str(exc)) from exc
    return {task.task_id for task in tasks}


def _check_tasks(
    path: Path,
    episodes: list[RecordedEpisode],
    served: set[str],
    where: TaskRef,
    recorded: RecordedSettings,
    releases: Mapping[str, str],
) -> None:
    """Refuse a file none of whose tasks is in the split re-graded (``where``): every row would be NOT_FOUND.

    The message says what the file records that differs: its split, or its data release (``releases``: what the env
    serves for the domain's names, :func:`_family_releases`).
    """
    ids = {str(episode.task_id) for episode in episodes if episode.replay is not None}
    if not ids or ids & served:
        return
    env, split = where.domain, where.split
    release = releases.get(env, "")
    if recorded.task_split and recorded.task_split != split:
        hint = f"the file records split {recorded.task_split!r}: leave out --task-split"
    elif recorded.data_releases and release not in recorded.data_releases:
        was = ", ".join(sorted(recorded.data_releases))
        hint = f"the file was recorded on data release {was}, and {env} serves {release or 'no recorded release'}"
    else:
        hint = "pass the --env and --task-split it was run on"
    raise RescoreError(f"none of the {len(ids)} tasks {path.name} records is in {env}'s split {split!r}; {hint}")


async def _family_releases(clients: ServiceClients, listed: env_pb2.ListDomainsResponse, env: str) -> dict[str, str]:
    """The data release the env serves for ``env``, its domain and each of its variants, by name, ``env`` first.

    "" for data with none. A domain whose variants serve other releases (healthcare and ``healthcare:v1``) makes a
    results file that records no release ambiguous: it may have been run on any of them.
    """
    served = {d.name: d.data_release for d in listed.domains}
    base = env.partition(VARIANT_SEPARATOR)[0]
    variants = [v for d in listed.domains if d.name == base for v in d.variants if v not in served]
    if variants:
        family: env_pb2.ListDomainsResponse = await clients.env.ListDomains(
            env_pb2.ListDomainsRequest(variants=variants), timeout=_TIMEOUT
        )
        served.update({d.name: d.data_release for d in family.domains if d.name in variants})
    names = [env, base, *variants]
    return {name: served[name] for name in dict.fromkeys(names) if name in served}


def _check_release(path: Path, env: str, recorded: frozenset[str], releases: Mapping[str, str]) -> None:
    """Refuse to re-grade results recorded on another release of the data than the env serves for ``env`` now.

    ``recorded``: the releases the file records. ``releases``: what the env serves for ``env`` and for the other
    names of its domain (its variants), ``env`` first. A file that records no release (written before its domain's
    data had releases, or by τ-bench's run.py) is refused when the domain serves several: which one it was run on
    is unknown.
    """
    served = releases.get(env, "")
    others = sorted(recorded - {served})
    now = f"release {served}" if served else "data with no recorded release"
    if others:
        serving = [name for name, release in releases.items() if release in others]
        instead = f"; {' and '.join(serving)} serves it: pass --env {serving[0]}, or" if serving else ": pass"
        raise RescoreError(
            f"{path} was recorded on data release {', '.join(others)} and the env serves {now} for {env}{instead} "
            "--allow-release-change (or --fresh-tasks) to re-grade it against what is served now"
        )
    several = sorted({release for release in releases.values() if release})
    if not recorded and len(several) > 1:
        each = ", ".join(f"{name} serves {release or 'no recorded release'}" for name, release in releases.items())
        raise RescoreError(
            f"{path} records no data release and {env}'s domain has several ({each}): it may have been run on any "
            f"of them; pass the --env it was run on with --allow-release-change to re-grade it against that "
            f"{'release' if served else 'data'}"
        )


def _differs(row: RescoreRow) -> bool:
    return abs((row.reward or 0) - (row.recorded_reward or 0)) >= 1e-6


def print_task_changes(rows: list[RescoreRow], console: Console, *, fresh_tasks: bool) -> bool:
    """Report the tasks that changed since the results were graded; True when every differing verdict is explained.

    With ``fresh_tasks`` (``rescore --fresh-tasks``) each changed verdict is listed with why; without, a warning
    names the changed tasks.
    """
    changed = [row for row in rows if row.task_changes]
    comparable = [row for row in rows if row.reward is not None and row.recorded_reward is not None]
    if not fresh_tasks:
        if changed:
            named = ", ".join(sorted({str(row.task_id) for row in changed}))
            console.print(
                f"warning: {len({row.task_id for row in changed})} tasks differ from those the results were graded "
                f"with ({named}): pass --fresh-tasks to re-grade against the current tasks and see each change",
                soft_wrap=True,
                markup=False,
            )
        return False
    flipped = [row for row in comparable if _differs(row)]
    console.print(
        f"re-graded against the current tasks: {len({row.task_id for row in changed})} tasks changed, "
        f"{len(flipped)} verdicts changed"
    )
    for row in flipped:
        why = "; ".join(row.task_changes) or "the task is unchanged: the replay itself now scores differently"
        console.print(
            f"  task {row.task_id} trial {row.trial}: {row.recorded_reward} -> {row.reward} ({why})",
            soft_wrap=True,
            markup=False,
        )
    return all(row.task_changes for row in flipped) and not any(row.failed for row in rows)


def print_rescore(rows: list[RescoreRow], console: Console) -> bool:
    """Print the agreement; True when every recomputed reward equals the recorded one."""
    comparable = [r for r in rows if r.reward is not None and r.recorded_reward is not None]
    agree = sum(1 for r in comparable if abs((r.reward or 0) - (r.recorded_reward or 0)) < 1e-6)
    console.print(f"rescored {len(comparable)} trajectories: {agree} agree, {len(comparable) - agree} differ")
    for row in comparable:
        if abs((row.reward or 0) - (row.recorded_reward or 0)) >= 1e-6:
            console.print(f"  task {row.task_id} trial {row.trial}: recorded {row.recorded_reward}, now {row.reward}")
    failed = [r for r in rows if r.failed]
    if failed:
        console.print(f"could not rescore {len(failed)}:")
        for row in failed:
            console.print(f"  task {row.task_id} trial {row.trial}: {row.error}", soft_wrap=True, markup=False)
    skipped = [r for r in rows if r not in comparable and not r.failed]
    if skipped:
        console.print(f"skipped {len(skipped)} (no trajectory or no recorded reward)")
    return agree == len(comparable) and not failed
