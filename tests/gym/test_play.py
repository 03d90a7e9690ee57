"""``taumesh play``: a person plays the agent through stdin and is shown the reward.

The whole command runs in a subprocess where the console script itself is the point (a whole episode played to its
reward, end of input); the other cases run the same command in this process (no process start to pay)."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest
from typer.testing import CliRunner, Result

from taumesh.domains import Task
from tests.helpers.fake_model import FAKE_KEY, FakeOpenAI
from tests.helpers.paths import PROJECT_ROOT
from tests.llm.scripts import USER_MODEL, Router, ScriptedLlmUser, TaskIndex
from tests.llm.test_human import taumesh_command


def play(args: list[str], typed: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "OPENAI_API_KEY": FAKE_KEY, "OTEL_SDK_DISABLED": "true", "COLUMNS": "200"}
    env = {k: v for k, v in env.items() if not k.startswith("OTEL_EXPORTER_OTLP")}
    return subprocess.run(
        [*taumesh_command(), "play", *args], input=typed, capture_output=True, text=True, timeout=120, env=env,
        cwd=PROJECT_ROOT, check=False,
    )  # fmt: skip


def refuse(args: list[str]) -> Result:
    """``taumesh play`` with flags refused before any episode: the CLI in this process (no process start to pay)."""
    return play_here(args, "")


def play_here(args: list[str], typed: str) -> Result:
    """``taumesh play`` in this process, ``typed`` on its stdin (piped, as in :func:`play`)."""
    from taumesh.cli import app

    return CliRunner().invoke(app, ["play", *args], input=typed, env={"COLUMNS": "200"})


def gold_lines(task: Task) -> list[str]:
    """The task's gold actions, alternately in τ²'s functional form and as JSON, then the outputs in words."""
    lines = []
    for number, action in enumerate(task.agent_actions()):
        if number % 2:
            lines.append(json.dumps({"name": action.name, "arguments": action.kwargs}))
        else:
            lines.append(f"{action.name}({', '.join(f'{k}={v!r}' for k, v in action.kwargs.items())})")
    return [*lines, " ".join(task.outputs) or "Your exchange is done."]


@pytest.mark.slow
def test_a_person_plays_the_gold_actions_and_sees_reward_one(v1_data_dir: Path, retail_tasks: list[Task]) -> None:
    task = retail_tasks[0]
    typed = ["retail", "0", "/tools", "", *gold_lines(task)]  # domain by name, task id, a command, an empty line
    done = play(["--data-dir", str(v1_data_dir), "--task-split", "test"], "\n".join(typed) + "\n")
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "Domains with data:" in out and ". retail (test, train, dev)" in out
    assert "== retail test task 0: you are the agent ==" in out and "# Retail agent policy" in out
    assert f"user: {task.instruction}" in out  # the simulated user opens
    assert out.count("find_user_id_by_name_zip(first_name, last_name, zip):") == 2  # the tools, and /tools
    assert "tool find_user_id_by_name_zip: yusuf_rossi_9620" in out  # the first gold action's result
    assert "user: ###STOP###" in out
    assert "== Episode over (user_stop," in out and "  passed: DB" in out
    assert out.rstrip().endswith("reward: 1.0")


def test_an_llm_user_a_wrong_action_and_a_refused_one(
    fake: FakeOpenAI, v1_data_dir: Path, retail_tasks: list[Task]
) -> None:
    fake.reset(
        Router(
            lambda request: (_ for _ in ()).throw(AssertionError("no agent model")),
            ScriptedLlmUser(TaskIndex(retail_tasks)),
        )
    )
    task = retail_tasks[1]
    typed = ['get_user_details(user_id=["not", "a", "literal"', "get_user_details(user_id=1 + 1)", "Done."]
    done = play_here(
        ["--env", "retail", "--task-id", "1", "--data-dir", str(v1_data_dir), "--user-strategy", "llm-taumesh",
         "--user-model", USER_MODEL, "--user-model-provider", "openai", "--user-api-base", fake.url],
        "\n".join(typed) + "\n",
    )  # fmt: skip
    assert done.exit_code == 0, done.stderr
    out = done.stdout
    assert "Domains with data:" not in out and "Task id" not in out  # both given as flags
    assert f"user: {task.instruction}" in out  # the model-played user
    assert "not sent: get_user_details(...) is not a call in Python syntax" in out
    assert "not sent: argument 'user_id' of get_user_details is not a literal value" in out
    assert "  FAILED: DB" in out and out.rstrip().endswith("reward: 0.0")
    assert fake.served and all(s.request["model"] == USER_MODEL for s in fake.served)


def test_a_user_without_its_prompts_is_a_clear_error(fake: FakeOpenAI, v1_data_dir: Path, tmp_path: Path) -> None:
    # τ-bench's own llm user needs the prompts `taumesh data import taubench` extracts; the shared data has none:
    # taumesh run's pre-flight refuses it before the episode, naming the import
    done = play_here(
        ["--env", "retail", "--task-id", "0", "--data-dir", str(v1_data_dir), "--user-strategy", "llm",
         "--user-model", USER_MODEL, "--user-model-provider", "openai", "--user-api-base", fake.url],
        "",
    )  # fmt: skip
    assert done.exit_code == 2 and isinstance(done.exception, SystemExit)  # an exit, never an uncaught exception
    assert "Traceback" not in done.stderr
    assert "prompts are not imported" in done.stderr and "taumesh data import taubench PATH" in done.stderr


@pytest.mark.slow
def test_end_of_input_gives_up_unscored_and_bad_flags_are_refused(v1_data_dir: Path) -> None:
    typed = 'find_user_id_by_email(email="nobody@example.com")\n'  # one tool call, then the input ends
    done = play(["--env", "retail", "--task-id", "0", "--data-dir", str(v1_data_dir)], typed)
    assert done.returncode == 1 and "Episode given up: not scored." in done.stdout
    assert "tool find_user_id_by_email: Error: user not found" in done.stdout and "reward:" not in done.stdout
    refused = refuse(["--env", "retail", "--task-id", "999", "--data-dir", str(v1_data_dir)])
    assert refused.exit_code == 2 and "retail test has no task '999'" in refused.stderr
    refused = refuse(["--user-strategy", "llm"])
    assert refused.exit_code == 2 and "--user-strategy llm needs --user-model" in refused.stderr
    refused = refuse(["--user-strategy", "human"])
    assert refused.exit_code == 2 and "the user must be simulated" in refused.stderr
