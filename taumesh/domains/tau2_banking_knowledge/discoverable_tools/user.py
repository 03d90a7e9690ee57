"""The user's discoverable tools: each runs only once the agent gave it, and logs its call."""

from __future__ import annotations

import hashlib
from typing import Any

from taumesh.domains import Data
from taumesh.domains.tau2_banking_knowledge import records as db
from taumesh.domains.tau2_banking_knowledge.discoverable_tools.common import (
    account_balance,
    arguments_json,
    exists_text,
    user_tool,
)


def _not_given(data: Data, tool_name: str) -> str | None:
    """Upstream's error when the agent has not given ``tool_name``; None when it has."""
    if "No records found" in db.lookup(data, "user_discoverable_tools", "tool_name", tool_name):
        return (
            f"Error: Tool '{tool_name}' has not been given to you by the agent. "
            "The agent must first use `give_discoverable_user_tool` to give this tool to you."
        )
    return None


def _log_call(data: Data, tool_name: str, arguments: dict[str, Any]) -> None:
    record = {"tool_name": tool_name, "arguments": arguments, "called_at": db.TODAY, "status": "CALLED"}
    db.add(data, "user_discoverable_tool_calls", db.user_tool_call_id(tool_name, arguments), record)


def _opening(data: Data, tool_name: str, arguments: dict[str, Any]) -> str | None:
    """Refuse a tool not given, else log its call."""
    if (refusal := _not_given(data, tool_name)) is not None:
        return refusal
    _log_call(data, tool_name, arguments)
    return None


@user_tool
def submit_cash_back_dispute_0589(data: Data, user_id: str, transaction_id: str) -> str:
    """Upstream's ``submit_cash_back_dispute_0589`` (its description is the imported docstring)."""
    arguments = {"user_id": user_id, "transaction_id": transaction_id}
    if (refusal := _opening(data, "submit_cash_back_dispute_0589", arguments)) is not None:
        return refusal
    dispute_id = "dsp_" + db.deterministic_id(f"dispute:{user_id}:{transaction_id}", 12)
    settings = db.records(data, "task_config")
    auto_resolve = bool(settings) and settings.get("dispute_settings", {}).get("auto_resolve_disputes", False)
    record = {
        "dispute_id": dispute_id,
        "user_id": user_id,
        "transaction_id": transaction_id,
        "submitted_at": db.TODAY,
        "status": "RESOLVED" if auto_resolve else "SUBMITTED",
    }
    if auto_resolve:
        record["resolution"] = "APPROVED"
        status = (
            "Status: RESOLVED - The dispute has been reviewed and approved. The transaction rewards need to be updated."
        )
    else:
        status = "Status: SUBMITTED - Your dispute has been queued for review."
    stored = db.add(data, "cash_back_disputes", dispute_id, record)
    result = (
        "Cash back dispute submitted successfully. Your case has been queued for review.\n\n"
        f"Executed: submit_cash_back_dispute_0589\nArguments: {arguments_json(arguments)}\n"
    )
    if stored:
        return result + f"Dispute ID: {dispute_id}\n{status}"
    return result + "Note: Dispute may have already been submitted for this transaction."


@user_tool
def get_referral_link(data: Data, user_id: str, card_name: str) -> str:
    """Upstream's ``get_referral_link`` (its description is the imported docstring)."""
    arguments = {"user_id": user_id, "card_name": card_name}
    if (refusal := _opening(data, "get_referral_link", arguments)) is not None:
        return refusal
    referral_id = db.deterministic_id(f"referral_link:{user_id}:{card_name}")
    record = {
        "referral_id": referral_id,
        "referrer_id": user_id,
        "referred_account_type": card_name,
        "referral_status": "NO_PROGRESS",
        "date": db.TODAY,
    }
    stored = db.add(data, "referrals", referral_id, record)
    result = (
        "Referral link generated successfully. Share this link with the person you want to refer.\n\n"
        f"Executed: get_referral_link\nArguments: {arguments_json(arguments)}\n"
    )
    if stored:
        return result + f"Referral ID: {referral_id}\nReferral link: https://rhobank.com/refer/{referral_id}"
    return result + "Note: A referral link for this card may have already been generated."


def last_four(account_id: str) -> str:
    """The first four digits of the SHA-256 of ``card_last4:<account>`` (zero-padded)."""
    digits = [c for c in hashlib.sha256(f"card_last4:{account_id}".encode()).hexdigest() if c.isdigit()]
    return "".join(digits[:4]).ljust(4, "0")


@user_tool
def get_card_last_4_digits(data: Data, credit_card_account_id: str) -> str:
    """Upstream's ``get_card_last_4_digits`` (its description is the imported docstring)."""
    arguments = {"credit_card_account_id": credit_card_account_id}
    if (refusal := _opening(data, "get_card_last_4_digits", arguments)) is not None:
        return refusal
    if not exists_text(data, "credit_card_accounts", "account_id", credit_card_account_id):
        return f"Error: Credit card account '{credit_card_account_id}' not found."
    return (
        f"Card information retrieved successfully.\n\nExecuted: get_card_last_4_digits\n"
        f"Arguments: {arguments_json(arguments)}\nLast 4 digits of card: {last_four(credit_card_account_id)}"
    )


@user_tool
def deposit_check_3847(data: Data, account_id: str, check_amount: float) -> str:
    """Upstream's ``deposit_check_3847`` (its description is the imported docstring)."""
    arguments = {"account_id": account_id, "check_amount": check_amount}
    if (refusal := _opening(data, "deposit_check_3847", arguments)) is not None:
        return refusal
    try:
        check_amount = float(check_amount)
    except (ValueError, TypeError):
        return f"Error: Invalid check amount '{check_amount}'. Must be a number."
    if check_amount <= 0:
        return "Error: Check amount must be positive."
    accounts = db.records(data, "accounts")
    if account_id not in accounts:
        return f"Error: Account '{account_id}' not found."
    account = accounts[account_id]
    if account.get("status") not in ("ACTIVE", "OPEN"):
        return f"Error: Account '{account_id}' is not active."
    previous = account_balance(account)
    new = previous + check_amount
    account["current_holdings"] = f"${new:.2f}"
    return (
        "Check deposited successfully. Funds will be available according to your account's deposit policy.\n\n"
        f"Executed: deposit_check_3847\nArguments: {arguments_json(arguments)}\nCheck deposit processed!\n"
        f"  - Account: {account_id}\n  - Check Amount: ${check_amount:.2f}\n  - Previous Balance: ${previous:.2f}\n"
        f"  - New Balance: ${new:.2f}"
    )
