"""The agent's discoverable debit-card tools: ordering, activating, closing, freezing, alerts, PINs and limits."""

from __future__ import annotations

import json
from typing import Any

from taumesh.domains import Data
from taumesh.domains.tau2_banking_knowledge import records as db
from taumesh.domains.tau2_banking_knowledge.discoverable_tools.common import age_days, agent_tool, titled

DELIVERY_TIMES = {"STANDARD": "7-10 business days", "EXPEDITED": "3-5 business days", "RUSH": "1-2 business days"}
DESIGNS = ["CLASSIC", "PREMIUM", "CUSTOM"]
LONG_MONTHS = ("01", "03", "05", "07", "08", "10", "12")
SEQUENTIAL_PINS = (
    "0123",
    "1234",
    "2345",
    "3456",
    "4567",
    "5678",
    "6789",
    "9876",
    "8765",
    "7654",
    "6543",
    "5432",
    "4321",
    "3210",
)
ACTIVATION_TOOLS = {
    "new_account": "activate_debit_card_8291",
    "first_card": "activate_debit_card_8291",
    "lost": "activate_debit_card_8292",
    "stolen": "activate_debit_card_8292",
    "fraud": "activate_debit_card_8292",
    "expired": "activate_debit_card_8293",
    "damaged": "activate_debit_card_8293",
    "upgrade": "activate_debit_card_8293",
    "bank_reissue": "activate_debit_card_8293",
}
"""Which activation tool serves a card of each issue reason."""
CLOSE_REASONS = ["lost", "stolen", "fraud_suspected", "damaged", "no_longer_needed", "account_closing"]
ALERT_REASONS = ["customer_verified", "velocity_clear"]
DEFAULT_ATM_LIMITS = {
    "blue account": 500,
    "green account": 600,
    "light blue account": 400,
    "green fee-free account": 500,
    "evergreen account": 750,
    "bluest account": 1500,
    "dark green account": 300,
    "gold years account": 600,
    "purple account": 1000,
}
"""Daily ATM limits by account level, for cards without their own."""
PIN_RULES = (
    "Security reminder: Never share your PIN with anyone.",
    "Customer can use the new PIN for ATM withdrawals and point-of-sale transactions.",
)


def _cards(data: Data) -> Any:
    return db.records(data, "debit_cards")


def pin_problem(pin: Any) -> str | None:
    """Why a PIN is refused: not 4 digits, sequential, one digit repeated; None when it is acceptable."""
    if not pin or not pin.isdigit() or len(pin) != 4:
        return "PIN must be exactly 4 digits."
    if pin in SEQUENTIAL_PINS:
        return "PIN cannot be sequential (e.g., 1234). Please choose a more secure PIN."
    if len(set(pin)) == 1:
        return "PIN cannot be all the same digit (e.g., 1111). Please choose a more secure PIN."
    return None


@agent_tool
def set_debit_card_recurring_block_7382(data: Data, card_id: str, block_recurring: bool) -> str:
    """Upstream's ``set_debit_card_recurring_block_7382`` (its description is the imported docstring)."""
    if not card_id:
        return "Error: Missing required parameter: card_id"
    card = _cards(data).get(card_id)
    if not card:
        return f"Error: Debit card '{card_id}' not found."
    status = card.get("status", "").upper()
    if status != "ACTIVE":
        return f"Error: Cannot update recurring block settings for a card with status '{status}'. Card must be ACTIVE."
    card["recurring_blocked"] = block_recurring
    if block_recurring:
        return (
            f"Recurring payments BLOCKED for debit card {card_id}.\n"
            "All recurring/subscription charges will be declined."
            "\nOne-time purchases are not affected.\nThis change takes effect within 24 hours."
        )
    return (
        f"Recurring payments UNBLOCKED for debit card {card_id}.\nRecurring/subscription charges will now be allowed."
        "\nThis change takes effect within 24 hours."
    )


def _expiration(order_date: str) -> str:
    """Four years on, at the month's last day (February: 28)."""
    try:
        parts = order_date.split("/")
        month, year = parts[0], str(int(parts[2]) + 4)
        day = "31" if month in LONG_MONTHS else "28" if month == "02" else "30"
        return f"{month}/{day}/{year}"
    except (ValueError, IndexError):
        return "12/31/2029"


def _issue_reason(data: Data, account_id: str) -> str:
    existing = [card for card in _cards(data).values() if card.get("account_id") == account_id]
    closed = next((card for card in existing if card.get("status") == "CLOSED"), None)
    if closed:
        reason = closed.get("closure_reason", "first_card")
        if reason in ("lost", "stolen", "fraud", "fraud_suspected"):
            return "fraud" if reason == "fraud_suspected" else str(reason)
        return "first_card"
    return "first_card" if existing else "new_account"


def _digits(seed: str, length: int, count: int) -> str:
    return "".join(c for c in db.deterministic_id(seed, length) if c.isdigit())[:count].zfill(count)


def _fee_parts(delivery: float, design: float, excess: float, separator: str) -> list[str]:
    parts = []
    if delivery > 0:
        parts.append(f"Delivery{separator} ${delivery}")
    if design > 0:
        parts.append(f"Design{separator} ${design}")
    if excess > 0:
        parts.append(f"Excess Replacement{separator} ${excess:.0f}")
    return parts


def _order_refusal(data: Data, account_id: str, user_id: str) -> str | None:
    accounts = db.records(data, "accounts")
    if account_id not in accounts:
        return f"Error: Account '{account_id}' not found."
    account = accounts[account_id]
    if account.get("class") != "checking":
        return (
            f"Error: Debit cards can only be ordered for checking accounts. Account '{account_id}' is a "
            f"{account.get('class')} account."
        )
    if account.get("status") != "OPEN":
        return f"Error: Account must be OPEN. Account '{account_id}' has status: {account.get('status')}"
    if account.get("user_id") != user_id:
        return f"Error: Account '{account_id}' does not belong to user '{user_id}'."
    return None


@agent_tool
def order_debit_card_5739(
    data: Data,
    account_id: str,
    user_id: str,
    delivery_option: str,
    delivery_fee: float,
    card_design: str,
    design_fee: float,
    shipping_address: str,
    excess_replacement_fee: float | None = None,
) -> str:
    """Upstream's ``order_debit_card_5739`` (its description is the imported docstring)."""
    excess: Any = excess_replacement_fee or 0
    try:
        delivery_fee = float(delivery_fee) if delivery_fee is not None else None
    except (TypeError, ValueError):
        return "Error: delivery_fee must be a number."
    try:
        design_fee = float(design_fee) if design_fee is not None else None
    except (TypeError, ValueError):
        return "Error: design_fee must be a number."
    try:
        excess = float(excess)
    except (TypeError, ValueError):
        excess = 0
    given = [account_id, user_id, delivery_option, delivery_fee is not None, card_design]
    if not all([*given, design_fee is not None, shipping_address]):
        return (
            "Error: Missing required parameters. Required: account_id, user_id, delivery_option, delivery_fee, "
            "card_design, design_fee, shipping_address."
        )
    if delivery_option.upper() not in DELIVERY_TIMES:
        return f"Error: Invalid delivery_option. Must be one of: {list(DELIVERY_TIMES)}"
    delivery_option = delivery_option.upper()
    if card_design.upper() not in DESIGNS:
        return f"Error: Invalid card_design. Must be one of: {DESIGNS}"
    card_design = card_design.upper()
    if (refusal := _order_refusal(data, account_id, user_id)) is not None:
        return refusal
    account = db.records(data, "accounts")[account_id]
    try:
        holdings = float(str(account.get("current_holdings", "0")).replace(",", ""))
    except ValueError:
        holdings = 0.0
    if holdings < 25.0:
        return f"Error: Account must have a minimum balance of $25. Current balance: ${holdings:.2f}"
    for order in db.records(data, "debit_card_orders").values():
        if order.get("account_id") == account_id and order.get("status") == "PENDING":
            return f"Error: There is already a pending debit card order for account '{account_id}'."
    if any(card.get("account_id") == account_id and card.get("status") == "ACTIVE" for card in _cards(data).values()):
        return (
            f"Error: Account '{account_id}' already has an active debit card. "
            "Maximum 1 active card per checking account."
        )
    total = delivery_fee + design_fee + excess
    if total > 0 and holdings < total:
        return f"Error: Insufficient funds for fees. Total fees: ${total:.2f}. Current balance: ${holdings:.2f}"
    expected = DELIVERY_TIMES[delivery_option]
    order_id = "dcord_" + db.deterministic_id(f"debit_card_order:{account_id}:{user_id}:{delivery_option}", 12)
    order = {
        "order_id": order_id,
        "account_id": account_id,
        "user_id": user_id,
        "delivery_option": delivery_option,
        "card_design": card_design,
        "shipping_address": shipping_address,
        "delivery_fee": delivery_fee,
        "design_fee": design_fee,
        "excess_replacement_fee": excess,
        "total_fee": total,
        "order_date": db.TODAY,
        "expected_delivery": expected,
        "status": "PENDING",
    }
    if not db.add(data, "debit_card_orders", order_id, order):
        return "Error: Failed to create debit card order. Order may already exist."
    if total > 0:
        account["current_holdings"] = f"{holdings - total:.2f}"
        fee_id = f"btxn_dcfee_{order_id[-8:]}"
        fee = {
            "transaction_id": fee_id,
            "account_id": account_id,
            "date": db.TODAY,
            "description": f"DEBIT CARD ORDER FEE - {', '.join(_fee_parts(delivery_fee, design_fee, excess, ''))}",
            "amount": -total,
            "type": "debit_card_fee",
            "status": "posted",
        }
        db.add(data, "bank_account_transaction_history", fee_id, fee)
    card_id = "dbc_" + db.deterministic_id(f"debit_card:{account_id}:{user_id}:{db.TODAY}", 12)
    user = db.records(data, "users").get(user_id)
    card = {
        "card_id": card_id,
        "account_id": account_id,
        "user_id": user_id,
        "cardholder_name": user.get("name", "CARDHOLDER").upper()
        if user_id in db.records(data, "users")
        else "CARDHOLDER",
        "last_4_digits": _digits(f"card_details:{card_id}:last4", 8, 4),
        "cvv": _digits(f"card_details:{card_id}:cvv", 6, 3),
        "status": "PENDING",
        "issue_date": db.TODAY,
        "expiration_date": _expiration(db.TODAY),
        "card_design": card_design,
        "issue_reason": _issue_reason(data, account_id),
    }
    db.add(data, "debit_cards", card_id, card)
    parts = [
        "Debit Card Order Confirmed",
        f"Order ID: {order_id}",
        f"Card ID: {card_id}",
        f"Linked Account: {account_id}",
        f"Delivery Option: {delivery_option}",
        f"Card Design: {card_design}",
        f"Shipping Address: {shipping_address}",
        f"Expected Delivery: {expected}",
        "",
        "Note: Card will arrive with status PENDING. Customer must call to activate after receiving the card.",
    ]
    if total > 0:
        details = ", ".join(_fee_parts(delivery_fee, design_fee, excess, ":"))
        parts.append(f"Total Fees: ${total:.2f} ({details}) - CHARGED to account {account_id}")
        parts.append(f"New Account Balance: ${holdings - total:.2f}")
    else:
        parts.append("Total Fees: $0 (No additional charges)")
    return "\n".join(parts)


def _activation_refusal(
    data: Data, arguments: dict[str, Any], allowed: tuple[str, ...], tool_name: str
) -> tuple[str | None, dict[str, Any] | None]:
    """Upstream's checks before any activation: the card, its codes, its issue reason, status and account."""
    card_id, last_4, cvv, pin = (arguments[key] for key in ("card_id", "last_4_digits", "cvv", "pin"))
    if not all(arguments.values()):
        return "Error: Missing required parameters. Required: card_id, last_4_digits, expiration_date, cvv, pin.", None
    if (problem := pin_problem(pin)) is not None:
        return f"Error: {problem}", None
    if not cvv.isdigit() or len(cvv) != 3:
        return "Error: CVV must be exactly 3 digits.", None
    if not last_4.isdigit() or len(last_4) != 4:
        return "Error: Last 4 digits must be exactly 4 digits.", None
    if card_id not in _cards(data):
        return f"Error: Debit card '{card_id}' not found.", None
    card = _cards(data)[card_id]
    reason = card.get("issue_reason", "new_account")
    if reason not in allowed:
        right = ACTIVATION_TOOLS.get(reason, "unknown")
        return (
            f"Error: Wrong activation tool. This card has issue_reason='{reason}'. Please use {right} instead of "
            f"{tool_name}.",
            None,
        )
    if card.get("status") == "ACTIVE":
        return f"Error: Debit card '{card_id}' is already active.", None
    if card.get("status") != "PENDING":
        return (
            f"Error: Debit card '{card_id}' cannot be activated. Current status: {card.get('status')}. "
            "Only PENDING cards can be activated.",
            None,
        )
    if card.get("last_4_digits") != last_4:
        return "Error: Card verification failed. The last 4 digits do not match our records.", None
    account_id = card.get("account_id")
    accounts = db.records(data, "accounts")
    if account_id and account_id in accounts and accounts[account_id].get("status") != "OPEN":
        return (
            f"Error: The linked checking account '{account_id}' is no longer open. Card cannot be activated.",
            None,
        )
    return None, card


def _activate(
    data: Data, card_id: str, last_4: str, expiration: str, cvv: str, pin: str, allowed: tuple[str, ...], name: str
) -> tuple[str | None, dict[str, Any], list[tuple[str, dict[str, Any]]]]:
    """Activate the card after the checks: the refusal, or the card and the account's other active cards."""
    arguments = {"card_id": card_id, "last_4_digits": last_4, "expiration_date": expiration, "cvv": cvv, "pin": pin}
    refusal, card = _activation_refusal(data, arguments, allowed, name)
    if refusal is not None or card is None:
        return refusal, {}, []
    card["status"] = "ACTIVE"
    card["activated_date"] = db.TODAY
    others = [
        (other_id, other)
        for other_id, other in _cards(data).items()
        if other_id != card_id and other.get("account_id") == card.get("account_id") and other.get("status") == "ACTIVE"
    ]
    return None, card, others


@agent_tool
def activate_debit_card_8291(
    data: Data, card_id: str, last_4_digits: str, expiration_date: str, cvv: str, pin: str
) -> str:
    """Upstream's ``activate_debit_card_8291`` (its description is the imported docstring)."""
    allowed = ("new_account", "first_card")
    refusal, _card, others = _activate(
        data, card_id, last_4_digits, expiration_date, cvv, pin, allowed, "activate_debit_card_8291"
    )
    if refusal is not None:
        return refusal
    for _, other in others:
        other.update(
            {"status": "DEACTIVATED", "deactivated_date": db.TODAY, "deactivation_reason": "New card activated"}
        )
    parts = [
        "New Debit Card Activation Successful",
        f"Card ID: {card_id}",
        "Status: ACTIVE",
        f"Activation Date: {db.TODAY}",
        "",
        "Your card is now ready to use at any ATM or point of sale terminal.",
        "For security, please sign the back of your card.",
    ]
    if others:
        parts.append(f"\nNote: Previous card(s) have been deactivated: {', '.join(key for key, _ in others)}")
    return "\n".join(parts)


@agent_tool
def activate_debit_card_8292(
    data: Data, card_id: str, last_4_digits: str, expiration_date: str, cvv: str, pin: str
) -> str:
    """Upstream's ``activate_debit_card_8292`` (its description is the imported docstring)."""
    allowed = ("lost", "stolen", "fraud")
    refusal, card, others = _activate(
        data, card_id, last_4_digits, expiration_date, cvv, pin, allowed, "activate_debit_card_8292"
    )
    if refusal is not None:
        return refusal
    reason = card.get("issue_reason", "lost")
    for _, other in others:
        other.update(
            {
                "status": "DEACTIVATED",
                "deactivated_date": db.TODAY,
                "deactivation_reason": f"Replacement card activated ({reason})",
            }
        )
    parts = [
        "Replacement Debit Card Activation Successful",
        f"Card ID: {card_id}",
        f"Replacement Reason: {titled(reason)}",
        "Status: ACTIVE",
        f"Activation Date: {db.TODAY}",
        "",
        "Your replacement card is now ready to use.",
        "",
        "IMPORTANT SECURITY REMINDERS:",
        "- Please review your recent transactions for any unauthorized charges",
        "- Report any suspicious activity immediately",
    ]
    if reason == "fraud":
        parts.append("- Since fraud was suspected, we recommend changing your online banking password")
    if others:
        parts.append(f"\nPrevious card(s) have been deactivated for security: {', '.join(key for key, _ in others)}")
    return "\n".join(parts)


@agent_tool
def activate_debit_card_8293(
    data: Data, card_id: str, last_4_digits: str, expiration_date: str, cvv: str, pin: str
) -> str:
    """Upstream's ``activate_debit_card_8293`` (its description is the imported docstring)."""
    allowed = ("expired", "damaged", "upgrade", "bank_reissue")
    refusal, card, others = _activate(
        data, card_id, last_4_digits, expiration_date, cvv, pin, allowed, "activate_debit_card_8293"
    )
    if refusal is not None:
        return refusal
    reason = card.get("issue_reason", "expired")
    for _, other in others:
        other.update(
            {
                "status": "GRACE_PERIOD",
                "grace_period_ends": db.TODAY,
                "deactivation_reason": f"Reissued card activated ({reason})",
            }
        )
    parts = [
        "Reissued Debit Card Activation Successful",
        f"Card ID: {card_id}",
        f"Reissue Reason: {titled(reason)}",
        "Status: ACTIVE",
        f"Activation Date: {db.TODAY}",
        "",
        "Your reissued card is now ready to use.",
    ]
    if others:
        listed = ", ".join(key for key, _ in others)
        parts.append(f"\nNote: Your previous card(s) ({listed}) will remain active for 24 hours as a grace period.")
        parts.append("After 24 hours, the old card(s) will be automatically deactivated.")
    if reason in ("expired", "bank_reissue"):
        parts.append(
            "\nReminder: If your card number changed, please update any recurring payments with your new card details."
        )
    return "\n".join(parts)


@agent_tool
def close_debit_card_4721(data: Data, card_id: str, reason: str) -> str:
    """Upstream's ``close_debit_card_4721`` (its description is the imported docstring)."""
    if not card_id or not reason:
        return "Error: Missing required parameters. Required: card_id, reason."
    if reason.lower() not in CLOSE_REASONS:
        return f"Error: Invalid reason. Must be one of: {CLOSE_REASONS}"
    reason = reason.lower()
    if card_id not in _cards(data):
        return f"Error: Debit card '{card_id}' not found."
    card = _cards(data)[card_id]
    previous = card.get("status")
    if previous not in ("ACTIVE", "PENDING"):
        return (
            f"Error: Debit card '{card_id}' cannot be closed. Current status: {previous}. "
            "Only ACTIVE or PENDING cards can be closed."
        )
    card.update({"status": "CLOSED", "closed_date": db.TODAY, "closure_reason": reason})
    parts = [
        "Debit Card Closed Successfully",
        f"Card ID: {card_id}",
        f"Previous Status: {previous}",
        "New Status: CLOSED",
        f"Closure Reason: {titled(reason)}",
        f"Closure Date: {db.TODAY}",
        "",
    ]
    if reason in ("lost", "stolen", "fraud_suspected"):
        parts.append("IMPORTANT: This card has been immediately deactivated for security.")
        parts.append("Any pending transactions may still be processed.")
        if reason == "fraud_suspected":
            parts.append(
                "Please advise the customer to review recent transactions and file disputes for any unauthorized "
                "charges."
            )
            parts.append("Also recommend changing their online banking password.")
    parts += [
        "",
        "Note: This card cannot be reactivated. If the customer needs a new card, they can order one through the "
        "standard ordering process.",
        "Any recurring payments linked to this card will need to be updated with new payment information.",
    ]
    return "\n".join(parts)


@agent_tool
def freeze_debit_card_3892(data: Data, card_id: str) -> str:
    """Upstream's ``freeze_debit_card_3892`` (its description is the imported docstring)."""
    if not card_id:
        return "Error: Missing required parameter: card_id."
    if card_id not in _cards(data):
        return f"Error: Debit card '{card_id}' not found."
    card = _cards(data)[card_id]
    if card.get("status") == "FROZEN":
        return f"Error: Debit card '{card_id}' is already frozen."
    if card.get("status") != "ACTIVE":
        return (
            f"Error: Debit card '{card_id}' cannot be frozen. Current status: {card.get('status')}. "
            "Only ACTIVE cards can be frozen."
        )
    card["status"] = "FROZEN"
    card["frozen_date"] = db.TODAY
    return "\n".join(
        [
            "Debit Card Frozen Successfully",
            f"Card ID: {card_id}",
            "Status: FROZEN",
            f"Frozen Date: {db.TODAY}",
            "",
            "While frozen:",
            "- All new purchase transactions will be declined",
            "- Recurring payments and subscriptions will be declined",
            "- Pending transactions already authorized may still process",
            "",
            "To unfreeze, the customer can call customer service or use the mobile app.",
            "If the card is confirmed lost or stolen, recommend closing the card permanently instead.",
        ]
    )


@agent_tool
def unfreeze_debit_card_3893(data: Data, card_id: str) -> str:
    """Upstream's ``unfreeze_debit_card_3893`` (its description is the imported docstring)."""
    if not card_id:
        return "Error: Missing required parameter: card_id."
    if card_id not in _cards(data):
        return f"Error: Debit card '{card_id}' not found."
    card = _cards(data)[card_id]
    if card.get("status") == "ACTIVE":
        return f"Error: Debit card '{card_id}' is already active."
    if card.get("status") != "FROZEN":
        return (
            f"Error: Debit card '{card_id}' cannot be unfrozen. Current status: {card.get('status')}. "
            "Only FROZEN cards can be unfrozen."
        )
    account_id = card.get("account_id")
    accounts = db.records(data, "accounts")
    if account_id and account_id in accounts and accounts[account_id].get("status") != "OPEN":
        return f"Error: The linked checking account '{account_id}' is no longer open. Card cannot be unfrozen."
    card["status"] = "ACTIVE"
    card["unfrozen_date"] = db.TODAY
    return "\n".join(
        [
            "Debit Card Unfrozen Successfully",
            f"Card ID: {card_id}",
            "Status: ACTIVE",
            f"Unfrozen Date: {db.TODAY}",
            "",
            "The card is now active and ready to use immediately.",
            "All transactions will process normally.",
        ]
    )


@agent_tool
def clear_debit_card_fraud_alert_4892(data: Data, card_id: str, reason: str) -> str:
    """Upstream's ``clear_debit_card_fraud_alert_4892`` (its description is the imported docstring)."""
    if not card_id:
        return "Error: Missing required parameter: card_id."
    if not reason:
        return "Error: Missing required parameter: reason."
    if reason not in ALERT_REASONS:
        return f"Error: Invalid reason '{reason}'. Must be one of: {', '.join(ALERT_REASONS)}"
    if card_id not in _cards(data):
        return f"Error: Debit card '{card_id}' not found."
    card = _cards(data)[card_id]
    if reason == "velocity_clear":
        if not card.get("velocity_blocked", False):
            return f"Error: Debit card '{card_id}' does not have an active velocity block."
        card["velocity_blocked"] = False
        card["velocity_cleared_date"] = db.TODAY
        return "\n".join(
            [
                "Velocity Block Cleared Successfully",
                f"Card ID: {card_id}",
                f"Cleared Date: {db.TODAY}",
                "",
                "The card is now unblocked and ready for normal use.",
                "The velocity monitoring will continue - if the same unusual patterns recur,",
                "the card may be blocked again automatically.",
            ]
        )
    if not card.get("fraud_alert_active", False):
        return f"Error: Debit card '{card_id}' does not have an active fraud alert."
    if card.get("alert_source") == "bank_initiated":
        return (
            "Error: BANK_INITIATED_ALERT - This fraud alert was initiated by the bank's fraud detection system and "
            "cannot be cleared by customer service agents. Please transfer the customer to the security team using "
            "transfer_to_human_agents."
        )
    card.update({"fraud_alert_active": False, "alert_source": None, "fraud_alert_cleared_date": db.TODAY})
    return "\n".join(
        [
            "Fraud Alert Cleared Successfully",
            f"Card ID: {card_id}",
            f"Cleared Date: {db.TODAY}",
            "",
            "The fraud alert has been removed from the card.",
            "All transactions will process normally.",
            "",
            "Remind the customer to review recent transactions and report any unauthorized charges.",
        ]
    )


@agent_tool
def reset_debit_card_pin_6284(data: Data, card_id: str, last_4_digits: str, new_pin: str) -> str:
    """Upstream's ``reset_debit_card_pin_6284`` (its description is the imported docstring)."""
    if not all([card_id, last_4_digits, new_pin]):
        return "Error: Missing required parameters. Required: card_id, last_4_digits, new_pin."
    if not last_4_digits.isdigit() or len(last_4_digits) != 4:
        return "Error: Last 4 digits must be exactly 4 digits."
    if (problem := pin_problem(new_pin)) is not None:
        return f"Error: {problem}"
    if card_id not in _cards(data):
        return f"Error: Debit card '{card_id}' not found."
    card = _cards(data)[card_id]
    if card.get("last_4_digits") != last_4_digits:
        return "Error: Card verification failed. The last 4 digits do not match our records."
    if card.get("status") != "ACTIVE":
        return (
            f"Error: Cannot reset PIN. Card status is {card.get('status')}. Only ACTIVE cards can have their PIN reset."
        )
    card.update({"pin_last_changed": db.TODAY, "pin_locked": False, "pin_attempts_remaining": 3})
    return "\n".join(
        [
            "Debit Card PIN Reset Successfully",
            f"Card ID: {card_id}",
            f"PIN Changed: {db.TODAY}",
            "",
            "The new PIN is effective immediately.",
            "Your card has been unlocked and is ready to use.",
            PIN_RULES[1],
            "",
            PIN_RULES[0],
        ]
    )


@agent_tool
def change_debit_card_pin_6285(data: Data, card_id: str, current_pin: str, new_pin: str) -> str:
    """Upstream's ``change_debit_card_pin_6285`` (its description is the imported docstring)."""
    if not all([card_id, current_pin, new_pin]):
        return "Error: Missing required parameters. Required: card_id, current_pin, new_pin."
    if not current_pin.isdigit() or len(current_pin) != 4:
        return "Error: Current PIN must be exactly 4 digits."
    if (problem := pin_problem(new_pin)) is not None:
        return f"Error: {problem}"
    if current_pin == new_pin:
        return "Error: New PIN must be different from current PIN."
    if card_id not in _cards(data):
        return f"Error: Debit card '{card_id}' not found."
    card = _cards(data)[card_id]
    if card.get("status") != "ACTIVE":
        return (
            f"Error: Cannot change PIN. Card status is {card.get('status')}. "
            "Only ACTIVE cards can have their PIN changed."
        )
    card["pin_last_changed"] = db.TODAY
    return "\n".join(
        [
            "Debit Card PIN Changed Successfully",
            f"Card ID: {card_id}",
            f"PIN Changed: {db.TODAY}",
            "",
            "The new PIN is effective immediately.",
            PIN_RULES[1],
            "",
            PIN_RULES[0],
        ]
    )


@agent_tool
def get_debit_cards_by_account_id_7823(data: Data, account_id: str) -> str:
    """The account's cards as JSON, newest issue first, with two fields renamed as upstream renames them."""
    if not account_id:
        return "Error: Missing required parameter 'account_id'."
    accounts = db.records(data, "accounts")
    if account_id not in accounts:
        return f"Error: Account '{account_id}' not found."
    if accounts[account_id].get("class", "").lower() not in ("checking", "business_checking"):
        return (
            f"Error: Account '{account_id}' is not a checking account. "
            "Debit cards are only available for checking accounts."
        )
    listed = []
    for card_id, card in _cards(data).items():
        if card.get("account_id") != account_id:
            continue
        info = {"card_id": card_id, **card}
        if "last_4_digits" in info and "card_number_last_4" not in info:
            info["card_number_last_4"] = info.pop("last_4_digits")
        if "issue_date" in info and "date_issued" not in info:
            info["date_issued"] = info.pop("issue_date")
        elif "created_date" in info and "date_issued" not in info:
            info["date_issued"] = info.pop("created_date")
        listed.append(info)
    if not listed:
        return f"No debit cards found for account '{account_id}'."
    listed.sort(key=lambda info: info.get("date_issued") or "", reverse=True)
    return json.dumps(listed, indent=2)


def _default_atm_limit(account: dict[str, Any]) -> tuple[int | None, str | None]:
    level = account.get("level", "").lower()
    if "light green" in level:
        return None, (
            "Error: Light Green Account (teen checking) cards have policy-based limits that cannot be modified. The "
            "daily ATM withdrawal limit of $150 is fixed by account policy for safety reasons. The customer may "
            "request the parent/guardian to withdraw cash from their own account if needed."
        )
    limit = DEFAULT_ATM_LIMITS.get(level)
    if limit is None:
        return None, (
            f"Error: Could not determine the default ATM limit for account type '{account.get('level')}'. "
            "Please verify the account type."
        )
    return limit, None


def _limit_refusal(data: Data, card_id: str) -> tuple[str | None, dict[str, Any], dict[str, Any]]:
    cards = _cards(data)
    if card_id not in cards:
        return f"Error: Debit card '{card_id}' not found.", {}, {}
    card = cards[card_id]
    if card.get("status") != "ACTIVE":
        return (
            f"Error: Debit card '{card_id}' is not active. Current status: {card.get('status')}. "
            "Only ACTIVE cards can have limit increases.",
            {},
            {},
        )
    account_id = card.get("account_id")
    accounts = db.records(data, "accounts")
    if not account_id or account_id not in accounts:
        return f"Error: Could not find linked account for debit card '{card_id}'.", {}, {}
    account = accounts[account_id]
    if account.get("status") != "OPEN":
        return (
            f"Error: The linked account '{account_id}' is not in good standing. "
            f"Account status: {account.get('status')}.",
            {},
            {},
        )
    opened = account.get("date_opened")
    if opened:
        try:
            age = age_days(opened)
            if age < 60:
                return (
                    "Error: Account must be at least 60 days old for a temporary limit increase. "
                    f"Account age: {age} days.",
                    {},
                    {},
                )
        except ValueError:
            pass
    return None, card, account


@agent_tool
def request_temporary_debit_card_limit_increase_8374(data: Data, card_id: str, limit_type: str, new_limit: int) -> str:
    """Upstream's ``request_temporary_debit_card_limit_increase_8374`` (its description is the imported docstring)."""
    if not card_id:
        return "Error: Missing required parameter: card_id."
    if not limit_type:
        return "Error: Missing required parameter: limit_type."
    if limit_type not in ("atm", "purchase"):
        return f"Error: Invalid limit_type '{limit_type}'. Must be 'atm' or 'purchase'."
    if new_limit is None:
        return "Error: Missing required parameter: new_limit."
    try:
        number = float(new_limit)
    except (ValueError, TypeError):
        return f"Error: new_limit must be an integer, got '{new_limit}'."
    if not number.is_integer():
        return f"Error: new_limit must be an integer, got '{number}'."
    wanted = int(number)
    if wanted <= 0:
        return "Error: new_limit must be a positive amount."
    refusal, card, account = _limit_refusal(data, card_id)
    if refusal is not None:
        return refusal
    field = f"daily_{'atm' if limit_type == 'atm' else 'purchase'}_limit"
    label = "Daily ATM Withdrawal Limit" if limit_type == "atm" else "Daily Purchase Limit"
    current = card.get(field)
    if current is None and limit_type == "atm":
        current, refusal = _default_atm_limit(account)
        if refusal is not None:
            return refusal
    if current is None:
        return (
            f"Error: The card does not have a {label.lower()} configured. This may be a restricted account type where "
            "limits are set by account policy and cannot be modified."
        )
    highest = int(current * 1.5)
    if wanted > highest:
        return (
            f"Error: Requested limit ${wanted} exceeds the maximum allowed temporary increase. Maximum temporary "
            f"limit is ${highest} (150% of current ${current} limit)."
        )
    if wanted <= current:
        return f"Error: Requested limit ${wanted} is not higher than the current limit of ${current}."
    card[field] = wanted
    card[f"temporary_{limit_type}_limit_increase"] = True
    card[f"original_{limit_type}_limit"] = current
    card[f"temporary_{limit_type}_limit_expires"] = db.TODAY
    return "\n".join(
        [
            f"Temporary {label} Increase Granted Successfully",
            f"Card ID: {card_id}",
            f"Previous Limit: ${current}",
            f"New Temporary Limit: ${wanted}",
            f"Increase Amount: ${wanted - current}",
            "",
            "Important Information:",
            "- This temporary increase expires in 24 hours",
            f"- After expiration, the limit will revert to ${current}",
            "- Only one temporary increase is allowed per 24-hour period",
            "",
            "Note: If the customer is at a third-party (non-Rho-Bank) ATM, that ATM may have its own",
            "per-transaction or daily limits that Rho-Bank cannot override. The customer may need to",
            "use a Rho-Bank ATM or make multiple smaller withdrawals at third-party ATMs.",
        ]
    )
