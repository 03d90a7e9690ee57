"""The agent's discoverable bank-account tools: open, close, transfer, credit, report, transactions, disputes."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from taumesh.domains import Data
from taumesh.domains.tau2_banking_knowledge import records as db
from taumesh.domains.tau2_banking_knowledge.discoverable_tools.common import (
    account_balance,
    age_days,
    agent_tool,
    found,
    history,
    listing,
    parse_balance,
    titled,
)
from taumesh.domains.tau2_banking_knowledge.texts import banking_texts

ACCOUNT_TYPES = ["checking", "savings", "business_checking", "business_savings"]
PERSONAL_CHECKING = ("checking", "personal_checking")
LIVE = ("OPEN", "ACTIVE")
INELIGIBLE = "Error: Account eligibility requirements not met."
EARLY_CLOSURE: dict[str, dict[str, tuple[int, int]]] = {
    "checking": {
        "Light Blue Account": (15, 30),
        "Light Green Account": (15, 30),
        "Green Fee-Free Account": (15, 30),
        "Blue Account": (25, 60),
        "Green Account": (25, 60),
        "Evergreen Account": (50, 90),
        "Bluest Account": (100, 180),
    },
    "savings": {
        "Bronze Account": (20, 60),
        "Silver Account": (35, 90),
        "Silver Plus Account": (35, 90),
        "Gold Account": (75, 180),
        "Gold Plus Account": (75, 180),
        "Gold Years Account": (75, 180),
        "Platinum Account": (150, 270),
        "Platinum Plus Account": (150, 270),
        "Diamond Elite Account": (150, 270),
    },
}
"""Early-closure fee and window in days, by account class and level."""
CHECKING_CREDITS = {"rebate_credit": "REBATE CREDIT", "fee_refund": "FEE REFUND"}
SAVINGS_CREDITS = {
    "interest_correction": "INTEREST CORRECTION",
    "fee_refund": "FEE REFUND",
    "goodwill_credit": "GOODWILL CREDIT",
}
DEBIT_CATEGORIES = [
    "unauthorized_transaction",
    "atm_cash_discrepancy",
    "atm_deposit_not_credited",
    "duplicate_charge",
    "incorrect_amount",
    "goods_services_not_received",
    "recurring_charge_after_cancellation",
    "card_present_fraud",
    "card_not_present_fraud",
]
DEBIT_TRANSACTION_TYPES = [
    "pin_purchase",
    "signature_purchase",
    "online_purchase",
    "atm_withdrawal",
    "atm_deposit",
    "recurring_payment",
    "person_to_person",
]
PIN_STATUSES = ["yes_shared", "yes_observed", "no", "unknown"]
DEBIT_CARD_ACTIONS = ["keep_active", "freeze_pending_investigation", "close_and_reissue"]
FRAUD_CATEGORIES = ("unauthorized_transaction", "card_present_fraud", "card_not_present_fraud")
TRANSACTION_DATES = ("%m/%d/%Y %H:%M:%S", "%m/%d/%Y")


def _age_or_zero(account: dict[str, Any]) -> int:
    try:
        return age_days(account.get("date_opened", ""))
    except ValueError:
        return 0


def _kind(account: dict[str, Any]) -> Any:
    return account.get("account_type", account.get("class", ""))


def _eligibility(accounts: list[dict[str, Any]], account_type: str) -> str | None:
    """Upstream's rules for opening savings and business accounts; the error when they are not met."""
    if account_type == "savings" and not any(
        _kind(account) in PERSONAL_CHECKING and account.get("status", "") in LIVE and _age_or_zero(account) >= 14
        for account in accounts
    ):
        return INELIGIBLE
    if account_type == "business_checking":
        if any(account.get("status") == "CLOSED" for account in accounts):
            return INELIGIBLE
        if not any(_kind(account) in PERSONAL_CHECKING and account.get("status", "") in LIVE for account in accounts):
            return INELIGIBLE
    if account_type == "business_savings":
        for account in accounts:
            if parse_balance(account.get("current_holdings", account.get("balance", 0))) < 0:
                return INELIGIBLE
        if not any(
            _kind(account) == "business_checking" and account.get("status", "") in LIVE and _age_or_zero(account) >= 30
            for account in accounts
        ):
            return INELIGIBLE
    return None


@agent_tool
def open_bank_account_4821(data: Data, user_id: str, account_type: str, account_class: str) -> str:
    """Upstream's ``open_bank_account_4821`` (its description is the imported docstring)."""
    if not user_id or not account_type or not account_class:
        return "Error: Missing required parameters."
    if account_type not in ACCOUNT_TYPES:
        return f"Error: Invalid account_type. Must be one of: {ACCOUNT_TYPES}"
    owned = [account for account in db.records(data, "accounts").values() if account.get("user_id") == user_id]
    if (refused := _eligibility(owned, account_type)) is not None:
        return refused
    account_id = db.deterministic_id(f"account:{user_id}:{account_type}:{account_class}")
    record = {
        "account_id": account_id,
        "user_id": user_id,
        "account_type": account_type,
        "account_class": account_class,
        "current_holdings": "0.00",
        "status": "OPEN",
        "date_opened": db.TODAY,
    }
    if not db.add(data, "accounts", account_id, record):
        return f"Failed to open account: Account ID '{account_id}' may already exist."
    return (
        f"Bank account opened successfully!\n  - Account ID: {account_id}\n  - User ID: {user_id}\n"
        f"  - Account Type: {account_type}\n  - Account Class: {account_class}\n  - Status: OPEN\n"
        f"  - Initial Balance: $0.00\n  - Date Opened: {db.TODAY}"
    )


def _early_closure_fee(account: dict[str, Any], balance: float) -> float | None:
    """The fee closing ``account`` now costs (0 outside its window); None when the balance cannot pay it."""
    rule = EARLY_CLOSURE.get(account.get("class", ""), {}).get(account.get("level", ""))
    opened = account.get("date_opened", "")
    if not rule or not opened:
        return 0.0
    fee, window = rule
    try:
        if age_days(opened) < window:
            return None if balance < fee else fee
    except ValueError:
        pass
    return 0.0


@agent_tool
def close_bank_account_7392(
    data: Data, account_id: str, reason: str = "Customer requested closure", waive_early_closure_fee: bool = False
) -> str:
    """Upstream's ``close_bank_account_7392`` (its description is the imported docstring)."""
    if not account_id:
        return "Error: Missing required parameter (account_id)."
    accounts = db.records(data, "accounts")
    if account_id not in accounts:
        return f"Error: Account '{account_id}' not found."
    account = accounts[account_id]
    if account.get("status") == "CLOSED":
        return f"Error: Account '{account_id}' is already closed."
    balance = account_balance(account)
    fee: float | None = 0.0 if waive_early_closure_fee else _early_closure_fee(account, balance)
    if fee is None:
        return "Error: Account unable to be closed."
    if balance - fee != 0:
        return f"Error: Account balance must be $0.00 before closing. Current balance: ${balance:.2f}"
    account.update(
        {
            "status": "CLOSED",
            "date_closed": db.TODAY,
            "closure_reason": reason,
            "early_closure_fee_waived": waive_early_closure_fee,
        }
    )
    return (
        f"Bank account closed successfully!\n  - Account ID: {account_id}\n"
        f"  - Account Type: {account.get('account_type', 'N/A')}\n"
        f"  - Account Class: {account.get('account_class', 'N/A')}\n  - Status: CLOSED\n  - Date Closed: {db.TODAY}\n"
        f"  - Reason: {reason}\n  - Early Closure Fee Waived: {'Yes' if waive_early_closure_fee else 'No'}"
    )


@agent_tool
def get_all_user_accounts_by_user_id_3847(data: Data, user_id: str) -> str:
    """Upstream's ``get_all_user_accounts_by_user_id_3847`` (its description is the imported docstring)."""
    if not user_id:
        return "Error: Missing required parameter: user_id"
    bank = db.lookup(data, "accounts", "user_id", user_id)
    cards = db.lookup(data, "credit_card_accounts", "user_id", user_id)
    parts = [
        "User accounts retrieved successfully.",
        "",
        "Executed: get_all_user_accounts_by_user_id_3847",
        f"Accounts for user {user_id}:",
        "",
        "Bank Accounts:",
        bank if found(bank) else "  No bank accounts found.",
        "\nCredit Card Accounts:",
        cards if found(cards) else "  No credit card accounts found.",
    ]
    return "\n".join(parts)


@agent_tool
def transfer_funds_between_bank_accounts_7291(
    data: Data, source_account_id: str, destination_account_id: str, amount: float
) -> str:
    """Upstream's ``transfer_funds_between_bank_accounts_7291`` (its description is the imported docstring)."""
    if not source_account_id or not destination_account_id or amount is None:
        return "Error: Missing required parameters (source_account_id, destination_account_id, amount)."
    try:
        amount = float(amount)
    except (ValueError, TypeError):
        return f"Error: Invalid amount '{amount}'. Must be a number."
    if amount <= 0:
        return "Error: Transfer amount must be positive."
    if source_account_id == destination_account_id:
        return "Error: Source and destination accounts cannot be the same."
    accounts = db.records(data, "accounts")
    if source_account_id not in accounts:
        return f"Error: Source account '{source_account_id}' not found."
    if destination_account_id not in accounts:
        return f"Error: Destination account '{destination_account_id}' not found."
    source, destination = accounts[source_account_id], accounts[destination_account_id]
    if source.get("status") not in LIVE:
        return f"Error: Source account '{source_account_id}' is not active."
    if destination.get("status") not in LIVE:
        return f"Error: Destination account '{destination_account_id}' is not active."
    available = account_balance(source)
    if available < amount:
        return (
            f"Error: Insufficient funds. Source account balance is ${available:.2f}, "
            f"but transfer amount is ${amount:.2f}."
        )
    new_source, new_destination = available - amount, account_balance(destination) + amount
    source["current_holdings"] = f"${new_source:.2f}"
    destination["current_holdings"] = f"${new_destination:.2f}"
    return (
        f"Transfer completed successfully!\n  - Amount: ${amount:.2f}\n"
        f"  - From: {source_account_id} (new balance: ${new_source:.2f})\n"
        f"  - To: {destination_account_id} (new balance: ${new_destination:.2f})"
    )


def _credit(data: Data, account_id: str, amount: Any, credit_type: str, *, savings: bool) -> str:
    if not account_id or amount is None or not credit_type:
        return "Error: Missing required parameters."
    try:
        amount = float(amount)
    except (TypeError, ValueError):
        return "Error: Invalid credit amount. Must be a number."
    if amount <= 0:
        return "Error: Credit amount must be positive."
    kinds = SAVINGS_CREDITS if savings else CHECKING_CREDITS
    if credit_type not in kinds:
        return f"Error: Invalid credit_type. Must be one of: {list(kinds)}"
    accounts = db.records(data, "accounts")
    if account_id not in accounts:
        return f"Error: Account '{account_id}' not found."
    account = accounts[account_id]
    account_class = account.get("class", "").lower()
    if savings and account_class not in ("saving", "savings"):
        return f"Error: Account '{account_id}' is not a savings account. This tool only applies to savings accounts."
    if not savings and account_class != "checking":
        return (
            f"Error: Account '{account_id}' is not a checking account. "
            "Credits can only be applied to checking accounts."
        )
    if account.get("status") not in LIVE:
        return f"Error: Account '{account_id}' is not active."
    previous = account_balance(account)
    new = previous + amount
    account["current_holdings"] = f"{new:.2f}" if savings else f"${new:.2f}"
    seed = f"{'savings' if savings else 'checking'}_credit:{account_id}:{credit_type}:{amount}:{db.TODAY}"
    transaction_id = "txn_" + db.deterministic_id(seed)
    db.records(data, "bank_account_transaction_history")[transaction_id] = {
        "transaction_id": transaction_id,
        "account_id": account_id,
        "date": db.TODAY,
        "description": f"{kinds[credit_type]} - CUSTOMER SERVICE",
        "amount": amount,
        "type": credit_type,
        "status": "posted",
    }
    return (
        f"\nCredit applied successfully!\n  - Transaction ID: {transaction_id}\n  - Account: {account_id}\n"
        f"  - Credit Type: {credit_type}\n  - Amount: ${amount:.2f}\n  - Previous Balance: ${previous:.2f}\n"
        f"  - New Balance: ${new:.2f}"
    )


@agent_tool
def apply_checking_account_credit_5829(data: Data, account_id: str, amount: float, credit_type: str) -> str:
    """Upstream's ``apply_checking_account_credit_5829`` (its description is the imported docstring)."""
    return _credit(data, account_id, amount, credit_type, savings=False)


@agent_tool
def apply_savings_account_credit_6831(data: Data, account_id: str, amount: float, credit_type: str) -> str:
    """Upstream's ``apply_savings_account_credit_6831`` (its description is the imported docstring)."""
    return _credit(data, account_id, amount, credit_type, savings=True)


@agent_tool
def submit_interest_discrepancy_report_7294(
    data: Data, account_id: str, user_id: str, expected_apy: float, actual_apy: float, amount_difference: float
) -> str:
    """Upstream files the report into a table its database does not have, so nothing is stored."""
    if not account_id or not user_id or expected_apy is None or actual_apy is None or amount_difference is None:
        return "Error: Missing required parameters."
    try:
        expected_apy, actual_apy, amount_difference = float(expected_apy), float(actual_apy), float(amount_difference)
    except (ValueError, TypeError):
        return "Error: expected_apy, actual_apy, and amount_difference must be numbers."
    account = db.records(data, "accounts").get(account_id)
    if account is None:
        return f"Error: Account '{account_id}' not found."
    user = db.records(data, "users").get(user_id)
    if user is None:
        return f"Error: User '{user_id}' not found."
    seed = f"interest_report:{account_id}:{user_id}:{expected_apy}:{actual_apy}:{db.TODAY}"
    report_id = "IDR_" + db.deterministic_id(seed)
    return (
        f"\nInterest Discrepancy Report Submitted Successfully!\n  - Report ID: {report_id}\n"
        f"  - Account: {account_id} ({account.get('level', 'Unknown')})\n"
        f"  - Customer: {user.get('name', 'Unknown')}\n  - Expected APY: {expected_apy}%\n"
        f"  - Actual APY: {actual_apy}%\n  - APY Difference: {round(expected_apy - actual_apy, 4)}%\n"
        f"  - Amount Difference: ${amount_difference:.2f}\n  - Status: PENDING_REVIEW\n"
        "\nThe backend team will investigate this discrepancy and ensure correct APY calculations are applied "
        "going forward."
    )


def _transaction_time(record: dict[str, Any]) -> datetime:
    text = str(record.get("date", ""))
    for pattern in TRANSACTION_DATES:
        try:
            return datetime.strptime(text, pattern)
        except ValueError:
            continue
    return datetime.min


@agent_tool
def get_bank_account_transactions_9173(data: Data, account_id: str) -> str:
    """Newest first (v1.0.1); a stable sort, so records of one date keep their stored order."""
    if not account_id:
        return "Error: Missing required parameter: account_id"
    if account_id not in db.records(data, "accounts"):
        return f"Error: Account '{account_id}' not found."
    rows = db.query(data, "bank_account_transaction_history", account_id=account_id)
    rows = sorted(rows, key=lambda row: _transaction_time(row[1]), reverse=True)
    parts = [
        "Bank account transactions retrieved successfully.",
        "",
        "Executed: get_bank_account_transactions_9173",
        f"Transactions for account {account_id}:",
        listing("bank_account_transaction_history", rows) if rows else "\nNo transactions found for this account.",
    ]
    return "\n".join(parts)


@agent_tool
def get_atm_deposit_images_8473(data: Data, transaction_id: str) -> str:
    """The envelope scans of upstream's three recorded deposits are imported texts; other deposits have none."""
    if not transaction_id:
        return "Error: Missing required parameter: transaction_id"
    transactions = db.records(data, "bank_account_transaction_history")
    if transaction_id not in transactions:
        return f"Error: Transaction '{transaction_id}' not found."
    transaction = transactions[transaction_id]
    if transaction.get("type") != "atm_deposit":
        return (
            f"Error: Transaction '{transaction_id}' is not an ATM deposit. "
            "This tool only works for ATM deposit transactions."
        )
    description = transaction.get("description", "")
    if "RHO-BANK" not in description.upper() and "RHOBANK" not in description.upper():
        return (
            f"Error: Transaction '{transaction_id}' is from a third-party ATM. Deposit images are only available for "
            "Rho-Bank ATM deposits. For third-party ATM disputes, a chargeback request must be submitted to the ATM "
            "network."
        )
    header = f"ATM Deposit Image Retrieval Results\n{'=' * 37}\nTransaction ID: {transaction_id}\n"
    images = banking_texts().atm_deposit_images.get(transaction_id)
    if images is not None:
        return (
            f"{header}ATM: {images.atm_id}\nDeposit Date: {transaction.get('date', 'Unknown')}\n\n"
            f"{images.envelope_contents}\n\n--- VERIFICATION NOTES ---\n{images.verification_notes}\n"
        )
    return (
        f"{header}ATM: {description}\nDeposit Date: {transaction.get('date', 'Unknown')}\n"
        f"Amount Recorded: ${abs(transaction.get('amount', 0)):.2f}\n\n--- IMAGE STATUS ---\n"
        "Status: IMAGES NOT AVAILABLE\nReason: Deposit images for this transaction have either expired (older than "
        "90 days) or were not captured by the ATM system.\n\nFor deposits without available images, the dispute will "
        "proceed based on customer statement and ATM journal records only. Investigation timeline may be extended.\n"
    )


def _debit_dispute_refusal(
    disputed_amount: Any, dispute_category: str, transaction_type: str, pin_compromised: str, card_action: str
) -> str | None:
    if dispute_category not in DEBIT_CATEGORIES:
        return f"Error: Invalid dispute_category. Must be one of: {DEBIT_CATEGORIES}"
    if transaction_type not in DEBIT_TRANSACTION_TYPES:
        return f"Error: Invalid transaction_type. Must be one of: {DEBIT_TRANSACTION_TYPES}"
    if pin_compromised not in PIN_STATUSES:
        return f"Error: Invalid pin_compromised. Must be one of: {PIN_STATUSES}"
    if card_action not in DEBIT_CARD_ACTIONS:
        return f"Error: Invalid card_action. Must be one of: {DEBIT_CARD_ACTIONS}"
    if disputed_amount <= 0:
        return "Error: disputed_amount must be a positive number."
    return None


@agent_tool
def file_debit_card_transaction_dispute_6281(
    data: Data,
    transaction_id: str,
    account_id: str,
    card_id: str,
    user_id: str,
    dispute_category: str,
    transaction_date: str,
    discovery_date: str,
    disputed_amount: float,
    transaction_type: str,
    card_in_possession: bool,
    pin_compromised: str,
    contacted_merchant: bool,
    police_report_filed: bool,
    written_statement_provided: bool,
    provisional_credit_eligible: bool,
    customer_max_liability_amount: float,
    card_action: str,
) -> str:
    """Upstream's ``file_debit_card_transaction_dispute_6281`` (its description is the imported docstring)."""
    required: list[Any] = [transaction_id, account_id, card_id, user_id, dispute_category, transaction_date]
    required += [discovery_date, disputed_amount, transaction_type, pin_compromised, card_action]
    if not all(required):
        return "Error: Missing required parameters."
    if customer_max_liability_amount is None:
        return "Error: customer_max_liability_amount is required."
    flags = (card_in_possession, contacted_merchant, police_report_filed, written_statement_provided)
    if any(flag is None for flag in flags):
        return (
            "Error: card_in_possession, contacted_merchant, police_report_filed, and written_statement_provided are "
            "required boolean fields."
        )
    refusal = _debit_dispute_refusal(disputed_amount, dispute_category, transaction_type, pin_compromised, card_action)
    if refusal is not None:
        return refusal
    dispute_id = "dsp_" + db.deterministic_id(f"dispute:{user_id}:{transaction_id}", 12)
    fraud = dispute_category in FRAUD_CATEGORIES
    shared_pin = pin_compromised == "yes_shared"
    record = {
        "dispute_id": dispute_id,
        "transaction_id": transaction_id,
        "account_id": account_id,
        "card_id": card_id,
        "user_id": user_id,
        "dispute_category": dispute_category,
        "transaction_date": transaction_date,
        "discovery_date": discovery_date,
        "disputed_amount": disputed_amount,
        "transaction_type": transaction_type,
        "card_in_possession": card_in_possession,
        "pin_compromised": pin_compromised,
        "contacted_merchant": contacted_merchant,
        "police_report_filed": police_report_filed,
        "written_statement_provided": written_statement_provided,
        "provisional_credit_eligible": provisional_credit_eligible,
        "provisional_credit_issued": provisional_credit_eligible,
        "provisional_credit_amount": disputed_amount if provisional_credit_eligible else None,
        "customer_max_liability_amount": customer_max_liability_amount,
        "card_action": card_action,
        "is_fraud_category": fraud,
        "pin_shared_voluntarily": shared_pin,
        "submitted_at": db.TODAY,
        "status": "OPEN",
    }
    if not db.add(data, "debit_card_disputes", dispute_id, record):
        return "Error: Dispute may have already been filed for this transaction."
    parts = [
        f"Dispute ID: {dispute_id}",
        f"Transaction: {transaction_id}",
        f"Account: {account_id}",
        f"Category: {titled(dispute_category)}",
        f"Disputed Amount: ${disputed_amount:.2f}",
        f"Card Action: {titled(card_action)}",
    ]
    if provisional_credit_eligible:
        parts.append(
            f"Provisional Credit: ISSUED - ${disputed_amount:.2f} credited within 10 business days per Regulation E."
        )
    else:
        parts.append("Provisional Credit: Not eligible - see Debit Card Provisional Credit Guidelines for details.")
    if shared_pin:
        parts.append("WARNING: Customer indicated PIN was shared voluntarily. This may affect liability determination.")
    if fraud and not police_report_filed and disputed_amount > 500:
        parts.append("RECOMMENDATION: For fraud disputes over $500, filing a police report is recommended.")
    return "\n".join(parts)


@agent_tool
def get_debit_dispute_status_7483(data: Data, user_id: str) -> str:
    """Upstream's ``get_debit_dispute_status_7483`` (its description is the imported docstring)."""
    if not user_id:
        return "Error: Missing required parameter: user_id"
    return history(
        data,
        "get_debit_dispute_status_7483",
        "Debit card dispute history retrieved successfully.",
        "debit_card_disputes",
        "user_id",
        user_id,
        title=f"Debit card dispute history for user {user_id}:",
        none="No debit card disputes found for this user.",
    )
