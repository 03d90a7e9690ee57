"""YAML run files: settings pass through, the MT fork's minimal form maps to runs, errors say what is wrong."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from taumesh.config_files import RunFileError, read_run_file, read_settings_file
from taumesh.settings import RunSettings
from tests.helpers.cli import explain_result, invoke
from tests.helpers.paths import V1_DATA


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "run.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def as_settings(run: dict[str, Any]) -> RunSettings:
    """The run's settings as ``taumesh run`` validates them (``dataset_name`` once RunSettings has the field)."""
    known = {key: value for key, value in run.items() if key in RunSettings.model_fields}
    assert set(run) - set(known) <= {"dataset_name"}
    return RunSettings(**known)


def test_a_file_of_settings_is_one_run_as_written(tmp_path: Path) -> None:
    path = write(tmp_path, "env: airline\nmax_concurrency: 4\ntask_ids: [1, 2]\ndataset_name: mine\n")
    assert read_run_file(path) == [{"env": "airline", "max_concurrency": 4, "task_ids": [1, 2], "dataset_name": "mine"}]


def test_the_mt_form_maps_to_one_run(tmp_path: Path) -> None:
    path = write(tmp_path, "dataset_name: tau_bench\nmodel_name: openai/gpt-4o\nsubsets: retail\n")
    (run,) = read_run_file(path)
    assert run == {
        "dataset_name": "tau_bench",
        "model_provider": "openai",
        "model": "gpt-4o",
        "env": "retail",
        "output_format": "taubench,mt",
        "mt_fork_folder": True,
    }
    config = as_settings(run).run_config()
    assert (config.env, config.agent.model.model, config.agent.model.provider) == ("retail", "gpt-4o", "openai")
    assert config.layouts == {"taubench", "mt"} and config.mt_fork_folder


def test_a_list_of_subsets_is_one_run_each_in_order(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        "model_name: anthropic/claude-sonnet-4\nsubsets: [airline, retail]\nagent_strategy: oracle\n"
        "output_format: mt\n",
    )
    runs = read_run_file(path)
    assert [run["env"] for run in runs] == ["airline", "retail"]
    for run in runs:
        assert run["agent_strategy"] == "oracle" and run["output_format"] == "mt"  # other settings as written
        assert (run["model_provider"], run["model"]) == ("anthropic", "claude-sonnet-4")
        assert as_settings(run).run_config().output_format == "mt"


@pytest.mark.parametrize(
    ("model_name", "provider", "model"),
    [("gpt-4o", None, "gpt-4o"), ("openrouter/meta-llama/llama-3-70b", "openrouter", "meta-llama/llama-3-70b")],
)
def test_model_name_splits_at_the_first_slash(
    tmp_path: Path, model_name: str, provider: str | None, model: str
) -> None:
    (run,) = read_run_file(write(tmp_path, f"model_name: {model_name}\n"))
    assert run.get("model_provider") == provider and run["model"] == model
    assert "env" not in run  # no subsets: the domain comes from the other settings


def test_an_empty_file_is_no_settings(tmp_path: Path) -> None:
    assert read_run_file(write(tmp_path, "")) == [{}]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("subsets: 3\n", "run.yaml: subsets: a domain name or a list of domain names"),
        ("subsets: []\n", "run.yaml: subsets: a domain name or a list of domain names"),
        ("subsets: [retail, retail]\n", "run.yaml: subsets: a domain is named twice in ['retail', 'retail']"),
        ("subsets: [retail, '']\n", "run.yaml: subsets: a domain name is empty"),
        ("model_name: ''\n", "run.yaml: model_name: String should have at least 1 character"),
        ("model_name: {a: 1}\n", "run.yaml: model_name: Input should be a valid string"),
        ("subsets: retail\nenv: airline\n", "run.yaml: subsets and env both set the same thing; keep subsets"),
        ("subsets: retail\ndomain: airline\n", "run.yaml: subsets and domain both set the same thing"),
        ("model_name: a/b\nmodel: c\n", "run.yaml: model_name and model both set the same thing; keep model_name"),
        ("- env: retail\n", "run.yaml: the file must be a mapping of setting names to values"),
        ("env: [retail\n", "run.yaml: not valid YAML: while parsing a flow sequence"),
    ],
)
def test_errors_name_the_file_and_the_key(tmp_path: Path, text: str, message: str) -> None:
    with pytest.raises(RunFileError) as caught:
        read_run_file(write(tmp_path, text))
    assert message in str(caught.value)
    assert str(tmp_path / "run.yaml") in str(caught.value)


def test_settings_files_are_read_without_the_mt_mapping(tmp_path: Path) -> None:
    path = write(tmp_path, "service: env\nport: 50099\n")
    assert read_settings_file(path) == {"service": "env", "port": 50099}
    with pytest.raises(RunFileError, match="cannot be read"):
        read_settings_file(tmp_path / "missing.yaml")


def mt_file(tmp_path: Path, *extra: str) -> Path:
    if not V1_DATA.is_dir():
        pytest.skip(f"reference data not found at {V1_DATA}")
    return write(
        tmp_path,
        "dataset_name: tau_bench\nmodel_name: openai/gpt-4o\nsubsets: [retail, airline]\n"
        f"agent_strategy: oracle\nuser_strategy: scripted\ntask_ids: [0, 1]\nquiet: true\n"
        f"data_dir: {V1_DATA}\nlog_dir: {tmp_path / 'logs'}\n" + "".join(f"{line}\n" for line in extra),
    )


def assert_both_subsets_ran(output: str) -> None:
    assert "run 1/2: retail" in output and "run 2/2: airline" in output
    assert re.search(r"^retail: 2/2 scored, results: .+\.json$", output, re.MULTILINE)
    assert re.search(r"^airline: 2/2 scored, results: .+\.json$", output, re.MULTILINE)


def assert_fork_files(folder: Path) -> None:
    assert sorted(p.name for p in folder.iterdir()) == [
        "openai-gpt-4o_scores.jsonl",
        "openai-gpt-4o_statistics.jsonl",
        "openai-gpt-4o_task0_trajectory.jsonl",
        "openai-gpt-4o_task1_trajectory.jsonl",
    ]


def test_an_mt_file_writes_where_the_fork_does(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The fork's YAML writes ./data/{dataset_name}_{timestamp}/ (issue 40: it went to results/data/… unless
    --mt-fork-folder was given)."""
    monkeypatch.chdir(tmp_path)
    result = invoke("run", "--config", mt_file(tmp_path))
    assert result.exit_code == 0, explain_result(result)
    assert_both_subsets_ran(result.output)
    folders = sorted((tmp_path / "data").iterdir())
    assert len(folders) == 2 and not (tmp_path / "logs" / "data").exists()
    for folder in folders:
        assert re.fullmatch(r"tau_bench_\d{8}_\d{6}(_2)?", folder.name), folder.name
        assert_fork_files(folder)


def test_an_mt_file_keeps_taumesh_s_folder_on_request(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``mt_fork_folder: false``: one folder per subset, named by it, under the log dir (taumesh's own layout)."""
    monkeypatch.chdir(tmp_path)
    result = invoke("run", "--config", mt_file(tmp_path, "mt_fork_folder: false"))
    assert result.exit_code == 0, explain_result(result)
    assert_both_subsets_ran(result.output)
    folders = sorted(p.name for p in (tmp_path / "logs" / "data").iterdir())
    assert [re.sub(r"_\d{8}_\d{6}$", "", name) for name in folders] == ["tau_bench_airline", "tau_bench_retail"]
    assert not (tmp_path / "data").exists()
    for folder in (tmp_path / "logs" / "data").iterdir():
        assert_fork_files(folder)


FLAT = """\
env: airline
task_ids: [3, 7]
agent_strategy: tool-calling
model: gpt-4o
model_provider: openai
user_strategy: scripted
judge_model: openai/gpt-4o
max_concurrency: 8
tasks: certified
log_dir: out/
"""
GROUPED = """\
tasks: {env: airline, task_ids: [3, 7], tasks: certified}
agent: {strategy: tool-calling, model: gpt-4o, model_provider: openai}
user: {strategy: scripted}
judge: {model: openai/gpt-4o}
limits: {max_concurrency: 8}
outputs: {log_dir: out/}
"""


def test_a_grouped_file_is_the_same_run_as_the_flat_one(tmp_path: Path) -> None:
    from taumesh.settings import load_run_settings

    (flat_dir := tmp_path / "flat").mkdir()
    (grouped_dir := tmp_path / "grouped").mkdir()
    [flat] = load_run_settings({}, write(flat_dir, FLAT))
    [grouped] = load_run_settings({}, write(grouped_dir, GROUPED))
    assert grouped.run_config() == flat.run_config()
    assert grouped.run_config().judge.model == "openai/gpt-4o" and grouped.run_config().tasks == "certified"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("agent: {strategy: oracle, colour: red}\n", "agent.colour is not a setting of the agent group"),
        ("model: gpt-4o\nagent: {model: gpt-4o}\n", "model is set twice"),
    ],
)
def test_a_grouped_file_names_what_is_wrong(tmp_path: Path, text: str, message: str) -> None:
    result = invoke("run", "--config", write(tmp_path, text), "--log-dir", tmp_path / "logs")
    assert result.exit_code == 2, explain_result(result)
    assert message in result.output


def test_a_grouped_file_runs(tmp_path: Path) -> None:
    text = "tasks: {env: airline, task_ids: [12]}\nagent: {strategy: oracle}\nuser: {strategy: scripted}\n"
    text += f"outputs: {{quiet: true, log_dir: {tmp_path / 'logs'}}}\ntasks_data: {{}}\n".replace(
        "tasks_data: {}\n", ""
    )
    result = invoke("run", "--config", write(tmp_path, text), "--data-dir", V1_DATA)
    assert result.exit_code == 0, explain_result(result)
    assert list((tmp_path / "logs").glob("*.json"))
