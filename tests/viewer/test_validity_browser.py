"""The run page's Validity card in a browser (Playwright, headless Chromium), over the viewer served by HTTP.

A τ-bench v1 airline run of the null agent, with the audit stored by ``taumesh domain audit --write`` in a
throwaway cache: the card shows the figures the stored audit gives. Without a stored audit it shows the one line
naming the command that makes one.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from taumesh.audit import AUDIT_VERSION, StoredAudit, stored_audit_path
from tests.helpers.cli import ORACLE, assert_ok, results_path, taumesh
from tests.helpers.viewer_thread import ThreadViewer

pytestmark = pytest.mark.browser

if TYPE_CHECKING:
    from playwright.sync_api import Page


@pytest.fixture(scope="module")
def null_run(v1_data_dir: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, StoredAudit]]:
    """The null agent's run of v1 airline and the audit stored for it, in a cache of the module's own."""
    cache = tmp_path_factory.mktemp("cache")
    folder = tmp_path_factory.mktemp("run")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("TAUMESH_CACHE_DIR", str(cache))
        assert_ok(taumesh("domain", "audit", "airline", "--data-dir", v1_data_dir, "--write"))
        stored = StoredAudit.model_validate_json(stored_audit_path("airline", "test", None).read_bytes())
        run = taumesh(
            "run", "--env", "airline", "--agent-strategy", "null", *ORACLE[2:], "--data-dir", v1_data_dir,
            "--log-dir", folder,
        )  # fmt: skip
        assert_ok(run)
        yield results_path(folder), stored


def test_run_page_shows_the_validity_card(page: Page, null_run: tuple[Path, StoredAudit]) -> None:
    path, stored = null_run
    flagged = len(stored.flagged())
    viewer = ThreadViewer([path])
    try:
        page.goto(f"{viewer.url}/#/run/{viewer.run_id(path)}")
        page.wait_for_selector("#validity-numbers")
        shown = page.inner_text("#validity")
    finally:
        viewer.close()
    assert "null floor\t38.0 % (19/50 tasks)" in shown
    assert f"flagged tasks\t{flagged}/50" in shown
    assert f"0.0000 to {flagged / 50:.4f}" in shown
    assert f"audit version\t{AUDIT_VERSION}" in shown


def test_run_page_says_how_to_make_an_audit(
    page: Page, null_run: tuple[Path, StoredAudit], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path, _ = null_run
    monkeypatch.setenv("TAUMESH_CACHE_DIR", str(tmp_path / "empty"))
    viewer = ThreadViewer([path])
    try:
        page.goto(f"{viewer.url}/#/run/{viewer.run_id(path)}")
        page.wait_for_selector("#validity")
        shown = page.inner_text("#validity")
    finally:
        viewer.close()
    assert "no stored audit of airline test" in shown
    assert "taumesh domain audit airline --task-split test --write" in shown
