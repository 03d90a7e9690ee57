"""Fault analysis: who is at fault in a failed episode (the user simulator, the agent, the task, the environment), how.

Deterministic checks come first (``fault_checks``: a task the validity audit flags, a user that stopped before the
goal was reachable or repeated its instruction); they call no model. The rest is judged by a model from the task
instruction, gold actions, required outputs, reward info and whole trajectory, tool calls included.
The answer is a JSON object; an unreadable one is asked again (at most :data:`MAX_ASKS` times in all). A model
that stays unavailable or never answers readably yields a report with an ``error`` instead of a verdict, so one
bad episode does not sink the rest.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Sequence
from typing import Any, Literal, get_args

from pydantic import BaseModel, Field

from taumesh.convert import messages_from_proto, model_from_proto, task_ref_from_proto, usage_to_proto
from taumesh.domains import Catalog, DataError
from taumesh.llm import find_json_object
from taumesh.llm.access import current_grants
from taumesh.llm.errors import ModelRateLimited
from taumesh.llm.retry import caller_retries_rate_limits
from taumesh.models import ChatMessage, ModelSettings, Usage
from taumesh.rpc.errors import InvalidArgument, NotFound, clip
from taumesh.scorer.v1 import scorer_pb2
from taumesh.services.scorer.asking import ask_until_readable
from taumesh.services.scorer.fault_checks import Check, TaskFlagSeen, check_fault

JudgedAuthor = Literal["user", "agent", "environment"]
"""Whom the judging model may blame (the task is blamed by the audit's flags alone)."""
Author = Literal["user", "agent", "environment", "task"]
FaultKind = Literal["wrong_tool", "wrong_argument", "goal_partially_completed", "unintended_action", "other"]
UserFaultKind = Literal["broke_instruction", "leaked_goal", "stopped_early", "invented_facts"]

MAX_ASKS = 3
"""Model calls per episode: the question and at most two re-asks after unreadable answers."""
DEFAULT_CONCURRENCY = 4

_AUTHOR_TO_PROTO: dict[str, scorer_pb2.FaultAuthor.ValueType] = {
    "user": scorer_pb2.FAULT_AUTHOR_USER,
    "agent": scorer_pb2.FAULT_AUTHOR_AGENT,
    "environment": scorer_pb2.FAULT_AUTHOR_ENVIRONMENT,
    "task": scorer_pb2.FAULT_AUTHOR_TASK,
}
_USER_KIND_TO_PROTO: dict[str, scorer_pb2.UserFaultType.ValueType] = {
    "broke_instruction": scorer_pb2.USER_FAULT_TYPE_BROKE_INSTRUCTION,
    "leaked_goal": scorer_pb2.USER_FAULT_TYPE_LEAKED_GOAL,
    "stopped_early": scorer_pb2.USER_FAULT_TYPE_STOPPED_EARLY,
    "invented_facts": scorer_pb2.USER_FAULT_TYPE_INVENTED_FACTS,
}
_KIND_TO_PROTO: dict[str, scorer_pb2.FaultType.ValueType] = {
    "wrong_tool": scorer_pb2.FAULT_TYPE_WRONG_TOOL,
    "wrong_argument": scorer_pb2.FAULT_TYPE_WRONG_ARGUMENT,
    "goal_partially_completed": scorer_pb2.FAULT_TYPE_GOAL_PARTIALLY_COMPLETED,
    "unintended_action": scorer_pb2.FAULT_TYPE_UNINTENDED_ACTION,
    "other": scorer_pb2.FAULT_TYPE_OTHER,
}

SYSTEM = """You find out why a customer-service conversation failed a benchmark task. A simulated user, following \
an instruction, talked to an AI agent that follows a policy and uses tools over a database. The benchmark compares \
the final database with the one the gold actions produce, and checks that the agent told the user every required \
output. This episode failed one of those checks.

Decide who is responsible for the failure:
- "user": the simulated user departed from its instruction;
- "agent": the agent made the mistake;
- "environment": the task could not be done as specified through no fault of either (a tool misbehaved, the data \
or the policy contradicts the gold actions, the instruction is ambiguous).

When the user is responsible, say which kind of fault it is:
- "broke_instruction": it asked for something else than its instruction says, changed its mind without reason, or \
refused what the instruction accepts;
- "leaked_goal": it gave its instruction away (repeated it, or told the agent what to do) instead of answering as a \
customer would;
- "stopped_early": it ended the conversation before its goal could be reached;
- "invented_facts": it stated a detail (an id, an amount, an item) its instruction does not give, or contradicts.

When the agent is responsible, say which kind of mistake it is:
- "wrong_tool": it used a tool other than the one the task needed;
- "wrong_argument": it used the right tool with a wrong argument;
- "goal_partially_completed": it did part of what was needed and stopped short, or did not tell a required output;
- "unintended_action": it did something the task did not ask for, or that the policy forbids;
- "other": any other mistake.

Answer with one JSON object and nothing else:
{"author": "user" | "agent" | "environment", "fault_type": <the user's or the agent's kind of fault above, null \
for "environment">, "description": "<one or two sentences on what went wrong>"}"""

REASK = """That answer could not be read: {problem}. Answer again with only the JSON object: {{"author": ..., \
"fault_type": ..., "description": ...}}."""


class TaskFacts(BaseModel):
    """What the task asked for."""

    instruction: str
    gold_actions: list[dict[str, Any]] = Field(default_factory=list)
    """``{"name", "kwargs"}`` in order."""
    required_outputs: list[str] = Field(default_factory=list)


class EpisodeToJudge(BaseModel):
    """A failed episode and its task."""

    task_id: str
    trial: int
    task: TaskFacts
    trajectory: list[ChatMessage]
    reward_info: Any = None
    task_flags: list[TaskFlagSeen] = Field(default_factory=list)
    """The stored validity audit's flags on the task, as the caller sent them."""


class Verdict(BaseModel):
    """Who is at fault and how: the judging model's answer, or a deterministic check's (``check``)."""

    author: Author
    fault_type: FaultKind | None = None
    """The agent's kind of fault."""
    user_fault: UserFaultKind | None = None
    """The user simulator's kind of fault."""
    description: str
    check: Check | None = None
    """The deterministic check that decided; None when the judging model did."""


class FaultAnalysis(BaseModel):
    """The analysis of one episode: a verdict, or why there is none."""

    task_id: str
    trial: int
    verdict: Verdict | None = None
    error: str = ""
    usage: Usage = Field(default_factory=Usage)


def _word(value: object) -> str:
    return str(value or "").strip().lower().replace("-", "_").replace(" ", "_")


def read_verdict(text: str) -> Verdict:
    """The verdict in a model answer; ValueError saying what is wrong with it."""
    answer = find_json_object(text)
    if answer is None:
        raise ValueError("no JSON object found")
    author = _word(answer.get("author"))
    if author not in get_args(JudgedAuthor):
        raise ValueError(f"author must be one of {list(get_args(JudgedAuthor))}, not {answer.get('author')!r}")
    description = str(answer.get("description") or "").strip()
    if not description:
        raise ValueError("description is missing")
    kind = _word(answer.get("fault_type"))
    if author == "user":
        if kind not in get_args(UserFaultKind):
            kinds = list(get_args(UserFaultKind))
            raise ValueError(f"fault_type must be one of {kinds} for a user fault, not {kind!r}")
        return Verdict(author="user", user_fault=kind, description=description)  # type: ignore[arg-type]
    if author != "agent":
        return Verdict(author=author, description=description)  # type: ignore[arg-type]
    if kind not in get_args(FaultKind):
        raise ValueError(f"fault_type must be one of {list(get_args(FaultKind))} for an agent fault, not {kind!r}")
    return Verdict(author="agent", fault_type=kind, description=description)  # type: ignore[arg-type]


def render_message(index: int, message: ChatMessage) -> str:
    """One trajectory message as a line of the prompt (the agent's and the user's tool calls with their arguments)."""
    if message.role in ("assistant", "user") and message.tool_calls:
        calls = "; ".join(f"{call.name}({call.arguments})" for call in message.tool_calls)
        said = f" {message.content}" if message.content else ""
        who = "agent" if message.role == "assistant" else "user"
        return f"[{index}] {who} calls {calls}{said}"
    label = {"system": "policy (system prompt)", "user": "user", "assistant": "agent"}.get(message.role)
    if message.role == "tool":
        label = f"tool result of {message.name or message.tool_call_id}"
    return f"[{index}] {label}: {message.content}"


def question(episode: EpisodeToJudge) -> str:
    """The user message of the judging prompt."""
    task = episode.task
    gold = "\n".join(
        f"{i}. {a.get('name')}({json.dumps(a.get('kwargs', {}))})" for i, a in enumerate(task.gold_actions, start=1)
    )
    outputs = "\n".join(f"- {o}" for o in task.required_outputs)
    trajectory = "\n".join(render_message(i, m) for i, m in enumerate(episode.trajectory))
    info = json.dumps(episode.reward_info) if episode.reward_info is not None else "not recorded"
    return (
        f"# User instruction\n{task.instruction}\n\n"
        f"# Gold actions\n{gold or '(none recorded)'}\n\n"
        f"# Required outputs\n{outputs or '(none)'}\n\n"
        f"# Reward checks\n{info}\n\n"
        f"# Trajectory\n{trajectory or '(empty)'}"
    )


async def analyze_episode(settings: ModelSettings, episode: EpisodeToJudge) -> FaultAnalysis:
    """The deterministic checks' fault, else the model's verdict on one episode (re-asked on unreadable answers).

    A 429 is raised (:class:`~taumesh.llm.errors.ModelRateLimited`) when the caller retries rate limits itself
    (:data:`~taumesh.llm.retry.RATE_LIMITS_METADATA`); any other model failure is the analysis's ``error``.
    """
    checked = check_fault(
        episode.task.instruction,
        {str(action.get("name")) for action in episode.task.gold_actions if action.get("name")},
        episode.trajectory,
        episode.task_flags,
    )
    if checked is not None:
        verdict = Verdict(
            author=checked.author, user_fault=checked.user_fault, description=checked.description, check=checked.check
        )
        return FaultAnalysis(task_id=episode.task_id, trial=episode.trial, verdict=verdict)
    asked = await ask_until_readable(
        settings, SYSTEM, question(episode), read_verdict, lambda problem: REASK.format(problem=problem), MAX_ASKS
    )
    if isinstance(asked.error, ModelRateLimited) and caller_retries_rate_limits():
        raise asked.error  # the caller holds the provider's permits: it waits and asks again
    if asked.error is not None:
        error = asked.error.cause
    elif asked.answer is None:
        error = f"no readable answer after {MAX_ASKS} tries ({asked.problem})"
    else:
        return FaultAnalysis(task_id=episode.task_id, trial=episode.trial, verdict=asked.answer, usage=asked.usage)
    return FaultAnalysis(task_id=episode.task_id, trial=episode.trial, error=error, usage=asked.usage)


async def analyze_episodes(
    settings: ModelSettings, episodes: Sequence[EpisodeToJudge], max_concurrency: int = DEFAULT_CONCURRENCY
) -> list[FaultAnalysis]:
    """Analyze ``episodes``, a few at a time, in order; a failure raised (a 429 handed back) stops them all."""
    semaphore = asyncio.Semaphore(max(1, max_concurrency))

    async def one(episode: EpisodeToJudge) -> FaultAnalysis:
        async with semaphore:
            return await analyze_episode(settings, episode)

    tasks = [asyncio.ensure_future(one(e)) for e in episodes]
    try:
        return list(await asyncio.gather(*tasks))
    except BaseException:
        for task in tasks:
            task.cancel()
        raise


def episode_from_proto(catalog: Catalog, failed: scorer_pb2.FailedEpisode) -> EpisodeToJudge:
    """The episode to judge; a task reference is looked up in ``catalog``."""
    source = failed.WhichOneof("task_source")
    if source == "task":
        ref = task_ref_from_proto(failed.task)
        try:
            _, task = catalog.find_task(ref.domain, ref.split, ref.task_id)
        except (KeyError, DataError) as exc:
            raise NotFound(str(exc.args[0]), reason="TASK_NOT_FOUND") from exc
        facts = TaskFacts(
            instruction=task.instruction,
            gold_actions=[{"name": a.name, "kwargs": a.kwargs} for a in task.actions],
            required_outputs=list(task.outputs),
        )
    elif source == "description":
        described = failed.description
        try:
            gold = [{"name": a.name, "kwargs": json.loads(a.kwargs_json or "{}")} for a in described.gold_actions]
        except (ValueError, RecursionError) as exc:
            raise InvalidArgument(
                f"task {clip(failed.task_id, 100)}: a gold action's kwargs_json is not JSON: {clip(str(exc), 200)}",
                fields=[("episodes.description.gold_actions.kwargs_json", "must be a JSON object")],
            ) from exc
        facts = TaskFacts(
            instruction=described.instruction, gold_actions=gold, required_outputs=list(described.required_outputs)
        )
    else:
        raise InvalidArgument(
            f"task {clip(failed.task_id, 100)} trial {failed.trial}: give a task reference or a description",
            fields=[("episodes.task_source", "required")],
        )
    try:
        info = json.loads(failed.reward_info_json) if failed.reward_info_json else None
    except (ValueError, RecursionError) as exc:
        raise InvalidArgument(
            f"task {clip(failed.task_id, 100)}: reward_info_json is not JSON: {clip(str(exc), 200)}",
            fields=[("episodes.reward_info_json", "must be JSON")],
        ) from exc
    return EpisodeToJudge(
        task_id=failed.task_id,
        trial=failed.trial,
        task=facts,
        trajectory=messages_from_proto(failed.trajectory),
        reward_info=info,
        task_flags=[TaskFlagSeen(kind=flag.kind, detail=flag.detail) for flag in failed.task_flags],
    )


def report_to_proto(analysis: FaultAnalysis) -> scorer_pb2.FaultReport:
    """The report of one analysis."""
    verdict = analysis.verdict
    return scorer_pb2.FaultReport(
        task_id=analysis.task_id,
        trial=analysis.trial,
        author=_AUTHOR_TO_PROTO[verdict.author] if verdict else scorer_pb2.FAULT_AUTHOR_UNSPECIFIED,
        fault_type=_KIND_TO_PROTO[verdict.fault_type]
        if verdict and verdict.fault_type
        else scorer_pb2.FAULT_TYPE_UNSPECIFIED,
        description=verdict.description if verdict else "",
        error=analysis.error,
        usage=usage_to_proto(analysis.usage),
        user_fault_type=_USER_KIND_TO_PROTO[verdict.user_fault]
        if verdict and verdict.user_fault
        else scorer_pb2.USER_FAULT_TYPE_UNSPECIFIED,
        check=(verdict.check or "") if verdict else "",
    )


async def analyze_faults(
    catalog: Catalog, request: scorer_pb2.AnalyzeFaultsRequest
) -> scorer_pb2.AnalyzeFaultsResponse:
    """The AnalyzeFaults RPC (a 429 raised to a caller holding the provider's permits: see :func:`analyze_episode`)."""
    settings = model_from_proto(request.model)
    if not settings.model:
        raise InvalidArgument("a model is needed to analyze faults (--model)")
    current_grants().check_api_base(settings.api_base, "model.api_base")
    if not request.episodes:
        raise InvalidArgument("no episode to analyze")
    episodes = [episode_from_proto(catalog, failed) for failed in request.episodes]
    # a caller holding permits holds one for the call: its episodes' model calls go one at a time
    concurrency = 1 if caller_retries_rate_limits() else request.max_concurrency or DEFAULT_CONCURRENCY
    analyses = await analyze_episodes(settings, episodes, concurrency)
    total = sum((a.usage for a in analyses), Usage())
    return scorer_pb2.AnalyzeFaultsResponse(reports=[report_to_proto(a) for a in analyses], usage=usage_to_proto(total))
