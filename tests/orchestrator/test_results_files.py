"""Results files: readable by τ-bench's own tooling, errors beside them, one file per run, in τ-bench's order."""

from __future__ import annotations

import asyncio
import json
import re
import subprocess
from functools import partial
from math import comb
from pathlib import Path
from typing import Any

import pytest
from pydantic import BaseModel

from taumesh.models import AgentSettings, UserSettings
from taumesh.orchestrator.benchmark import run_benchmark
from taumesh.orchestrator.config import RunConfig
from taumesh.orchestrator.episode import turn_loop as episode_module
from taumesh.orchestrator.results.names import errors_path, results_filename
from taumesh.orchestrator.results.records import AgentIdentity
from taumesh.orchestrator.results.results_file import claim_results_path, load_results
from taumesh.orchestrator.run.runner import RunSummary
from tests.helpers.cli import (
    ORACLE,
    check_oracle_results,
    child_env,
    explain,
    explain_result,
    invoke,
    load_json,
    results_path,
    taumesh_executable,
)
from tests.helpers.paths import PROJECT_ROOT, V1_DATA

# τ-bench's own reading of a results file (tau_bench/types.py, tau_bench/run.py display_metrics,
# auto_error_identification.py), re-implemented with the same field types and the same arithmetic.
REWARD_SUCCESS_MIN, REWARD_SUCCESS_MAX = 1.0 - 1e-6, 1.0 + 1e-6


class EnvRunResult(BaseModel):
    task_id: int
    reward: float
    info: dict[str, Any]
    traj: list[dict[str, Any]]
    trial: int


class TauBenchTask(BaseModel):  # tau_bench.types.Task
    user_id: str
    actions: list[dict[str, Any]]
    instruction: str
    outputs: list[str]


def display_metrics(results: list[EnvRunResult]) -> tuple[float, dict[int, float]]:
    def is_successful(reward: float) -> bool:
        return REWARD_SUCCESS_MIN <= reward <= REWARD_SUCCESS_MAX

    num_trials = len({r.trial for r in results})
    rewards = [r.reward for r in results]
    avg_reward = sum(rewards) / len(rewards)
    c_per_task_id: dict[int, int] = {}
    for result in results:
        c_per_task_id[result.task_id] = c_per_task_id.get(result.task_id, 0) + is_successful(result.reward)
    pass_hat_ks = {
        k: sum(comb(c, k) / comb(num_trials, k) for c in c_per_task_id.values()) / len(c_per_task_id)
        for k in range(1, num_trials + 1)
    }
    return avg_reward, pass_hat_ks


def auto_error_identification_reads(raw: list[dict[str, Any]]) -> None:
    """What auto_error_identification.py touches: reward compared with 1e-3, task ids, non-empty trajectories."""
    failed = [r for r in raw if r["reward"] <= 1e-3]
    for result in failed:
        assert isinstance(result["task_id"], int)
        assert result["traj"], "display_traj raises on an empty trajectory"
        shown = "\n".join(f"{m['role'].capitalize()}: {m['content']}" for m in result["traj"] if m["role"] != "system")
        assert shown


def oracle_config(log_dir: Path, **changes: Any) -> RunConfig:
    settings: dict[str, Any] = {
        "env": "retail",
        "task_split": "test",
        "end_index": 4,
        "agent": AgentSettings(strategy="oracle"),
        "user": UserSettings(strategy="scripted"),
        "max_concurrency": 4,
        "log_dir": log_dir,
        "data_dir": V1_DATA,
        "show_progress": False,
    }
    return RunConfig(**settings | changes)


@pytest.fixture
def data() -> None:
    if not V1_DATA.is_dir():
        pytest.skip(f"reference data not found at {V1_DATA}")


def test_an_unexpected_exception_stays_in_its_episode_and_tau_bench_reads_the_file(
    data: None, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    answers = episode_module._Episode.agent_answers

    async def broken_for_task_2(self: episode_module._Episode) -> Any:
        if self.context.task.task_id == "2":
            raise KeyError("a bug in the turn loop")
        return await answers(self)

    monkeypatch.setattr(episode_module._Episode, "agent_answers", broken_for_task_2)
    summary: RunSummary = asyncio.run(run_benchmark(oracle_config(tmp_path)))

    assert [(r.task_id, r.reward) for r in summary.results] == [(0, 1.0), (1, 1.0), (2, None), (3, 1.0)]
    error = summary.results[2].info["error"]
    assert error == {"kind": "internal", "cause": "KeyError: 'a bug in the turn loop'", "attempts": 1}

    # the results file is τ-bench's: only scored entries, every one an EnvRunResult with its task
    raw = load_json(summary.results_path)
    assert [r["task_id"] for r in raw] == [0, 1, 3]
    results = [EnvRunResult.model_validate(r) for r in raw]
    for result in results:
        TauBenchTask.model_validate(result.info["task"])
    assert display_metrics(results) == (1.0, {1: 1.0})
    auto_error_identification_reads(raw)
    # the error is kept beside it, visibly, and read back with it
    errors = load_json(errors_path(summary.results_path))
    assert [(e["task_id"], e["reward"], e["info"]["error"]["kind"]) for e in errors] == [(2, None, "internal")]
    assert errors[0]["info"]["run"]["env"] == "retail"
    assert sorted(r.task_id for r in load_results(summary.results_path)) == [0, 1, 2, 3]

    # --retry-errors reruns it; once scored, it joins the others in order and the errors file is gone
    monkeypatch.setattr(episode_module._Episode, "agent_answers", answers)
    rerun = asyncio.run(run_benchmark(oracle_config(tmp_path), resume=summary.results_path, only_errors=True))
    assert rerun.errors == []
    assert not errors_path(summary.results_path).exists()
    check_oracle_results(load_json(summary.results_path), "retail", "test", [0, 1, 2, 3])
    assert [r["task_id"] for r in load_json(summary.results_path)] == [0, 1, 2, 3]


def test_two_runs_started_together_write_two_files(data: None, tmp_path: Path) -> None:
    async def both() -> list[RunSummary]:
        config = oracle_config(tmp_path, end_index=3)
        return list(await asyncio.gather(run_benchmark(config), run_benchmark(config)))

    first, second = asyncio.run(both())
    assert first.results_path != second.results_path
    for summary in (first, second):
        check_oracle_results(load_json(summary.results_path), "retail", "test", [0, 1, 2])
    assert len(list(tmp_path.glob("*.json"))) == 2


def test_claiming_a_taken_name_adds_a_suffix(tmp_path: Path) -> None:
    name = "oracle-oracle-0.0_range_0--1_user-gpt-4o-scripted_20261123093600.json"
    paths = [claim_results_path(tmp_path, name) for _ in range(3)]
    assert [p.name for p in paths] == [name, name.replace(".json", "_2.json"), name.replace(".json", "_3.json")]
    assert all(p.read_text() == "[]\n" for p in paths)


def test_file_name_is_tau_benchs_with_the_year_and_end_index_as_given(data: None, tmp_path: Path) -> None:
    result = invoke(
        "run", "--env", "retail", "--task-split", "test", *ORACLE, "--data-dir", V1_DATA, "--log-dir", tmp_path,
        "--task-ids", "5",
    )  # fmt: skip
    assert result.exit_code == 0, explain_result(result)
    name = results_path(tmp_path).name
    assert re.fullmatch(r"oracle-oracle-0\.0_range_0--1_user-gpt-4o-scripted_20\d{12}\.json", name), name


def test_the_results_path_is_one_line_when_output_is_not_a_terminal(data: None, tmp_path: Path) -> None:
    log_dir = tmp_path / ("a-rather-long-folder-name-for-results" * 3)
    env = {k: v for k, v in child_env().items() if k not in ("COLUMNS", "LINES")}
    proc = subprocess.run(
        [taumesh_executable(), "run", "--env", "retail", "--task-split", "test", *ORACLE, "--data-dir", str(V1_DATA),
         "--log-dir", str(log_dir), "--task-ids", "0"],
        capture_output=True, text=True, timeout=120, env=env, cwd=PROJECT_ROOT,
    )  # fmt: skip
    assert proc.returncode == 0, explain(proc)
    assert f"results: {results_path(log_dir)}\n" in proc.stdout, explain(proc)


def test_results_are_in_tau_bench_order_whatever_order_episodes_finish(
    data: None, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    play = episode_module._Episode.play
    finished: dict[tuple[int, int], asyncio.Event] = {}
    order: list[tuple[int, int]] = []

    def done(task: int, trial: int) -> asyncio.Event:
        return finished.setdefault((task, trial), asyncio.Event())

    async def after_the_next_task(self: episode_module._Episode) -> None:
        task, trial = int(self.context.task.task_id), self.context.trial
        if task < 3:  # each task waits for the next one of its trial to finish: task 0 finishes last
            await asyncio.wait_for(done(task + 1, trial).wait(), timeout=30)
        await play(self)
        order.append((task, trial))
        done(task, trial).set()

    monkeypatch.setattr(episode_module._Episode, "play", after_the_next_task)
    summary = asyncio.run(run_benchmark(oracle_config(tmp_path, num_trials=2)))
    assert [[i for i, t in order if t == trial] for trial in range(2)] == [[3, 2, 1, 0]] * 2  # finished backwards
    expected = [(i, t) for t in range(2) for i in range(4)]
    assert [(r["task_id"], r["trial"]) for r in load_json(summary.results_path)] == expected


def test_an_external_agent_names_the_file_safely_and_keeps_the_time(tmp_path: Path) -> None:
    config = oracle_config(tmp_path)
    hostile = AgentIdentity(address="10.0.0.1:50051", name="../../etc/" + "x" * 300)
    name = results_filename(config, hostile, "20261123093600")
    assert "/" not in name and not name.startswith(".")
    assert name.endswith("-scripted_20261123093600.json")
    assert results_filename(config, AgentIdentity(address="[::1]:7000"), "1").startswith("___1__7000-external-0.0_")


def test_a_slow_rewrite_spaces_out_the_next(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """Rewriting a large results file costs at most 1/20 of the run: a rewrite of 1 s waits 20 s for the next."""
    from taumesh.orchestrator.results import results_file as results_module
    from taumesh.orchestrator.results.records import RunResult
    from taumesh.orchestrator.results.results_file import ResultsFile

    clock = [0.0]
    writes: list[float] = []
    real_write = results_module.write_chunks_atomically

    def slow_write(path: Path, chunks: list[bytes], mode: int | None = None) -> None:
        real_write(path, chunks, mode)
        writes.append(clock[0])
        clock[0] += 1.0  # this rewrite took a second

    monkeypatch.setattr(results_module.time, "monotonic", lambda: clock[0])
    monkeypatch.setattr(results_module, "write_chunks_atomically", slow_write)
    file = ResultsFile(tmp_path / "run.json", min_interval=2.0)

    def add(task_id: int, at: float) -> None:
        clock[0] = at
        file.add(RunResult(task_id=task_id, reward=1.0, info={}, traj=[], trial=0))
        file.wait()  # the rewrite runs in the writer thread: let it end before the clock moves on

    add(0, 0.0)  # the first result is written at once
    add(1, 5.0)  # 4 s after a 1 s rewrite: min_interval passed, but not 20 × 1 s
    add(2, 21.5)  # past 1 + 20 s: written
    assert writes == [0.0, 21.5]
    file.flush()
    assert [r["task_id"] for r in json.loads((tmp_path / "run.json").read_text())] == [0, 1, 2]


def test_the_rewrite_runs_beside_the_run(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """While the writer thread rewrites the file, results keep being recorded; the next due rewrite has them all."""
    import threading

    from taumesh.orchestrator.results import results_file as results_module
    from taumesh.orchestrator.results.records import RunResult
    from taumesh.orchestrator.results.results_file import ResultsFile

    started, release = threading.Event(), threading.Event()
    real_write = results_module.write_chunks_atomically
    writers: list[str] = []

    def held_write(path: Path, chunks: list[bytes], mode: int | None = None) -> None:
        writers.append(threading.current_thread().name)
        started.set()
        assert release.wait(10)
        real_write(path, chunks, mode)

    monkeypatch.setattr(results_module, "write_chunks_atomically", held_write)
    file = ResultsFile(tmp_path / "run.json", min_interval=0.0)
    result = partial(RunResult, reward=1.0, info={}, traj=[], trial=0)
    file.add(result(task_id=0))  # the first rewrite starts, and is held in the writer thread
    assert started.wait(10)
    file.add(result(task_id=1))  # recorded at once: the caller does not wait for the disk
    file.add(result(task_id=2))
    assert not (tmp_path / "run.json").exists() or json.loads((tmp_path / "run.json").read_text()) == []
    release.set()
    file.flush()
    assert [r["task_id"] for r in json.loads((tmp_path / "run.json").read_text())] == [0, 1, 2]
    assert writers[0].startswith("taumesh-results") and len(writers) == 2


def test_a_failed_rewrite_is_reported_not_lost(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """A rewrite that fails in the writer thread raises from the next add or flush; the results stay recorded."""
    from taumesh.orchestrator.results import results_file as results_module
    from taumesh.orchestrator.results.records import RunResult
    from taumesh.orchestrator.results.results_file import ResultsFile

    real_write = results_module.write_chunks_atomically
    failures = [OSError(28, "No space left on device")]

    def full_disk(path: Path, chunks: list[bytes], mode: int | None = None) -> None:
        if failures:
            raise failures.pop()
        real_write(path, chunks, mode)

    monkeypatch.setattr(results_module, "write_chunks_atomically", full_disk)
    file = ResultsFile(tmp_path / "run.json", min_interval=0.0)
    result = partial(RunResult, reward=1.0, info={}, traj=[], trial=0)
    file.add(result(task_id=0))
    with pytest.raises(OSError, match="No space left"):
        file.wait()
    file.flush()  # the disk has room again: nothing recorded was lost
    assert [r["task_id"] for r in json.loads((tmp_path / "run.json").read_text())] == [0]


def test_a_large_file_is_written_whole_in_order(tmp_path: Path) -> None:
    """More entries than one writev takes, some larger than a page: the file is exactly the JSON list, in order."""
    from taumesh.orchestrator.results import atomic_files
    from taumesh.orchestrator.results.records import RunResult
    from taumesh.orchestrator.results.results_file import ResultsFile

    count = atomic_files._IOV_MAX + 7
    results = [
        RunResult(task_id=i, reward=1.0, info={"note": "x" * (i % 5000), "é": "ü"}, traj=[], trial=0)
        for i in range(count)
    ]
    file = ResultsFile(tmp_path / "run.json", existing=results)
    file.flush()
    text = (tmp_path / "run.json").read_text(encoding="utf-8")
    expected = "[\n" + ",\n".join(json.dumps(r.model_dump(), indent=2) for r in results) + "\n]\n"
    assert text == expected
    assert oct((tmp_path / "run.json").stat().st_mode & 0o777) != oct(0o600)  # an ordinary file, not mkstemp's 0600
