"""τ²'s telecom files as taumesh reads them: schemas, policies and the two databases' hashes."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

from taumesh.domains._cow import CowSwitch, CowTable
from taumesh.domains.tau2 import Tau2Hasher, Tau2Layout, domain_data
from taumesh.domains.tau2._layout import USER_TABLE
from taumesh.domains.tau2_telecom.layout import LIST_TABLES, MANUAL, WORKFLOW


@pytest.mark.parametrize(("layout", "reference_file"), [(MANUAL, "telecom.json"), (WORKFLOW, "telecom-workflow.json")])
def test_schemas_and_policy_are_taus(tau2_data: Path, expected: Path, layout: Tau2Layout, reference_file: str) -> None:
    root = domain_data(tau2_data, "telecom")
    reference = json.loads((expected / "tools" / reference_file).read_text(encoding="utf-8"))
    assert layout.tool_schemas(root) == reference["agent_tools"]
    assert layout.user_tool_schemas(root) == reference["user_tools"]
    policy = layout.policy(root)
    assert hashlib.sha256(policy.encode()).hexdigest() == reference["policy_sha256"]
    assert len(policy) == reference["policy_chars"]


def _hasher(base: dict[str, object]) -> Tau2Hasher:
    return Tau2Hasher(base, list_tables=LIST_TABLES, user_table=USER_TABLE)


def test_both_databases_hash_as_taus(tau2_data: Path, expected: Path) -> None:
    base = MANUAL.base_data(domain_data(tau2_data, "telecom"))
    index = json.loads((expected / "canonical_db" / "INDEX.json").read_text(encoding="utf-8"))
    agent, user = _hasher(base).hashes(base)
    assert agent == index["telecom/agent"]["sha256_of_hash_string"]
    assert user == index["telecom/user"]["sha256_of_hash_string"]
    assert _hasher(base).hash(base) == f"{agent}:{user}"


def test_a_changed_or_appended_list_record_changes_only_its_side(tau2_data: Path) -> None:
    base = MANUAL.base_data(domain_data(tau2_data, "telecom"))
    hasher = _hasher(base)
    switch = CowSwitch()
    session = {name: CowTable(table, switch) for name, table in base.items()}
    agent, user = hasher.hashes(session)
    with switch.writing():
        session["lines"]["0"]["roaming_enabled"] = not session["lines"]["0"]["roaming_enabled"]
    changed_agent, same_user = hasher.hashes(session)
    assert (changed_agent != agent, same_user) == (True, user)
    with switch.writing():
        session["bills"][str(len(session["bills"]))] = {"bill_id": "B9"}
    as_lists = {name: list(session[name].values()) for name in LIST_TABLES}
    assert hasher.text(session) == json.dumps(as_lists, sort_keys=True, default=str)
    assert as_lists["bills"][-1] == {"bill_id": "B9"}
