"""A model behind a local ``--api-base`` needs no API key; the usage line claims no interrupted attempts it lacks."""

from __future__ import annotations

from pathlib import Path

import pytest
from rich.console import Console
from typer.testing import CliRunner

from taumesh.cli import app
from taumesh.llm.preflight import credentials_problem, is_local_api_base
from taumesh.models import ModelSettings
from taumesh.orchestrator.results.records import RunResult
from taumesh.orchestrator.run.console import print_summary
from taumesh.orchestrator.run.runner import RunSummary
from tests.helpers.fake_model import FakeOpenAI
from tests.llm.scripts import GoldAgent, Router, ScriptedLlmUser, TaskIndex

INTERRUPTED = "(interrupted attempts included)"
RUN = ["run", "--env", "retail", "--task-ids", "0", "--quiet", "--agent-strategy", "tool-calling", "--model", "gpt-4o"]
RUN += ["--model-provider", "openai", "--user-strategy", "scripted"]


def test_a_local_server_runs_without_openai_api_key(
    fake: FakeOpenAI, task_index: TaskIndex, v1_data_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    fake.reset(Router(GoldAgent(task_index), ScriptedLlmUser(task_index)))
    result = CliRunner().invoke(
        app,
        [*RUN, "--data-dir", str(v1_data_dir), "--api-base", fake.url, "--log-dir", str(tmp_path)],
        env={"COLUMNS": "200"},
    )
    assert result.exit_code == 0, result.output
    assert fake.served and all(s.request["model"] == "gpt-4o" for s in fake.served)
    assert "agent:" in result.output and "tokens" in result.output
    assert INTERRUPTED not in result.output  # no attempt was interrupted


def test_only_a_local_base_is_spared_the_key(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    for base in ("http://127.0.0.1:8000/v1", "http://localhost:11434", "http://[::1]:9/v1", "http://127.0.0.2"):
        assert is_local_api_base(base), base
        assert credentials_problem(ModelSettings(model="gpt-4o", provider="openai", api_base=base), "--model") is None
    for base in ("", "https://api.openai.com/v1", "http://gpu-box.example.com:8000/v1"):
        assert not is_local_api_base(base), base
        problem = credentials_problem(ModelSettings(model="gpt-4o", provider="openai", api_base=base), "--model")
        assert problem is not None and "OPENAI_API_KEY" in problem


def _result(interrupted: bool) -> RunResult:
    usage = {"prompt_tokens": 10, "completion_tokens": 5, "calls": 1, "cost_usd": 0.001}
    info: dict[str, object] = {"agent_usage": usage, "user_usage": usage, "termination": "user_stop"}
    if interrupted:
        info["interrupted_attempts_usage"] = {"agent": usage, "user": usage}
    return RunResult(task_id=0, reward=1.0, info=info, traj=[], trial=0)


@pytest.mark.parametrize("interrupted", [False, True])
def test_the_usage_line_names_interrupted_attempts_only_when_there_were_some(interrupted: bool) -> None:
    console = Console(record=True, width=200)
    print_summary(RunSummary(results_path=Path("r.json"), results=[_result(interrupted)], pass_hat_k={1: 1.0},
                             average_reward=1.0), console)  # fmt: skip
    assert (INTERRUPTED in console.export_text()) is interrupted
