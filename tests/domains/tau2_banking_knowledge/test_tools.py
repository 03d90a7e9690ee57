"""banking_knowledge's tools against upstream's recorded replays (shared ``vectors.jsonl``, ``retrieval.jsonl``).

The tool texts come from upstream's sources through ``taumesh data import tau2``: the tests import the checkout
named by ``TAUMESH_TAU2_CHECKOUT`` (a checkout or ``git archive`` of sierra-research/tau2-bench holding
``src/tau2/domains/banking_knowledge`` and ``data/tau2/domains/banking_knowledge``) and skip without one.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from taumesh.domains import Domain
from taumesh.domains.tau2_banking_knowledge.discoverable import AGENT_DISCOVERABLE, USER_DISCOVERABLE
from taumesh.domains.tau2_banking_knowledge.discoverable_tools.bank import get_atm_deposit_images_8473
from taumesh.domains.tau2_banking_knowledge.plugin import banking_plugin
from taumesh.domains.tau2_banking_knowledge.texts import banking_texts, parse_docstring
from tests.domains.tau2_banking_knowledge.support import (
    FIXTURES,
    NEEDS_FIXTURES_AND_CHECKOUT,
    NO_KNOWLEDGE,
    imported_cache,
)

DISCOVERABLE_CALLS = ("call_discoverable_agent_tool", "call_discoverable_user_tool")

pytestmark = NEEDS_FIXTURES_AND_CHECKOUT


@pytest.fixture(scope="module")
def imported(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """The checkout imported into a fresh cache (the texts extracted from its sources), as the cache dir."""
    with imported_cache(tmp_path_factory.mktemp("cache")) as cache:
        yield cache


@pytest.fixture(scope="module")
def domain(imported: Path, tmp_path_factory: pytest.TempPathFactory) -> Domain:
    """``no_knowledge`` (the vectors' configuration) over the shared copy of upstream's data (as ``--data-dir``)."""
    plugin = banking_plugin(NO_KNOWLEDGE, "no_knowledge")
    data_dir = tmp_path_factory.mktemp("data")
    (data_dir / "banking_knowledge").symlink_to(FIXTURES / "data", target_is_directory=True)
    return Domain(plugin, plugin.data_dir(data_dir))


def _records(kind: str) -> list[dict[str, Any]]:
    with (FIXTURES / "retrieval.jsonl").open(encoding="utf-8") as lines:
        return [record for record in map(json.loads, lines) if record["record"] == kind]


def _vectors() -> list[dict[str, Any]]:
    with (FIXTURES / "vectors.jsonl").open(encoding="utf-8") as lines:
        return list(map(json.loads, lines))


def test_discoverable_tools_read_as_upstream_lists_them(imported: Path) -> None:
    meta = _records("meta")[0]
    texts = banking_texts()
    recorded = meta["agent_discoverable_tools"] + meta["user_discoverable_tools"]
    ours = texts.agent_discoverable + texts.user_discoverable
    assert [(doc.name, doc.tool_type, doc.mutates_state) for doc in ours] == [
        (tool["name"], tool["tool_type"], tool["mutates_state"]) for tool in recorded
    ]
    assert [parse_docstring(doc).model_dump() for doc in ours] == [tool["parsed_docstring"] for tool in recorded]


def test_base_tool_schemas_equal_upstreams(domain: Domain) -> None:
    config = next(record for record in _records("config") if record["config"] == "no_knowledge")
    assert domain.tool_schemas == config["agent_tools"]
    assert domain.user_tool_schemas == config["user_tools"]


BASE_ONLY = [
    record["task_id"]
    for record in (_vectors() if FIXTURES.is_dir() else [])
    if not any(action["name"] in DISCOVERABLE_CALLS for action in record["actions"])
]


def test_nineteen_tasks_use_base_tools_only() -> None:
    assert len(BASE_ONLY) == 19


TASK_IDS = [record["task_id"] for record in (_vectors() if FIXTURES.is_dir() else [])]


@pytest.mark.parametrize("task_id", TASK_IDS)
def test_gold_actions_replay_as_upstream(domain: Domain, task_id: str) -> None:
    """Every task's gold actions, discoverable tools included: observations, error flags, hashes after each."""
    record = next(record for record in _vectors() if record["task_id"] == task_id)
    task = domain.find_task("base", task_id)
    session = domain.open_session(task)
    assert session.data_hash() == record["initial_db_hash"]
    for action in record["actions"]:
        result = domain.call_tool(session, action["name"], action["arguments"], action["requestor"])
        assert (result.observation, result.error) == (action["content"], action["error"]), action["action_id"]
        assert session.data_hash() == action["db_hash_after"], action["action_id"]
    assert session.data_hash() == record["final_db_hash"]
    assert domain.gold_hash(task) == record["evaluator_gold_db_hash"]


def test_calling_a_locked_or_unknown_discoverable_tool_is_upstreams_error_text(domain: Domain) -> None:
    task = domain.find_task("base", BASE_ONLY[0])
    session = domain.open_session(task)
    before = session.data_hash()
    locked = domain.call_tool(session, "call_discoverable_agent_tool", {"agent_tool_name": "freeze_debit_card_3892"})
    assert locked.observation.startswith("Error: Tool 'freeze_debit_card_3892' has not been unlocked.")
    unknown = domain.call_tool(session, "unlock_discoverable_agent_tool", {"agent_tool_name": "no_such_tool"})
    assert unknown.observation == "Error: Unknown agent tool 'no_such_tool'. This tool is not available."
    assert not locked.error and session.data_hash() == before


def test_every_catalogued_discoverable_tool_is_implemented(imported: Path) -> None:
    texts = banking_texts()
    assert sorted(AGENT_DISCOVERABLE) == sorted(doc.name for doc in texts.agent_discoverable)
    assert sorted(USER_DISCOVERABLE) == sorted(doc.name for doc in texts.user_discoverable)
    assert len(AGENT_DISCOVERABLE) + len(USER_DISCOVERABLE) == 48


def _deposit(transaction_id: str, description: str) -> dict[str, Any]:
    record = {"date": "11/06/2025", "description": description, "amount": 385.0, "type": "atm_deposit"}
    return {"bank_account_transaction_history": {"data": {transaction_id: record}, "notes": ""}}


def test_atm_deposit_images_show_the_imported_envelope_scans(imported: Path) -> None:
    """Upstream's three scripted deposits show their scans (imported texts); any other Rho-Bank deposit has none."""
    scanned = get_atm_deposit_images_8473(_deposit("btxn_834027370c20", "RHO-BANK ATM #3921"), "btxn_834027370c20")
    assert scanned.startswith(
        "ATM Deposit Image Retrieval Results\n" + "=" * 37 + "\nTransaction ID: btxn_834027370c20\nATM: ATM #3921\n"
        "Deposit Date: 11/06/2025\n\n\n=== ATM DEPOSIT ENVELOPE SCAN ===\nEnvelope ID: ENV-2025-3921-00923\n"
    )
    assert scanned.endswith(
        "--- VERIFICATION NOTES ---\n"
        + banking_texts().atm_deposit_images["btxn_834027370c20"].verification_notes
        + "\n"
    )
    assert "DISCREPANCY DETECTED: $750.00 difference" in scanned
    other = get_atm_deposit_images_8473(_deposit("btxn_other", "RHO-BANK ATM #6172 DEPOSIT"), "btxn_other")
    assert "ATM: RHO-BANK ATM #6172 DEPOSIT\nDeposit Date: 11/06/2025\nAmount Recorded: $385.00\n" in other
    assert "Status: IMAGES NOT AVAILABLE" in other
    foreign = get_atm_deposit_images_8473(_deposit("btxn_x", "CHASE ATM"), "btxn_x")
    assert foreign.startswith("Error: Transaction 'btxn_x' is from a third-party ATM.")


def test_a_discoverable_tools_argument_errors_read_as_upstreams(domain: Domain) -> None:
    """Missing arguments are Python's TypeError named after upstream's method; the call is not logged."""
    task = domain.find_task("base", BASE_ONLY[0])
    session = domain.open_session(task)
    domain.call_tool(session, "unlock_discoverable_agent_tool", {"agent_tool_name": "freeze_debit_card_3892"})
    before = session.data_hash()
    result = domain.call_tool(
        session, "call_discoverable_agent_tool", {"agent_tool_name": "freeze_debit_card_3892", "arguments": "{}"}
    )
    assert result.observation == (
        "Error: Invalid arguments: KnowledgeTools.freeze_debit_card_3892() missing 1 required positional argument: "
        "'card_id'"
    )
    assert session.data_hash() == before


REFUSALS = [
    (
        "reset_debit_card_pin_6284",
        {"card_id": "dbc_x", "last_4_digits": "1234", "new_pin": "4321"},
        "Error: PIN cannot be sequential (e.g., 1234). Please choose a more secure PIN.",
    ),
    (
        "change_debit_card_pin_6285",
        {"card_id": "dbc_x", "current_pin": "1357", "new_pin": "7777"},
        "Error: PIN cannot be all the same digit (e.g., 1111). Please choose a more secure PIN.",
    ),
    (
        "transfer_funds_between_bank_accounts_7291",
        {"source_account_id": "a", "destination_account_id": "a", "amount": 5},
        "Error: Source and destination accounts cannot be the same.",
    ),
    (
        "request_temporary_debit_card_limit_increase_8374",
        {"card_id": "dbc_x", "limit_type": "atm", "new_limit": 100.5},
        "Error: new_limit must be an integer, got '100.5'.",
    ),
    (
        "submit_credit_limit_increase_request_7392",
        {"credit_card_account_id": "cc", "user_id": "u", "requested_increase_amount": 2500.5},
        "Error: Invalid requested_increase_amount. Must be a whole number of dollars.",
    ),
    (
        "deny_credit_limit_increase_5848",
        {"credit_card_account_id": "cc", "user_id": "u", "denial_reason": "bored"},
        "Error: Invalid denial_reason. Must be one of: insufficient_account_age, cooldown_period_active, "
        "pending_disputes, pending_replacement_card, past_due_balance, high_utilization, "
        "insufficient_payment_history, requested_amount_exceeds_limit, other",
    ),
    (
        "apply_checking_account_credit_5829",
        {"account_id": "a", "amount": 5, "credit_type": "gift"},
        "Error: Invalid credit_type. Must be one of: ['rebate_credit', 'fee_refund']",
    ),
    ("close_debit_card_4721", {"card_id": "dbc_nope", "reason": "LOST"}, "Error: Debit card 'dbc_nope' not found."),
]


@pytest.mark.parametrize(("tool", "arguments", "expected"), REFUSALS, ids=[case[0] for case in REFUSALS])
def test_a_refused_discoverable_call_answers_upstreams_text_and_changes_only_the_call_log(
    domain: Domain, tool: str, arguments: dict[str, Any], expected: str
) -> None:
    """Refusals are returned texts (no error flag); a write tool's call is logged all the same, nothing else changes."""
    session = domain.open_session(domain.find_task("base", BASE_ONLY[0]))
    domain.call_tool(session, "unlock_discoverable_agent_tool", {"agent_tool_name": tool})
    tables = {name: json.dumps(session.data[name], sort_keys=True, default=dict) for name in session.data}
    called = {"agent_tool_name": tool, "arguments": json.dumps(arguments)}
    result = domain.call_tool(session, "call_discoverable_agent_tool", called)
    assert (result.observation, result.error) == (expected, False)
    changed = [
        name for name in session.data if json.dumps(session.data[name], sort_keys=True, default=dict) != tables[name]
    ]
    assert changed == ["agent_discoverable_tools"]


def test_a_user_tool_not_given_is_refused_and_not_logged(domain: Domain) -> None:
    session = domain.open_session(domain.find_task("base", BASE_ONLY[0]))
    before = session.data_hash()
    called = {"discoverable_tool_name": "get_card_last_4_digits", "arguments": '{"credit_card_account_id": "cc"}'}
    result = domain.call_tool(session, "call_discoverable_user_tool", called, "user")
    assert result.observation == (
        "Error: Tool 'get_card_last_4_digits' has not been given to you by the agent. "
        "The agent must first use `give_discoverable_user_tool` to give this tool to you."
    )
    assert session.data_hash() == before
