"""The desk's read tools: callers, projects, subcontractors and their paperwork, permits, inspections, the schedule.

They change nothing, so an agent may look as often as it needs; the identity checks are here too, since they are
how every conversation starts (the verification is logged, so acting without one leaves a different desk log).
"""

from __future__ import annotations

from taumesh.domains import Data, Refusal, Tool
from taumesh.domains.construction.clock import NOW
from taumesh.domains.construction.records import dump, record, where
from taumesh.domains.construction.schema import params, text

_PROJECT = text("The project's id, such as 'prj-w1-03'.")
_COMPANY = text("The subcontractor's company id, such as 'sub-w1-07'.")


class FindContact(Tool):
    name = "find_contact"
    description = "Find a caller's contact id from the email address the desk holds for them."
    parameters = params(email=text("The caller's email address."))

    @staticmethod
    def invoke(data: Data, email: str) -> str:
        wanted = email.strip().lower()
        for contact in data["contacts"].values():
            if contact["email"] == wanted:
                return str(contact["contact_id"])
        raise Refusal("no contact has that email address")


class VerifyContact(Tool):
    """Logs the check, so the desk's record shows who was verified before anything was done for them."""

    name = "verify_contact"
    writes = True
    description = (
        "Verify the caller with the project passphrase they set up with the desk. Answers their role, company and"
        " the projects they are on."
    )
    parameters = params(contact_id=text("The contact's id."), passphrase=text("The passphrase the caller gives."))

    @staticmethod
    def invoke(data: Data, contact_id: str, passphrase: str) -> str:
        contact = record(data, "contacts", contact_id, "contact")
        if contact["passphrase"] != passphrase.strip().lower():
            raise Refusal("the passphrase does not match: the caller is not verified")
        data["desk_checks"][contact_id] = {"contact_id": contact_id, "checked_at": NOW.isoformat()}
        projects = [
            p["project_id"]
            for p in where(data, "projects")
            if contact_id in (p["owner_contact_id"], p["site_manager_id"])
            or any(
                w["company_id"] == contact["company_id"]
                for w in where(data, "work_packages", project_id=p["project_id"])
            )
        ]
        visible = {k: contact[k] for k in ("contact_id", "first_name", "last_name", "role", "company_id")}
        return dump({**visible, "projects": projects})


class GetProject(Tool):
    name = "get_project"
    description = (
        "A project: name, address, owner and site manager contact ids, contract value, remaining contingency,"
        " contract completion date, and earlier values of both."
    )
    parameters = params(project_id=_PROJECT)

    @staticmethod
    def invoke(data: Data, project_id: str) -> str:
        return dump(record(data, "projects", project_id, "project"))


class ListMilestones(Tool):
    name = "list_milestones"
    description = "A project's milestones in order: name, due date, status and earlier due dates."
    parameters = params(project_id=_PROJECT)

    @staticmethod
    def invoke(data: Data, project_id: str) -> str:
        record(data, "projects", project_id, "project")
        return dump(where(data, "milestones", project_id=project_id))


class ListWorkPackages(Tool):
    name = "list_work_packages"
    description = "A project's subcontract work packages: company, scope, start and end dates, value and status."
    parameters = params(project_id=_PROJECT)

    @staticmethod
    def invoke(data: Data, project_id: str) -> str:
        record(data, "projects", project_id, "project")
        return dump(where(data, "work_packages", project_id=project_id))


class GetSubcontractor(Tool):
    name = "get_subcontractor"
    description = (
        "A subcontractor's compliance file: trade, contact, licence number and expiry, general liability cover and"
        " insurance expiry (with earlier expiries)."
    )
    parameters = params(company_id=_COMPANY)

    @staticmethod
    def invoke(data: Data, company_id: str) -> str:
        return dump(record(data, "subcontractors", company_id, "subcontractor"))


class ListPermits(Tool):
    name = "list_permits"
    description = (
        "A project's permits and permit applications: kind, declared valuation, documents attached, status,"
        " fee paid and expiry."
    )
    parameters = params(project_id=_PROJECT)

    @staticmethod
    def invoke(data: Data, project_id: str) -> str:
        record(data, "projects", project_id, "project")
        return dump(where(data, "permits", project_id=project_id))


class ListInspections(Tool):
    name = "list_inspections"
    description = "The inspections held or booked under a permit: kind, date and result."
    parameters = params(permit_id=text("The permit's id, such as 'pmt-w1-03-bu'."))

    @staticmethod
    def invoke(data: Data, permit_id: str) -> str:
        record(data, "permits", permit_id, "permit")
        return dump(where(data, "inspections", permit_id=permit_id))


class ListChangeOrders(Tool):
    name = "list_change_orders"
    description = "A project's change orders: description, amount, days added, date priced, status, owner signature."
    parameters = params(project_id=_PROJECT)

    @staticmethod
    def invoke(data: Data, project_id: str) -> str:
        record(data, "projects", project_id, "project")
        return dump(where(data, "change_orders", project_id=project_id))


class ListInvoices(Tool):
    name = "list_invoices"
    description = "A subcontractor's progress invoices: work package, amount and status, and any payments made."
    parameters = params(company_id=_COMPANY)

    @staticmethod
    def invoke(data: Data, company_id: str) -> str:
        record(data, "subcontractors", company_id, "subcontractor")
        invoices = where(data, "invoices", company_id=company_id)
        return dump([{**i, "payments": where(data, "payments", invoice_id=i["invoice_id"])} for i in invoices])


class ListDocuments(Tool):
    name = "list_documents"
    description = (
        "The documents a subcontractor has uploaded to the desk: insurance certificates (cover, expiry) and lien"
        " waivers (invoice), with their review status."
    )
    parameters = params(company_id=_COMPANY)

    @staticmethod
    def invoke(data: Data, company_id: str) -> str:
        record(data, "subcontractors", company_id, "subcontractor")
        return dump(where(data, "documents", company_id=company_id))


class ListWorkers(Tool):
    name = "list_workers"
    description = "A subcontractor's workers: name and site safety card expiry."
    parameters = params(company_id=_COMPANY)

    @staticmethod
    def invoke(data: Data, company_id: str) -> str:
        record(data, "subcontractors", company_id, "subcontractor")
        return dump(where(data, "workers", company_id=company_id))


class ListSitePasses(Tool):
    name = "list_site_passes"
    description = "The site passes issued for a project: worker and date issued."
    parameters = params(project_id=_PROJECT)

    @staticmethod
    def invoke(data: Data, project_id: str) -> str:
        record(data, "projects", project_id, "project")
        return dump(where(data, "site_passes", project_id=project_id))


LOOKUP_TOOLS: tuple[type[Tool], ...] = (
    FindContact,
    VerifyContact,
    GetProject,
    ListMilestones,
    ListWorkPackages,
    GetSubcontractor,
    ListPermits,
    ListInspections,
    ListChangeOrders,
    ListInvoices,
    ListDocuments,
    ListWorkers,
    ListSitePasses,
)
IDENTITY_TOOLS = frozenset({"find_contact", "verify_contact"})
"""Finding the caller by email and checking their passphrase (policy 2.1)."""
