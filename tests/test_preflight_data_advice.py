"""A missing dataset names the command that provides it (issue 40, item 7): τ³'s banking_knowledge advised
``taumesh data fetch tau2`` even after it had run; the step that brings it is ``taumesh data import tau2 PATH``."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.helpers.cli import ORACLE, invoke


def test_banking_knowledge_without_an_import_names_the_import(tau2_data: Path, tmp_path: Path) -> None:
    # the test's own cache has τ²'s fetched data linked in (data fetch tau2 has run) and no upstream import
    result = invoke(
        "run", "--env", "tau2-banking-knowledge:no_knowledge", *ORACLE, "--task-ids", "0", "--log-dir", tmp_path
    )
    said = " ".join(result.output.split())
    assert result.exit_code == 2, said
    assert "run `taumesh data import tau2 PATH`" in said and "does not bring it" in said, said
    assert not list(tmp_path.iterdir())  # before any episode: nothing written


def test_fetched_tau2_domains_still_name_the_fetch(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TAUMESH_CACHE_DIR", str(tmp_path / "empty-cache"))
    result = invoke("run", "--env", "tau2-mock", *ORACLE, "--log-dir", tmp_path / "out")
    said = " ".join(result.output.split())
    assert result.exit_code == 2 and "run `taumesh data fetch tau2`" in said, said
