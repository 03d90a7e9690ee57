"""The reward: the state the policy allows (file text aside), what must be said, and the code judged by its tests.

:class:`StateOutcomes` is the factory's DB check over the hash without file text. :class:`TestsPass` (``TESTS``)
looks at the files the episode changed, branch by branch: changes equal to those of an allowed outcome pass as they
are; a branch the task lets the agent fix passes when neither a forbidden file of its repository nor a test
changed and its tests pass in the bubblewrap sandbox (:mod:`.checkout`, cached per content); any other change
fails. So a fix written differently from the gold scores 1.0, a wrong fix or an edit of a generated file 0,
and a task that asks for no code change never starts the sandbox.
"""

from __future__ import annotations

import copy
import threading
from dataclasses import dataclass, field
from typing import Any

from taumesh.domains import (
    DomainView,
    Episode,
    Session,
    Task,
    Verdict,
    all_passed,
    parse_arguments,
    replayed_calls,
)
from taumesh.domains.engineering import checkout
from taumesh.domains.engineering.hashing import FILES, FileChanges, file_changes, remembered, split_hash
from taumesh.domains.factory import AllowedOutcomes, FactoryTask
from taumesh.models import RewardBasis, RewardCheck

EDIT_TOOLS = frozenset({"replace_in_file", "write_file"})
TESTS_FOLDER = "tests/"
"""Where a project's tests live: a fix that changes them is not a fix."""


@dataclass
class StateOutcomes(AllowedOutcomes):
    """DB: the final state, file text aside, is that of one allowed outcome."""

    def evaluate(self, episode: Episode) -> Verdict:
        allowed = {split_hash(h)[0] for h in self.hashes(episode.domain, episode.task)}
        final = split_hash(episode.final_hash)[0]
        passed = final in allowed
        check = RewardCheck(
            basis=self.basis,
            subject=f"database without file text (one of {len(allowed)} allowed outcomes)",
            passed=passed,
            expected=split_hash(episode.gold_hash)[0],
            actual=final,
        )
        return Verdict([check], 1.0 if passed else 0.0)


@dataclass
class TestsPass:
    """TESTS: every branch the episode changed is changed as an allowed outcome does, or fixed: tests green."""

    __test__ = False  # not a pytest class
    basis: RewardBasis = "TESTS"
    _gold: dict[tuple[str, str, str], tuple[FileChanges, frozenset[str]]] = field(default_factory=dict, repr=False)
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def evaluate(self, episode: Episode) -> Verdict:
        domain = episode.domain
        final = _final_changes(episode)
        if final is None:
            check = RewardCheck(basis=self.basis, subject="files", passed=False, expected="the episode's files")
            return Verdict([check], 0.0)
        gold, fixable = self._allowed(domain, episode.task)
        base = domain.base_data[FILES]
        branches = {_branch(base, key, record) for key, record in (final | gold).items()}
        checks = [self._branch_check(domain, b, final, gold, fixable) for b in sorted(branches)]
        return Verdict(checks, all_passed(checks))

    def _branch_check(
        self, domain: DomainView, branch_id: str, final: FileChanges, gold: FileChanges, fixable: frozenset[str]
    ) -> RewardCheck:
        base = domain.base_data[FILES]
        mine = {k: v for k, v in final.items() if _branch(base, k, v) == branch_id}
        allowed = {k: v for k, v in gold.items() if _branch(base, k, v) == branch_id}
        subject = f"files of branch {branch_id}"
        if mine == allowed:
            return RewardCheck(basis=self.basis, subject=subject, passed=True, expected="as an allowed outcome")
        if branch_id not in fixable or not mine:
            return RewardCheck(
                basis=self.basis, subject=subject, passed=False, expected="as an allowed outcome", actual="changed"
            )
        forbidden = _forbidden_touched(domain, branch_id, mine)
        if forbidden:
            return RewardCheck(
                basis=self.basis,
                subject=subject,
                passed=False,
                expected="forbidden files and tests untouched",
                actual=forbidden,
            )
        result = checkout.run_tests(_texts(domain, branch_id, mine))
        return RewardCheck(
            basis=self.basis,
            subject=f"{subject}: tests in the sandbox",
            passed=result.passed,
            expected="the tests pass",
            actual=result.summary.splitlines()[-1] if result.summary else "",
        )

    def _allowed(self, domain: DomainView, task: Task) -> tuple[FileChanges, frozenset[str]]:
        """The gold's file changes, and the branches an allowed outcome edits (those the task lets be fixed)."""
        key = (domain.name, str(domain.root), task.id)
        with self._lock:
            found = self._gold.get(key)
        if found is not None:
            return found
        session = Session(domain)
        for action in task.actions:
            session.call(action.name, copy.deepcopy(action.kwargs), action.requestor)
        outcomes = task.outcomes() if isinstance(task, FactoryTask) else iter([task.actions])
        fixable = frozenset(
            str(action.kwargs.get("branch_id"))
            for outcome in outcomes
            for action in outcome
            if action.name in EDIT_TOOLS
        )
        found = (file_changes(domain.base_data[FILES], session.data[FILES]), fixable)
        with self._lock:
            self._gold[key] = found
        return found


def _branch(base: Any, key: str, record: dict[str, Any] | None) -> str:
    return str((record or base[key])["branch_id"])


def _texts(domain: DomainView, branch_id: str, changes: FileChanges) -> dict[str, str]:
    """The branch's files by path with ``changes`` applied."""
    records = {k: v for k, v in domain.base_data[FILES].items() if v["branch_id"] == branch_id}
    for key, record in changes.items():
        if record is None:
            records.pop(key, None)
        else:
            records[key] = record
    return {r["path"]: r["content"] for r in records.values()}


def _forbidden_touched(domain: DomainView, branch_id: str, changes: FileChanges) -> str:
    """The paths ``changes`` touch that a fix may not, comma separated ('' when none).

    Those are the repository's forbidden paths, and its tests (policy 3.4: a failing test is fixed in the code it
    tests).
    """
    branch = domain.base_data["branches"][branch_id]
    forbidden = set(domain.base_data["repositories"][branch["repository_id"]]["forbidden_paths"])
    base = domain.base_data[FILES]
    touched = {(record or base[key])["path"] for key, record in changes.items()}
    return ", ".join(sorted(p for p in touched if p in forbidden or p.startswith(TESTS_FOLDER)))


def _final_changes(episode: Episode) -> FileChanges | None:
    """The files the episode changed: from its session, this process's hasher, or a replay of its tool calls."""
    domain = episode.domain
    if episode.session is not None:
        return file_changes(domain.base_data[FILES], episode.session.data[FILES])
    digest = split_hash(episode.final_hash)[1]
    if digest is None:
        return {}
    kept = remembered(digest)
    if kept is not None:
        return kept
    session = Session(domain)
    task = episode.task
    for message in task.history():
        for call in message.tool_calls:
            session.call(call.name, _arguments(call.arguments), call.requestor)
    for call, arguments in replayed_calls(task.history(), episode.conversation):
        session.call(call.name, arguments, call.requestor)
    if session.data_hash() != episode.final_hash:
        return None  # the calls do not reach the state the env reported
    return file_changes(domain.base_data[FILES], session.data[FILES])


def _arguments(text: str) -> dict[str, Any]:
    parsed = parse_arguments(text)
    return parsed if isinstance(parsed, dict) else {}
