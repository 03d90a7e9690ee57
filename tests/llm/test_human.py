"""``--user-strategy human``: a person types the user's turns into the terminal of ``taumesh run``."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from typer.testing import CliRunner

from taumesh.cli import app
from tests.conftest import PROJECT_ROOT
from tests.llm.conftest import FAKE_KEY
from tests.llm.fake_openai import FakeOpenAI
from tests.llm.scripts import AGENT_MODEL, CLOSING, GoldAgent, Router, ScriptedLlmUser, TaskIndex


def taumesh_command() -> list[str]:
    script = Path(sys.executable).parent / "taumesh"
    return [str(script)] if script.is_file() else [sys.executable, "-m", "taumesh.cli"]


def test_a_person_plays_the_user_through_stdin(
    fake: FakeOpenAI, task_index: TaskIndex, v1_data_dir: Path, tmp_path: Path
) -> None:
    fake.reset(Router(GoldAgent(task_index), ScriptedLlmUser(task_index)))
    task = task_index.tasks[0]
    typed = f"{task.instruction}\n\n"  # the opening message, then an empty line: done
    env = {**os.environ, "OPENAI_API_KEY": FAKE_KEY, "OTEL_SDK_DISABLED": "true", "COLUMNS": "200"}
    env = {k: v for k, v in env.items() if not k.startswith("OTEL_EXPORTER_OTLP")}
    done = subprocess.run(
        [
            *taumesh_command(), "run", "--env", "retail", "--task-ids", "0", "--data-dir", str(v1_data_dir),
            "--log-dir", str(tmp_path), "--agent-strategy", "tool-calling", "--model", AGENT_MODEL,
            "--model-provider", "openai", "--api-base", fake.url, "--user-strategy", "human",
        ],
        input=typed, capture_output=True, text=True, timeout=120, env=env, cwd=PROJECT_ROOT, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "=== You are the customer ===" in out and task.instruction in out  # the instruction is shown first
    assert out.index("You: ") < out.index(f"Agent: {CLOSING}")  # then the agent's message, then the prompt again
    assert out.count("You: ") == 2
    [results_file] = tmp_path.glob("*.json")
    [result] = json.loads(results_file.read_text())
    assert result["reward"] == 1.0 and result["info"]["termination"] == "user_stop"
    assert [m["content"] for m in result["traj"] if m["role"] == "user"] == [task.instruction, "###STOP###"]
    assert all(s.request["model"] == AGENT_MODEL for s in fake.served)  # no user model in human mode


def test_human_needs_the_embedded_user_service_and_one_episode_at_a_time() -> None:
    base = ["run", "--agent-strategy", "oracle", "--user-strategy", "human"]
    for extra in (["--max-concurrency", "2"], ["--user-addr", "127.0.0.1:1"]):
        refused = CliRunner().invoke(app, [*base, *extra], env={"COLUMNS": "200"})
        assert refused.exit_code == 2
        assert "--user-strategy human reads this terminal" in refused.output


def test_llm_agent_without_a_model_is_refused_up_front() -> None:
    refused = CliRunner().invoke(app, ["run", "--agent-strategy", "react"], env={"COLUMNS": "200"})
    assert refused.exit_code == 2 and "--agent-strategy react needs --model" in refused.output
