"""The agent's discoverable credit-card tools: disputes, replacements, closures, credits, flags, payments, limits."""

from __future__ import annotations

from typing import Any

from taumesh.domains import Data
from taumesh.domains.tau2_banking_knowledge import records as db
from taumesh.domains.tau2_banking_knowledge.discoverable_tools.common import (
    account_balance,
    agent_tool,
    arguments_json,
    exists_text,
    history,
    money_text,
    titled,
    update,
)

CARD_ACTIONS = ["keep_active", "cancel_and_reissue"]
DISPUTE_REASONS = [
    "unauthorized_fraudulent_charge",
    "duplicate_charge",
    "incorrect_amount",
    "goods_services_not_received",
    "goods_services_not_as_described",
    "canceled_subscription_still_charging",
    "refund_never_processed",
]
RESOLUTIONS = ["full_refund", "partial_refund"]
REPLACEMENT_REASONS = ["fraud_suspected", "lost", "stolen", "damaged", "expired", "other"]
CLOSURE_REASONS = [
    "annual_fee",
    "not_using_card",
    "found_better_card",
    "unhappy_with_rewards",
    "simplifying_finances",
    "negative_experience",
    "other",
]
CREDIT_REASONS = [
    "goodwill_adjustment",
    "promotional_credit",
    "annual_fee_reversal",
    "late_fee_reversal",
    "interest_charge_reversal",
    "dispute_resolution",
    "price_match",
    "retention_offer",
    "error_correction",
    "other",
]
FLAG_TYPES = ["annual_fee_waived", "promotional_apr", "rewards_bonus", "other"]
FLAG_REASONS = ["retention_offer", "loyalty_benefit", "promotional", "error_correction", "other"]
DENIAL_REASONS = [
    "insufficient_account_age",
    "cooldown_period_active",
    "pending_disputes",
    "pending_replacement_card",
    "past_due_balance",
    "high_utilization",
    "insufficient_payment_history",
    "requested_amount_exceeds_limit",
    "other",
]
OPEN_DISPUTE = ("SUBMITTED", "UNDER_REVIEW", "PENDING")
OPEN_ORDER = ("PENDING", "PROCESSING", "SHIPPED")
BAD_STANDING = ("PAST_DUE", "DELINQUENT", "COLLECTIONS", "CLOSED")


def _card_missing(data: Data, account_id: str) -> str | None:
    if exists_text(data, "credit_card_accounts", "account_id", account_id):
        return None
    return f"Error: Credit card account '{account_id}' not found."


def cli_request_id(account_id: str, user_id: str, amount: float) -> str:
    """The id upstream gives a credit limit increase record."""
    return "cli_" + db.deterministic_id(f"cli_request:{account_id}:{user_id}:{amount:.2f}", 12)


@agent_tool
def example_agent_tool_0000(data: Data) -> str:
    """Upstream's ``example_agent_tool_0000`` (its description is the imported docstring)."""
    return "Example tool executed successfully."


@agent_tool
def update_transaction_rewards_3847(data: Data, transaction_id: str, new_rewards_earned: str) -> str:
    """Upstream's ``update_transaction_rewards_3847`` (its description is the imported docstring)."""
    if not transaction_id or not new_rewards_earned:
        return "Error: Missing required parameters."
    if not update(data, "credit_card_transaction_history", transaction_id, {"rewards_earned": new_rewards_earned}):
        return f"Error: Transaction '{transaction_id}' not found."
    shown = arguments_json({"transaction_id": transaction_id, "new_rewards_earned": new_rewards_earned})
    return (
        "Transaction rewards updated successfully.\n\nExecuted: update_transaction_rewards_3847\n"
        f"Arguments: {shown}\nTransaction updated:\n  - Transaction ID: {transaction_id}\n"
        f"  - New Rewards: {new_rewards_earned}"
    )


@agent_tool
def file_credit_card_transaction_dispute_4829(
    data: Data,
    transaction_id: str,
    card_action: str,
    card_last_4_digits: str,
    full_name: str,
    user_id: str,
    phone: str,
    email: str,
    address: str,
    contacted_merchant: bool,
    purchase_date: str,
    issue_noticed_date: str,
    dispute_reason: str,
    resolution_requested: str,
    eligible_for_provisional_credit: bool,
    partial_refund_amount: float | None = None,
) -> str:
    """Upstream's ``file_credit_card_transaction_dispute_4829`` (its description is the imported docstring)."""
    if not transaction_id or not user_id:
        return "Error: Missing required parameters."
    if card_action not in CARD_ACTIONS:
        return f"Error: Invalid card_action. Must be one of: {CARD_ACTIONS}"
    if dispute_reason not in DISPUTE_REASONS:
        return f"Error: Invalid dispute_reason. Must be one of: {DISPUTE_REASONS}"
    if resolution_requested not in RESOLUTIONS:
        return f"Error: Invalid resolution_requested. Must be one of: {RESOLUTIONS}"
    if resolution_requested == "partial_refund" and partial_refund_amount is None:
        return "Error: partial_refund_amount is required when resolution_requested is 'partial_refund'."
    dispute_id = "dsp_" + db.deterministic_id(f"dispute:{user_id}:{transaction_id}", 12)
    record = {
        "dispute_id": dispute_id,
        "transaction_id": transaction_id,
        "user_id": user_id,
        "card_action": card_action,
        "card_last_4_digits": card_last_4_digits,
        "full_name": full_name,
        "phone": phone,
        "email": email,
        "address": address,
        "contacted_merchant": contacted_merchant,
        "purchase_date": purchase_date,
        "issue_noticed_date": issue_noticed_date,
        "dispute_reason": dispute_reason,
        "resolution_requested": resolution_requested,
        "partial_refund_amount": partial_refund_amount,
        "eligible_for_provisional_credit": eligible_for_provisional_credit,
        "provisional_credit_given": eligible_for_provisional_credit,
        "submitted_at": db.TODAY,
        "status": "SUBMITTED",
    }
    if not db.add(data, "transaction_disputes", dispute_id, record):
        return "Error: Dispute may have already been filed for this transaction."
    parts = [
        "Credit card transaction dispute filed successfully. A case has been opened and will be reviewed within 10 "
        "business days.",
        "",
        "Executed: file_credit_card_transaction_dispute_4829",
        f"Dispute ID: {dispute_id}",
        f"Transaction: {transaction_id}",
        f"Reason: {titled(dispute_reason)}",
        f"Resolution Requested: {titled(resolution_requested)}",
    ]
    if partial_refund_amount:
        parts.append(f"Partial Refund Amount: ${partial_refund_amount:.2f}")
    if eligible_for_provisional_credit:
        parts.append("Provisional Credit: ELIGIBLE - Credit will be applied within 2 business days.")
    else:
        parts.append("Provisional Credit: Not eligible at this time.")
    return "\n".join(parts)


@agent_tool
def order_replacement_credit_card_7291(
    data: Data,
    credit_card_account_id: str,
    user_id: str,
    shipping_address: str,
    reason: str,
    expedited_shipping: bool = False,
) -> str:
    """Upstream's ``order_replacement_credit_card_7291`` (its description is the imported docstring)."""
    if not credit_card_account_id or not user_id or not shipping_address or not reason:
        return "Error: Missing required parameters (credit_card_account_id, user_id, shipping_address, reason)."
    if reason not in REPLACEMENT_REASONS:
        return f"Error: Invalid reason. Must be one of: {REPLACEMENT_REASONS}"
    if (missing := _card_missing(data, credit_card_account_id)) is not None:
        return missing
    order_id = "ccord_" + db.deterministic_id(f"credit_card_order:{credit_card_account_id}:{user_id}:{reason}", 12)
    record = {
        "order_id": order_id,
        "credit_card_account_id": credit_card_account_id,
        "user_id": user_id,
        "shipping_address": shipping_address,
        "reason": reason,
        "expedited_shipping": expedited_shipping,
        "order_date": db.TODAY,
        "status": "ORDERED",
        "old_card_cancelled": True,
    }
    if not db.add(data, "credit_card_orders", order_id, record):
        return "Error: Order may have already been placed for this card replacement."
    update(data, "credit_card_accounts", credit_card_account_id, {"status": "CLOSED", "closed_date": db.TODAY})
    return "\n".join(
        [
            f"Order ID: {order_id}",
            f"Card Account: {credit_card_account_id}",
            f"Reason: {titled(reason)}",
            f"Shipping Address: {shipping_address}",
            f"Shipping Method: {'Expedited' if expedited_shipping else 'Standard'}",
            f"Expected Delivery: {'2-3 business days' if expedited_shipping else '7-10 business days'}",
            "",
            "The old card has been cancelled for security. The new card will have the same account number but a new "
            "card number and CVV.",
        ]
    )


@agent_tool
def get_user_dispute_history_7291(data: Data, user_id: str) -> str:
    """Upstream's ``get_user_dispute_history_7291`` (its description is the imported docstring)."""
    if not user_id:
        return "Error: Missing required parameter: user_id"
    return history(
        data,
        "get_user_dispute_history_7291",
        "User transaction dispute history retrieved successfully.",
        "transaction_disputes",
        "user_id",
        user_id,
        title=f"Transaction dispute history for user {user_id}:",
        none="No transaction disputes found for this user.",
    )


@agent_tool
def get_pending_replacement_orders_5765(data: Data, credit_card_account_id: str) -> str:
    """Upstream's ``get_pending_replacement_orders_5765`` (its description is the imported docstring)."""
    if not credit_card_account_id:
        return "Error: Missing required parameter: credit_card_account_id"
    return history(
        data,
        "get_pending_replacement_orders_5765",
        "Pending replacement orders check completed.",
        "credit_card_orders",
        "credit_card_account_id",
        credit_card_account_id,
        title=f"Replacement orders for credit card account {credit_card_account_id}:",
        none="No pending replacement orders found for this credit card account.",
    )


@agent_tool
def log_credit_card_closure_reason_4521(
    data: Data, credit_card_account_id: str, user_id: str, closure_reason: str
) -> str:
    """Upstream's ``log_credit_card_closure_reason_4521`` (its description is the imported docstring)."""
    if not credit_card_account_id or not user_id or not closure_reason:
        return "Error: Missing required parameters."
    if closure_reason not in CLOSURE_REASONS:
        return f"Error: Invalid closure_reason. Must be one of: {CLOSURE_REASONS}"
    record_id = "clsr_" + db.deterministic_id(f"closure_reason:{credit_card_account_id}:{user_id}", 12)
    record = {
        "record_id": record_id,
        "credit_card_account_id": credit_card_account_id,
        "user_id": user_id,
        "closure_reason": closure_reason,
        "logged_at": db.TODAY,
        "status": "LOGGED",
    }
    db.add(data, "credit_card_closure_reasons", record_id, record)
    shown = arguments_json(
        {"credit_card_account_id": credit_card_account_id, "user_id": user_id, "closure_reason": closure_reason}
    )
    return (
        f"Closure reason logged successfully.\n\nExecuted: log_credit_card_closure_reason_4521\nArguments: {shown}\n"
        f"Closure reason '{closure_reason}' logged for account {credit_card_account_id}."
    )


@agent_tool
def get_closure_reason_history_8293(data: Data, credit_card_account_id: str) -> str:
    """Upstream's ``get_closure_reason_history_8293`` (its description is the imported docstring)."""
    if not credit_card_account_id:
        return "Error: Missing required parameter: credit_card_account_id"
    return history(
        data,
        "get_closure_reason_history_8293",
        "Closure reason history retrieved successfully.",
        "credit_card_closure_reasons",
        "credit_card_account_id",
        credit_card_account_id,
        title=f"Closure reason history for credit card account {credit_card_account_id}:",
        none="No closure reason records found for this credit card account.",
    )


@agent_tool
def apply_statement_credit_8472(
    data: Data, user_id: str, credit_card_account_id: str, amount: float, reason: str
) -> str:
    """Upstream's ``apply_statement_credit_8472`` (its description is the imported docstring)."""
    if not user_id or not credit_card_account_id or amount is None or not reason:
        return "Error: Missing required parameters (user_id, credit_card_account_id, amount, reason)."
    if amount <= 0:
        return "Error: Credit amount must be positive."
    if reason not in CREDIT_REASONS:
        return f"Error: Invalid reason. Must be one of: {CREDIT_REASONS}"
    if (missing := _card_missing(data, credit_card_account_id)) is not None:
        return missing
    transaction_id = db.transaction_id(user_id, "STATEMENT_CREDIT", reason, amount, "Statement Credit")
    record = {
        "transaction_id": transaction_id,
        "user_id": user_id,
        "credit_card_account_id": credit_card_account_id,
        "credit_card_type": "N/A",
        "merchant_name": "Rho-Bank Statement Credit",
        "transaction_amount": f"-${amount:.2f}",
        "transaction_date": db.TODAY,
        "category": "Statement Credit",
        "status": "COMPLETED",
        "rewards_earned": "0 points",
        "credit_reason": reason,
    }
    if not db.add(data, "credit_card_transaction_history", transaction_id, record):
        return f"Error: Failed to apply statement credit. Transaction ID '{transaction_id}' may already exist."
    return (
        "Statement credit applied successfully.\n\nExecuted: apply_statement_credit_8472\n"
        f"  - Transaction ID: {transaction_id}\n  - User ID: {user_id}\n  - Account: {credit_card_account_id}\n"
        f"  - Credit Amount: ${amount:.2f}\n  - Reason: {titled(reason)}\n  - Date: {db.TODAY}"
    )


@agent_tool
def apply_credit_card_account_flag_6147(
    data: Data, credit_card_account_id: str, user_id: str, flag_type: str, expiration_date: str, reason: str
) -> str:
    """Upstream's ``apply_credit_card_account_flag_6147`` (its description is the imported docstring)."""
    if not credit_card_account_id or not user_id or not flag_type or not expiration_date or not reason:
        return (
            "Error: Missing required parameters (credit_card_account_id, user_id, flag_type, expiration_date, reason)."
        )
    if flag_type not in FLAG_TYPES:
        return f"Error: Invalid flag_type. Must be one of: {FLAG_TYPES}"
    if reason not in FLAG_REASONS:
        return f"Error: Invalid reason. Must be one of: {FLAG_REASONS}"
    if (missing := _card_missing(data, credit_card_account_id)) is not None:
        return missing
    flag_id = "ccflag_" + db.deterministic_id(
        f"account_flag:{credit_card_account_id}:{flag_type}:{expiration_date}", 12
    )
    record = {
        "flag_id": flag_id,
        "credit_card_account_id": credit_card_account_id,
        "user_id": user_id,
        "flag_type": flag_type,
        "effective_date": db.TODAY,
        "expiration_date": expiration_date,
        "reason": reason,
        "applied_at": db.TODAY,
        "status": "ACTIVE",
    }
    if not db.add(data, "credit_card_account_flags", flag_id, record):
        return f"Error: Failed to apply account flag. Flag ID '{flag_id}' may already exist."
    return (
        f"Account flag applied successfully!\n  - Flag ID: {flag_id}\n  - Account: {credit_card_account_id}\n"
        f"  - User ID: {user_id}\n  - Flag Type: {titled(flag_type)}\n  - Effective Date: {db.TODAY}\n"
        f"  - Expiration Date: {expiration_date}\n  - Reason: {titled(reason)}"
    )


@agent_tool
def close_credit_card_account_7834(data: Data, credit_card_account_id: str, user_id: str) -> str:
    """Upstream's ``close_credit_card_account_7834`` (its description is the imported docstring)."""
    if not credit_card_account_id or not user_id:
        return "Error: Missing required parameters (credit_card_account_id, user_id)."
    if (missing := _card_missing(data, credit_card_account_id)) is not None:
        return missing
    changes = {"status": "CLOSED", "closed_date": db.TODAY, "closed_by": user_id}
    if not update(data, "credit_card_accounts", credit_card_account_id, changes):
        return f"Error: Failed to close credit card account '{credit_card_account_id}'."
    shown = arguments_json({"credit_card_account_id": credit_card_account_id, "user_id": user_id})
    return (
        f"Credit card account closed successfully.\n\nExecuted: close_credit_card_account_7834\nArguments: {shown}\n"
        f"Account {credit_card_account_id} has been closed."
    )


@agent_tool
def pay_credit_card_from_checking_9182(
    data: Data, user_id: str, checking_account_id: str, credit_card_account_id: str, amount: float
) -> str:
    """Upstream's ``pay_credit_card_from_checking_9182`` (its description is the imported docstring)."""
    if not user_id or not checking_account_id or not credit_card_account_id or amount is None:
        return "Error: Missing required parameters (user_id, checking_account_id, credit_card_account_id, amount)."
    try:
        amount = float(amount)
        if amount <= 0:
            return "Error: Payment amount must be a positive number."
    except (ValueError, TypeError):
        return "Error: Invalid payment amount. Must be a positive number."
    accounts = db.records(data, "accounts")
    if checking_account_id not in accounts:
        return f"Error: Checking account '{checking_account_id}' not found."
    checking = accounts[checking_account_id]
    if checking.get("user_id") != user_id:
        return f"Error: Checking account '{checking_account_id}' does not belong to user '{user_id}'."
    if checking.get("class") != "checking":
        return f"Error: Account '{checking_account_id}' is not a checking account."
    balance = account_balance(checking)
    if amount > balance:
        return (
            f"Error: Insufficient funds in checking account. Available balance: ${balance:.2f}, "
            f"requested payment: ${amount:.2f}."
        )
    cards = db.records(data, "credit_card_accounts")
    if credit_card_account_id not in cards:
        return f"Error: Credit card account '{credit_card_account_id}' not found."
    card = cards[credit_card_account_id]
    if card.get("user_id") != user_id:
        return f"Error: Credit card account '{credit_card_account_id}' does not belong to user '{user_id}'."
    owed = money_text(card.get("current_balance", "$0.00"))
    if amount > owed:
        return (
            f"Error: Payment amount (${amount:.2f}) exceeds credit card balance (${owed:.2f}). "
            "Please specify an amount up to the outstanding balance."
        )
    new_checking, new_owed = balance - amount, owed - amount
    checking["current_holdings"] = f"{new_checking:.2f}"
    card["current_balance"] = f"${new_owed:.2f}"
    return (
        f"Payment processed successfully!\n  - Payment Amount: ${amount:.2f}\n"
        f"  - From Checking Account: {checking_account_id}\n  - To Credit Card Account: {credit_card_account_id}\n"
        f"  - New Checking Balance: ${new_checking:.2f}\n  - New Credit Card Balance: ${new_owed:.2f}\n"
        "The payment has been applied immediately."
    )


@agent_tool
def submit_credit_limit_increase_request_7392(
    data: Data, credit_card_account_id: str, user_id: str, requested_increase_amount: int
) -> str:
    """Upstream's ``submit_credit_limit_increase_request_7392`` (its description is the imported docstring)."""
    if not credit_card_account_id or not user_id or requested_increase_amount is None:
        return "Error: Missing required parameters."
    try:
        requested = float(requested_increase_amount)
    except (TypeError, ValueError):
        return "Error: Invalid requested_increase_amount. Must be a whole number."
    if not requested.is_integer():
        return "Error: Invalid requested_increase_amount. Must be a whole number of dollars."
    whole = int(requested)
    if whole <= 0:
        return "Error: Requested increase amount must be positive."
    cards = db.records(data, "credit_card_accounts")
    if credit_card_account_id not in cards:
        return f"Error: Credit card account '{credit_card_account_id}' not found."
    if cards[credit_card_account_id].get("user_id") != user_id:
        return f"Error: Credit card account '{credit_card_account_id}' does not belong to user '{user_id}'."
    request_id = cli_request_id(credit_card_account_id, user_id, whole)
    record = {
        "request_id": request_id,
        "credit_card_account_id": credit_card_account_id,
        "user_id": user_id,
        "requested_increase_amount": whole,
        "submitted_at": db.TODAY,
        "status": "PENDING",
    }
    if not db.add(data, "credit_limit_increase_requests", request_id, record):
        return "Error: A similar request may already exist."
    return (
        "Credit limit increase request submitted successfully.\n\nExecuted: submit_credit_limit_increase_request_7392\n"
        f"  - Request ID: {request_id}\n  - Account: {credit_card_account_id}\n"
        f"  - Requested Increase: ${whole:,}\n  - Status: PENDING"
    )


@agent_tool
def get_credit_limit_increase_history_4829(data: Data, credit_card_account_id: str) -> str:
    """Upstream's ``get_credit_limit_increase_history_4829`` (its description is the imported docstring)."""
    if not credit_card_account_id:
        return "Error: Missing required parameter: credit_card_account_id"
    return history(
        data,
        "get_credit_limit_increase_history_4829",
        "Credit limit increase history retrieved.",
        "credit_limit_increase_requests",
        "credit_card_account_id",
        credit_card_account_id,
        title=f"Credit limit increase history for account {credit_card_account_id}:",
        none="No credit limit increase requests found for this account.",
    )


@agent_tool
def get_payment_history_6183(data: Data, credit_card_account_id: str, months: int) -> str:
    """Upstream's ``get_payment_history_6183`` (its description is the imported docstring)."""
    if not credit_card_account_id or months is None:
        return "Error: Missing required parameters (credit_card_account_id, months)."
    try:
        months = int(months)
        if months <= 0:
            return "Error: months must be a positive integer."
    except (ValueError, TypeError):
        return "Error: Invalid months value. Must be a positive integer."
    payments = [
        payment
        for payment in db.records(data, "payment_history").values()
        if payment.get("credit_card_account_id") == credit_card_account_id
    ]
    if not payments:
        return f"No payment history found for account '{credit_card_account_id}'."
    payments.sort(key=lambda payment: payment.get("payment_date") or "", reverse=True)
    payments = payments[:months]
    on_time = 0
    for payment in payments:
        if payment.get("status") != "ON_TIME":
            break
        on_time += 1
    parts = [
        f"Payment history for account '{credit_card_account_id}' (last {months} months):",
        f"Consecutive on-time payments: {on_time}",
    ]
    parts.extend(
        f"\n  - Payment Date: {payment.get('payment_date')}\n    Amount: {payment.get('amount')}\n"
        f"    Status: {payment.get('status')}"
        for payment in payments
    )
    return "\n".join(parts)


def _cli_blocked(data: Data, card_id: str, user_id: str, card: dict[str, Any]) -> bool:
    """Upstream's eligibility: no open dispute of the user, no replacement under way, the account in good standing."""
    if any(
        dispute.get("user_id") == user_id and dispute.get("status") in OPEN_DISPUTE
        for dispute in db.records(data, "transaction_disputes").values()
    ):
        return True
    if any(
        order.get("credit_card_account_id") == card_id and order.get("status") in OPEN_ORDER
        for order in db.records(data, "credit_card_orders").values()
    ):
        return True
    return bool(card.get("account_status", "").upper() in BAD_STANDING)


@agent_tool
def approve_credit_limit_increase_5847(
    data: Data, credit_card_account_id: str, user_id: str, new_credit_limit: int
) -> str:
    """Upstream's ``approve_credit_limit_increase_5847`` (its description is the imported docstring)."""
    if not credit_card_account_id or not user_id or new_credit_limit is None:
        return "Error: Missing required parameters."
    cards = db.records(data, "credit_card_accounts")
    if credit_card_account_id not in cards:
        return f"Error: Credit card account '{credit_card_account_id}' not found."
    card = cards[credit_card_account_id]
    if card.get("user_id") != user_id:
        return f"Error: Credit card account '{credit_card_account_id}' does not belong to user '{user_id}'."
    if _cli_blocked(data, credit_card_account_id, user_id, card):
        return "Error: Credit limit increase request cannot be approved at this time."
    current = money_text(card.get("credit_limit", "$0.00"))
    new = float(new_credit_limit)
    card["credit_limit"] = f"${new:.2f}"
    request_id = cli_request_id(credit_card_account_id, user_id, new - current)
    record = {
        "request_id": request_id,
        "credit_card_account_id": credit_card_account_id,
        "user_id": user_id,
        "previous_limit": f"${current:.2f}",
        "new_limit": f"${new:.2f}",
        "increase_amount": f"${new - current:.2f}",
        "decision_date": db.TODAY,
        "status": "APPROVED",
    }
    db.add(data, "credit_limit_increase_requests", request_id, record)
    return (
        f"Credit limit increase approved!\n  - Account: {credit_card_account_id}\n"
        f"  - Previous Limit: ${current:.2f}\n  - New Limit: ${new:.2f}\n  - Increase: ${new - current:.2f}\n"
        f"  - Effective Date: {db.TODAY}\nThe customer will receive a confirmation email."
    )


@agent_tool
def deny_credit_limit_increase_5848(data: Data, credit_card_account_id: str, user_id: str, denial_reason: str) -> str:
    """Upstream's ``deny_credit_limit_increase_5848`` (its description is the imported docstring)."""
    if not credit_card_account_id or not user_id or not denial_reason:
        return "Error: Missing required parameters."
    if denial_reason not in DENIAL_REASONS:
        return f"Error: Invalid denial_reason. Must be one of: {', '.join(DENIAL_REASONS)}"
    if credit_card_account_id not in db.records(data, "credit_card_accounts"):
        return f"Error: Credit card account '{credit_card_account_id}' not found."
    request_id = cli_request_id(credit_card_account_id, user_id, 0.0)
    record = {
        "request_id": request_id,
        "credit_card_account_id": credit_card_account_id,
        "user_id": user_id,
        "denial_reason": denial_reason,
        "decision_date": db.TODAY,
        "status": "DENIED",
    }
    db.add(data, "credit_limit_increase_requests", request_id, record)
    return (
        f"Credit limit increase request denied.\n  - Account: {credit_card_account_id}\n"
        f"  - Denial Reason: {denial_reason}\n  - Date: {db.TODAY}\n"
        "The customer will receive a notification explaining the denial."
    )
