"""The MT-bench fork's layout (``--output-format mt``) of a real oracle run on retail tasks, and ``/scores``' lines."""

from __future__ import annotations

import json
import re
import shutil
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest

from taumesh.models import AgentSettings, ModelSettings, UserSettings
from taumesh.orchestrator.config import RunConfig, output_layouts
from taumesh.orchestrator.results.mt_layout import model_name, scores_lines, write_mt_results
from taumesh.orchestrator.results.names import errors_path
from taumesh.orchestrator.results.outputs import write_outputs
from taumesh.orchestrator.results.records import EpisodeError, RunResult
from taumesh.orchestrator.results.results_file import load_results
from taumesh.orchestrator.results.tau2_layout import tau2_path
from taumesh.orchestrator.run import runner
from tests.helpers.cli import explain_result, invoke, oracle_run, results_path, tasks
from tests.helpers.paths import V1_DATA

TASK_IDS = [0, 5, 12]
SCORE_KEYS = ["task-id", "prompt", "result", "truth", "score", "duration"]
FOLDER = re.compile(r"tau_bench_retail_\d{8}_\d{6}")
TASK0_FIRST_CALL = 'find_user_id_by_name_zip({"first_name": "Yusuf", "last_name": "Rossi", "zip": "19122"})'


@pytest.fixture(scope="module")
def cli_run(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[RunResult]]:
    """A real ``taumesh run`` of the oracle on three retail test tasks, asked for τ-bench's file and the MT layout."""
    if not V1_DATA.is_dir():
        pytest.skip(f"reference data not found at {V1_DATA}")
    log_dir = tmp_path_factory.mktemp("mt")
    ids = [arg for task_id in TASK_IDS for arg in ("--task-ids", str(task_id))]
    oracle_run(log_dir, "retail", "test", *ids, "--output-format", "mt,taubench")
    return log_dir, load_results(results_path(log_dir))


@pytest.fixture
def results(cli_run: tuple[Path, list[RunResult]]) -> list[RunResult]:
    return cli_run[1]


def oracle_config(log_dir: Path, output_format: str = "taubench,mt", **changes: Any) -> RunConfig:
    return RunConfig(
        env="retail",
        task_split="test",
        agent=AgentSettings(strategy="oracle"),
        user=UserSettings(strategy="scripted"),
        log_dir=log_dir,
        data_dir=V1_DATA,
        output_format=output_format,
        **changes,
    )


def read_lines(path: Path) -> list[dict[str, Any]]:
    text = path.read_text(encoding="utf-8")
    assert text.endswith("\n")
    return [json.loads(line) for line in text.splitlines()]


@pytest.mark.skipif(
    not hasattr(runner, "write_outputs"), reason="orchestrator/run/runner.py does not call write_outputs yet"
)
@pytest.mark.slow  # a shared oracle run: 3-6 s
def test_the_cli_writes_the_mt_layout_beside_the_results_file(cli_run: tuple[Path, list[RunResult]]) -> None:
    log_dir, results = cli_run
    (folder,) = (log_dir / "data").iterdir()
    assert FOLDER.fullmatch(folder.name)
    assert sorted(p.name for p in folder.iterdir()) == sorted(
        ["oracle_scores.jsonl", "oracle_statistics.jsonl", *(f"oracle_task{i}_trajectory.jsonl" for i in TASK_IDS)]
    )
    assert [json.dumps(line) for line in read_lines(folder / "oracle_scores.jsonl")] == scores_lines(results)
    assert not tau2_path(results_path(log_dir)).exists()  # mt,taubench: no τ² document


@pytest.mark.slow  # a shared oracle run: 3-6 s
def test_layout_files_and_folder(results: list[RunResult], tmp_path: Path) -> None:
    folder = write_mt_results(oracle_config(tmp_path), results)
    assert folder.parent == tmp_path / "data"
    assert FOLDER.fullmatch(folder.name)
    names = sorted(p.name for p in folder.iterdir())
    assert names == sorted(
        ["oracle_scores.jsonl", "oracle_statistics.jsonl", *(f"oracle_task{i}_trajectory.jsonl" for i in TASK_IDS)]
    )


def test_trajectory_is_one_message_a_line_as_the_agent_saw_it(results: list[RunResult], tmp_path: Path) -> None:
    folder = write_mt_results(oracle_config(tmp_path), results)
    policy = (V1_DATA / "retail" / "wiki.md").read_text(encoding="utf-8")
    for result in results:
        lines = read_lines(folder / f"oracle_task{result.task_id}_trajectory.jsonl")
        assert lines == result.traj
        assert lines[0] == {"role": "system", "content": policy}
        assert lines[1]["role"] == "user"
        assert any(line.get("tool_calls") for line in lines)


def test_scores_fields_and_formats(results: list[RunResult], tmp_path: Path) -> None:
    folder = write_mt_results(oracle_config(tmp_path), results)
    lines = read_lines(folder / "oracle_scores.jsonl")
    retail = tasks("retail", "test")
    assert [line["task-id"] for line in lines] == [f"task-{i}" for i in TASK_IDS]
    for line, result in zip(lines, results, strict=True):
        assert list(line) == SCORE_KEYS
        assert line["prompt"] == retail[int(result.task_id)]["instruction"]
        assert line["score"] == 1.0
        assert isinstance(line["duration"], float) and line["duration"] > 0
        assert line["duration"] == result.info["duration_s"]


def test_result_and_truth_are_the_calls_as_name_json(results: list[RunResult], tmp_path: Path) -> None:
    folder = write_mt_results(oracle_config(tmp_path), results)
    lines = {line["task-id"]: line for line in read_lines(folder / "oracle_scores.jsonl")}
    task0 = lines["task-0"]
    assert task0["truth"].startswith(TASK0_FIRST_CALL + ",get_order_details(")
    retail = tasks("retail", "test")
    for task_id in TASK_IDS:
        gold = retail[task_id]["actions"]
        line = lines[f"task-{task_id}"]
        calls = re.findall(r"(\w+)\((\{.*?\})\)(?:,|$)", line["truth"])
        assert [(name, json.loads(args)) for name, args in calls] == [(a["name"], a["kwargs"]) for a in gold]
        assert line["result"] == line["truth"]  # the oracle makes exactly the gold calls


@pytest.mark.slow  # a shared oracle run: 3-6 s
def test_an_agent_that_called_no_tool_and_later_trials(results: list[RunResult], tmp_path: Path) -> None:
    quiet = results[0].model_copy(update={"traj": [m for m in results[0].traj if m["role"] in ("system", "user")]})
    again = results[1].model_copy(update={"trial": 1})
    folder = write_mt_results(oracle_config(tmp_path), [quiet, results[1], again])
    assert (folder / "oracle_task5_trial1_trajectory.jsonl").is_file()
    assert (folder / "oracle_task5_trajectory.jsonl").is_file()
    lines = read_lines(folder / "oracle_scores.jsonl")
    assert [line["task-id"] for line in lines] == ["task-0", "task-5", "task-5"]
    assert lines[0]["result"] == "No actions executed"


def test_unscored_episodes_get_no_line_and_no_trajectory(results: list[RunResult], tmp_path: Path) -> None:
    error = RunResult.from_error(7, 0, EpisodeError(cause="env unavailable", attempts=3))
    folder = write_mt_results(oracle_config(tmp_path), [*results, error])
    assert not (folder / "oracle_task7_trajectory.jsonl").exists()
    assert len(read_lines(folder / "oracle_scores.jsonl")) == len(TASK_IDS)
    assert scores_lines([error]) == []


def test_scores_lines_filter_by_task_id_exactly(results: list[RunResult]) -> None:
    assert len(scores_lines(results)) == len(TASK_IDS)
    for spelling in ("5", "task-5"):
        (line,) = scores_lines(results, spelling)
        assert json.loads(line)["task-id"] == "task-5"
    assert scores_lines(results, "2") == []  # the fork's suffix match would return task-12
    assert scores_lines(results, "99") == []


def test_model_names_in_file_names(tmp_path: Path) -> None:
    def named(model: str, provider: str = "", strategy: str = "tool-calling") -> str:
        agent = AgentSettings(strategy=strategy, model=ModelSettings(model=model, provider=provider))
        return model_name(RunConfig(agent=agent))

    assert named("gpt-4o", "openai") == "openai-gpt-4o"
    assert named("openai/gpt-4o") == "openai-gpt-4o"
    assert named("openai/gpt-4o", "openai") == "openai-gpt-4o"
    assert named("", strategy="oracle") == "oracle"


def test_dataset_name_and_a_second_run_in_the_same_second(results: list[RunResult], tmp_path: Path) -> None:
    config = oracle_config(tmp_path, dataset_name="mt_eval")
    now = datetime(2026, 11, 23, 12, 0, 0)
    first, second = write_mt_results(config, results, now), write_mt_results(config, results, now)
    assert (first.name, second.name) == ("mt_eval_retail_20261123_120000", "mt_eval_retail_20261123_120000_2")


def copy_results(source: Path, into: Path) -> Path:
    into.mkdir(parents=True, exist_ok=True)
    return Path(shutil.copy(source, into / source.name))


def test_write_outputs_mt_alone_keeps_only_the_mt_layout(cli_run: tuple[Path, list[RunResult]], tmp_path: Path) -> None:
    log_dir, results = cli_run
    path = copy_results(results_path(log_dir), tmp_path)
    main = write_outputs(oracle_config(tmp_path, "mt"), path, results)
    assert main.parent == tmp_path / "data" and FOLDER.fullmatch(main.name)
    assert not path.exists()


def test_write_outputs_keeps_the_results_file_while_errors_remain(
    cli_run: tuple[Path, list[RunResult]], tmp_path: Path
) -> None:
    log_dir, results = cli_run
    path = copy_results(results_path(log_dir), tmp_path)
    errors_path(path).write_text("[]\n", encoding="utf-8")
    error = RunResult.from_error(7, 0, EpisodeError(cause="env unavailable", attempts=3))
    assert write_outputs(oracle_config(tmp_path, "mt"), path, [*results, error]) == path
    assert path.exists() and (tmp_path / "data").is_dir()


def test_write_outputs_both_is_taubench_and_tau2(cli_run: tuple[Path, list[RunResult]], tmp_path: Path) -> None:
    log_dir, results = cli_run
    path = copy_results(results_path(log_dir), tmp_path)
    assert write_outputs(oracle_config(tmp_path, "both"), path, results) == path
    assert tau2_path(path).is_file() and not (tmp_path / "data").exists()
    tau2_only = copy_results(results_path(log_dir), tmp_path / "tau2")
    assert write_outputs(oracle_config(tmp_path / "tau2", "tau2,mt"), tau2_only, results) == tau2_path(tau2_only)
    assert not tau2_only.exists() and (tmp_path / "tau2" / "data").is_dir()


@pytest.mark.parametrize(
    ("spelling", "canonical"),
    [
        ("taubench", "taubench"),
        ("both", "taubench,tau2"),
        ("mt", "mt"),
        ("mt, taubench", "taubench,mt"),
        ("both,mt", "taubench,tau2,mt"),
        (["mt", "tau2"], "tau2,mt"),
    ],
)
def test_output_format_spellings(spelling: str | list[str], canonical: str) -> None:
    config = RunConfig.model_validate({"output_format": spelling})
    assert config.output_format == canonical
    assert config.layouts == output_layouts(canonical) == frozenset(canonical.split(","))


@pytest.mark.parametrize("spelling", ["xml", "", "taubench,"])
def test_an_unknown_output_format_is_a_usage_error(spelling: str, tmp_path: Path) -> None:
    result = invoke("run", "--env", "retail", "--output-format", spelling, "--log-dir", tmp_path)
    assert result.exit_code == 2, explain_result(result)
    assert result.output.startswith("error: --output-format: ")
    assert f"unknown output format {spelling.split(',')[-1]!r}" in result.output
    assert "taubench, tau2, mt, both" in result.output


def test_the_fork_folder_flag_writes_data_dataset_timestamp_in_the_working_directory(
    v1_data_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``--mt-fork-folder``: ``./data/{dataset_name}_{timestamp}/`` as the fork writes it, no env added, not under
    ``--log-dir``. The fork's own code names its dataset ``tau_bench_{env}``, which its ``/scores`` globs."""
    work = tmp_path / "work"
    work.mkdir()
    monkeypatch.chdir(work)  # the fork writes relative to where it runs
    log_dir = tmp_path / "logs"
    result = invoke(
        "run", "--env", "retail", "--task-split", "test", "--task-ids", "0", "--agent-strategy", "oracle",
        "--user-strategy", "scripted", "--quiet", "--data-dir", V1_DATA, "--log-dir", log_dir,
        "--output-format", "taubench,mt", "--mt-fork-folder", "--dataset-name", "tau_bench_retail",
    )  # fmt: skip
    assert result.exit_code == 0, explain_result(result)
    (folder,) = (work / "data").iterdir()
    assert re.fullmatch(r"tau_bench_retail_\d{8}_\d{6}", folder.name), folder.name  # no second env in the name
    assert sorted(p.name for p in folder.iterdir()) == [
        "oracle_scores.jsonl", "oracle_statistics.jsonl", "oracle_task0_trajectory.jsonl",
    ]  # fmt: skip
    assert not (log_dir / "data").exists()
    manifest = json.loads(next(log_dir.glob("*.manifest")).read_text(encoding="utf-8"))
    listed = [name for name in manifest["outputs"] if folder.name in name]
    assert listed and all((log_dir / name).resolve().is_relative_to(folder) for name in listed), manifest["outputs"]


def test_the_fork_folder_takes_the_dataset_name_as_given(
    results: list[RunResult], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    config = oracle_config(tmp_path / "logs", mt_fork_folder=True)  # dataset_name: tau_bench, the fork's YAML's
    monkeypatch.chdir(tmp_path)
    now = datetime(2026, 11, 23, 12, 0, 0)
    folder = write_mt_results(config, results, now=now)
    assert folder == tmp_path / "data" / "tau_bench_20261123_120000"
    assert (folder / "oracle_scores.jsonl").is_file()
    assert write_mt_results(config, results, now=now).name == "tau_bench_20261123_120000_2"
