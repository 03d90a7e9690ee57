"""``domain check --strict``'s verdict (``taumesh.commands.domain_strict``): the check, the audit and the domain's own
flags on every split. Healthcare release 1 and a cued scaffold fail; that the scaffold as generated passes is shown
through the command itself (tests/domains/factory/test_strict_cli.py), the same verdict."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from taumesh.commands.domain_strict import strict_findings
from taumesh.domains import DOMAIN_PATH_ENV
from taumesh.domains._scaffold import write_skeleton


def test_a_cue_in_the_shipped_tasks_fails_strict(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    write_skeleton("cueddemo", tmp_path / "domains")
    monkeypatch.setenv(DOMAIN_PATH_ENV, str(tmp_path / "domains"))
    traps = set()
    for split in ("train", "test"):
        path = tmp_path / "domains" / "cueddemo" / "data" / f"tasks_{split}.json"
        tasks = json.loads(path.read_text(encoding="utf-8"))
        for task in tasks:
            if task["trap"]:
                task["instruction"] += " If the agent says it is locked, accept that."
                traps.add(task["id"])
        path.write_text(json.dumps(tasks), encoding="utf-8")
    found = strict_findings("cueddemo", tmp_path)
    assert found and {f.kind for f in found} == {"trap_cue"}
    assert {f.task_id for f in found} <= traps


def test_healthcare_release_one_fails_strict() -> None:
    """Release 2 passing is shown per split by tests/domains/healthcare/test_v2.py and the bar test
    (tests/domains/test_tau_plus_plus.py): the same audit, the same check; strict on its three splits again took 45 s.
    """
    old = strict_findings("healthcare:v1", Path(), ["test"])
    assert {"guessable_output"} <= {f.kind for f in old}
