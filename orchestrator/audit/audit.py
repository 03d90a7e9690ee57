"""``taumesh domain audit``: per task its flags, per floor the tasks it passes, through the real env and scorer.

Every trajectory (the strict gold replay, its declared reorderings, the five floors) is played in a fresh env session
and the floors are graded by the scorer service, over gRPC, as ``taumesh run``'s embedded services are (started here
on loopback unless given by address). The task's own statements (outputs, instruction, basis) are read through the
domain contract, as ``domain check`` reads them.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from taumesh.audit import (
    FLAG_KINDS,
    FLOOR_NAMES,
    AuditReport,
    Flag,
    FloorName,
    FloorResult,
    TaskAudit,
    TaskId,
    basis_lint,
    duplicates,
    guessable_outputs,
)
from taumesh.domains import Catalog, Domain, Task
from taumesh.env.v1 import env_pb2
from taumesh.models import TaskRef
from taumesh.orchestrator.audit.replay import TIMEOUT, NeedsJudge, Played, ScorerFailed, play, score
from taumesh.orchestrator.audit.trajectories import (
    DomainFacts,
    floor,
    gold,
    listed_arguments,
    reorderings,
    split_outputs,
)
from taumesh.orchestrator.clients import ServiceClients
from taumesh.orchestrator.config import ServiceAddresses
from taumesh.orchestrator.domain_info import listing_request, release_of
from taumesh.orchestrator.run.stack import service_stack
from taumesh.stats import is_success

CONCURRENCY = 8
"""Tasks audited at once: enough to keep the embedded services busy on two cores."""


class AuditError(Exception):
    """The audit cannot start or finish: an unknown domain or split, or a flag of a kind it does not know."""


@dataclass
class _TaskFindings:
    audit: TaskAudit
    initial_hash: str
    """The task's initial state: tasks alike in instruction and state are duplicates (telecom's differ in state)."""
    passed: dict[FloorName, bool | None]
    """Per floor: passed, failed, or None (not scorable without a judge)."""


def spelled_id(domain: Domain, task_id: str) -> TaskId:
    """The id as the domain spells it: an int where ids are positions in the split (τ-bench v1), else the string."""
    return int(task_id) if domain.spec.layout is None and task_id.isdecimal() else task_id


def known_text(task: Task) -> str:
    """What the conversation makes available without the agent finding it: the instruction and the task's history."""
    return "\n".join([task.instruction, *(message.content for message in task.history())])


async def _audit_task(
    clients: ServiceClients, domain: Domain, split: str, task: Task, facts: DomainFacts, spam: str
) -> _TaskFindings:
    """Every flag of one task, and the verdict of each floor on it."""
    ref = TaskRef(domain=domain.name, split=split, task_id=task.id)
    replayed = await play(clients, ref, gold(task, facts), task.instruction)
    flags = _gold_errors(task, replayed)
    flags += await _order_flags(clients, ref, task, facts, replayed)
    passed, broken = await _floor_verdicts(clients, ref, task, facts, spam)
    flags += broken
    if passed.get("null"):
        flags.append(Flag(kind="null_passable", detail="one refusal, then the user stops, passes the task"))
    flags += guessable_outputs(task.outputs, known_text(task))
    if task.outputs and passed.get("outputs_spam") and not passed.get("null"):
        detail = "one message listing every required output of the split passes the task"
        flags.append(Flag(kind="guessable_output", detail=detail))
    flags += basis_lint(domain.spec.reward_basis(task), domain.spec.listed_checks(task))
    audit = TaskAudit(task_id=spelled_id(domain, task.id), intent=domain.spec.task_intent(task), flags=flags)
    return _TaskFindings(audit=audit, initial_hash=replayed.initial_hash, passed=passed)


def _gold_errors(task: Task, replayed: Played) -> list[Flag]:
    """A ``gold_replay_error`` per gold action the strict replay answered with an error."""
    return [
        Flag(
            kind="gold_replay_error",
            detail=f"gold action {position} ({task.actions[position].name}) errors in replay: {observation[:200]}",
        )
        for position, observation in replayed.errors()
    ]


async def _order_flags(
    clients: ServiceClients, ref: TaskRef, task: Task, facts: DomainFacts, replayed: Played
) -> list[Flag]:
    """``order_sensitive``: each declared reordering that changes the gold's final hash; "unknown" undeclared."""
    if facts.unordered_arguments is None:
        lists = listed_arguments(task, facts)
        if not lists:
            return []
        detail = f"unknown: the domain declares no reorderings equal, and the gold passes lists ({'; '.join(lists)})"
        return [Flag(kind="order_sensitive", detail=detail)]
    flags = []
    for what, variant in reorderings(task, facts):
        reordered = await play(clients, ref, variant, task.instruction)
        if reordered.final_hash != replayed.final_hash:
            flags.append(
                Flag(kind="order_sensitive", detail=f"{what}, declared equal, changes the gold outcome's hash")
            )
    return flags


async def _floor_verdicts(
    clients: ServiceClients, ref: TaskRef, task: Task, facts: DomainFacts, spam: str
) -> tuple[dict[FloorName, bool | None], list[Flag]]:
    """Each floor's verdict (None: not gradable), and an ``unscorable`` flag per error the scorer broke with."""
    passed: dict[FloorName, bool | None] = {}
    broke: dict[str, list[FloorName]] = {}
    for name in FLOOR_NAMES:
        trajectory = floor(name, task, facts, spam)
        if trajectory is None:
            continue
        played = await play(clients, ref, trajectory, task.instruction)
        try:
            passed[name] = is_success(await score(clients, ref, played))
        except NeedsJudge:
            passed[name] = None
        except ScorerFailed as exc:
            passed[name] = None
            broke.setdefault(str(exc)[:200], []).append(name)
    flags = [
        Flag(kind="unscorable", detail=f"the scorer breaks on the {', '.join(floors)} floor(s): {reason}")
        for reason, floors in broke.items()
    ]
    return passed, flags


def domain_flags(domain: Domain, tasks: Sequence[Task]) -> dict[str, list[Flag]]:
    """The flags the domain raises itself on ``tasks`` (``DomainPlugin.task_flags``), by task id.

    A kind the audit does not know (:data:`~taumesh.audit.FLAG_KINDS`) is refused: a stored verdict, a certified set
    and the table of docs/validity.md count kinds they can name.
    """
    found: dict[str, list[Flag]] = {}
    for task_id, flags in domain.spec.task_flags(domain, tasks).items():
        for kind, detail in flags:
            if kind not in FLAG_KINDS:
                raise AuditError(
                    f"domain {domain.name!r} flags task {task_id} with {kind!r}, a kind the audit does not know "
                    f"(known: {', '.join(FLAG_KINDS)})"
                )
            found.setdefault(task_id, []).append(Flag(kind=kind, detail=detail))
    return found


def _floors(findings: Sequence[_TaskFindings], facts: DomainFacts) -> dict[FloorName, FloorResult]:
    floors: dict[FloorName, FloorResult] = {}
    for name in FLOOR_NAMES:
        result = FloorResult(of=len(findings))
        for found in findings:
            verdict = found.passed.get(name, False)
            if verdict is None:
                result.unscored.append(found.audit.task_id)
            elif verdict:
                result.passed.append(found.audit.task_id)
        if name == "identity_then_refuse" and facts.identity_tools is None:
            result.note = "unknown: the domain declares no identity tools (DomainPlugin.identity_tools)"
        floors[name] = result
    return floors


async def audit_domain(
    name: str,
    split: str | None,
    data_dir: Path,
    addresses: ServiceAddresses | None = None,
    concurrency: int = CONCURRENCY,
) -> AuditReport:
    """Audit every task of ``name``'s ``split`` (default: its first split with tasks) through the env and scorer."""
    try:
        domain = Catalog(data_dir).get(name)
    except KeyError as exc:
        raise AuditError(str(exc.args[0]) if exc.args else str(exc)) from None
    splits = [s for s in domain.spec.splits if domain.has_split_file(s)]
    chosen = split or (splits[0] if splits else None)
    if chosen is None or chosen not in splits:
        raise AuditError(f"domain {name!r} has no split {chosen!r} with tasks (has {', '.join(splits) or 'none'})")
    tasks = domain.tasks(chosen)
    facts = DomainFacts.of(domain)
    spam = "; ".join(split_outputs(tasks))
    semaphore = asyncio.Semaphore(concurrency)
    async with service_stack(addresses or ServiceAddresses(), data_dir) as clients:
        listed: env_pb2.ListDomainsResponse = await clients.env.ListDomains(listing_request(name), timeout=TIMEOUT)
        release = release_of(listed, name)  # as a run finds it (a variant: its own), so its stored audit is found

        async def one(task: Task) -> _TaskFindings:
            async with semaphore:
                return await _audit_task(clients, domain, chosen, task, facts, spam)

        findings = await asyncio.gather(*(one(task) for task in tasks))
    # the instruction with the task's history: a conversation that goes on from another point is another task
    states = [(task.id, known_text(task), found.initial_hash) for task, found in zip(tasks, findings, strict=True)]
    copies = duplicates(states)
    own = domain_flags(domain, tasks)
    for task, found in zip(tasks, findings, strict=True):
        if task.id in copies:
            found.audit.flags.append(copies[task.id])
        found.audit.flags += own.get(task.id, [])
    return AuditReport(
        domain=name,
        split=chosen,
        data_release=release or None,
        tasks=[found.audit for found in findings],
        floors=_floors(findings, facts),
    )
