"""``taumesh analyze``: send the failed episodes of a results file to the scorer's AnalyzeFaults, write a report.

Each failure is attributed to the agent, the user simulator, the task (the stored validity audit flags it) or the
environment; the report gives the user simulator's fault rate per simulator version (``info.user_sim_version``),
so a score can be read against the instrument that produced it. An episode the judge could not analyze is an error,
counted apart, never a verdict.

The report also carries τ-bench's ``auto_error_identification.py`` output: its ``fault_assignment_analysis`` and
``fault_type_analysis`` lists, with τ-bench's names for the fault types.
"""

from __future__ import annotations

import asyncio
import json
from collections import Counter
from collections.abc import AsyncIterator, Mapping
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import grpc
from pydantic import BaseModel, Field
from rich.console import Console
from rich.table import Table

from taumesh.convert import message_to_proto, model_to_proto, task_ref_to_proto, usage_from_proto
from taumesh.domains import Catalog, DataError
from taumesh.models import ChatMessage, ModelSettings, TaskRef, Usage
from taumesh.orchestrator.after.recorded_settings import recorded_settings
from taumesh.orchestrator.after.task_flags import TaskFlags, task_flags
from taumesh.orchestrator.clients import remote_channel
from taumesh.orchestrator.provider_limits import interceptors_for, judge_limits
from taumesh.orchestrator.results.atomic_files import write_json_atomically
from taumesh.orchestrator.results.records import RunResult, results_task_id
from taumesh.orchestrator.results.results_file import load_results
from taumesh.rpc.server import CHANNEL_OPTIONS, start_server
from taumesh.scorer.v1 import scorer_pb2, scorer_pb2_grpc
from taumesh.services.scorer import scorer_service
from taumesh.simulators import UNRECORDED, recorded_version
from taumesh.stats import is_success

ANALYZE_TIMEOUT = 1800.0
"""Deadline of one AnalyzeFaults call (one episode; the model call retries inside it)."""

_AUTHORS = {
    scorer_pb2.FAULT_AUTHOR_USER: "user",
    scorer_pb2.FAULT_AUTHOR_AGENT: "agent",
    scorer_pb2.FAULT_AUTHOR_ENVIRONMENT: "environment",
    scorer_pb2.FAULT_AUTHOR_TASK: "task",
}
_USER_KINDS = {
    scorer_pb2.USER_FAULT_TYPE_BROKE_INSTRUCTION: "broke_instruction",
    scorer_pb2.USER_FAULT_TYPE_LEAKED_GOAL: "leaked_goal",
    scorer_pb2.USER_FAULT_TYPE_STOPPED_EARLY: "stopped_early",
    scorer_pb2.USER_FAULT_TYPE_INVENTED_FACTS: "invented_facts",
}
_KINDS = {
    scorer_pb2.FAULT_TYPE_WRONG_TOOL: "wrong_tool",
    scorer_pb2.FAULT_TYPE_WRONG_ARGUMENT: "wrong_argument",
    scorer_pb2.FAULT_TYPE_GOAL_PARTIALLY_COMPLETED: "goal_partially_completed",
    scorer_pb2.FAULT_TYPE_UNINTENDED_ACTION: "unintended_action",
    scorer_pb2.FAULT_TYPE_OTHER: "other",
}


TAU_BENCH_FAULT_TYPES = {
    "wrong_tool": "called_wrong_tool",
    "wrong_argument": "used_wrong_tool_argument",
    "goal_partially_completed": "goal_partially_completed",
    "unintended_action": "other",
    "other": "other",
}
"""Our fault type → τ-bench's (τ-bench has no ``unintended_action``: it is its ``other``)."""

TAU_BENCH_AUTHORS = {"task": "environment"}
"""Our author → τ-bench's where they differ (τ-bench has no ``task``: a flawed task is its environment's fault)."""

TAU_BENCH_PLATFORMS = {"vllm-chat": "hosted_vllm", "vllm-completion": "hosted_vllm"}
"""τ-bench's ``--platform`` names that litellm spells otherwise (openai, anthropic, mistral, anyscale are the same)."""


def provider_of_platform(platform: str) -> str:
    """The litellm provider of a τ-bench ``--platform`` (or of one of our ``--model-provider`` names)."""
    return TAU_BENCH_PLATFORMS.get(platform, platform)


class AnalyzeError(Exception):
    """The results file cannot be analyzed as asked (for example it lacks the tasks and no --env was given)."""


class FaultRow(BaseModel):
    """The analysis of one failed episode."""

    task_id: int | str
    trial: int
    author: str | None
    """user, agent, task or environment; None when the analysis failed (see ``error``)."""
    fault_type: str | None
    """For agent faults: wrong_tool, wrong_argument, goal_partially_completed, unintended_action or other."""
    description: str
    error: str = ""
    usage: Usage = Field(default_factory=Usage)
    user_fault: str | None = None
    """For user simulator faults: broke_instruction, leaked_goal, stopped_early or invented_facts."""
    check: str = ""
    """The deterministic check that attributed the fault (task_flagged, stopped_early, leaked_goal); empty when the
    judging model did."""
    user_sim_version: str = UNRECORDED
    """The user simulator the episode was played against (``info.user_sim_version``)."""


class SimulatorFaults(BaseModel):
    """One user simulator version's share of the failures: how often the simulator, not the agent, was at fault."""

    episodes: int
    """Scored episodes played against it."""
    failed: int
    analyzed: int
    """Failures with a verdict (not those left out by --max-num-failed-results, nor those whose analysis erred)."""
    user_faults: int
    errors: int
    """Failures the analysis could not attribute (the judge failed): neither the simulator's nor anyone's."""
    rate: float | None
    """``user_faults / analyzed``; None when nothing was analyzed."""


class FaultReportFile(BaseModel):
    """What ``taumesh analyze`` writes."""

    results_file: str
    model: str
    episodes: int
    """Entries in the results file."""
    failed: int
    """Episodes with reward 0 (the ones analyzed)."""
    infrastructure_errors: int
    """Episodes the run could not finish: not analyzed."""
    authors: dict[str, int]
    fault_types: dict[str, int]
    usage: Usage
    reports: list[FaultRow]
    user_faults: dict[str, int] = Field(default_factory=dict)
    """The user simulator's faults by kind."""
    checks: dict[str, int] = Field(default_factory=dict)
    """Faults attributed by each deterministic check (the rest by the judging model)."""
    errors: int = 0
    """Failures whose analysis failed (no verdict)."""
    simulators: dict[str, SimulatorFaults] = Field(default_factory=dict)
    """Per user simulator version: the simulator-fault rate."""
    task_audit: str = ""
    """Which validity audit flagged tasks (or why none was read)."""
    fault_assignment_analysis: list[dict[str, Any]] = Field(default_factory=list)
    """τ-bench's list: ``{task_id, author, description}`` per analyzed episode."""
    fault_type_analysis: list[dict[str, Any]] = Field(default_factory=list)
    """τ-bench's list: ``{task_id, fault_type, description}`` per episode at the agent's fault."""


def tau_bench_author(author: str) -> str:
    """τ-bench's name of an author of ours."""
    return TAU_BENCH_AUTHORS.get(author, author)


def tau_bench_lists(rows: list[FaultRow]) -> dict[str, list[dict[str, Any]]]:
    """τ-bench's two output lists of ``rows`` (episodes whose analysis failed are in neither)."""
    analyzed = [r for r in rows if r.author]
    return {
        "fault_assignment_analysis": [
            {"task_id": r.task_id, "author": tau_bench_author(r.author), "description": r.description}
            for r in analyzed
            if r.author
        ],
        "fault_type_analysis": [
            {
                "task_id": r.task_id,
                "fault_type": TAU_BENCH_FAULT_TYPES.get(r.fault_type or "other", "other"),
                "description": r.description,
            }
            for r in analyzed
            if r.author == "agent"
        ],
    }


def failed_episodes(results: list[RunResult]) -> list[RunResult]:
    """Scored episodes that did not succeed (infrastructure errors are not failures)."""
    return [r for r in results if not r.is_error and r.reward is not None and not is_success(r.reward)]


def episode_request(
    result: RunResult, task: TaskRef | None, recorded_env: str | None = None, flags: TaskFlags | None = None
) -> scorer_pb2.FailedEpisode:
    """The FailedEpisode of one results entry: a task reference, or the task as the file recorded it.

    ``recorded_env``: the domain the file records, named when the entry records no task. ``flags``: the stored
    validity audit's flags, sent for the entry's task.
    """
    flagged = flags.by_task.get(str(result.task_id), []) if flags else []
    episode = scorer_pb2.FailedEpisode(
        task_id=str(result.task_id),
        trial=result.trial,
        trajectory=[message_to_proto(ChatMessage.from_openai(m)) for m in result.traj],
        reward_info_json=json.dumps(result.info.get("reward_info")) if result.info.get("reward_info") else "",
        task_flags=[scorer_pb2.TaskFlag(kind=flag.kind, detail=flag.detail) for flag in flagged],
    )
    if task is not None:
        episode.task.CopyFrom(task_ref_to_proto(task))
        return episode
    recorded = result.info.get("task")
    if not isinstance(recorded, dict) or not recorded.get("instruction"):
        known = f" {recorded_env} (the domain the file records)" if recorded_env else ""
        raise AnalyzeError(f"task {result.task_id}: the results file does not record the task; pass --env{known}")
    episode.description.CopyFrom(
        scorer_pb2.TaskDescription(
            instruction=str(recorded["instruction"]),
            gold_actions=[
                scorer_pb2.GoldAction(name=str(a.get("name", "")), kwargs_json=json.dumps(a.get("kwargs", {})))
                for a in recorded.get("actions") or []
            ],
            required_outputs=[str(o) for o in recorded.get("outputs") or []],
        )
    )
    return episode


def _first_split(data_dir: Path, env: str) -> str:
    """The split a run of ``env`` takes by default: the domain's declared one, else its first with data."""
    try:
        domain = Catalog(data_dir).describe(env)
    except (KeyError, DataError) as exc:
        raise AnalyzeError(f"domain {env!r}: {exc}") from exc
    splits = [split for split in domain.spec.splits if domain.has_split_file(split)]
    if not splits:
        raise AnalyzeError(f"no data for domain {env!r} in {data_dir}: pass --task-split or --data-dir")
    return domain.spec.run_defaults.split or splits[0]


def row_from_report(report: scorer_pb2.FaultReport) -> FaultRow:
    """A report as a row of the JSON file."""
    return FaultRow(
        task_id=results_task_id(report.task_id),
        trial=report.trial,
        author=_AUTHORS.get(report.author),
        fault_type=_KINDS.get(report.fault_type),
        description=report.description,
        error=report.error,
        usage=usage_from_proto(report.usage),
        user_fault=_USER_KINDS.get(report.user_fault_type),
        check=report.check,
    )


def simulator_version_of(result: RunResult) -> str:
    """The user simulator version ``result`` records."""
    return recorded_version(result.info)


def simulator_faults(results: list[RunResult], rows: list[FaultRow]) -> dict[str, SimulatorFaults]:
    """Per simulator version of ``results``: its episodes, failures, and the share of analyzed failures its own."""
    scored = [r for r in results if not r.is_error and r.reward is not None]
    failed = failed_episodes(results)
    versions = sorted({simulator_version_of(r) for r in scored})
    table: dict[str, SimulatorFaults] = {}
    for version in versions:
        mine = [row for row in rows if row.user_sim_version == version]
        analyzed = sum(1 for row in mine if row.author)
        user = sum(1 for row in mine if row.author == "user")
        table[version] = SimulatorFaults(
            episodes=sum(1 for r in scored if simulator_version_of(r) == version),
            failed=sum(1 for r in failed if simulator_version_of(r) == version),
            analyzed=analyzed,
            user_faults=user,
            errors=sum(1 for row in mine if row.error),
            rate=user / analyzed if analyzed else None,
        )
    return table


@asynccontextmanager
async def scorer_stub(address: str | None, data_dir: Path) -> AsyncIterator[scorer_pb2_grpc.ScorerServiceAsyncStub]:
    """A stub of the scorer at ``address``, or of one started in-process on loopback."""
    running = None
    if address is None:
        running = await start_server([scorer_service(Catalog(data_dir))])
        address = running.address
    # a scorer this process started is plaintext on loopback; a given one is dialled with the operator's TLS/token
    limited = interceptors_for("scorer")  # each AnalyzeFaults holds a permit of the judge's provider (judge_limits)
    channel = (
        grpc.aio.insecure_channel(address, options=CHANNEL_OPTIONS, interceptors=limited)
        if running
        else remote_channel(address, limited)
    )
    try:
        yield scorer_pb2_grpc.ScorerServiceStub(channel)
    finally:
        await channel.close(grace=None)
        if running is not None:
            await running.stop(grace=1.0)


async def analyze_results(
    results_path: Path,
    model: ModelSettings,
    out: Path,
    env: str | None = None,
    task_split: str | None = None,
    data_dir: Path = Path(),
    scorer_addr: str | None = None,
    max_concurrency: int = 4,
    max_failed: int | None = None,
    provider_limits: Mapping[str, int] | None = None,
) -> FaultReportFile:
    """Analyze the failed episodes of ``results_path`` (one AnalyzeFaults call each) and write ``out``.

    ``max_failed``: only the first that many failures, in file order (τ-bench's ``--max-num-failed-results``).
    Each call holds a permit of the model's provider, as a run's judge calls do: at most ``provider_limits``'s cap
    (``--provider-limit``) in flight, and a 429 comes back at once, narrows the window and is asked again.

    Tasks come from the data when ``env`` is given, else as the file records them (the tasks as graded).
    ``task_split`` overrides the split the file records only when given; a file that records none takes the domain's
    first.
    """
    recorded = recorded_settings(results_path)
    results = load_results(results_path)
    failed = failed_episodes(results)
    chosen = failed if max_failed is None else failed[:max_failed]
    split = (recorded.split_for(task_split) or _first_split(data_dir, env)) if env else ""
    flags = task_flags(results)
    requests = [
        episode_request(
            r, TaskRef(domain=env, split=split, task_id=str(r.task_id)) if env else None, recorded.env, flags
        )
        for r in chosen
    ]
    versions = [simulator_version_of(r) for r in chosen]
    semaphore = asyncio.Semaphore(max(1, max_concurrency))
    model_pb = model_to_proto(model)
    limits = judge_limits(model, provider_limits or {}, max_concurrency)
    async with scorer_stub(scorer_addr, data_dir) as stub:

        async def one(episode: scorer_pb2.FailedEpisode) -> FaultRow:
            async with semaphore:
                try:
                    response: scorer_pb2.AnalyzeFaultsResponse = await stub.AnalyzeFaults(
                        scorer_pb2.AnalyzeFaultsRequest(model=model_pb, episodes=[episode], max_concurrency=1),
                        timeout=ANALYZE_TIMEOUT,
                    )
                except grpc.aio.AioRpcError as exc:
                    error = f"{exc.code().name}: {exc.details()}"
                    return FaultRow(
                        task_id=results_task_id(episode.task_id),
                        trial=episode.trial,
                        author=None,
                        fault_type=None,
                        description="",
                        error=error,
                    )
            return row_from_report(response.reports[0])

        with limits:
            judged = await asyncio.gather(*(one(e) for e in requests))
    rows = [row.model_copy(update={"user_sim_version": v}) for row, v in zip(judged, versions, strict=True)]
    report = FaultReportFile(
        results_file=str(results_path),
        model=model.model,
        episodes=len(results),
        failed=len(failed),
        infrastructure_errors=sum(1 for r in results if r.is_error),
        authors=dict(Counter(r.author for r in rows if r.author)),
        fault_types=dict(Counter(r.fault_type for r in rows if r.fault_type)),
        usage=sum((r.usage for r in rows), Usage()),
        reports=rows,
        user_faults=dict(Counter(r.user_fault for r in rows if r.user_fault)),
        checks=dict(Counter(r.check for r in rows if r.check)),
        errors=sum(1 for r in rows if r.error),
        simulators=simulator_faults(results, rows),
        task_audit=flags.source,
        **tau_bench_lists(rows),
    )
    write_json_atomically(out, report.model_dump())
    return report


def print_fault_summary(report: FaultReportFile, console: Console, out: Path) -> None:
    """Who is at fault, how often, and each episode's verdict."""
    analyzed = sum(report.authors.values())
    totals = Table(title=f"Fault analysis of {report.failed} failed episode(s)", show_edge=False)
    totals.add_column("at fault")
    totals.add_column("kind")
    totals.add_column("episodes", justify="right")
    totals.add_column("share", justify="right")
    for author in ("user", "agent", "task", "environment"):
        count = report.authors.get(author, 0)
        totals.add_row(author, "", str(count), f"{count / analyzed:.0%}" if analyzed else "-")
        kinds = {"agent": report.fault_types, "user": report.user_faults}.get(author, {})
        for kind, kind_count in sorted(kinds.items()):
            share = f"{kind_count / count:.0%}" if count else "-"
            totals.add_row("", kind, str(kind_count), share)
    unanalyzed = sum(1 for r in report.reports if r.error)
    if unanalyzed:
        totals.add_row("[red]not analyzed[/red]", "", str(unanalyzed), "")
    console.print(totals)
    simulators = Table(title="User simulator faults by version", show_edge=False)
    for column in ("simulator", "episodes", "failed", "analyzed", "its fault", "rate", "not analyzed"):
        simulators.add_column(column, justify="left" if column == "simulator" else "right")
    for version, faults in report.simulators.items():
        rate = f"{faults.rate:.0%}" if faults.rate is not None else "-"
        simulators.add_row(
            version, *map(str, (faults.episodes, faults.failed, faults.analyzed, faults.user_faults)), rate,
            str(faults.errors),
        )  # fmt: skip
    if report.simulators:
        console.print(simulators)
    rows = Table(show_edge=False)
    for column in ("task", "trial", "at fault", "kind", "by", "description"):
        rows.add_column(column, overflow="fold")
    for r in sorted(report.reports, key=lambda r: (str(r.task_id).zfill(12), r.trial)):
        description = r.description if not r.error else f"[red]{r.error}[/red]"
        kind = r.fault_type or r.user_fault or ""
        by = r.check or ("judge" if r.author else "")
        rows.add_row(str(r.task_id), str(r.trial), r.author or "-", kind, by, description)
    if report.reports:
        console.print(rows)
    if report.task_audit:
        console.print(report.task_audit)
    console.print(
        f"infrastructure errors (not analyzed): {report.infrastructure_errors}   "
        f"judge: {report.usage.prompt_tokens}+{report.usage.completion_tokens} tokens, ${report.usage.cost_usd:.4f}"
    )
    console.print(f"report: {out}")
