"""One settings model per command: flags > ``TAUMESH_*`` environment > ``--config FILE.yaml`` > defaults.

Every case runs the real ``taumesh`` command (the oracle agent and the scripted user: no model): ``serve`` as a
process, the rest in this process through typer's runner (the same app, exit codes and messages, no process start-up).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import grpc
import pytest
import yaml
from grpc_health.v1 import health_pb2, health_pb2_grpc

from taumesh.cli import load_command
from taumesh.settings import RunSettings, ServeSettings, TaumeshSettings
from tests.helpers.cli import (
    check_oracle_results,
    explain_result,
    invoke,
    load_json,
    results_path,
    taumesh_executable,
)
from tests.helpers.paths import V1_DATA
from tests.helpers.processes import Server, free_port, start_server

SERVING = r"serving (?P<services>\S+) on (?P<address>\S+:\d+)"


def write_config(path: Path, settings: dict[str, Any]) -> Path:
    path.write_text(yaml.safe_dump(settings), encoding="utf-8")
    return path


def oracle_config(tmp_path: Path, **settings: Any) -> Path:
    """A config file for an oracle run with the scripted user, ``settings`` added."""
    base = {
        "agent_strategy": "oracle",
        "user_strategy": "scripted",
        "data_dir": str(V1_DATA),
        "log_dir": str(tmp_path / "logs"),
        "quiet": True,
    }
    return write_config(tmp_path / "run.yaml", base | settings)


@pytest.mark.slow  # an oracle run or a serve process: 3-6 s
def test_a_config_file_runs_a_benchmark(v1_data_dir: Path, tmp_path: Path) -> None:
    config = oracle_config(tmp_path, env="retail", task_split="test", task_ids=[2, 5, 7], num_trials=2)
    proc = invoke("run", "--config", config)
    assert proc.exit_code == 0, explain_result(proc)
    results = load_json(results_path(tmp_path / "logs"))
    assert sorted((r["task_id"], r["trial"]) for r in results) == [(t, n) for t in (2, 5, 7) for n in (0, 1)]
    check_oracle_results([r for r in results if r["trial"] == 1], "retail", "test", [2, 5, 7], trial=1)
    assert "scored episodes: 6" in proc.stdout


@pytest.mark.slow  # an oracle run or a serve process: 3-6 s
def test_the_environment_overrides_the_file_and_a_flag_the_environment(
    v1_data_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    config = oracle_config(tmp_path, env="airline", task_ids=[0, 1])
    monkeypatch.setenv("TAUMESH_TASK_IDS", "[2]")

    # --env is not given: its default (retail) must not hide the file's airline
    first = invoke("run", "--config", config)
    assert first.exit_code == 0, explain_result(first)
    from_env = results_path(tmp_path / "logs")
    check_oracle_results(load_json(from_env), "airline", "test", [2])

    from_env.unlink()
    second = invoke("run", "--config", config, "--task-ids", "3", "4")  # τ-bench's list form
    assert second.exit_code == 0, explain_result(second)
    check_oracle_results(load_json(results_path(tmp_path / "logs")), "airline", "test", [3, 4])


@pytest.mark.slow  # an oracle run or a serve process: 3-6 s
def test_serve_takes_every_setting_from_the_environment(
    v1_data_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, servers: list[Server]
) -> None:
    port = free_port()
    for name, value in {"SERVICE": "env", "HOST": "127.0.0.1", "PORT": str(port), "DATA_DIR": str(V1_DATA)}.items():
        monkeypatch.setenv(f"TAUMESH_{name}", value)
    server = start_server([taumesh_executable(), "serve"], SERVING, tmp_path / "serve.err")
    servers.append(server)
    assert server.address == f"127.0.0.1:{port}"
    assert "taumesh.env.v1.EnvService" in server.lines[-1]
    with grpc.insecure_channel(server.address) as channel:
        reply = health_pb2_grpc.HealthStub(channel).Check(health_pb2.HealthCheckRequest(service=""), timeout=10)
    assert reply.status == health_pb2.HealthCheckResponse.SERVING
    assert server.terminate() == 0


def test_serve_without_a_service_says_how_to_give_one(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("TAUMESH_SERVICE", raising=False)
    proc = invoke("serve")
    assert proc.exit_code == 2
    assert "TAUMESH_SERVICE" in proc.stderr


@pytest.mark.parametrize(
    ("settings", "expected"),
    [
        ({"max_step": 3}, "unknown setting 'max_step' (did you mean 'max_steps'?)"),
        ({"max_concurrency": "many"}, "max_concurrency: Input should be a valid integer"),
        ({"num_trials": 0}, "num_trials: Input should be greater than or equal to 1 (got 0)"),
        ({"task_ids": {"a": 1}}, "task_ids: Input should be a valid list"),
    ],
    ids=["unknown key", "wrong type", "bad value", "not a list"],
)
def test_a_bad_setting_in_the_file_is_one_line_and_exit_2(
    tmp_path: Path, settings: dict[str, Any], expected: str
) -> None:
    config = oracle_config(tmp_path, **settings)
    proc = invoke("run", "--config", config)
    assert proc.exit_code == 2, proc.stderr
    (line,) = proc.stderr.strip().splitlines()
    assert line.startswith(f"error: {config}: {expected}")
    assert not (tmp_path / "logs").exists()


def test_a_file_that_is_not_a_mapping_is_one_line_and_exit_2(tmp_path: Path) -> None:
    for text, expected in (("- 1\n- 2\n", "must be a mapping"), ("env: [\n", "not valid YAML")):
        config = tmp_path / "run.yaml"
        config.write_text(text, encoding="utf-8")
        proc = invoke("serve", "env", "--config", config)
        assert proc.exit_code == 2, proc.stderr
        (line,) = proc.stderr.strip().splitlines()
        assert line.startswith(f"error: {config}: ") and expected in line


def test_a_bad_environment_variable_is_named(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TAUMESH_PORT", "fifty")
    proc = invoke("serve", "scorer")
    assert proc.exit_code == 2
    assert proc.stderr.strip().splitlines() == [
        "error: TAUMESH_PORT: Input should be a valid integer, unable to parse string as an integer (got 'fifty')"
    ]


def test_a_flag_out_of_range_is_named_by_its_spelling(tmp_path: Path) -> None:
    proc = invoke("run", "--max-steps", "0", "--log-dir", tmp_path / "logs")
    assert proc.exit_code == 2
    assert "error: --max-steps: Input should be greater than or equal to 1 (got 0)" in proc.stderr


@pytest.mark.parametrize(("command", "settings_cls"), [("run", RunSettings), ("serve", ServeSettings)])
def test_help_names_each_options_environment_variable(command: str, settings_cls: type[TaumeshSettings]) -> None:
    proc = invoke(command, "--help")
    assert proc.exit_code == 0, explain_result(proc)
    listed = set(re.findall(r"\bTAUMESH_[A-Z_]+", proc.stdout))
    secrets = {"TAUMESH_GATEWAY_KEY"}  # read from the environment only, never a setting: --gateway names it
    settings = {settings_cls.env_name(field) for field in settings_cls.model_fields} | {"TAUMESH_CONFIG"}
    assert listed - secrets == settings


@pytest.mark.parametrize(("command", "settings_cls"), [("run", RunSettings), ("serve", ServeSettings)])
def test_every_option_is_a_setting_and_every_setting_an_option(
    command: str, settings_cls: type[TaumeshSettings]
) -> None:
    """The command line and the model describe the same settings, with the same defaults."""
    click_command = load_command(command)
    params = {param.name: param for param in click_command.params if param.name not in ("config_file", "help")}
    assert set(params) == set(settings_cls.model_fields)
    for name, field in settings_cls.model_fields.items():
        if not field.is_required() and field.default_factory is None:
            assert params[name].default == field.default, name
        assert (field.description or "").replace("``", "").split()[0] in (params[name].help or ""), name  # docstring
