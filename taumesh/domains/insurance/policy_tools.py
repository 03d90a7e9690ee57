"""The agent's tools on policies: terms, invoices, coverage letters, deductibles, reinstatement, cancellation.

Tools refuse what the data makes impossible (a deductible the product does not offer, reinstating a policy that has
not lapsed); the policy's own rules (open claims, grace periods, backdating, exclusions) are the agent's to apply.
"""

from __future__ import annotations

from taumesh.domains import Data, Refusal, Tool
from taumesh.domains.insurance.catalog import PERILS
from taumesh.domains.insurance.clock import (
    REINSTATEMENT_FEE,
    TODAY,
    cancellation_refund,
    day,
    iso,
    premium,
)
from taumesh.domains.insurance.identity_tools import HOLDER
from taumesh.domains.insurance.lookup import dump, of_holder, record
from taumesh.domains.insurance.schema import amount, params, string

POLICY = string("The policy's id, such as 'pol-w1-0001'.")


def _active(data: Data, policy_id: str) -> dict[str, object]:
    policy: dict[str, object] = record(data, "policies", policy_id, "policy")
    if policy["status"] != "active":
        raise Refusal(f"the policy is {policy['status']}, not active")
    return policy


class GetPolicyholder(Tool):
    name = "get_policyholder"
    description = (
        "The policyholder's record (contact details, bank account and card on file) and a summary of their policies."
    )
    parameters = params(policyholder_id=HOLDER)

    @staticmethod
    def invoke(data: Data, policyholder_id: str) -> str:
        holder = dict(record(data, "policyholders", policyholder_id, "policyholder"))
        holder["policies"] = [
            {k: p[k] for k in ("policy_id", "product_id", "insured_item", "status")}
            for p in of_holder(data, "policies", policyholder_id)
        ]
        return dump(holder)


class GetPolicy(Tool):
    name = "get_policy"
    description = (
        "A policy's details: product, insured item, status, start and end dates, deductible, yearly premium,"
        " lapse date and any cancellation."
    )
    parameters = params(policy_id=POLICY)

    @staticmethod
    def invoke(data: Data, policy_id: str) -> str:
        return dump(record(data, "policies", policy_id, "policy"))


class GetProductTerms(Tool):
    name = "get_product_terms"
    description = (
        "A product's terms: covered perils with their limits, exclusions, waiting periods in days from the policy's"
        " start date, and the deductibles offered."
    )
    parameters = params(product_id=string("The product's id, such as 'home-standard'."))

    @staticmethod
    def invoke(data: Data, product_id: str) -> str:
        return dump(record(data, "products", product_id, "product"))


class ListInvoices(Tool):
    name = "list_invoices"
    description = "A policy's premium invoices: amount, due date, status (paid, open or overdue) and payment date."
    parameters = params(policy_id=POLICY)

    @staticmethod
    def invoke(data: Data, policy_id: str) -> str:
        record(data, "policies", policy_id, "policy")
        return dump([i for i in data["invoices"].values() if i["policy_id"] == policy_id])


class IssueCoverageLetter(Tool):
    name = "issue_coverage_letter"
    writes = True
    description = "Issue and email a proof-of-coverage letter stating that a policy covers a peril, with its limit."
    parameters = params(policy_id=POLICY, peril=string("The peril's code.", sorted(PERILS)))

    @staticmethod
    def invoke(data: Data, policy_id: str, peril: str) -> str:
        policy = _active(data, policy_id)
        if peril not in PERILS:
            raise Refusal(f"unknown peril {peril!r}")
        letter_id = f"let-{policy_id}-{peril}"
        limit = data["products"][policy["product_id"]]["coverages"].get(peril, 0.0)
        letters = data["coverage_letters"]
        if letter_id not in letters:
            letters[letter_id] = {
                "letter_id": letter_id,
                "policy_id": policy_id,
                "peril": peril,
                "limit": limit,
                "issued_on": iso(TODAY),
            }
        return dump(letters[letter_id])


class ChangeDeductible(Tool):
    name = "change_deductible"
    writes = True
    description = "Change an active policy's deductible to one its product offers; returns the new yearly premium."
    parameters = params(policy_id=POLICY, deductible=amount("The new deductible, in dollars."))

    @staticmethod
    def invoke(data: Data, policy_id: str, deductible: float) -> str:
        policy = _active(data, policy_id)
        offered = data["products"][policy["product_id"]]["deductible_options"]
        if float(deductible) not in offered:
            raise Refusal(f"the product offers deductibles of {offered} only")
        policy["deductible"] = float(deductible)
        policy["annual_premium"] = premium(float(str(policy["base_rate"])), float(deductible))
        return dump(policy)


class ReinstatePolicy(Tool):
    name = "reinstate_policy"
    writes = True
    description = (
        "Reinstate a lapsed policy: charges its overdue invoices plus the reinstatement fee to the card on file."
    )
    parameters = params(policy_id=POLICY)

    @staticmethod
    def invoke(data: Data, policy_id: str) -> str:
        policy = record(data, "policies", policy_id, "policy")
        if policy["status"] != "lapsed":
            raise Refusal(f"the policy is {policy['status']}, not lapsed")
        overdue = [i for i in data["invoices"].values() if i["policy_id"] == policy_id and i["status"] == "overdue"]
        for invoice in overdue:
            invoice.update(status="paid", paid_on=iso(TODAY))
        charged = round(sum(i["amount"] for i in overdue) + REINSTATEMENT_FEE, 2)
        policy.update(status="active", lapse_date=None)
        return dump({"policy_id": policy_id, "status": "active", "charged_to_card": charged})


class CancelPolicy(Tool):
    name = "cancel_policy"
    writes = True
    description = (
        "Cancel an active policy from an effective date (YYYY-MM-DD) no later than its end date; refunds the unused"
        " premium less the cancellation fee, and returns the refund."
    )
    parameters = params(policy_id=POLICY, effective_date=string("YYYY-MM-DD."))

    @staticmethod
    def invoke(data: Data, policy_id: str, effective_date: str) -> str:
        policy = _active(data, policy_id)
        try:
            effective = day(effective_date.strip())
        except ValueError:
            raise Refusal("effective_date must be YYYY-MM-DD") from None
        if effective > day(str(policy["end_date"])):
            raise Refusal("the effective date is after the policy's end date")
        refund = cancellation_refund(float(str(policy["annual_premium"])), iso(effective), str(policy["end_date"]))
        policy.update(status="cancelled", cancellation={"effective_date": iso(effective), "refund": refund})
        return dump(policy)


POLICY_TOOLS: tuple[type[Tool], ...] = (
    GetPolicyholder,
    GetPolicy,
    GetProductTerms,
    ListInvoices,
    IssueCoverageLetter,
    ChangeDeductible,
    ReinstatePolicy,
    CancelPolicy,
)
