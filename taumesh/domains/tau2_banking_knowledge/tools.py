"""``banking_knowledge``'s base tools: 14 of the agent's and 6 of the user's, behaving as upstream's.

Errors are returned as ``Error: …`` texts, as upstream's tools return them (an exception still becomes an error
observation). Discoverable tools run through ``call_discoverable_agent_tool``/``call_discoverable_user_tool``
(:mod:`.discoverable`); a call is logged in the database when the tool changes state or is on the task's read-log
allowlist (v1.0.1).
"""

from __future__ import annotations

import json
from typing import Any

from taumesh.domains import Data, DataError, Tool
from taumesh.domains.tau2_banking_knowledge import records as db
from taumesh.domains.tau2_banking_knowledge.discoverable import AGENT_DISCOVERABLE, USER_DISCOVERABLE
from taumesh.domains.tau2_banking_knowledge.texts import banking_texts, format_for_agent, parse_docstring
from taumesh.domains.tau2_banking_knowledge.toolkit import SESSION_TASK, SESSION_UNLOCKED, tool

UNKNOWN_AGENT_TOOL = "Error: Unknown agent tool '{name}'. This tool is not available."


def transfer_to_human_agents(data: Data, summary: str, reason: str = "other") -> str:
    """Upstream's ``transfer_to_human_agents`` (its description is the imported text)."""
    reasons = banking_texts().transfer_reasons
    if reason not in reasons:
        return f"Error: Invalid transfer reason '{reason}'. Must be one of: {', '.join(reasons)}"
    return f"Transfer successful (reason: {reason}). A human agent will assist you shortly."


def get_current_time(data: Data) -> str:
    """Upstream's ``get_current_time`` (its description is the imported text)."""
    return db.NOW_TEXT


def get_user_information_by_id(data: Data, user_id: str) -> str:
    """Upstream's ``get_user_information_by_id`` (its description is the imported text)."""
    return db.lookup(data, "users", "user_id", user_id)


def get_user_information_by_name(data: Data, customer_name: str) -> str:
    """Upstream's ``get_user_information_by_name`` (its description is the imported text)."""
    return db.lookup(data, "users", "name", customer_name)


def get_user_information_by_email(data: Data, email: str) -> str:
    """Upstream's ``get_user_information_by_email`` (its description is the imported text)."""
    return db.lookup(data, "users", "email", email)


def change_user_email(data: Data, user_id: str, new_email: str) -> str:
    """Upstream's ``change_user_email`` (its description is the imported text)."""
    users = db.records(data, "users")
    if user_id not in users:
        return f"Error: User with ID '{user_id}' not found."
    users[user_id]["email"] = new_email
    return f"Email updated successfully.\n  - User ID: {user_id}\n  - New Email: {new_email}"


def get_referrals_by_user(data: Data, user_id: str) -> str:
    """Upstream's ``get_referrals_by_user`` (its description is the imported text)."""
    return db.lookup(data, "referrals", "referrer_id", user_id)


def get_credit_card_transactions_by_user(data: Data, user_id: str) -> str:
    """Upstream's ``get_credit_card_transactions_by_user`` (its description is the imported text)."""
    return db.lookup(data, "credit_card_transaction_history", "user_id", user_id)


def get_credit_card_accounts_by_user(data: Data, user_id: str) -> str:
    """Upstream's ``get_credit_card_accounts_by_user`` (its description is the imported text)."""
    return db.lookup(data, "credit_card_accounts", "user_id", user_id)


def log_verification(
    data: Data,
    name: str,
    user_id: str,
    address: str,
    email: str,
    phone_number: str,
    date_of_birth: str,
    time_verified: str,
) -> str:
    """Upstream's ``log_verification`` (its description is the imported text)."""
    record = {
        "name": name,
        "user_id": user_id,
        "address": address,
        "email": email,
        "phone_number": phone_number,
        "date_of_birth": date_of_birth,
        "time_verified": time_verified,
    }
    if not db.add(data, "verification_history", db.verification_id(user_id, time_verified), record):
        return "Failed to log verification: Record may already exist."
    return f"Verification logged successfully.\n  - User: {name} (ID: {user_id})\n  - Verified at: {time_verified}"


def give_discoverable_user_tool(data: Data, discoverable_tool_name: str, arguments: str = "{}") -> str:
    """Upstream's ``give_discoverable_user_tool`` (its description is the imported text)."""
    doc = banking_texts().user_discoverable_by_name().get(discoverable_tool_name)
    if doc is None:
        return f"Error: Unknown discoverable tool '{discoverable_tool_name}'."
    try:
        given = json.loads(arguments)
    except json.JSONDecodeError as exc:
        return f"Error: Invalid JSON in arguments: {exc}"
    for name in given:
        if name not in doc.parameters and name != "self":
            return f"Error: Unexpected parameter: {name}"
    parsed = parse_docstring(doc)
    record = {"tool_name": discoverable_tool_name, "status": "GIVEN"}
    db.add(data, "user_discoverable_tools", db.user_tool_id(discoverable_tool_name), record)
    shown = json.dumps(given, indent=2) if given else "(no arguments)"
    return (
        f"Tool given to user: {discoverable_tool_name}\nDescription: {parsed.description}\nArguments: {shown}\n\n"
        "The user can now execute this action by calling `call_discoverable_user_tool` "
        f"with discoverable_tool_name='{discoverable_tool_name}' and the same arguments."
    )


def unlock_discoverable_agent_tool(data: Data, agent_tool_name: str) -> str:
    """Upstream's ``unlock_discoverable_agent_tool`` (its description is the imported text)."""
    doc = banking_texts().agent_discoverable_by_name().get(agent_tool_name)
    if doc is None:
        return UNKNOWN_AGENT_TOOL.format(name=agent_tool_name)
    parsed = parse_docstring(doc)
    data[SESSION_UNLOCKED][agent_tool_name] = True
    return (
        f"Tool unlocked: {agent_tool_name}\nDescription: {parsed.description}\n\n{format_for_agent(parsed)}\n\n"
        "You can now use this tool by calling `call_discoverable_agent_tool` with "
        f"agent_tool_name='{agent_tool_name}' and the required arguments."
    )


def _read_log_allowlist(data: Data) -> Any:
    return data[SESSION_TASK].get("read_log_allowlist", {})


def call_discoverable_agent_tool(data: Data, agent_tool_name: str, arguments: str = "{}") -> str:
    """Upstream's ``call_discoverable_agent_tool`` (its description is the imported text)."""
    doc = banking_texts().agent_discoverable_by_name().get(agent_tool_name)
    if doc is None:
        return UNKNOWN_AGENT_TOOL.format(name=agent_tool_name)
    if agent_tool_name not in data[SESSION_UNLOCKED]:
        return (
            f"Error: Tool '{agent_tool_name}' has not been unlocked. "
            "You must first use `unlock_discoverable_agent_tool` to unlock this tool before calling it."
        )
    try:
        parsed = json.loads(arguments, parse_int=float)
    except json.JSONDecodeError as exc:
        return f"Error: Invalid JSON in arguments: {exc}"
    function = AGENT_DISCOVERABLE.get(agent_tool_name)
    if function is None:
        raise DataError(
            f"the imported catalogue lists the discoverable agent tool {agent_tool_name!r}, which taumesh lacks"
        )
    try:
        result: str = function(data, **parsed)
    except TypeError as exc:
        return f"Error: Invalid arguments: {exc}"
    if doc.mutates_state or agent_tool_name in _read_log_allowlist(data):
        record = {"tool_name": agent_tool_name, "status": "CALLED"}
        db.add(data, "agent_discoverable_tools", db.agent_tool_id(agent_tool_name), record)
    return result


def list_discoverable_agent_tools(data: Data) -> str:
    """Upstream's ``list_discoverable_agent_tools`` (its description is the imported text)."""
    result = db.query_text(data, "agent_discoverable_tools")
    if "No results found" in result:  # upstream's check, which its query never answers
        return "No agent tools have been called yet. Search the knowledge base to discover available tools."
    return f"Your called agent tools:\n{result}"


def apply_for_credit_card(
    data: Data, card_type: str, customer_name: str, annual_income: float, rho_bank_subscription: bool = False
) -> str:
    """Upstream's ``apply_for_credit_card`` (its description is the imported text)."""
    valid = banking_texts().valid_credit_card_types
    if card_type not in valid:
        return f"Error: Invalid card_type '{card_type}'. Must be one of: {valid}"
    try:
        income = float(annual_income)
    except (TypeError, ValueError):
        return "Error: Invalid annual_income. Must be a number."
    key = db.application_id(card_type, customer_name, income, rho_bank_subscription)
    record = {
        "application_id": key,
        "card_type": card_type,
        "customer_name": customer_name,
        "annual_income": income,
        "rho_bank_subscription": rho_bank_subscription,
        "status": "PENDING",
        "date": db.TODAY,
    }
    if not db.add(data, "credit_card_applications", key, record):
        return f"Failed to submit application: Record ID '{key}' may already exist."
    return (
        "Credit card application submitted:\nYour application has been successfully submitted. "
        "You will receive a decision within 5-7 business days via email."
    )


def submit_referral(data: Data, user_id: str, account_type: str) -> str:
    """Upstream's ``submit_referral`` (its description is the imported text)."""
    key = db.referral_id(user_id, account_type)
    record = {
        "referral_id": key,
        "referrer_id": user_id,
        "referred_account_type": account_type,
        "referral_status": "NO_PROGRESS",
        "date": db.TODAY,
    }
    if not db.add(data, "referrals", key, record):
        return f"Failed to submit referral: Record ID '{key}' may already exist."
    return (
        f"Referral request submitted successfully!\n  - Referral ID: {key}\n  - Referrer ID: {user_id}\n"
        f"  - Account Type: {account_type}\n  - Status: NO_PROGRESS\n  - Date: {db.TODAY}\n\n"
        "Share your referral ID with the person you're referring. "
        "They will need to use this when applying for their account."
    )


def call_discoverable_user_tool(data: Data, discoverable_tool_name: str, arguments: str = "{}") -> str:
    """Upstream's ``call_discoverable_user_tool`` (its description is the imported text)."""
    doc = banking_texts().user_discoverable_by_name().get(discoverable_tool_name)
    if doc is None:
        return f"Error: Unknown discoverable tool '{discoverable_tool_name}'."
    try:
        parsed = json.loads(arguments, parse_int=float)
    except json.JSONDecodeError as exc:
        return f"Error: Invalid JSON in arguments: {exc}"
    for name in doc.required:
        if name not in parsed:
            return f"Error: Missing required parameter: {name}"
    for name in parsed:
        if name not in doc.parameters and name != "self":
            return f"Error: Unexpected parameter: {name}"
    function = USER_DISCOVERABLE.get(discoverable_tool_name)
    if function is None:
        raise DataError(
            f"the imported catalogue lists the discoverable user tool {discoverable_tool_name!r}, which taumesh lacks"
        )
    try:
        result: str = function(data, **parsed)
    except TypeError as exc:
        return f"Error: Invalid arguments for tool '{discoverable_tool_name}': {exc}"
    return result


def list_discoverable_user_tools(data: Data) -> str:
    """Upstream's ``list_discoverable_user_tools`` (its description is the imported text)."""
    result = db.query_text(data, "user_discoverable_tools")
    if "No results found" in result:  # upstream's check, which its query never answers
        return "No tools have been given to you yet by the agent."
    return f"Tools given to you by the agent:\n{result}"


def request_human_agent_transfer(data: Data) -> str:
    """Upstream's ``request_human_agent_transfer`` (its description is the imported text)."""
    existing = db.query_text(data, "human_transfer_requests")
    count = 1 if "No records found" in existing else existing.count("request_id") + 1
    key = f"transfer_request_{count}"
    record = {"request_id": key, "request_number": count, "requested_at": db.TODAY, "status": "PENDING"}
    db.add(data, "human_transfer_requests", key, record)
    return f"Transfer request #{count} submitted.\nThe agent will process your request."


def submit_transaction(
    data: Data, user_id: str, credit_card_type: str, merchant_name: str, amount: float, category: str
) -> str:
    """Upstream's ``submit_transaction`` (its description is the imported text)."""
    rewards = banking_texts().credit_card_rewards
    if credit_card_type not in rewards:
        return f"Error: Unknown credit card type '{credit_card_type}'. Available types: {list(rewards)}"
    key = db.transaction_id(user_id, credit_card_type, merchant_name, amount, category)
    rates = rewards[credit_card_type]
    rate = rates.get(category, rates["default"])
    points = int(amount * rate)
    record = {
        "transaction_id": key,
        "user_id": user_id,
        "credit_card_type": credit_card_type,
        "merchant_name": merchant_name,
        "transaction_amount": f"${amount:.2f}",
        "transaction_date": db.TODAY,
        "category": category,
        "status": "COMPLETED",
        "rewards_earned": f"{points} points",
    }
    if not db.add(data, "credit_card_transaction_history", key, record):
        return f"Failed to submit transaction: Record ID '{key}' may already exist."
    return (
        f"Transaction submitted successfully!\n  - Transaction ID: {key}\n  - User ID: {user_id}\n"
        f"  - Card Type: {credit_card_type}\n  - Merchant: {merchant_name}\n  - Amount: ${amount:.2f}\n"
        f"  - Category: {category}\n  - Date: {db.TODAY}\n  - Rewards Earned: {points} points ({rate}% cashback rate)\n"
    )


AGENT_TOOLS: tuple[type[Tool], ...] = (
    tool(transfer_to_human_agents, writes=False),
    tool(get_current_time, writes=False),
    tool(get_user_information_by_id, writes=False),
    tool(get_user_information_by_name, writes=False),
    tool(get_user_information_by_email, writes=False),
    tool(change_user_email, writes=True),
    tool(get_referrals_by_user, writes=False),
    tool(get_credit_card_transactions_by_user, writes=False),
    tool(get_credit_card_accounts_by_user, writes=False),
    tool(log_verification, writes=True),
    tool(give_discoverable_user_tool, writes=True),
    tool(unlock_discoverable_agent_tool, writes=True),
    tool(call_discoverable_agent_tool, writes=True),
    tool(list_discoverable_agent_tools, writes=False),
)
"""The agent's base tools, in upstream's order."""
USER_TOOLS: tuple[type[Tool], ...] = (
    tool(apply_for_credit_card, writes=True, side="user"),
    tool(submit_referral, writes=True, side="user"),
    tool(call_discoverable_user_tool, writes=True, side="user"),
    tool(list_discoverable_user_tools, writes=False, side="user"),
    tool(request_human_agent_transfer, writes=True, side="user"),
    tool(submit_transaction, writes=True, side="user"),
)
"""The user's tools, in upstream's order."""
ENUMS = {"transfer_to_human_agents": "reason"}
"""Parameters typed with upstream's ``Literal`` of transfer reasons."""
