"""An imported τ-bench fork is audited like any domain: its code runs in its worker, behind the env and scorer."""

from __future__ import annotations

from pathlib import Path

from taumesh.forks._record import ForkRecord
from tests.audit.conftest import audited, flagged
from tests.forks.conftest import fork_cache, fork_env, tiny_fork
from tests.forks.tinyfork import EXITS, HANGS, RAISES

__all__ = ["fork_cache", "fork_env", "tiny_fork"]  # the forks' fixtures, used here


def test_a_forks_environment_is_audited(fork_env: ForkRecord, tmp_path: Path) -> None:
    report = audited("fork:tiny/copycat", "test", tmp_path)
    assert report.domain == "fork:tiny/copycat"
    assert report.floors["null"].of == len(report.tasks) > 0
    assert report.floors["identity_then_refuse"].note is not None  # a fork declares no identity tools: unknown
    # copycat's gold changes nothing and requires no output: a refusal passes every task
    assert flagged(report, "null_passable") == set(report.floors["null"].passed) == {"0", "1"}


def test_a_forks_gold_that_raises_hangs_or_exits_is_named(fork_env: ForkRecord, tmp_path: Path) -> None:
    report = audited("fork:tiny/counter", "test", tmp_path)
    errors = {task.task_id: [f.detail for f in task.flags if f.kind == "gold_replay_error"] for task in report.tasks}
    assert {task_id for task_id, details in errors.items() if details} == {"3", RAISES, HANGS, EXITS}
    assert errors["3"] == ["gold action 0 (get_counter) errors in replay: Error: counter not found"]
    assert "did not answer within" in errors[HANGS][0]  # the env aborted the episode: named, the audit goes on
    assert "exited during tool 'die'" in errors[EXITS][0]
