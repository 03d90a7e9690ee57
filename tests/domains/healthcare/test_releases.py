"""Release 1 stays release 1: a ``healthcare:v1`` run records ``healthcare-1``, and ``taumesh rescore`` refuses to
grade it against release 2 unless told (``--allow-release-change``), end to end through the real services.

The env describes a variant as itself when asked (``ListDomainsRequest.variants``), so the run, the audit and rescore
all find the variant's own release; a file that records none is refused while the domain serves several.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from taumesh.audit import stored_audit_path
from taumesh.domains import DOMAIN_PATH_ENV
from tests.helpers.cli import ORACLE, explain_result, invoke, load_json, results_path
from tests.helpers.healthcare import PLUGIN_PATH, V1

FLAG = "--allow-release-change"


@pytest.fixture(scope="module")
def v1_results(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """An oracle run of release 1's first four test tasks."""
    log_dir = tmp_path_factory.mktemp("healthcare_v1")
    with pytest.MonkeyPatch.context() as patch:  # set before the autouse fixture of conftest.py
        patch.setenv(DOMAIN_PATH_ENV, str(PLUGIN_PATH))
        ran = invoke("run", "--env", V1, "--task-split", "test", *ORACLE, "--end-index", "4", "--log-dir", log_dir)
    assert ran.exit_code == 0, explain_result(ran)
    return results_path(log_dir)


def _said(result: Any) -> str:
    return " ".join(str(result.stdout).split()) + " " + " ".join(str(result.stderr).split())


@pytest.mark.slow  # an oracle run and three rescores: ~15 s
def test_a_release_one_run_records_its_release_and_rescore_keeps_it(v1_results: Path, tmp_path: Path) -> None:
    entries = load_json(v1_results)
    assert len(entries) == 4 and {e["reward"] for e in entries} == {1.0}
    assert {(e["info"]["run"]["env"], e["info"]["run"]["data_release"]) for e in entries} == {(V1, "healthcare-1")}

    refused = invoke("rescore", v1_results, "--env", "healthcare", "--task-split", "test")
    assert refused.exit_code == 2, explain_result(refused)
    said = _said(refused)
    assert "healthcare-1" in said and FLAG in said and f"--env {V1}" in said, said

    # past the release check, release 2 has none of release 1's tasks: refused, saying so, before any replay
    allowed = invoke("rescore", v1_results, "--env", "healthcare", "--task-split", "test", FLAG)
    assert allowed.exit_code == 2, explain_result(allowed)
    said = _said(allowed)
    assert "none of the 4 tasks" in said and "recorded on data release healthcare-1" in said, said
    assert "rescored" not in allowed.stdout, explain_result(allowed)

    own = invoke("rescore", v1_results, "--task-split", "test")  # the domain the file records: healthcare:v1
    assert own.exit_code == 0, explain_result(own)
    assert "rescored 4 trajectories: 4 agree, 0 differ" in own.stdout
    named = invoke("rescore", v1_results, "--env", V1, "--task-split", "test")
    assert named.exit_code == 0, explain_result(named)


@pytest.mark.slow
def test_a_file_recording_no_release_is_refused_while_the_domain_serves_several(
    v1_results: Path, tmp_path: Path
) -> None:
    entries = load_json(v1_results)
    for entry in entries:  # as healthcare's results were written before its data had releases
        del entry["info"]["run"]["data_release"]
        entry["info"]["run"]["env"] = "healthcare"
    old = tmp_path / "before_releases.json"
    old.write_text(json.dumps(entries), encoding="utf-8")

    refused = invoke("rescore", old, "--task-split", "test")
    assert refused.exit_code == 2, explain_result(refused)
    said = _said(refused)
    assert "records no data release" in said and FLAG in said, said
    assert "healthcare serves healthcare-2" in said and f"{V1} serves healthcare-1" in said, said

    allowed = invoke("rescore", old, "--env", V1, "--task-split", "test", FLAG)
    assert allowed.exit_code == 0, explain_result(allowed)
    assert "rescored 4 trajectories: 4 agree, 0 differ" in allowed.stdout


@pytest.mark.slow
def test_an_audit_of_release_one_is_filed_under_release_one(tmp_path: Path) -> None:
    report = tmp_path / "audit.json"
    audited = invoke("domain", "audit", V1, "--task-split", "test", "--json", report, "--write")
    assert audited.exit_code == 0, explain_result(audited)
    assert load_json(report)["data_release"] == "healthcare-1"
    assert stored_audit_path(V1, "test", "healthcare-1").is_file()
