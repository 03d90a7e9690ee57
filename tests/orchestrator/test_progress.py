"""A run's progress: plain lines off a terminal, a live display on one, and ``--verbose`` conversations."""

from __future__ import annotations

import asyncio
import io
import json
import re
import subprocess
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.text import Text

from taumesh.models import Usage
from taumesh.orchestrator.results.records import EpisodeError, RunResult
from taumesh.orchestrator.results.transcript import print_transcript
from taumesh.orchestrator.run.progress import ProgressState, RunProgress
from tests.helpers.cli import (
    ORACLE,
    child_env,
    explain,
    explain_result,
    invoke,
    load_json,
    results_path,
    taumesh_executable,
)
from tests.helpers.paths import PROJECT_ROOT, V1_DATA

CONTROL = re.compile(r"[\x00-\x09\x0b-\x1f\x7f]")  # every control character but newline
LINE = re.compile(
    r"^progress: retail dev (?P<done>\d+)/20 \(\d+%\) \| in flight (?P<in_flight>\d+) \| elapsed \d+:\d\d:\d\d"
    r" \| ETA (n/a|\d+:\d\d:\d\d) \| average reward (?P<reward>n/a|\d\.\d{4}) \| pass\^1 (?P<pass_1>n/a|\d\.\d{4})"
    r" \| errors (?P<errors>\d+) \| agent (?P<agent>\d+\+\d+ tokens \$\d+\.\d{4})"
    r" \| user (?P<user>\d+\+\d+ tokens \$\d+\.\d{4}) \| total \$\d+\.\d{4}$"
)


class FakeClock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def scored(task_id: int, trial: int, reward: float, agent: Usage | None = None, user: Usage | None = None) -> RunResult:
    info: dict[str, Any] = {
        "termination": "user_stop",
        "steps": 3,
        "agent_usage": (agent or Usage()).model_dump(),
        "user_usage": (user or Usage()).model_dump(),
    }
    return RunResult(task_id=task_id, reward=reward, info=info, traj=[], trial=trial)


def test_progress_state_eta_running_pass_1_errors_and_usage_with_a_fake_clock() -> None:
    clock = FakeClock()
    state = ProgressState(total=5, clock=clock)
    assert (state.eta, state.average_reward, state.pass_1) == (None, None, None)
    for _ in range(3):
        state.episode_started()
    assert state.in_flight == 3

    clock.now += 10
    state.episode_finished(scored(0, 0, 1.0, agent=Usage(prompt_tokens=100, completion_tokens=20, cost_usd=0.5)))
    assert state.eta == 40.0  # 10 s per episode, 4 left
    clock.now += 10
    state.episode_finished(scored(0, 1, 0.0, user=Usage(prompt_tokens=7, completion_tokens=3, cost_usd=0.25)))
    clock.now += 10
    lost = {"agent": Usage(prompt_tokens=50, cost_usd=0.125).model_dump(), "user": Usage().model_dump()}
    error = RunResult.from_error(1, 0, EpisodeError(cause="UNAVAILABLE: env down", attempts=3))
    error.info["interrupted_attempts_usage"] = lost
    state.episode_finished(error)
    clock.now += 10
    state.episode_finished(scored(2, 0, 1.0))

    assert (state.done, state.in_flight, state.errors, state.scored) == (4, 0, 1, 3)
    assert state.elapsed == 40.0
    assert state.eta == 10.0  # 10 s per episode, 1 left
    assert state.average_reward == 2 / 3  # the error is no 0
    assert state.pass_1 == 0.75  # τ-bench's mean over tasks: task 0 1/2, task 2 1/1 (not 2 successes / 3 trials)
    assert state.agent == Usage(prompt_tokens=150, completion_tokens=20, cost_usd=0.625, calls=0)
    assert state.user == Usage(prompt_tokens=7, completion_tokens=3, cost_usd=0.25)
    assert state.line("retail dev") == (
        "progress: retail dev 4/5 (80%) | in flight 0 | elapsed 0:00:40 | ETA 0:00:10 | average reward 0.6667"
        " | pass^1 0.7500 | errors 1 | agent 150+20 tokens $0.6250 | user 7+3 tokens $0.2500 | total $0.8750"
    )


def test_a_run_off_a_terminal_prints_plain_progress_lines(v1_data_dir: Path, tmp_path: Path) -> None:
    argv = [taumesh_executable(), "run", "--env", "retail", "--task-split", "dev"]
    argv += ["--agent-strategy", "oracle", "--user-strategy", "scripted", "--max-concurrency", "2"]
    argv += ["--data-dir", str(V1_DATA), "--log-dir", str(tmp_path)]
    proc = subprocess.run(  # stdout and stderr are pipes: no terminal
        argv,
        capture_output=True,
        text=True,
        timeout=120,
        env=child_env() | {"TAUMESH_PROGRESS_INTERVAL": "0.05"},
        cwd=PROJECT_ROOT,
    )
    assert proc.returncode == 0, explain(proc)
    assert not CONTROL.search(proc.stderr), explain(proc)
    assert not CONTROL.search(proc.stdout), explain(proc)
    lines = [line for line in proc.stderr.splitlines() if line.startswith("progress:")]
    matches = [LINE.match(line) for line in lines]
    assert lines and all(matches), lines
    figures = [m.groupdict() for m in matches if m]
    assert len(figures) >= 2, "periodic lines, then the final one"
    done = [int(f["done"]) for f in figures]
    assert done == sorted(done)
    assert all(int(f["in_flight"]) <= 2 for f in figures)
    assert figures[-1] == {
        "done": "20",
        "in_flight": "0",
        "reward": "1.0000",
        "pass_1": "1.0000",
        "errors": "0",
        "agent": "0+0 tokens $0.0000",  # the oracle and the scripted user call no model
        "user": "0+0 tokens $0.0000",
    }
    assert len(load_json(results_path(tmp_path))) == 20


def test_verbose_prints_each_conversation_with_its_tool_calls_and_results(v1_data_dir: Path, tmp_path: Path) -> None:
    result = invoke(
        "run", "--env", "retail", "--task-split", "dev", *ORACLE, "--data-dir", V1_DATA, "--log-dir", tmp_path,
        "--task-ids", "0", "--task-ids", "3", "--verbose",
    )  # fmt: skip
    assert result.exit_code == 0, explain_result(result)
    output = result.output
    assert "\x1b" not in output, "no colour codes off a terminal"
    for entry in load_json(results_path(tmp_path)):
        assert f"task {entry['task_id']} trial 0: reward 1, user_stop" in output
        traj = entry["traj"]
        assert f"user: {traj[1]['content']}" in output
        calls = [call for m in traj if m["role"] == "assistant" for call in m.get("tool_calls") or []]
        assert calls, "the oracle calls tools"
        for call in calls:
            assert f"agent calls {call['function']['name']}({call['function']['arguments']})" in output
        for message in traj:
            if message["role"] == "tool":
                assert f"tool {message['name']} → {message['content'][:200]}" in output
        assert f"agent: {traj[-2]['content']}" in output


def conversation() -> RunResult:
    traj: list[dict[str, Any]] = [
        {"role": "system", "content": "policy"},
        {"role": "user", "content": "cancel order #W1\x1b[31m please"},
        {
            "role": "assistant",
            "content": "",
            "tool_calls": [
                {"id": "c1", "type": "function", "function": {"name": "cancel", "arguments": '{"order_id": "#W1"}'}}
            ],
        },
        {"role": "tool", "tool_call_id": "c1", "name": "cancel", "content": json.dumps({"status": "cancelled"})},
        {"role": "assistant", "content": "Done."},
    ]
    return RunResult(task_id=4, reward=0.0, info={"termination": "user_stop", "steps": 2}, traj=traj, trial=1)


def test_the_transcript_is_colour_coded_on_a_terminal_and_plain_elsewhere() -> None:
    plain, coloured = io.StringIO(), io.StringIO()
    print_transcript(conversation(), Console(file=plain, width=100))
    print_transcript(conversation(), Console(file=coloured, width=100, force_terminal=True, color_system="standard"))

    text = plain.getvalue()
    assert not CONTROL.search(text), "a control character in the message text does not reach a log"
    assert "task 4 trial 1: reward 0, user_stop, 2 steps" in text
    assert "user: cancel order #W1?[31m please" in text
    assert 'agent calls cancel({"order_id": "#W1"})' in text
    assert 'tool cancel → {"status": "cancelled"}' in text
    assert "agent: Done." in text
    styles = coloured.getvalue()
    assert "\x1b[1;32muser: " in styles and "\x1b[1;34magent: " in styles  # green user, blue agent
    assert "\x1b[1;33magent calls " in styles and "\x1b[1;35mtool cancel → " in styles  # yellow call, magenta result


def test_on_a_terminal_the_live_display_shows_the_figures() -> None:
    out = io.StringIO()
    console = Console(file=out, width=160, force_terminal=True)

    async def run() -> None:
        async with RunProgress(console, "retail dev", 2, verbose=True) as progress:
            assert progress.live_display
            progress.episode_started()
            progress.episode_finished(conversation())
            progress.episode_started()
            progress.episode_finished(scored(5, 0, 1.0, agent=Usage(prompt_tokens=9, completion_tokens=1)))

    asyncio.run(run())
    screen = Text.from_ansi(out.getvalue()).plain
    assert "2/2" in screen and "average reward 0.5000" in screen and "pass^1 0.5000" in screen
    assert "errors 0" in screen and "agent 9+1 tokens $0.0000" in screen
    assert "agent calls" in screen  # the conversation goes above the display
    assert "progress:" not in screen  # no plain lines on a terminal
