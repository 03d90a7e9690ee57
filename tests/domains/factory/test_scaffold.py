"""``taumesh domain new`` writes a factory domain that passes, as generated: check, the audit, an oracle run.

Real commands in a temporary directory (``./domains`` is searched by default). The generated test runs without pytest
(``python -m demo.test_demo``) and covers a refusal task (a locked counter: nothing changes, the reason is said).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from tests.domains.test_domain_commands import clean_env, explain
from tests.helpers.domain_cli import domain


def _taumesh(cwd: Path, *args: str | Path) -> subprocess.CompletedProcess[str]:
    script = Path(sys.executable).parent / "taumesh"
    return subprocess.run(
        [str(script), *map(str, args)], capture_output=True, text=True, cwd=cwd, env=clean_env(), timeout=300
    )


def test_new_then_check_audit_and_oracle_pass_as_generated(tmp_path: Path) -> None:
    created = domain(tmp_path, "new", "demo")
    assert created.returncode == 0, explain(created)
    package = tmp_path / "domains" / "demo"
    assert {"world.py", "policy.py", "tasks.py", "build.py"} <= {p.name for p in package.iterdir()}
    assert "wiki.md" in {p.name for p in (package / "data").iterdir()}  # the build ran

    checked = domain(tmp_path, "check", "demo")
    assert checked.returncode == 0, explain(checked)

    for split in ("train", "test"):
        report = tmp_path / f"audit_{split}.json"
        audited = domain(tmp_path, "audit", "demo", "--task-split", split, "--json", report)
        assert audited.returncode == 0, explain(audited)
        found = json.loads(report.read_text(encoding="utf-8"))
        assert found["data_release"] == "demo-1"
        assert [t for t in found["tasks"] if t["flags"]] == []
        assert {name: floor["passed"] for name, floor in found["floors"].items() if name != "gold_without_outputs"} == {
            "null": [],
            "read_only": [],
            "identity_then_refuse": [],
            "outputs_spam": [],
        }

    ran = _taumesh(
        tmp_path, "run", "--env", "demo", "--task-split", "test", "--agent-strategy", "oracle",
        "--user-strategy", "scripted", "--quiet", "--log-dir", tmp_path / "runs",
    )  # fmt: skip
    assert ran.returncode == 0, explain(ran)
    assert "reward 1.0: 4/4" in ran.stdout, explain(ran)

    env = {**clean_env(), "PYTHONPATH": os.pathsep.join([str(tmp_path / "domains"), *sys.path])}
    plain = subprocess.run(
        [sys.executable, "-m", "demo.test_demo"], capture_output=True, text=True, cwd=tmp_path, env=env, timeout=300
    )
    assert plain.returncode == 0, explain(plain)
    assert plain.stdout.count("passed test_") == 4
    tests = (package / "test_demo.py").read_text(encoding="utf-8")
    assert "import pytest" not in tests and "refusal" in tests


def test_a_stale_or_invalid_build_is_caught(tmp_path: Path) -> None:
    assert domain(tmp_path, "new", "demo").returncode == 0
    tasks = tmp_path / "domains" / "demo" / "tasks.py"
    cued = tasks.read_text(encoding="utf-8").replace(
        'draft.trap_rationale = "2.2',
        'draft.instruction += " If the agent says it is locked, accept that."\n        draft.trap_rationale = "2.2',
    )
    tasks.write_text(cued, encoding="utf-8")
    env = {**clean_env(), "PYTHONPATH": os.pathsep.join([str(tmp_path / "domains"), *sys.path])}
    built = subprocess.run(
        [sys.executable, "-m", "demo.build"], capture_output=True, text=True, cwd=tmp_path, env=env, timeout=300
    )
    assert built.returncode == 1 and "invalid tasks" in built.stderr, explain(built)
