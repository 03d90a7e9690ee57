"""The viewer's uncertainty: bands on the run page's pass^k curve, the compare page's paired difference (browser)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from tests.helpers.viewer_thread import ThreadViewer
from tests.viewer.test_browser import screenshot

pytestmark = pytest.mark.browser

if TYPE_CHECKING:
    from playwright.sync_api import Page

TASKS = 115


def _entry(task: int, trial: int, reward: float, cost: float) -> dict[str, Any]:
    usage = {"prompt_tokens": 100, "completion_tokens": 10, "cost_usd": cost, "calls": 1}
    run = {"env": "retail", "task_split": "test", "agent": {"strategy": "tool-calling"}, "user": {"model": "gpt-4o"}}
    info = {"run": run, "termination": "user_stop", "agent_usage": usage, "user_usage": usage}
    return {"task_id": task, "reward": reward, "info": info, "traj": [], "trial": trial}


def _write(path: Path, solved: Any, trials: int) -> Path:
    entries = [_entry(t, j, float(solved(t, j)), 0.01) for j in range(trials) for t in range(TASKS)]
    path.write_text(json.dumps(entries))
    return path


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[ThreadViewer, Path, Path]]:
    folder = tmp_path_factory.mktemp("paired")
    # A solves tasks 0-49 on every trial; B also 50-69, and task 70 on some trials (a flipping task)
    a = _write(folder / "a_baseline.json", lambda t, j: t < 50, 3)
    b = _write(folder / "b_candidate.json", lambda t, j: t < 70 or (t == 70 and j == 0), 3)
    served = ThreadViewer([a, b])
    try:
        yield served, a, b
    finally:
        served.close()


def test_run_page_shows_intervals_and_bands_on_the_pass_hat_k_curve(
    page: Page,
    runs: tuple[ThreadViewer, Path, Path],
) -> None:
    served, _, b = runs
    page.goto(f"{served.url}/#/run/{served.run_id(b)}")
    page.wait_for_selector("svg.passk-plot polygon.passk-band")
    assert page.inner_text("#passk tr[data-k='1'] .passk-value") == f"{(70 + 1 / 3) / TASKS:.4f}"
    low, high = (float(x) for x in page.inner_text("#passk tr[data-k='1'] .passk-ci").split("–"))
    assert low < (70 + 1 / 3) / TASKS < high
    assert "bootstrap BCa over 115 tasks, trials nested" in page.inner_text("#interval-method")
    numbers = page.inner_text("#numbers")
    assert "tasks flipping between trials\t1" in numbers and "judge cost" in numbers and "total cost" in numbers
    screenshot(page, "run-intervals")


def test_compare_page_shows_the_difference_its_interval_and_the_driving_tasks(
    page: Page,
    runs: tuple[ThreadViewer, Path, Path],
) -> None:
    served, a, b = runs
    page.goto(f"{served.url}/#/compare/{served.run_id(a)},{served.run_id(b)}")
    page.wait_for_selector("#paired .verdict")
    verdict = page.inner_text("#paired .verdict")
    assert verdict.startswith("B is better than A by 17.7 points of pass^1 (95 % CI "), verdict
    difference = page.inner_text("#paired .pass1-difference")
    assert difference.startswith("17.7 points (95 % CI ") and float(page.inner_text("#paired .p-value")[4:]) < 0.01
    driving = [row.get_attribute("data-task") for row in page.query_selector_all("#paired .driving-tasks tbody tr")]
    assert driving == [str(t) for t in range(50, 60)]
    assert "21 better in B, 0 worse" in page.inner_text("#paired")
    screenshot(page, "compare-paired")
