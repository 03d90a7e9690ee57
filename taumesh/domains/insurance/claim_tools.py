"""The agent's tools on claims: filing, documents, review, payment, payout accounts, appeals, the hand-off.

As with the policy tools, a tool refuses only what the data makes impossible (a second claim for the same
incident, paying a claim twice, appealing a claim that was not denied); whether the policy allows the write is the
agent's judgement.
"""

from __future__ import annotations

import re

from taumesh.domains import Data, Refusal, Tool
from taumesh.domains.insurance.catalog import (
    APPEAL_GROUNDS,
    HANDOFF_REASONS,
    PAYMENT_METHODS,
    PERILS,
    REQUIRED_DOCUMENTS,
)
from taumesh.domains.insurance.clock import APPEAL_DECISION_DAYS, REVIEW_DAYS, TODAY, day, iso, plus_days
from taumesh.domains.insurance.identity_tools import HOLDER
from taumesh.domains.insurance.lookup import dump, of_holder, record
from taumesh.domains.insurance.policy_tools import POLICY
from taumesh.domains.insurance.schema import amount, params, string

CLAIM = string("The claim's id, such as 'clm-w1-0004-1'.")
_DIGITS = re.compile(r"^\d+$")


class ListClaims(Tool):
    name = "list_claims"
    description = "Every claim of a policyholder: peril, incident date, status, amounts and dates."
    parameters = params(policyholder_id=HOLDER)

    @staticmethod
    def invoke(data: Data, policyholder_id: str) -> str:
        return dump(of_holder(data, "claims", policyholder_id))


class GetClaim(Tool):
    name = "get_claim"
    description = (
        "One claim in full: status, documents required and received, review due date, decision, denial reason,"
        " payout account and payment."
    )
    parameters = params(claim_id=CLAIM)

    @staticmethod
    def invoke(data: Data, claim_id: str) -> str:
        return dump(record(data, "claims", claim_id, "claim"))


class FileClaim(Tool):
    name = "file_claim"
    writes = True
    description = (
        "Open a claim on a policy for a peril on an incident date (YYYY-MM-DD) with the policyholder's estimate of"
        " the loss; returns the claim with the documents it needs."
    )
    parameters = params(
        policy_id=POLICY,
        peril=string("The peril's code.", sorted(PERILS)),
        incident_date=string("YYYY-MM-DD."),
        estimated_loss=amount("The policyholder's estimate of the loss, in dollars."),
    )

    @staticmethod
    def invoke(data: Data, policy_id: str, peril: str, incident_date: str, estimated_loss: float) -> str:
        policy = record(data, "policies", policy_id, "policy")
        if peril not in PERILS:
            raise Refusal(f"unknown peril {peril!r}")
        try:
            incident = day(incident_date.strip())
        except ValueError:
            raise Refusal("incident_date must be YYYY-MM-DD") from None
        if incident > TODAY:
            raise Refusal("the incident date is in the future")
        claims = [c for c in data["claims"].values() if c["policy_id"] == policy_id]
        for claim in claims:
            if claim["peril"] == peril and claim["incident_date"] == iso(incident):
                raise Refusal(f"claim {claim['claim_id']} already covers this incident")
        claim_id = f"clm-{policy_id.removeprefix('pol-')}-{len(claims) + 1}"
        data["claims"][claim_id] = {
            "claim_id": claim_id,
            "policy_id": policy_id,
            "policyholder_id": policy["policyholder_id"],
            "peril": peril,
            "incident_date": iso(incident),
            "reported_date": iso(TODAY),
            "estimated_loss": float(estimated_loss),
            "status": "awaiting_documents",
            "required_documents": list(REQUIRED_DOCUMENTS.get(peril, ["photos_of_damage"])),
            "documents_received": [],
            "upload_link_sent": False,
            "review_due": plus_days(iso(TODAY), REVIEW_DAYS),
            "approved_amount": None,
            "decision_date": None,
            "denial_reason": None,
            "payout_account": None,
            "payout": None,
        }
        return dump(data["claims"][claim_id])


class SendUploadLink(Tool):
    name = "send_upload_link"
    writes = True
    description = (
        "Text the policyholder a secure link to upload documents for a claim awaiting documents (sent once per claim)."
    )
    parameters = params(claim_id=CLAIM)

    @staticmethod
    def invoke(data: Data, claim_id: str) -> str:
        claim = record(data, "claims", claim_id, "claim")
        if claim["status"] != "awaiting_documents":
            raise Refusal(f"the claim is {claim['status']}: it takes no documents")
        if not claim["upload_link_sent"]:
            claim["upload_link_sent"] = True
            data["devices"][claim["policyholder_id"]]["text_messages"].append(
                {
                    "sender": "Harborline Mutual",
                    "text": f"Upload the documents for claim {claim_id} with the upload_document option of your app.",
                }
            )
        return f"The upload link for claim {claim_id} was texted to the policyholder."


class SubmitClaimForReview(Tool):
    name = "submit_claim_for_review"
    writes = True
    description = "Send a claim awaiting documents to the adjusters for review; sets its review due date."
    parameters = params(claim_id=CLAIM)

    @staticmethod
    def invoke(data: Data, claim_id: str) -> str:
        claim = record(data, "claims", claim_id, "claim")
        if claim["status"] != "awaiting_documents":
            raise Refusal(f"the claim is {claim['status']}, not awaiting documents")
        claim.update(status="under_review", review_due=plus_days(iso(TODAY), REVIEW_DAYS))
        return dump(claim)


class IssueClaimPayment(Tool):
    name = "issue_claim_payment"
    writes = True
    description = (
        "Pay a claim: by direct deposit (to the claim's payout account, else the bank account on file) or by check"
        " to the address on file."
    )
    parameters = params(
        claim_id=CLAIM, amount=amount("The amount to pay, in dollars."), method=string("How.", PAYMENT_METHODS)
    )

    @staticmethod
    def invoke(data: Data, claim_id: str, amount: float, method: str) -> str:
        claim = record(data, "claims", claim_id, "claim")
        if claim["payout"] is not None:
            raise Refusal(f"the claim was already paid on {claim['payout']['paid_on']}")
        if method not in PAYMENT_METHODS:
            raise Refusal(f"method must be one of {PAYMENT_METHODS}")
        holder = data["policyholders"][claim["policyholder_id"]]
        if method == "direct_deposit" and claim["payout_account"] is None and holder["bank_account"] is None:
            raise Refusal("no bank account is on file for a direct deposit")
        claim.update(status="paid", payout={"method": method, "amount": float(amount), "paid_on": iso(TODAY)})
        return dump(claim)


class UpdatePayoutAccount(Tool):
    name = "update_payout_account"
    writes = True
    description = "Set the bank account a claim's payout is deposited to (routing number and account number)."
    parameters = params(
        claim_id=CLAIM,
        routing_number=string("Nine digits."),
        account_number=string("The account number, digits only."),
    )

    @staticmethod
    def invoke(data: Data, claim_id: str, routing_number: str, account_number: str) -> str:
        claim = record(data, "claims", claim_id, "claim")
        routing, account = routing_number.strip(), account_number.strip()
        if len(routing) != 9 or not _DIGITS.match(routing):
            raise Refusal("a routing number has nine digits")
        if not 4 <= len(account) <= 17 or not _DIGITS.match(account):
            raise Refusal("an account number has 4 to 17 digits")
        claim["payout_account"] = {"routing_number": routing, "account_number": account}
        return dump(claim)


class FileAppeal(Tool):
    name = "file_appeal"
    writes = True
    description = "Appeal a denied claim on the grounds that answer its denial reason."
    parameters = params(claim_id=CLAIM, grounds=string("The appeal's grounds.", sorted(APPEAL_GROUNDS.values())))

    @staticmethod
    def invoke(data: Data, claim_id: str, grounds: str) -> str:
        claim = record(data, "claims", claim_id, "claim")
        if claim["status"] != "denied":
            raise Refusal(f"the claim is {claim['status']}, not denied")
        if grounds not in APPEAL_GROUNDS.values():
            raise Refusal(f"unknown grounds {grounds!r}")
        appeal_id = f"apl-{claim_id}"
        data["appeals"][appeal_id] = {
            "appeal_id": appeal_id,
            "claim_id": claim_id,
            "grounds": grounds,
            "filed_on": iso(TODAY),
            "decision_due": plus_days(iso(TODAY), APPEAL_DECISION_DAYS),
        }
        claim["status"] = "under_appeal"
        return dump(data["appeals"][appeal_id])


class TransferToHumanAgents(Tool):
    name = "transfer_to_human_agents"
    writes = True
    description = "Hand the conversation to a person at the claims desk, with the reason; ends the conversation."
    parameters = params(
        policyholder_id=string("The policyholder's id once known, else ''."), reason=string("Why.", HANDOFF_REASONS)
    )

    @staticmethod
    def invoke(data: Data, policyholder_id: str, reason: str) -> str:
        if reason not in HANDOFF_REASONS:
            raise Refusal(f"reason must be one of {HANDOFF_REASONS}")
        handoff_id = f"handoff-{len(data['handoffs']) + 1}"
        data["handoffs"][handoff_id] = {"handoff_id": handoff_id, "policyholder_id": policyholder_id, "reason": reason}
        return "Transferred: a person from the claims desk takes over now."


CLAIM_TOOLS: tuple[type[Tool], ...] = (
    ListClaims,
    GetClaim,
    FileClaim,
    SendUploadLink,
    SubmitClaimForReview,
    IssueClaimPayment,
    UpdatePayoutAccount,
    FileAppeal,
    TransferToHumanAgents,
)
