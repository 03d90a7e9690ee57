"""``--user-strategy human``: a person types the user's turns into the terminal of ``taumesh run``."""

from __future__ import annotations

import contextlib
import json
import os
import pty
import select
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from taumesh.cli import app
from tests.helpers.fake_model import FakeOpenAI, text
from tests.helpers.paths import PROJECT_ROOT
from tests.llm.scripts import AGENT_MODEL, CLOSING, GoldAgent, Router, ScriptedLlmUser, TaskIndex


def taumesh_command() -> list[str]:
    script = Path(sys.executable).parent / "taumesh"
    return [str(script)] if script.is_file() else [sys.executable, "-m", "taumesh.cli"]


@pytest.mark.slow
def test_a_person_plays_the_user_through_stdin(
    fake: FakeOpenAI, task_index: TaskIndex, v1_data_dir: Path, tmp_path: Path
) -> None:
    fake.reset(Router(GoldAgent(task_index), ScriptedLlmUser(task_index)))
    task = task_index.tasks[0]
    typed = f"{task.instruction}\n\n"  # the opening message, then an empty line: done
    env = {**os.environ, **fake.environment(), "OTEL_SDK_DISABLED": "true", "COLUMNS": "200"}
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


class Terminal:
    """``taumesh run --user-strategy human`` in a pseudo-terminal: what a person at a real terminal sees and types."""

    def __init__(self, args: list[str], env: dict[str, str]) -> None:
        self.pid, self.fd = pty.fork()
        if self.pid == 0:  # the child: its stdin, stdout and stderr are the terminal, which it controls
            os.chdir(PROJECT_ROOT)
            os.execve(args[0], args, env)
        self.output = b""

    def read_until(self, wanted: str, timeout: float = 60, count: int = 1) -> str:
        """The output once ``wanted`` was shown ``count`` times in all."""
        deadline = time.monotonic() + timeout
        while self.output.count(wanted.encode()) < count:
            remaining = deadline - time.monotonic()
            assert remaining > 0, f"no {wanted!r} in {self.output.decode(errors='replace')[-2000:]}"
            if select.select([self.fd], [], [], remaining)[0]:
                try:
                    self.output += os.read(self.fd, 65536)
                except OSError:  # the child is gone
                    break
        return self.output.decode(errors="replace")

    def type(self, keys: str) -> None:
        os.write(self.fd, keys.encode())

    def wait(self, timeout: float) -> int:
        """The exit status, draining output meanwhile; fails after ``timeout`` seconds."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            pid, status = os.waitpid(self.pid, os.WNOHANG)
            if pid:
                os.close(self.fd)
                return os.waitstatus_to_exitcode(status)
            if select.select([self.fd], [], [], 0.05)[0]:
                with contextlib.suppress(OSError):
                    self.output += os.read(self.fd, 65536)
        os.kill(self.pid, signal.SIGKILL)
        os.waitpid(self.pid, 0)
        raise AssertionError(f"still running after {timeout}s: {self.output.decode(errors='replace')[-2000:]}")


def human_run(fake: FakeOpenAI, data_dir: Path, log_dir: Path, task_ids: list[int]) -> Terminal:
    script = Path(sys.executable).parent / "taumesh"
    env = {
        **os.environ,
        **fake.environment(),
        "OTEL_SDK_DISABLED": "true",
        "COLUMNS": "200",
        "TERM": "dumb",
    }
    env = {k: v for k, v in env.items() if not k.startswith("OTEL_EXPORTER_OTLP")}
    return Terminal(
        [
            str(script), "run", "--env", "retail", "--data-dir", str(data_dir), "--log-dir", str(log_dir),
            "--agent-strategy", "tool-calling", "--model", AGENT_MODEL, "--model-provider", "openai",
            "--api-base", fake.url, "--user-strategy", "human", "--task-ids", *map(str, task_ids),
        ],
        env,
    )  # fmt: skip


@pytest.mark.kill
def test_ctrl_c_at_the_prompt_stops_the_run_and_keeps_finished_episodes(
    fake: FakeOpenAI, task_index: TaskIndex, v1_data_dir: Path, tmp_path: Path
) -> None:
    fake.reset(Router(GoldAgent(task_index), ScriptedLlmUser(task_index)))
    first, second = task_index.tasks[0], task_index.tasks[1]
    terminal = human_run(fake, v1_data_dir, tmp_path, [0, 1])
    terminal.read_until(first.instruction)
    terminal.read_until("You: ")
    terminal.type(f"{first.instruction}\r")
    terminal.read_until(f"Agent: {CLOSING}")
    terminal.type("\r")  # an empty line: the first episode is done
    terminal.read_until(second.instruction)
    terminal.read_until("You: ")
    time.sleep(0.5)  # the person hesitates at the prompt, then presses Ctrl-C
    pressed = time.monotonic()
    terminal.type("\x03")
    status = terminal.wait(timeout=15)
    assert time.monotonic() - pressed < 10  # not waiting for Enter
    assert status != 0
    [results_file] = tmp_path.glob("*.json")
    [kept] = json.loads(results_file.read_text())  # the finished episode is in the file, for --resume
    assert kept["task_id"] == 0 and kept["reward"] == 1.0


ENDINGS = {"empty line": "\r", "stop token": "###STOP###\r", "ctrl-d": "\x04"}
"""What the person types at the first prompt, one ending per task in one run (end of input last: it ends stdin)."""


@pytest.fixture(scope="module")
def first_turn_endings(
    fake_server: FakeOpenAI, task_index: TaskIndex, v1_data_dir: Path, tmp_path_factory: pytest.TempPathFactory
) -> dict[str, tuple[str, dict[str, Any]]]:
    """One run of tasks 0-2 whose person ends each episode at its first prompt, each a different way: per ending,
    what the terminal showed during its episode and the episode's result (one process start instead of three)."""
    fake_server.reset(Router(lambda request: text("How can I help you?"), ScriptedLlmUser(task_index)))
    log_dir = tmp_path_factory.mktemp("first-turn-endings")
    terminal = human_run(fake_server, v1_data_dir, log_dir, [0, 1, 2])
    for shown, typed in enumerate(ENDINGS.values(), start=1):
        terminal.read_until("You: ", count=shown)
        terminal.type(typed)
    assert terminal.wait(timeout=60) == 0
    episodes = terminal.output.decode(errors="replace").split("=== You are the customer ===")[1:]
    [results_file] = log_dir.glob("*.json")
    results = {r["task_id"]: r for r in json.loads(results_file.read_text())}
    assert len(episodes) == len(results) == len(ENDINGS)
    return {ending: (episodes[i], results[i]) for i, ending in enumerate(ENDINGS)}


@pytest.mark.slow
@pytest.mark.parametrize("typed", list(ENDINGS))
def test_ending_at_the_first_turn_asks_nothing_more(
    typed: str, first_turn_endings: dict[str, tuple[str, dict[str, Any]]]
) -> None:
    out, result = first_turn_endings[typed]
    assert out.count("You: ") == 1  # the person is not asked again
    assert result["info"]["termination"] == "user_stop"
    assert next(m["content"] for m in result["traj"] if m["role"] == "user") == "###STOP###"
    assert not any(m["role"] == "assistant" for m in result["traj"])  # the agent never had to answer
