"""Runs to view: an oracle run made through the CLI, a copy edited to fail in known ways, and the served viewer."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from tests.helpers.viewer import (
    AGENT_COST,
    DIVERGING_STEP,
    DIVERGING_TASK,
    ERROR_TASK,
    INCONSISTENT_TASK,
    TASKS,
    TELECOM_TASKS,
    TRIALS,
    USER_COST,
    break_call,
    fail_entry,
)
from tests.helpers.viewer_thread import ThreadViewer

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page


@pytest.fixture(scope="session")
def oracle_run(v1_data_dir: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A real run: the oracle agent and scripted user on 6 retail tasks, 3 trials, through ``taumesh run``."""
    log_dir = tmp_path_factory.mktemp("oracle")
    command = ["taumesh", "run", "--env", "retail", "--agent-strategy", "oracle", "--user-strategy", "scripted"]
    command += ["--data-dir", str(v1_data_dir), "--task-ids", *TASKS, "--num-trials", str(TRIALS)]
    command += ["--max-concurrency", "4", "--log-dir", str(log_dir), "--quiet", "--output-format", "both"]
    env = {**os.environ, "LITELLM_LOCAL_MODEL_COST_MAP": "True"}
    subprocess.run(command, check=True, env=env, capture_output=True, timeout=300)
    (results,) = [p for p in log_dir.glob("*.json") if not p.name.endswith(".tau2.json")]
    return results


@pytest.fixture(scope="session")
def telecom_run(tau2_data: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The log folder of a real τ² telecom run in both layouts, whose user calls its own tools (its phone's): the
    oracle agent and the scripted user on :data:`TELECOM_TASKS`, through ``taumesh run``."""
    from tests.helpers.tau2 import tau2_domain

    ids = [str(i) for i, task in enumerate(tau2_domain("telecom").tasks("small")) if task.id in TELECOM_TASKS]
    log_dir = tmp_path_factory.mktemp("telecom")
    command = ["taumesh", "run", "--env", "tau2-telecom", "--task-split", "small", "--task-ids", *ids]
    command += ["--agent-strategy", "oracle", "--user-strategy", "scripted", "--quiet", "--output-format", "both"]
    env = {**os.environ, "LITELLM_LOCAL_MODEL_COST_MAP": "True"}
    subprocess.run([*command, "--log-dir", str(log_dir)], check=True, env=env, capture_output=True, timeout=300)
    return log_dir


@pytest.fixture(scope="session")
def failing_run(oracle_run: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The oracle run edited: one inconsistent task, one failed everywhere with a known divergence, one error, costs."""
    entries = json.loads(oracle_run.read_text(encoding="utf-8"))
    kept, errors = [], []
    for entry in entries:
        task, trial = str(entry["task_id"]), entry["trial"]
        entry["info"]["agent_usage"]["cost_usd"] = AGENT_COST
        entry["info"]["user_usage"]["cost_usd"] = USER_COST
        entry["info"]["agent_usage"]["prompt_tokens"] = 100
        if task == INCONSISTENT_TASK and trial < 2:
            fail_entry(entry)
        if task == DIVERGING_TASK:
            break_call(entry, DIVERGING_STEP)
            fail_entry(entry)
        if task == ERROR_TASK and trial == 0:
            error = {"kind": "infrastructure", "cause": "UNAVAILABLE: env went away", "attempts": 4}
            info = {"error": error, "user_sim_version": entry["info"]["user_sim_version"]}  # as the runner writes it
            errors.append({"task_id": entry["task_id"], "reward": None, "info": info, "traj": [], "trial": 0})
            continue
        kept.append(entry)
    folder = tmp_path_factory.mktemp("failing")
    path = folder / "tool-calling-edited-0.0_range_0--1_user-gpt-4o-scripted_20260101000000.json"
    path.write_text(json.dumps(kept, indent=1), encoding="utf-8")
    path.with_name(path.name.removesuffix(".json") + ".errors.json").write_text(json.dumps(errors), encoding="utf-8")
    return path


@pytest.fixture(scope="session")
def viewer(oracle_run: Path, failing_run: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[ThreadViewer]:
    """The viewer's app serving both runs from one folder over real HTTP, its library built as ``taumesh view DIR``
    builds it (in a thread: the tests using it are about what it serves; ``taumesh view``'s process has its own)."""
    folder = tmp_path_factory.mktemp("runs")
    for source in (oracle_run, failing_run):
        for path in source.parent.glob("*.json"):
            shutil.copy(path, folder / path.name)
    served = ThreadViewer([folder])
    yield served
    served.close()


CHROMIUM = Path(os.environ.get("TAUMESH_CHROMIUM", "/usr/bin/chromium"))
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def _skip(reason: str) -> None:
    print(f"viewer browser tests skipped: {reason}", file=sys.stderr)
    pytest.skip(reason)


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    """One headless Chromium per test module (each test opens its own context and page).

    Not per session: sync Playwright keeps an event loop running in the main thread while it is open, and every
    later test of the worker that calls ``asyncio.run`` would then fail ("cannot be called from a running event
    loop"); a module's end closes it.
    """
    if not CHROMIUM.exists():
        _skip(f"Chromium is not installed at {CHROMIUM} (apt-get install chromium; or set TAUMESH_CHROMIUM)")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        _skip("the playwright package is not installed (pip install playwright; no browser download is needed)")
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        yield launched
        launched.close()


@pytest.fixture
def page(browser: Browser) -> Iterator[Page]:
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    opened = context.new_page()
    opened.set_default_timeout(15_000)
    yield opened
    context.close()
