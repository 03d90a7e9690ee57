"""A domain plugin found on TAUMESH_DOMAIN_PATH (the skeleton ``taumesh domain new`` writes) is audited too."""

from __future__ import annotations

from pathlib import Path

import pytest

from taumesh.domains import DOMAIN_PATH_ENV
from taumesh.domains._scaffold import write_minimal_skeleton as write_skeleton  # the contract alone
from tests.audit.conftest import audited


def test_a_folder_plugin_is_audited(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    write_skeleton("auditdemo", tmp_path / "domains")
    monkeypatch.setenv(DOMAIN_PATH_ENV, str(tmp_path / "domains"))
    report = audited("auditdemo", None, tmp_path)
    assert report.domain == "auditdemo" and len(report.tasks) == report.floors["null"].of > 0
    assert report.floors["null"].passed == []  # its task changes the data
    assert report.floors["identity_then_refuse"].note == (
        "unknown: the domain declares no identity tools (DomainPlugin.identity_tools)"
    )
