"""The desk's write tools: inspections, permits, clearance, certificates, payments, change orders, the schedule.

Site passes, owner notices and the hand-off to the project executive are here too.

Tools refuse only what the records themselves rule out (an unknown id, a malformed date, a second payment of one
invoice); the policy's rules (sequences, minimums, deadlines, authority) are the agent's to apply, as in τ-bench,
so that a wrong write is possible and can be graded. Every value a tool replaces is kept in a history field.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from taumesh.domains import Data, Refusal, Tool
from taumesh.domains.construction.clock import INSPECTION_SEQUENCES, TODAY, day
from taumesh.domains.construction.records import dump, iso_day, new_id, one_of, record
from taumesh.domains.construction.schema import money, params, text

HOLD_REASONS = ["licence_expiry", "insurance_expiry"]
REJECTION_REASONS = ["cover_below_minimum", "expires_too_soon"]
NOTICE_TOPICS = ["schedule_change"]
HANDOFF_REASONS = ["contract_amendment", "safety_incident", "payment_dispute", "legal_notice"]
_TODAY = TODAY.isoformat()


class BookInspection(Tool):
    name = "book_inspection"
    writes = True
    description = "Book a city inspection of a given kind under a permit, on a date."
    parameters = params(
        permit_id=text("The permit's id."),
        kind=text("The inspection's kind, such as 'framing'."),
        date=text("YYYY-MM-DD."),
    )

    @staticmethod
    def invoke(data: Data, permit_id: str, kind: str, date: str) -> str:
        permit = record(data, "permits", permit_id, "permit")
        when = iso_day(date, "date")
        if permit["status"] != "approved":
            raise Refusal("inspections are booked only under an approved permit")
        one_of(kind, INSPECTION_SEQUENCES[permit["kind"]], f"a {permit['kind']} permit's inspection kind")
        inspection_id = new_id(data, "inspections", "ins")
        booked = {"inspection_id": inspection_id, "permit_id": permit_id, "kind": kind, "date": when}
        data["inspections"][inspection_id] = {**booked, "status": "scheduled"}
        return dump(data["inspections"][inspection_id])


class CancelInspection(Tool):
    name = "cancel_inspection"
    writes = True
    description = "Cancel a booked inspection; the city frees the inspector's slot."
    parameters = params(inspection_id=text("The inspection's id, such as 'ins-w1-03-bu-2s'."))

    @staticmethod
    def invoke(data: Data, inspection_id: str) -> str:
        inspection = record(data, "inspections", inspection_id, "inspection")
        if inspection["status"] != "scheduled":
            raise Refusal(f"that inspection is {inspection['status']}, not booked")
        inspection["status"] = "cancelled"
        return dump(inspection)


class SubmitPermitApplication(Tool):
    name = "submit_permit_application"
    writes = True
    description = "Submit a draft permit application to the city with its fee, paid from the project account."
    parameters = params(permit_id=text("The permit application's id."), fee=money("The fee paid, in dollars."))

    @staticmethod
    def invoke(data: Data, permit_id: str, fee: float) -> str:
        permit = record(data, "permits", permit_id, "permit")
        if permit["status"] != "draft":
            raise Refusal("that application has been submitted already")
        permit.update(status="submitted", submitted_on=_TODAY, fee_paid=round(float(fee), 2))
        return dump(permit)


def _set_package_status(package: Any, status: str) -> None:
    package["status_history"].append(package["status"])
    package["status"] = status


class ClearWorkPackage(Tool):
    name = "clear_work_package"
    writes = True
    description = "Clear a subcontractor's work package for site: the crew may mobilise on its start date."
    parameters = params(package_id=text("The work package's id, such as 'wp-w1-03-3'."))

    @staticmethod
    def invoke(data: Data, package_id: str) -> str:
        package = record(data, "work_packages", package_id, "work package")
        if package["status"] == "cleared":
            raise Refusal("that package is cleared already")
        _set_package_status(package, "cleared")
        package["hold_reason"] = None
        return dump(package)


class HoldWorkPackage(Tool):
    name = "hold_work_package"
    writes = True
    description = "Put a work package on compliance hold, with the reason; the crew may not mobilise."
    parameters = params(package_id=text("The work package's id."), reason=text("Why.", HOLD_REASONS))

    @staticmethod
    def invoke(data: Data, package_id: str, reason: str) -> str:
        package = record(data, "work_packages", package_id, "work package")
        _set_package_status(package, "compliance_hold")
        package["hold_reason"] = one_of(reason, HOLD_REASONS, "reason")
        return dump(package)


def _certificate(data: Data, document_id: str) -> Any:
    document = record(data, "documents", document_id, "document")
    if document["kind"] != "insurance_certificate":
        raise Refusal("that document is not an insurance certificate")
    if document["status"] != "received":
        raise Refusal("that certificate has been reviewed already")
    return document


class AcceptInsuranceCertificate(Tool):
    name = "accept_insurance_certificate"
    writes = True
    description = (
        "Accept an uploaded insurance certificate: its cover and expiry replace those on the subcontractor's file."
    )
    parameters = params(document_id=text("The certificate's document id."))

    @staticmethod
    def invoke(data: Data, document_id: str) -> str:
        document = _certificate(data, document_id)
        company = data["subcontractors"][document["company_id"]]
        company["insurance_history"].append(company["insurance_expiry"])
        company.update(liability_cover=document["liability_cover"], insurance_expiry=document["expires_on"])
        document["status"] = "accepted"
        return dump(company)


class RejectInsuranceCertificate(Tool):
    name = "reject_insurance_certificate"
    writes = True
    description = "Reject an uploaded insurance certificate with the reason; the file on record stays as it is."
    parameters = params(document_id=text("The certificate's document id."), reason=text("Why.", REJECTION_REASONS))

    @staticmethod
    def invoke(data: Data, document_id: str, reason: str) -> str:
        document = _certificate(data, document_id)
        document.update(status="rejected", rejection_reason=one_of(reason, REJECTION_REASONS, "reason"))
        return dump(document)


class ReleasePayment(Tool):
    name = "release_payment"
    writes = True
    description = "Pay a subcontractor's progress invoice: the amount is transferred today and the invoice is paid."
    parameters = params(invoice_id=text("The invoice's id, such as 'inv-w1-03-1'."), amount=money("Dollars paid."))

    @staticmethod
    def invoke(data: Data, invoice_id: str, amount: float) -> str:
        invoice = record(data, "invoices", invoice_id, "invoice")
        if invoice["status"] == "paid":
            raise Refusal("that invoice is paid already")
        payment_id = new_id(data, "payments", "pay")
        data["payments"][payment_id] = {
            "payment_id": payment_id,
            "invoice_id": invoice_id,
            "amount": round(float(amount), 2),
            "paid_on": _TODAY,
        }
        invoice["status"] = "paid"
        return dump(data["payments"][payment_id])


class ExecuteChangeOrder(Tool):
    name = "execute_change_order"
    writes = True
    description = (
        "Execute a change order: its amount is added to the contract value and drawn from the contingency, its days"
        " extend the contract completion date."
    )
    parameters = params(change_order_id=text("The change order's id, such as 'co-w1-03-1'."))

    @staticmethod
    def invoke(data: Data, change_order_id: str) -> str:
        order = record(data, "change_orders", change_order_id, "change order")
        if order["status"] == "executed":
            raise Refusal("that change order is executed already")
        project = data["projects"][order["project_id"]]
        project["value_history"].append(project["contract_value"])
        project["contract_value"] = round(project["contract_value"] + order["amount"], 2)
        project["contingency_remaining"] = round(project["contingency_remaining"] - order["amount"], 2)
        if order["days_added"]:
            project["completion_history"].append(project["contract_completion"])
            extended = day(project["contract_completion"]) + timedelta(days=order["days_added"])
            project["contract_completion"] = extended.isoformat()
        order["status"] = "executed"
        return dump({"change_order": order, "project": project})


class MoveMilestone(Tool):
    name = "move_milestone"
    writes = True
    description = "Move an open milestone to a new due date; the old date is kept in its history."
    parameters = params(milestone_id=text("The milestone's id, such as 'ms-w1-03-2'."), new_date=text("YYYY-MM-DD."))

    @staticmethod
    def invoke(data: Data, milestone_id: str, new_date: str) -> str:
        milestone = record(data, "milestones", milestone_id, "milestone")
        when = iso_day(new_date, "new_date")
        if milestone["status"] == "complete":
            raise Refusal("that milestone is complete")
        milestone["date_history"].append(milestone["due_date"])
        milestone["due_date"] = when
        return dump(milestone)


class NotifyOwner(Tool):
    name = "notify_owner"
    writes = True
    description = "Send the project's owner a formal notice on a topic; it goes to the owner contact on the project."
    parameters = params(project_id=text("The project's id."), topic=text("What the notice is about.", NOTICE_TOPICS))

    @staticmethod
    def invoke(data: Data, project_id: str, topic: str) -> str:
        project = record(data, "projects", project_id, "project")
        notice_id = new_id(data, "notices", "ntc")
        data["notices"][notice_id] = {
            "notice_id": notice_id,
            "project_id": project_id,
            "contact_id": project["owner_contact_id"],
            "topic": one_of(topic, NOTICE_TOPICS, "topic"),
            "sent_on": _TODAY,
        }
        return dump(data["notices"][notice_id])


class IssueSitePass(Tool):
    name = "issue_site_pass"
    writes = True
    description = "Issue a worker a site pass for a project."
    parameters = params(project_id=text("The project's id."), worker_id=text("The worker's id, such as 'wkr-w1-072'."))

    @staticmethod
    def invoke(data: Data, project_id: str, worker_id: str) -> str:
        record(data, "projects", project_id, "project")
        record(data, "workers", worker_id, "worker")
        if any(p["project_id"] == project_id and p["worker_id"] == worker_id for p in data["site_passes"].values()):
            raise Refusal("that worker holds a pass for this project already")
        pass_id = new_id(data, "site_passes", "pass")
        data["site_passes"][pass_id] = {
            "pass_id": pass_id,
            "project_id": project_id,
            "worker_id": worker_id,
            "issued_on": _TODAY,
        }
        return dump(data["site_passes"][pass_id])


class TransferToHumanAgents(Tool):
    """Files the hand-off and ends the call (a write: the hand-off is on record)."""

    name = "transfer_to_human_agents"
    writes = True
    description = (
        "Hand the caller to the contractor's project executive; the call ends. Give the contact id ('' if unknown)."
    )
    parameters = params(contact_id=text("The caller's contact id, or ''."), reason=text("Why.", HANDOFF_REASONS))

    @staticmethod
    def invoke(data: Data, contact_id: str, reason: str) -> str:
        if contact_id:
            record(data, "contacts", contact_id, "contact")
        escalation_id = new_id(data, "escalations", "esc")
        data["escalations"][escalation_id] = {
            "escalation_id": escalation_id,
            "contact_id": contact_id,
            "topic": one_of(reason, HANDOFF_REASONS, "reason"),
        }
        return "Transfer successful: the project executive takes over the call."


ACTION_TOOLS: tuple[type[Tool], ...] = (
    BookInspection,
    CancelInspection,
    SubmitPermitApplication,
    ClearWorkPackage,
    HoldWorkPackage,
    AcceptInsuranceCertificate,
    RejectInsuranceCertificate,
    ReleasePayment,
    ExecuteChangeOrder,
    MoveMilestone,
    NotifyOwner,
    IssueSitePass,
    TransferToHumanAgents,
)
