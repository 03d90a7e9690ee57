"""The ``taumesh`` command in tests: as a subprocess or in this process, oracle runs and their checks."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path
from typing import Any

import pytest
from click.testing import Result
from typer.testing import CliRunner

from taumesh.testing import processes
from tests.helpers.paths import PROJECT_ROOT, V1_DATA, V1_VECTORS, read_jsonl

EXTERNAL_AGENT = PROJECT_ROOT / "examples" / "external_agent_server.py"
ORACLE = ("--agent-strategy", "oracle", "--user-strategy", "scripted", "--quiet")
STOP = "###STOP###"
ERRORS_SUFFIX = ".errors.json"
"""How a run's errors file is named beside its results file."""
IN_PROCESS_ENV: dict[str, str | None] = {
    "COLUMNS": "200",
    "OTEL_SDK_DISABLED": "true",
    "OTEL_EXPORTER_OTLP_ENDPOINT": None,
    "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT": None,
    "OTEL_TRACES_EXPORTER": None,
}


def taumesh_executable() -> str:
    """The installed ``taumesh`` script of this interpreter's environment (the test skips without one)."""
    try:
        return processes.taumesh_executable()
    except FileNotFoundError as exc:
        pytest.skip(str(exc))


def child_env() -> dict[str, str]:
    """Environment for child processes: wide console (no wrapped lines), no telemetry, no network for litellm."""
    env = {name: value for name, value in os.environ.items() if not name.startswith("OTEL_")}
    env.update({"COLUMNS": "200", "LITELLM_LOCAL_MODEL_COST_MAP": "True", "OTEL_SDK_DISABLED": "true"})
    return env


def taumesh(*args: str | Path, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    """Run ``taumesh ARGS`` to completion and return what it did (never raises on a non-zero exit)."""
    return subprocess.run(
        [taumesh_executable(), *map(str, args)],
        capture_output=True,
        text=True,
        timeout=timeout,
        env=child_env(),
        cwd=PROJECT_ROOT,
    )


def start_taumesh(*args: str | Path) -> subprocess.Popen[str]:
    """Start ``taumesh ARGS`` in the background, its output captured (end it with :func:`finish`)."""
    return subprocess.Popen(
        [taumesh_executable(), *map(str, args)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=child_env(),
        cwd=PROJECT_ROOT,
    )


def finish(run: subprocess.Popen[str], timeout: float = 300) -> subprocess.CompletedProcess[str]:
    """Wait for ``run`` to end (killed if it outlives ``timeout``) and return what it did."""
    try:
        stdout, stderr = run.communicate(timeout=timeout)
    finally:
        if run.poll() is None:
            run.kill()
    return subprocess.CompletedProcess(run.args, run.returncode, stdout, stderr)


def explain(proc: subprocess.CompletedProcess[str]) -> str:
    return f"exit {proc.returncode}\n--- stdout\n{proc.stdout[-4000:]}\n--- stderr\n{proc.stderr[-4000:]}"


def assert_ok(proc: subprocess.CompletedProcess[str]) -> None:
    assert proc.returncode == 0, explain(proc)
    assert "Traceback" not in proc.stderr, explain(proc)


def assert_no_traceback(proc: subprocess.CompletedProcess[str]) -> None:
    """A clean failure: no Python traceback, neither plain nor in rich's boxed form."""
    for text in (proc.stdout, proc.stderr):
        assert "Traceback" not in text, explain(proc)
        assert "AioRpcError" not in text, explain(proc)


def invoke(*args: str | Path) -> Result:
    """``taumesh ARGS`` run in this process (typer's test runner): the same command, without a process start-up.

    Fails the test when an exception other than a deliberate exit escaped the command (a traceback for a user).
    """
    from taumesh.cli import app

    result = CliRunner().invoke(app, [str(a) for a in args], env=IN_PROCESS_ENV)
    escaped = result.exception is not None and not isinstance(result.exception, SystemExit)
    assert not escaped, f"{type(result.exception).__name__}: {result.exception}\n{result.output}"
    assert "Traceback" not in result.output, result.output
    return result


def explain_result(result: Result) -> str:
    return f"exit {result.exit_code}\n--- stdout\n{result.stdout[-4000:]}\n--- stderr\n{result.stderr[-4000:]}"


def oracle_invoke(log_dir: Path, env: str, split: str, *extra: str | Path) -> tuple[Result, list[dict[str, Any]]]:
    """:func:`oracle_run` in this process."""
    result = invoke(
        "run", "--env", env, "--task-split", split, *ORACLE, "--data-dir", V1_DATA, "--log-dir", log_dir, *extra
    )
    assert result.exit_code == 0, explain_result(result)
    return result, load_json(results_path(log_dir))


def results_path(log_dir: Path) -> Path:
    """The one results file a run wrote into ``log_dir`` (its errors file and τ²-layout file beside it aside)."""
    files = sorted(f for f in log_dir.glob("*.json") if not f.name.endswith((ERRORS_SUFFIX, ".tau2.json")))
    assert len(files) == 1, f"expected one results file in {log_dir}, found {files}"
    return files[0]


def load_json(path: Path) -> Any:
    return json.loads(path.read_text(encoding="utf-8"))


def oracle_run(
    log_dir: Path, env: str, split: str, *extra: str | Path, timeout: float = 120
) -> tuple[subprocess.CompletedProcess[str], list[dict[str, Any]]]:
    """``taumesh run`` with the oracle agent and the scripted user; returns the process and the results."""
    proc = taumesh(
        "run", "--env", env, "--task-split", split, *ORACLE, "--data-dir", V1_DATA, "--log-dir", log_dir, *extra,
        timeout=timeout,
    )  # fmt: skip
    assert_ok(proc)
    return proc, load_json(results_path(log_dir))


def vectors(env: str, split: str) -> dict[int, dict[str, Any]]:
    return {row["task_id"]: row for row in read_jsonl(V1_VECTORS / f"{env}_{split}.jsonl")}


def tasks(env: str, split: str) -> list[dict[str, Any]]:
    return load_json(V1_DATA / env / f"tasks_{split}.json")


def traj_tool_calls(traj: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Every tool call of the trajectory's assistant messages as ``{name, kwargs}``, in order."""
    return [
        {"name": call["function"]["name"], "kwargs": json.loads(call["function"]["arguments"])}
        for message in traj
        if message["role"] == "assistant"
        for call in message.get("tool_calls") or []
    ]


def check_oracle_results(
    results: list[dict[str, Any]],
    env: str,
    split: str,
    task_ids: list[int],
    call_id_prefix: str = "oracle_",
    trial: int = 0,
) -> None:
    """Each result is the gold solution replayed exactly as τ-bench's reference run did it, scored 1.0.

    ``call_id_prefix`` tells which agent made the calls (the built-in oracle's ids are ``oracle_N``).
    """
    gold = vectors(env, split)
    task_list = tasks(env, split)
    policy = (V1_DATA / env / "wiki.md").read_text(encoding="utf-8")
    keys = sorted((r["task_id"], r["trial"]) for r in results)
    assert keys == sorted((i, trial) for i in task_ids), f"every task exactly once, trial {trial}"
    wrong = {r["task_id"]: r["reward"] for r in results if r["reward"] != 1.0}
    assert not wrong, f"rewards other than 1.0: {wrong}"
    for result in results:
        vector, task = gold[result["task_id"]], task_list[result["task_id"]]
        where = f"{env} {split} task {result['task_id']}"
        traj, info = result["traj"], result["info"]
        assert traj[0] == {"role": "system", "content": policy}, where
        assert traj[1] == {"role": "user", "content": task["instruction"]}, where
        assert traj_tool_calls(traj) == vector["actions"], where
        observations = [m["content"] for m in traj if m["role"] == "tool"]
        assert observations == vector["action_outputs"], where
        # every tool message answers the call just before it
        calls = {
            c["id"]: c["function"]["name"] for m in traj if m["role"] == "assistant" for c in m.get("tool_calls") or []
        }
        assert all(call_id.startswith(call_id_prefix) for call_id in calls), (where, sorted(calls))
        for message in traj:
            if message["role"] == "tool":
                assert calls[message["tool_call_id"]] == message["name"], where
        assert "error" not in info, where
        assert info["final_data_hash"] == vector["final_hash"], where
        assert info["task"]["user_id"] == task["user_id"], where
        assert info["task"]["instruction"] == task["instruction"], where
        assert info["task"]["actions"] == task["actions"], where
        assert info["reward_info"]["reward"] == 1.0, where
        if vector["terminated_by"] == "transfer_to_human_agents":
            assert info["termination"] == "terminate_tool", where
            assert info["source"] == "transfer_to_human_agents", where
            assert traj[-1]["role"] == "tool" and traj[-1]["name"] == "transfer_to_human_agents", where
        else:
            assert info["termination"] == "user_stop", where
            assert info["source"] == "user", where
            assert traj[-2] == {"role": "assistant", "content": vector["respond_content"]}, where
            assert traj[-1] == {"role": "user", "content": STOP}, where
        # τ-bench's reward info: {r_actions, gt_data_hash}, or {r_outputs, outputs} whenever the task has outputs
        assert info["reward_info"]["info"] == vector["reward_info"], where
        assert info["task"]["outputs"] == task["outputs"], where
