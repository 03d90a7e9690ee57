"""Errors ``taumesh run`` gives before anything plays: an unreachable service address, a domain without data."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.helpers.cli import ORACLE, explain_result, invoke
from tests.helpers.paths import V1_DATA
from tests.helpers.processes import free_port


@pytest.mark.parametrize("flag", ["--agent-addr", "--user-addr", "--env-addr", "--scorer-addr"])
def test_an_unreachable_address_is_one_error_before_the_run(
    flag: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TAUMESH_CONNECT_TIMEOUT", "0.5")  # the wait each case sits out: short
    nobody = f"127.0.0.1:{free_port()}"
    result = invoke(
        "run", "--env", "retail", *ORACLE, "--data-dir", V1_DATA, "--task-ids", "0", "--task-ids", "1",
        "--log-dir", tmp_path, flag, nobody,
    )  # fmt: skip
    assert result.exit_code == 2, explain_result(result)
    assert f"no connection to {flag} {nobody} within 0.5s" in result.stderr
    assert not tmp_path.exists() or not list(tmp_path.iterdir()), "nothing ran, nothing was written"


def test_rescore_checks_its_addresses_too(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TAUMESH_CONNECT_TIMEOUT", "0.5")
    results = tmp_path / "r.json"
    results.write_text("[]", encoding="utf-8")
    nobody = f"127.0.0.1:{free_port()}"
    result = invoke("rescore", results, "--env", "retail", "--data-dir", V1_DATA, "--env-addr", nobody)
    assert result.exit_code == 2 and f"--env-addr {nobody}" in result.stderr, explain_result(result)


def test_a_missing_v1_dataset_names_the_import_command(tmp_path: Path) -> None:
    result = invoke("run", "--env", "retail", *ORACLE, "--data-dir", tmp_path, "--log-dir", tmp_path / "logs")
    assert result.exit_code == 2, explain_result(result)
    assert "taumesh data import taubench" in result.stderr


def test_an_unknown_domain_does_not_blame_the_data_dir(tmp_path: Path) -> None:
    result = invoke("run", "--env", "retial", *ORACLE, "--data-dir", V1_DATA, "--log-dir", tmp_path / "logs")
    assert result.exit_code == 2, explain_result(result)
    assert "unknown domain 'retial'" in result.stderr and "retail" in result.stderr
    assert "--data-dir" not in result.stderr
