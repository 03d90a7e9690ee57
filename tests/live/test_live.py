"""The live tier: taumesh's real path (``taumesh run``, litellm over HTTP, ``--api-base``) against a real model.

What must hold whatever the model says: no infrastructure error; every tool call the agent made parsed (its
arguments JSON, answered by the environment) or the episode recorded as the agent's malformed call
(``agent_gave_up``); tokens and cost recorded for each role that called the model; each episode one complete
trace. The scores are printed, never asserted: a 1.5B model scores near 0.
"""

from __future__ import annotations

import json
import os
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from taumesh.domains import Catalog
from taumesh.testing.llama import MAX_TOKENS
from taumesh.testing.processes import taumesh_executable
from tests.helpers.environment import OTEL_VARIABLES
from tests.helpers.paths import SHARED
from tests.helpers.telemetry import assert_one_tree, by_trace
from tests.live.conftest import MODEL_NAME, MODEL_TIMEOUT, LiveServer
from tests.telemetry.receiver import OtlpReceiver, ReceivedSpan

MAX_STEPS = 8
"""Agent and user steps per episode: enough for a lookup, a tool answer and a reply, within minutes."""
HEAD_DATA = SHARED / "tau2" / "head_data"
JUDGED_TASK = "36"
"""τ² HEAD retail task 36: two NL assertions, judged after the oracle plays it (tests/llm/test_judge.py)."""


@dataclass
class LiveRun:
    name: str
    entries: list[dict[str, Any]]
    spans: list[ReceivedSpan]
    seconds: float
    output: str


def live_run(server: LiveServer, name: str, tmp_path: Path, *args: str) -> LiveRun:
    """``taumesh run ARGS`` in its own process against the live server, its traces sent to a receiver here."""
    receiver = OtlpReceiver()
    env = {k: v for k, v in os.environ.items() if k not in OTEL_VARIABLES}
    env.update(
        TAUMESH_LLM_TIMEOUT=str(MODEL_TIMEOUT),  # one HTTP attempt may take minutes on a cold prompt
        TAUMESH_LLM_MAX_ATTEMPTS="2",  # at temperature 0 a third attempt repeats the second
        OTEL_BSP_SCHEDULE_DELAY="200",
    )
    log_dir = tmp_path / name
    command = [taumesh_executable(), "run", *args, "--log-dir", str(log_dir), "--quiet", "--max-steps", str(MAX_STEPS)]
    command += ["--otlp-endpoint", receiver.endpoint]
    started = time.monotonic()
    try:
        done = subprocess.run(command, env=env, capture_output=True, text=True, timeout=3600, check=False)
        seconds = time.monotonic() - started
        output = done.stdout + done.stderr
        assert done.returncode == 0, output[-4000:]
        files = sorted(log_dir.glob("*.json"))
        assert len(files) == 1, (files, output[-2000:])
        entries = json.loads(files[0].read_text(encoding="utf-8"))
        spans = receiver.spans()
    finally:
        receiver.stop()
    server.timings[name] = seconds
    for entry in entries:
        info = entry["info"]
        print(
            f"\nlive {name}: task {entry['task_id']} reward {entry['reward']} ({seconds:.0f} s, "
            f"termination {info.get('termination')}, agent {info.get('agent_usage')}, user {info.get('user_usage')})"
        )
    return LiveRun(name, entries, spans, seconds, output)


def agent_args(server: LiveServer) -> list[str]:
    return ["--model", MODEL_NAME, "--api-base", server.url, "--temperature", "0"]


def user_args(server: LiveServer) -> list[str]:
    return ["--user-strategy", "llm-taumesh", "--user-model", MODEL_NAME, "--user-api-base", server.url]


def assert_no_infrastructure_error(run: LiveRun) -> None:
    assert run.entries, run.output[-2000:]
    for entry in run.entries:
        assert "error" not in entry["info"], f"{run.name}: {entry['info'].get('error')}"


def assert_tool_calls_parsed_or_the_agents(run: LiveRun) -> None:
    """Each call's arguments are JSON and the environment answered it, or the agent's malformed call is recorded."""
    for entry in run.entries:
        traj = entry["traj"]
        answered = {m.get("tool_call_id") for m in traj if m.get("role") == "tool"}
        for index, message in enumerate(traj):
            for call in message.get("tool_calls") or []:
                function = call.get("function", call)
                json.loads(function["arguments"])  # what the server parsed reaches the env as JSON
                last = index == len(traj) - 1
                assert call["id"] in answered or last, f"{run.name}: call {call} has no tool answer"
        gave_up = entry["info"].get("agent_gave_up", "")
        if entry["info"].get("termination") == "agent_gave_up":
            assert gave_up, f"{run.name}: the agent stopped with no reason recorded"


def assert_usage(run: LiveRun, *roles: str) -> None:
    for entry in run.entries:
        for role in roles:
            usage = entry["info"].get(f"{role}_usage")
            assert usage, f"{run.name}: no {role}_usage in {sorted(entry['info'])}"
            assert usage["calls"] >= 1 and usage["prompt_tokens"] > 0 and usage["completion_tokens"] > 0, usage
            assert usage["completion_tokens"] <= usage["calls"] * MAX_TOKENS, usage
            assert isinstance(usage["cost_usd"], int | float) and usage["cost_usd"] >= 0, usage


def assert_traces_complete(run: LiveRun, agent: str) -> None:
    episodes = [spans for spans in by_trace(run.spans).values() if any(s.name == "episode" for s in spans)]
    assert len(episodes) == len(run.entries), f"{run.name}: {len(episodes)} episode traces"
    for spans in episodes:
        root = assert_one_tree(spans)
        assert root.name == "episode"
        names = [s.name for s in spans]
        assert names.count("score_episode") == 1, names
        assert names.count(f"invoke_agent {agent}") >= 1, names
        assert names.count("simulate_user") >= 1, names
        # a tool that reported an error answered the agent's call (taumesh.tool.error): the agent's, not a fault
        faults = [s for s in spans if s.status_code == 2 and s.attributes.get("taumesh.tool.error") is not True]
        failed = [(s.service, s.name, s.status_message) for s in faults]
        assert not failed, f"{run.name}: spans with an error status: {failed}"


def check(run: LiveRun, agent: str, *roles: str) -> None:
    assert_no_infrastructure_error(run)
    assert_tool_calls_parsed_or_the_agents(run)
    assert_usage(run, *roles)
    assert_traces_complete(run, agent)


def test_smoke_the_tool_calling_agent_on_a_tau2_mock_task(
    live_server: LiveServer, tmp_path: Path, tau2_data: Path
) -> None:
    """The smallest piece (``-k smoke``): τ²'s mock domain, whose policy and tools are about 600 tokens."""
    live_server.warm(Catalog(tau2_data), "tau2-mock")
    run = live_run(
        live_server, "tau2-mock tool-calling", tmp_path, "--env", "tau2-mock", "--num-tasks", "1",
        "--agent-strategy", "tool-calling", *agent_args(live_server), "--user-strategy", "scripted",
    )  # fmt: skip
    check(run, "tool-calling", "agent")


def test_nl_judge_on_a_tau2_task_with_assertions(live_server: LiveServer, tmp_path: Path, tau2_data: Path) -> None:
    if not HEAD_DATA.is_dir():
        pytest.skip(f"HEAD data not found at {HEAD_DATA}")
    run = live_run(
        live_server, "tau2 retail judge", tmp_path, "--env", "tau2-retail", "--data-dir", str(HEAD_DATA),
        "--task-ids", JUDGED_TASK, "--agent-strategy", "oracle", "--user-strategy", "scripted",
        "--judge-model", MODEL_NAME, "--judge-api-base", live_server.url,
    )  # fmt: skip
    check(run, "oracle", "judge")
    for entry in run.entries:
        checks = entry["info"]["reward_info"]
        print(f"live judge: {json.dumps(checks)[:600]}")


def test_tool_calling_agent_and_llm_user_on_a_v1_retail_task(
    live_server: LiveServer, v1_data_dir: Path, tmp_path: Path
) -> None:
    live_server.warm(Catalog(v1_data_dir), "retail")
    run = live_run(
        live_server, "retail tool-calling", tmp_path, "--env", "retail", "--data-dir", str(v1_data_dir),
        "--task-ids", "0", "--agent-strategy", "tool-calling", *agent_args(live_server), *user_args(live_server),
    )  # fmt: skip
    check(run, "tool-calling", "agent", "user")


def test_react_agent_on_a_v1_retail_task(live_server: LiveServer, v1_data_dir: Path, tmp_path: Path) -> None:
    run = live_run(
        live_server, "retail react", tmp_path, "--env", "retail", "--data-dir", str(v1_data_dir), "--task-ids", "0",
        "--agent-strategy", "react", *agent_args(live_server), *user_args(live_server),
    )  # fmt: skip
    check(run, "react", "agent", "user")


def test_tool_calling_agent_and_llm_user_on_a_healthcare_task(
    live_server: LiveServer, v1_data_dir: Path, tmp_path: Path
) -> None:
    live_server.warm(Catalog(v1_data_dir), "healthcare")
    run = live_run(
        live_server, "healthcare tool-calling", tmp_path, "--env", "healthcare", "--num-tasks", "1",
        "--agent-strategy", "tool-calling", *agent_args(live_server), *user_args(live_server),
    )  # fmt: skip
    check(run, "tool-calling", "agent", "user")
