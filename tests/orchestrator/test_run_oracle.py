"""``taumesh run`` with the oracle agent and the scripted user reproduces τ-bench's reference runs exactly."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from taumesh.models import AgentSettings, UserSettings
from taumesh.orchestrator.benchmark import run_benchmark
from taumesh.orchestrator.config import RunConfig
from taumesh.orchestrator.run.runner import RunSummary
from tests.helpers.cli import check_oracle_results, load_json, oracle_invoke


@pytest.mark.slow  # a full-split oracle run: 4-9 s
def test_retail_test_all_tasks_reproduce_the_reference_run(retail_test_results: Path) -> None:
    results = load_json(retail_test_results)
    check_oracle_results(results, "retail", "test", list(range(115)))


@pytest.mark.slow  # a full-split oracle run: 4-9 s
def test_results_file_has_the_tau_bench_checkpoint_name(retail_test_results: Path) -> None:
    # the τ-bench checkpoint name: {agent}-{model}-{temperature}_range_{start}-{end}_user-{model}-{strategy}_{time}.json
    assert retail_test_results.name.startswith("oracle-oracle-0.0_range_0--1_user-")  # --end-index as given
    assert "-scripted_" in retail_test_results.name


@pytest.mark.slow  # a full-split oracle run: 4-9 s
def test_airline_test_all_tasks_reproduce_the_reference_run(v1_data_dir: Path, tmp_path: Path) -> None:
    # in this process: the command's output is the same, without an interpreter to start and import
    result, results = oracle_invoke(tmp_path, "airline", "test", "--max-concurrency", "8")
    check_oracle_results(results, "airline", "test", list(range(50)))
    assert "scored episodes: 50   reward 1.0: 50/50   average reward: 1.0000" in result.stdout
    assert "episode endings: terminate_tool 4, user_stop 46" in result.stdout


@pytest.mark.slow  # a full-split oracle run: 4-9 s
def test_retail_dev_all_tasks(v1_data_dir: Path, tmp_path: Path) -> None:
    # an end index past the split is clamped to it, as in τ-bench
    _, results = oracle_invoke(tmp_path, "retail", "dev", "--end-index", "99", "--max-concurrency", "8")
    check_oracle_results(results, "retail", "dev", list(range(20)))


@pytest.mark.slow
def test_retail_train_all_tasks_in_process(v1_data_dir: Path, tmp_path: Path) -> None:
    # one run of all 500 (the results file's rewrites are throttled: five runs of 100 cost ~20 % more CPU)
    config = RunConfig(
        env="retail",
        task_split="train",
        agent=AgentSettings(strategy="oracle"),
        user=UserSettings(strategy="scripted"),
        max_concurrency=8,
        log_dir=tmp_path,
        data_dir=v1_data_dir,
        show_progress=False,
    )
    summary: RunSummary = asyncio.run(run_benchmark(config))
    assert summary.errors == [] and summary.pass_hat_k == {1: 1.0} and summary.average_reward == 1.0
    check_oracle_results(load_json(summary.results_path), "retail", "train", list(range(500)))
