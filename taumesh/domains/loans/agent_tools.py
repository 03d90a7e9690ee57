"""The agent's tools: the lender's servicing systems (borrowers, loans, fees, payments, applications, plans).

Tools refuse what the data itself rules out (an unknown id, a fee already waived, a consent reference that is not
the borrower's); the policy's rules (windows, cool-downs, ratios, escalations) are the agent's to follow, as in
τ-bench, so that a trap's forbidden write is possible and the agent must decline it.
"""

from __future__ import annotations

import json
from datetime import date
from typing import Any

from taumesh.domains import Data, Refusal, Tool, check_powers
from taumesh.domains.loans import clock
from taumesh.domains.loans.clock import AUTOPAY_DISCOUNT, TODAY, app_code, day, monthly_payment, payoff_amount, tier
from taumesh.domains.loans.due_dates import first_on_or_after, months_later
from taumesh.domains.loans.schema import decimal, integer, params, string

HANDOFF_REASONS = ["collections", "hardship_review", "complaint", "other"]
HARDSHIP_REASONS = ["job_loss", "medical", "natural_disaster", "reduced_income"]
_BORROWER = string("The borrower's id, such as 'bor-w1-007'.")
_LOAN = string("The loan's id, such as 'loan-w1-012'.")


def _dump(value: Any) -> str:
    return json.dumps(value)


def _get(data: Data, table: str, key: str, what: str) -> Any:
    if key not in data[table]:
        raise Refusal(f"{what} {key!r} not found")
    return data[table][key]


def _date(text: str) -> date:
    try:
        return day(text)
    except ValueError:
        raise Refusal(f"{text!r} is not a date (YYYY-MM-DD)") from None


def _new_id(data: Data, table: str, prefix: str) -> str:
    return f"{prefix}-{len(data[table]) + 1:04d}"


def _linked(data: Data, borrower_id: str, account_last_four: str) -> Any:
    borrower = _get(data, "borrowers", borrower_id, "borrower")
    for account in borrower["linked_accounts"]:
        if account["account_last_four"] == account_last_four:
            return account
    raise Refusal(f"no linked account ending {account_last_four} for this borrower")


class FindBorrower(Tool):
    name = "find_borrower"
    description = "Find a borrower's id by full name and date of birth (YYYY-MM-DD)."
    parameters = params(
        first_name=string("First name."), last_name=string("Last name."), date_of_birth=string("YYYY-MM-DD.")
    )

    @staticmethod
    def invoke(data: Data, first_name: str, last_name: str, date_of_birth: str) -> str:
        wanted = (first_name.strip().lower(), last_name.strip().lower(), date_of_birth.strip())
        for borrower in data["borrowers"].values():
            if (borrower["first_name"].lower(), borrower["last_name"].lower(), borrower["date_of_birth"]) == wanted:
                return str(borrower["borrower_id"])
        raise Refusal("borrower not found")


class VerifyIdentity(Tool):
    name = "verify_identity"
    writes = True
    description = "Verify the caller is the borrower by the last four digits of their SSN and their postal code."
    parameters = params(
        borrower_id=_BORROWER, ssn_last_four=string("Four digits."), postal_code=string("Five-digit postal code.")
    )

    @staticmethod
    def invoke(data: Data, borrower_id: str, ssn_last_four: str, postal_code: str) -> str:
        borrower = _get(data, "borrowers", borrower_id, "borrower")
        if (borrower["ssn_last_four"], borrower["postal_code"]) != (ssn_last_four.strip(), postal_code.strip()):
            raise Refusal("identity could not be verified")
        record = {"borrower_id": borrower_id, "method": "identity", "verified": True, "codes_sent": 0, "code": None}
        data["verifications"][borrower_id] = record
        return _dump(record)


class SendAppCode(Tool):
    name = "send_app_code"
    writes = True
    description = "Push a six-digit sign-in code to the borrower's banking app, where they can read it."
    parameters = params(borrower_id=_BORROWER)

    @staticmethod
    def invoke(data: Data, borrower_id: str) -> str:
        _get(data, "borrowers", borrower_id, "borrower")
        earlier = data["verifications"].get(borrower_id)
        sent = earlier["codes_sent"] if earlier is not None else 0
        code = app_code(borrower_id, sent + 1)
        data["verifications"][borrower_id] = {
            "borrower_id": borrower_id,
            "method": "app_code",
            "verified": False,
            "codes_sent": sent + 1,
            "code": code,
        }
        data["portals"][borrower_id]["messages"].append(f"Your lender sign-in code is {code}.")
        return "A code was sent to the borrower's banking app."


class VerifyAppCode(Tool):
    name = "verify_app_code"
    writes = True
    description = "Check the code the borrower reads from their app; it verifies them when it is the last code sent."
    parameters = params(borrower_id=_BORROWER, code=string("The six digits the caller read."))

    @staticmethod
    def invoke(data: Data, borrower_id: str, code: str) -> str:
        record = data["verifications"].get(borrower_id)
        if record is None or record["method"] != "app_code" or record["code"] != code.strip():
            raise Refusal("the code does not match the last code sent")
        record["verified"] = True
        return _dump(record)


class GetBorrowerProfile(Tool):
    name = "get_borrower_profile"
    description = (
        "The borrower's record: contact, employer, gross monthly income, other lenders' monthly debt payments,"
        " credit score on file and linked bank accounts with their verification status."
    )
    parameters = params(borrower_id=_BORROWER)

    @staticmethod
    def invoke(data: Data, borrower_id: str) -> str:
        return _dump(_get(data, "borrowers", borrower_id, "borrower"))


_LOAN_SUMMARY = (
    "loan_id",
    "product_id",
    "balance",
    "apr",
    "monthly_payment",
    "next_due_date",
    "status",
    "days_past_due",
    "past_due_amount",
)
"""What list_loans shows of each loan; get_loan_details shows the rest."""


class ListLoans(Tool):
    name = "list_loans"
    description = (
        "The borrower's loans: id, product, balance, APR, payment, next due date, status, days and amount past due."
    )
    parameters = params(borrower_id=_BORROWER)

    @staticmethod
    def invoke(data: Data, borrower_id: str) -> str:
        _get(data, "borrowers", borrower_id, "borrower")
        mine = [loan for loan in data["loans"].values() if loan["borrower_id"] == borrower_id]
        return _dump([{k: loan[k] for k in _LOAN_SUMMARY} for loan in mine])


class GetLoanDetails(Tool):
    name = "get_loan_details"
    description = "Everything about one loan, with its fees and its hardship plans."
    parameters = params(loan_id=_LOAN)

    @staticmethod
    def invoke(data: Data, loan_id: str) -> str:
        loan = _get(data, "loans", loan_id, "loan")
        fees = [fee for fee in data["fees"].values() if fee["loan_id"] == loan_id]
        plans = [plan for plan in data["hardship_plans"].values() if plan["loan_id"] == loan_id]
        return _dump({**loan, "fees": fees, "hardship_plans": plans})


class ListPayments(Tool):
    name = "list_payments"
    description = "A loan's payments, posted, scheduled and cancelled, oldest first."
    parameters = params(loan_id=_LOAN)

    @staticmethod
    def invoke(data: Data, loan_id: str) -> str:
        _get(data, "loans", loan_id, "loan")
        found = [p for p in data["payments"].values() if p["loan_id"] == loan_id]
        return _dump(sorted(found, key=lambda p: (p["date"], p["payment_id"])))


class ListProducts(Tool):
    name = "list_products"
    description = "The loan products: amounts, terms, minimum credit score, maximum debt-to-income, APR by tier."
    parameters = params()

    @staticmethod
    def invoke(data: Data) -> str:
        return _dump(list(data["products"].values()))


class ListApplications(Tool):
    name = "list_applications"
    description = "The borrower's loan applications and their status."
    parameters = params(borrower_id=_BORROWER)

    @staticmethod
    def invoke(data: Data, borrower_id: str) -> str:
        _get(data, "borrowers", borrower_id, "borrower")
        return _dump([a for a in data["applications"].values() if a["borrower_id"] == borrower_id])


class CalculateMonthlyPayment(Tool):
    name = "calculate_monthly_payment"
    description = "The level monthly payment of a loan of an amount at an APR (percent) over a term, to the cent."
    parameters = params(
        amount=decimal("Dollars."), apr=decimal("Percent, such as 8.99."), term_months=integer("Months.")
    )

    @staticmethod
    def invoke(data: Data, amount: float, apr: float, term_months: int) -> str:
        if amount <= 0 or term_months < 1 or apr < 0:
            raise Refusal("amount and term must be positive, the APR not negative")
        return str(monthly_payment(amount, apr, term_months))


class Calculate(Tool):
    name = "calculate"
    description = "Calculate an arithmetic expression (numbers, + - * / and parentheses)."
    parameters = params(expression=string("Such as '(1200 + 310.5) / 5400'."))

    @staticmethod
    def invoke(data: Data, expression: str) -> str:
        if not all(char in "0123456789+-*/(). " for char in expression):
            raise Refusal("invalid characters in expression")
        check_powers(expression)
        try:
            return str(round(float(eval(expression, {"__builtins__": None}, {})), 4))  # noqa: S307 - characters checked
        except (SyntaxError, ZeroDivisionError, TypeError) as error:
            raise Refusal(f"cannot calculate: {error}") from None


class CreatePayoffQuote(Tool):
    name = "create_payoff_quote"
    writes = True
    description = (
        "Issue a payoff quote: the balance, interest accrued from the paid-through date to the good-through date,"
        " and open fees."
    )
    parameters = params(loan_id=_LOAN, good_through=string("The date the quote is good through, YYYY-MM-DD."))

    @staticmethod
    def invoke(data: Data, loan_id: str, good_through: str) -> str:
        loan = _get(data, "loans", loan_id, "loan")
        if _date(good_through) < TODAY:
            raise Refusal("a quote cannot be good through a past date")
        fees = sum(f["amount"] for f in data["fees"].values() if f["loan_id"] == loan_id and f["status"] == "open")
        amount = payoff_amount(loan["balance"], loan["apr"], loan["paid_through"], good_through, fees)
        quote_id = _new_id(data, "payoff_quotes", "quote")
        quote = {"quote_id": quote_id, "loan_id": loan_id, "good_through": good_through, "amount": amount}
        data["payoff_quotes"][quote_id] = quote
        return _dump(quote)


class WaiveLateFee(Tool):
    name = "waive_late_fee"
    writes = True
    description = "Waive an open late fee; the loan records the date of its waiver."
    parameters = params(fee_id=string("The fee's id, such as 'fee-w1-003'."))

    @staticmethod
    def invoke(data: Data, fee_id: str) -> str:
        fee = _get(data, "fees", fee_id, "fee")
        if fee["status"] != "open":
            raise Refusal("the fee is not open")
        fee["status"] = "waived"
        data["loans"][fee["loan_id"]]["last_fee_waiver"] = TODAY.isoformat()
        return _dump(fee)


class ChangeDueDay(Tool):
    name = "change_due_day"
    writes = True
    description = "Move a loan's monthly due day; the next due date becomes the first new due day on or after it."
    parameters = params(loan_id=_LOAN, new_due_day=integer("Day of the month."))

    @staticmethod
    def invoke(data: Data, loan_id: str, new_due_day: int) -> str:
        loan = _get(data, "loans", loan_id, "loan")
        if not 1 <= new_due_day <= 31:
            raise Refusal("a due day is a day of the month")
        loan["due_day"] = new_due_day
        loan["next_due_date"] = first_on_or_after(day(loan["next_due_date"]), new_due_day).isoformat()
        loan["last_due_date_change"] = TODAY.isoformat()
        return _dump({k: loan[k] for k in ("loan_id", "due_day", "next_due_date")})


class EnrollAutopay(Tool):
    name = "enroll_autopay"
    writes = True
    description = (
        "Turn on autopay from a linked account, with the reference of the mandate the borrower approved in their"
        " app; the autopay discount comes off the APR."
    )
    parameters = params(
        loan_id=_LOAN,
        account_last_four=string("The linked account's last four digits."),
        mandate_reference=string("The reference the borrower's app shows, such as 'MD-1A2B3C4D'."),
    )

    @staticmethod
    def invoke(data: Data, loan_id: str, account_last_four: str, mandate_reference: str) -> str:
        loan = _get(data, "loans", loan_id, "loan")
        _linked(data, loan["borrower_id"], account_last_four)
        if loan["autopay"] is not None:
            raise Refusal("autopay is already on for this loan")
        if mandate_reference.strip() != clock.mandate_reference(loan["borrower_id"], account_last_four):
            raise Refusal("no approved mandate has that reference for this account")
        loan["autopay"] = {"account_last_four": account_last_four, "mandate_reference": mandate_reference.strip()}
        loan["apr"] = round(loan["apr"] - AUTOPAY_DISCOUNT, 2)
        return _dump({k: loan[k] for k in ("loan_id", "autopay", "apr")})


class CreateHardshipPlan(Tool):
    name = "create_hardship_plan"
    writes = True
    description = "Defer a loan's payments by whole months for a hardship; the next due date moves by that many months."
    parameters = params(
        loan_id=_LOAN, reason=string("The hardship.", HARDSHIP_REASONS), months=integer("Months deferred.")
    )

    @staticmethod
    def invoke(data: Data, loan_id: str, reason: str, months: int) -> str:
        loan = _get(data, "loans", loan_id, "loan")
        if reason not in HARDSHIP_REASONS:
            raise Refusal(f"reason must be one of {HARDSHIP_REASONS}")
        if not 1 <= months <= 12:
            raise Refusal("months must be between 1 and 12")
        resumes = months_later(day(loan["next_due_date"]), months, loan["due_day"]).isoformat()
        plan_id = _new_id(data, "hardship_plans", "plan")
        plan = {
            "plan_id": plan_id,
            "loan_id": loan_id,
            "reason": reason,
            "months": months,
            "starts": loan["next_due_date"],
            "resumes": resumes,
        }
        data["hardship_plans"][plan_id] = plan
        loan.update(status="in_hardship", next_due_date=resumes, last_hardship_plan=TODAY.isoformat())
        return _dump(plan)


class SubmitApplication(Tool):
    name = "submit_application"
    writes = True
    description = (
        "Submit a loan application with the reference of the credit-check consent the borrower approved in their"
        " app; the APR comes from the product's tier for the credit score on file."
    )
    parameters = params(
        borrower_id=_BORROWER,
        product_id=string("The product's id, such as 'auto'."),
        amount=integer("Whole dollars."),
        term_months=integer("One of the product's terms."),
        consent_reference=string("The reference the borrower's app shows, such as 'CC-1A2B3C4D'."),
    )

    @staticmethod
    def invoke(
        data: Data, borrower_id: str, product_id: str, amount: int, term_months: int, consent_reference: str
    ) -> str:
        borrower = _get(data, "borrowers", borrower_id, "borrower")
        product = _get(data, "products", product_id, "product")
        if term_months not in product["terms_months"]:
            raise Refusal(f"the {product['name']} is offered over {product['terms_months']} months")
        if amount <= 0:
            raise Refusal("the amount must be positive")
        if consent_reference.strip() != clock.consent_reference(borrower_id):
            raise Refusal("no credit-check consent has that reference for this borrower")
        apr = product["apr_by_tier"].get(tier(borrower["credit_score"]) or "", max(product["apr_by_tier"].values()))
        application_id = _new_id(data, "applications", "app")
        application = {
            "application_id": application_id,
            "borrower_id": borrower_id,
            "product_id": product_id,
            "amount": float(amount),
            "term_months": term_months,
            "apr": apr,
            "monthly_payment": monthly_payment(amount, apr, term_months),
            "submitted": TODAY.isoformat(),
            "status": "under_review",
            "consent_reference": consent_reference.strip(),
            "verified_monthly_income": None,
            "income_document": None,
        }
        data["applications"][application_id] = application
        return _dump(application)


class RecordIncomeDocument(Tool):
    name = "record_income_document"
    writes = True
    description = (
        "Record the income a pay slip proves on an application waiting for documents, with the slip's reference;"
        " the application goes under review."
    )
    parameters = params(
        application_id=string("The application's id."),
        gross_monthly_income=decimal("The gross monthly pay the slip shows, in dollars."),
        document_reference=string("The pay slip's reference, such as 'PS-123456'."),
    )

    @staticmethod
    def invoke(data: Data, application_id: str, gross_monthly_income: float, document_reference: str) -> str:
        application = _get(data, "applications", application_id, "application")
        if application["status"] != "documents_needed":
            raise Refusal("the application is not waiting for documents")
        if gross_monthly_income <= 0 or not document_reference.strip():
            raise Refusal("an income and the document's reference are needed")
        application.update(
            status="under_review",
            verified_monthly_income=float(gross_monthly_income),
            income_document=document_reference.strip(),
        )
        return _dump(application)


class SchedulePayment(Tool):
    name = "schedule_payment"
    writes = True
    description = "Schedule a one-time payment on a loan from one of the borrower's linked accounts."
    parameters = params(
        loan_id=_LOAN,
        amount=decimal("Dollars."),
        date=string("The payment date, YYYY-MM-DD."),
        account_last_four=string("The linked account's last four digits."),
    )

    @staticmethod
    def invoke(data: Data, loan_id: str, amount: float, date: str, account_last_four: str) -> str:
        loan = _get(data, "loans", loan_id, "loan")
        if _date(date) < TODAY:
            raise Refusal("a payment cannot be scheduled in the past")
        if amount <= 0:
            raise Refusal("the amount must be positive")
        _linked(data, loan["borrower_id"], account_last_four)
        payment_id = _new_id(data, "payments", "pay")
        payment = {
            "payment_id": payment_id,
            "loan_id": loan_id,
            "amount": float(amount),
            "date": date,
            "account_last_four": account_last_four,
            "status": "scheduled",
        }
        data["payments"][payment_id] = payment
        return _dump(payment)


class CancelPayment(Tool):
    name = "cancel_payment"
    writes = True
    description = "Cancel a scheduled payment."
    parameters = params(payment_id=string("The payment's id."))

    @staticmethod
    def invoke(data: Data, payment_id: str) -> str:
        payment = _get(data, "payments", payment_id, "payment")
        if payment["status"] != "scheduled":
            raise Refusal("only a scheduled payment can be cancelled")
        payment["status"] = "cancelled"
        return _dump(payment)


class TransferToHumanAgents(Tool):
    name = "transfer_to_human_agents"
    writes = True
    description = "Transfer the borrower to a specialist team (collections, hardship review, ...); ends the call."
    parameters = params(borrower_id=_BORROWER, reason=string("The team's reason.", HANDOFF_REASONS))

    @staticmethod
    def invoke(data: Data, borrower_id: str, reason: str) -> str:
        _get(data, "borrowers", borrower_id, "borrower")
        if reason not in HANDOFF_REASONS:
            raise Refusal(f"reason must be one of {HANDOFF_REASONS}")
        handoff_id = _new_id(data, "handoffs", "handoff")
        data["handoffs"][handoff_id] = {"handoff_id": handoff_id, "borrower_id": borrower_id, "reason": reason}
        return "Transfer successful"


IDENTITY_TOOLS = frozenset({"find_borrower", "verify_identity", "send_app_code", "verify_app_code"})
"""Finding the borrower, then verifying them: by SSN digits and postal code, or by a code in their app."""

AGENT_TOOLS: tuple[type[Tool], ...] = (
    FindBorrower,
    VerifyIdentity,
    SendAppCode,
    VerifyAppCode,
    GetBorrowerProfile,
    ListLoans,
    GetLoanDetails,
    ListPayments,
    ListProducts,
    ListApplications,
    CalculateMonthlyPayment,
    Calculate,
    CreatePayoffQuote,
    WaiveLateFee,
    ChangeDueDay,
    EnrollAutopay,
    CreateHardshipPlan,
    SubmitApplication,
    RecordIncomeDocument,
    SchedulePayment,
    CancelPayment,
    TransferToHumanAgents,
)
