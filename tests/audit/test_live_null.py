"""``taumesh run --agent-strategy null`` plays the null floor live.

With the scripted user it passes what the audit's null floor passes, on τ-bench v1 airline. And ``taumesh domain
audit`` as a command: its table, its JSON, its errors.
"""

from __future__ import annotations

import json
from pathlib import Path

from taumesh.audit import REFUSAL
from tests.helpers.cli import ORACLE, assert_ok, explain, load_json, results_path, taumesh

NULL_AGENT = ("--agent-strategy", "null", *ORACLE[2:])
"""The null agent against the offline scripted user (which says its instruction, then stops at the answer)."""


def test_null_agent_live_equals_the_audits_null_floor(tmp_path: Path, v1_data_dir: Path) -> None:
    audit_json = tmp_path / "audit.json"
    audit = taumesh("domain", "audit", "airline", "--data-dir", v1_data_dir, "--json", audit_json)
    assert_ok(audit)
    assert "null" in audit.stdout and "19/50" in audit.stdout
    report = json.loads(audit_json.read_text(encoding="utf-8"))
    floor = set(report["floors"]["null"]["passed"])

    run = taumesh(
        "run", "--env", "airline", "--task-split", "test", *NULL_AGENT,
        "--data-dir", v1_data_dir, "--log-dir", tmp_path / "run",
    )  # fmt: skip
    assert_ok(run)
    results = load_json(results_path(tmp_path / "run"))
    assert len(results) == 50
    assert {entry["task_id"] for entry in results if entry["reward"] == 1.0} == floor
    for entry in results:  # each episode: the instruction, one refusal, the user's stop
        said = [m["content"] for m in entry["traj"] if m["role"] == "assistant"]
        assert said == [REFUSAL]
        assert entry["info"]["termination"] == "user_stop"


def test_audit_refuses_an_unknown_domain_or_split(tmp_path: Path, v1_data_dir: Path) -> None:
    unknown = taumesh("domain", "audit", "no-such-domain", "--data-dir", v1_data_dir)
    assert unknown.returncode == 2, explain(unknown)
    assert "no-such-domain" in unknown.stderr and "Traceback" not in unknown.stderr
    split = taumesh("domain", "audit", "airline", "--data-dir", v1_data_dir, "--task-split", "train")
    assert split.returncode == 2, explain(split)
    assert "no split 'train'" in split.stderr and "has test" in split.stderr
