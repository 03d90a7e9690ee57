"""A ``taumesh run`` process whose episodes are slow on purpose, for the tests that stop it mid-run.

An oracle agent against the LLM user of the fake model, which takes ``user_delay`` seconds per reply, every session
in an env served apart (``--env-addr``): each episode holds its env session at least that long, so a signal or a
kill finds sessions open and episodes in flight.
"""

from __future__ import annotations

import json
import subprocess
import time
from pathlib import Path

from taumesh.orchestrator.results.names import ERRORS_SUFFIX
from tests.helpers.cli import child_env, taumesh_executable
from tests.helpers.fake_model import FakeOpenAI, Reply
from tests.helpers.paths import V1_DATA

FIRST_RESULT_WAIT = 90.0
"""Seconds to wait for the run's first result before the test gives up."""


def slow_run_args(env_address: str, log_dir: Path, model_url: str, tasks: int, concurrency: int) -> list[str]:
    """``taumesh run``'s arguments: the first ``tasks`` of retail's test split, ``concurrency`` at a time."""
    return [
        "run", "--env", "retail", "--task-split", "test", "--end-index", str(tasks),
        "--agent-strategy", "oracle", "--user-strategy", "llm-taumesh", "--user-model", "fake-model",
        "--user-model-provider", "openai", "--user-api-base", model_url, "--max-concurrency", str(concurrency),
        "--quiet", "--data-dir", str(V1_DATA), "--log-dir", str(log_dir), "--env-addr", env_address,
    ]  # fmt: skip


def results_so_far(log_dir: Path) -> int:
    """Entries in the run's results file so far (0 before it is written, or while a rewrite is half on disk)."""
    files = [f for f in log_dir.glob("*.json") if not f.name.endswith(ERRORS_SUFFIX)]
    if not files:
        return 0
    try:
        return len(json.loads(files[0].read_text(encoding="utf-8")))
    except json.JSONDecodeError:
        return 0


def start_slow_run(
    env_address: str, log_dir: Path, fake: FakeOpenAI, tasks: int, concurrency: int, user_delay: float
) -> subprocess.Popen[str]:
    """The run started, returned once its first result is written (or it ended, or the wait ran out)."""
    fake.reset(Reply(content="Thanks, that is all. ###STOP###", delay=user_delay))
    run = subprocess.Popen(
        [taumesh_executable(), *slow_run_args(env_address, log_dir, fake.url, tasks, concurrency)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=child_env(),
    )
    deadline = time.monotonic() + FIRST_RESULT_WAIT
    while results_so_far(log_dir) == 0 and run.poll() is None and time.monotonic() < deadline:
        time.sleep(0.05)
    return run
