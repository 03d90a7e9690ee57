"""Browser tests: Playwright drives Debian's headless Chromium against the viewer serving generated runs
(its app served over real HTTP from a thread, as ``taumesh view`` serves it).

Screenshots go to the test output folder (``$TAUMESH_TEST_OUTPUT/viewer``, else tests/output/viewer) as CI artefacts;
with ``TAUMESH_UPDATE_SCREENSHOTS=1`` they also replace the README's images in docs/img/.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import quote

import pytest

from taumesh.stats import SUCCESS_TOLERANCE
from tests.helpers.cli import results_path
from tests.helpers.paths import PROJECT_ROOT
from tests.helpers.viewer import (
    DIVERGING_STEP,
    DIVERGING_TASK,
    INCONSISTENT_TASK,
    TASKS,
    TELECOM_TASKS,
    output_dir,
)
from tests.helpers.viewer_thread import ThreadViewer
from tests.viewer.test_api import expected_pass_hat_k, recorded_simulator

pytestmark = pytest.mark.browser

if TYPE_CHECKING:
    from playwright.sync_api import Page, Route

README_IMAGES = PROJECT_ROOT / "docs" / "img"


def screenshot(page: Page, name: str) -> None:
    """Save the page as a test artefact (and as the README's image when asked to)."""
    path = output_dir() / f"{name}.png"
    page.screenshot(path=str(path), full_page=False)
    if os.environ.get("TAUMESH_UPDATE_SCREENSHOTS") == "1":
        README_IMAGES.mkdir(parents=True, exist_ok=True)
        shutil.copy(path, README_IMAGES / f"viewer-{name}.png")


def test_run_page_shows_the_files_pass_hat_k(page: Page, viewer: ThreadViewer, failing_run: Path) -> None:
    page.goto(f"{viewer.url}/#/run/{viewer.run_id(failing_run)}")
    page.wait_for_selector("#passk tr[data-k]")
    shown = {
        row.get_attribute("data-k"): row.query_selector(".passk-value").inner_text()
        for row in page.query_selector_all("#passk tr[data-k]")
    }
    assert shown == {k: f"{v:.4f}" for k, v in expected_pass_hat_k(failing_run).items()}
    assert page.query_selector("svg.passk-plot polyline") is not None
    assert "infrastructure errors" in page.inner_text("#numbers")
    assert page.inner_text("#user-sim").startswith(f"user simulator: {recorded_simulator(failing_run)}")
    screenshot(page, "run")


def test_task_grid_filters_to_failed_episodes(page: Page, viewer: ThreadViewer, failing_run: Path) -> None:
    page.goto(f"{viewer.url}/#/run/{viewer.run_id(failing_run)}")
    page.wait_for_selector("#tasks tbody tr")
    assert len(page.query_selector_all("#tasks tbody tr")) == len(TASKS)
    page.select_option("#task-filter", "failed")
    page.wait_for_function("document.querySelector('#page-info')?.textContent.includes('of 2 tasks')")
    rows = [row.get_attribute("data-task") for row in page.query_selector_all("#tasks tbody tr")]
    assert rows == [INCONSISTENT_TASK, DIVERGING_TASK]
    page.evaluate("document.querySelector('#grid').scrollIntoView()")
    screenshot(page, "tasks-failed")


def test_the_grid_colours_by_the_servers_success_tolerance(page: Page, viewer: ThreadViewer, failing_run: Path) -> None:
    """The grid's pass/fail colours come from the tolerance the server sends, not from a number in the JavaScript:
    the same page with the tolerance changed in flight colours the same rewards otherwise."""

    def cells() -> dict[str, list[str]]:
        page.goto("about:blank")  # a fresh load each time: the same address with only its hash would not reload
        page.goto(f"{viewer.url}/#/run/{viewer.run_id(failing_run)}?filter=failed")
        page.wait_for_selector(f"#tasks tr[data-task='{DIVERGING_TASK}'] a.cell")
        page.wait_for_selector("#main[data-ready='true']")
        found: dict[str, list[str]] = {}
        for cell in page.query_selector_all("#tasks a.cell"):
            found.setdefault(cell.get_attribute("data-reward") or "", []).append(cell.get_attribute("class") or "")
        return found

    assert cells() == {"0": ["cell fail"] * 5, "1": ["cell pass"]}

    def widen(route: Route) -> None:
        sent = route.fetch()
        body = sent.json()
        assert body["success_tolerance"] == SUCCESS_TOLERANCE
        route.fulfill(response=sent, json={**body, "success_tolerance": 1.0})

    page.route("**/api/runs/*/tasks?*", widen)
    assert cells() == {"0": ["cell pass"] * 5, "1": ["cell pass"]}


def test_trajectory_marks_the_first_divergence(page: Page, viewer: ThreadViewer, failing_run: Path) -> None:
    page.goto(f"{viewer.url}/#/run/{viewer.run_id(failing_run)}?filter=failed")
    page.click(f"#tasks tr[data-task='{DIVERGING_TASK}'] a.cell >> nth=0")
    page.wait_for_selector("#actions tr.diverged")
    assert page.get_attribute("#actions tr.diverged", "data-step") == str(DIVERGING_STEP)
    assert page.inner_text("#divergence") == f"First divergence at step {DIVERGING_STEP + 1}."
    marked = page.query_selector_all("#conversation .msg.diverged")
    assert len(marked) == 1
    call_messages = page.query_selector_all("#conversation .msg.assistant:has(.call)")
    assert marked[0].get_attribute("data-index") == call_messages[DIVERGING_STEP].get_attribute("data-index")
    assert "WRONG" in marked[0].inner_text()
    assert "failed" in page.inner_text("#checks")
    page.locator("#actions").scroll_into_view_if_needed()
    screenshot(page, "trajectory")


def test_trajectory_shows_the_users_own_tool_calls(page: Page, telecom_run: Path) -> None:
    served = ThreadViewer([results_path(telecom_run)])
    try:
        (run,) = served.get("/api/runs")
        task = TELECOM_TASKS[1]  # the user acts twice, between the agent's actions
        page.goto(f"{served.url}/#/episode/{run['run_id']}/{quote(task, safe='')}/0")
        page.wait_for_selector("#user-actions tbody tr")
        acts = page.query_selector_all("#conversation .msg.user-acts")
        results = page.query_selector_all("#conversation .msg.user-tool")
        assert [page.evaluate("m => m.querySelector('.role').textContent", m) for m in acts] == [
            "user calls its own tools"
        ] * 2
        assert all("[user]" in m.inner_text() for m in acts)
        labels = [page.evaluate("m => m.querySelector('.role').textContent", m) for m in results]
        assert labels == ["user's tool result user_0", "user's tool result user_1"]
        places = [int(m.get_attribute("data-index") or -1) for m in acts]
        assert [int(m.get_attribute("data-index") or -1) for m in results] == [n + 1 for n in places]
        calling = page.query_selector_all(".msg.assistant:has(.call)")
        agents = [int(m.get_attribute("data-index") or -1) for m in calling]
        assert agents[0] < places[0] < agents[1] < places[1], "in time order among the agent's calls"
        assert page.inner_text("#divergence") == "The agent's calls equal the gold actions."
        assert page.inner_text("#user-divergence") == "The user's calls equal its gold actions."
        assert len(page.query_selector_all("#user-actions tbody tr")) == 2
        assert page.query_selector_all(".diverged") == []
        page.evaluate("document.querySelector('#conversation .msg.user-acts').scrollIntoView()")
        screenshot(page, "trajectory-user-tools")
    finally:
        served.close()


def test_compare_two_runs(page: Page, viewer: ThreadViewer, oracle_run: Path, failing_run: Path) -> None:
    page.goto(f"{viewer.url}/#/")
    page.wait_for_selector("#runs tbody tr")
    for path in (oracle_run, failing_run):
        shown = page.inner_text(f"#runs tr[data-run='{viewer.run_id(path)}'] td.user-sim")
        assert shown == recorded_simulator(path)  # the run list's user-simulator column
        page.check(f"#runs tr[data-run='{viewer.run_id(path)}'] input[type=checkbox]")
    page.click("#compare")
    page.wait_for_selector("#matrix tbody tr")
    assert [row.get_attribute("data-task") for row in page.query_selector_all("#matrix tbody tr")] == TASKS
    diverging = page.query_selector_all(f"#matrix tr[data-task='{DIVERGING_TASK}'] .cell")
    assert [cell.inner_text() for cell in diverging] == ["1.00", "0.00"]
    assert len(page.query_selector_all("svg.passk-plot polyline")) == 2
    oracle_only = page.inner_text(f".card[data-run='{viewer.run_id(oracle_run)}'] .solved-only")
    assert oracle_only.split("\n") == [f"task {DIVERGING_TASK}"]
    screenshot(page, "compare")


def test_run_list_shows_new_runs_and_unreadable_files_on_reload(page: Page, tmp_path: Path, oracle_run: Path) -> None:
    served = ThreadViewer([tmp_path])
    try:
        page.goto(f"{served.url}/#/")
        page.wait_for_selector("#main[data-ready='true']")
        assert page.query_selector_all("#runs tbody tr") == []
        shutil.copy(oracle_run, tmp_path / "new.json")
        (tmp_path / "partial.json").write_text('[{"task_id": 0, "rew', encoding="utf-8")
        page.reload()
        page.wait_for_selector("#runs tbody tr")
        assert [row.inner_text().strip() for row in page.query_selector_all("#runs tbody tr td:nth-child(2)")] == [
            "new.json"
        ]
        (unreadable,) = page.query_selector_all("#unreadable tbody tr")
        assert "partial.json" in unreadable.inner_text() and "JSONDecodeError" in unreadable.inner_text()
    finally:
        served.close()


def test_run_list_has_no_stray_null(page: Page, viewer: ThreadViewer) -> None:
    """With every file readable nothing follows the table's note: no ``null`` printed where no list of errors is."""
    page.goto(f"{viewer.url}/#/")
    page.wait_for_selector("#runs tbody tr")
    page.wait_for_selector("#main[data-ready='true']")
    text = page.inner_text("#main")
    assert "null" not in text.split() and not text.rstrip().endswith("null"), text[-300:]
