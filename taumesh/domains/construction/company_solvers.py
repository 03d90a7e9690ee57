"""Reference solvers of the subcontractor's and the owner's intents: certificates, payments, passes, change orders.

Where the caller acts in their own portal (an upload, a signature), those steps are gold actions of theirs.
"""

from __future__ import annotations

import random
from datetime import timedelta
from typing import Any

from taumesh.domains.construction.clock import (
    CERTIFICATE_RUNWAY_DAYS,
    TODAY,
    net_payment,
    price_lapsed,
    required_cover,
)
from taumesh.domains.construction.draft import Draft
from taumesh.domains.factory import Step, World, act

Entity = dict[str, Any]
TOO_LITTLE = "below the minimum|under the minimum|less than the minimum|insufficient cover|not enough cover"
TOO_SHORT = "90 days|ninety days|expires too soon|too soon"
NOT_APPROVED = "not approved|not been approved|awaiting approval|pending approval|waiting for approval"
LAPSED_PRICE = "price has lapsed|lapsed|re-priced|repriced|priced again|expired"
NOT_CLEARED = "not been cleared|not cleared|awaiting clearance|isn't cleared"


def _subcontractor(world: World, company_id: str, persona: str, intent: str) -> Draft:
    company = world["subcontractors"][company_id]
    role = f"the contact for {company['name']}, a {company['trade'].replace('_', ' ')} subcontractor"
    return Draft(world, world["contacts"][company["contact_id"]], persona, role, intent=intent).verify("2.4")


def review_certificate(world: World, file: Entity, rng: random.Random, persona: str) -> Draft | None:
    """The caller uploads their renewed certificate; accept it, or reject it with the test it fails (say it)."""
    if file["kind"] != "insurance_certificate":
        return None
    contact = world["contacts"][file["contact_id"]]
    company = world["subcontractors"][contact["company_id"]]
    draft = _subcontractor(world, company["company_id"], persona, "review_certificate")
    draft.portal = True
    upload = [draft.sign_in(), act("portal_upload_file", "user", file_id=file["file_id"])]
    draft.steps.insert(0, Step(why="the caller uploads the certificate from their portal (6.1)", alternatives=[upload]))
    draft.cite("6.1", "6.2")
    draft.goal.append(
        "Your renewed certificate of general liability insurance is in your project portal, not yet sent to the"
        " desk; you want it put on your company's file. If it cannot be accepted, you want to know why, and you"
        " agree to the desk recording its decision on the certificate."
    )
    draft.do(
        act("get_subcontractor", company_id=company["company_id"]),
        act("list_documents", company_id=company["company_id"]),
    )
    accept = act("accept_insurance_certificate", document_id=file["file_id"])
    short_cover = file["liability_cover"] < required_cover(company["trade"])
    short_runway = file["expires_on"] < (TODAY + timedelta(days=CERTIFICATE_RUNWAY_DAYS)).isoformat()
    if short_cover or short_runway:
        reason = "cover_below_minimum" if short_cover else "expires_too_soon"
        draft.trap(f"6.2: the certificate fails the {reason.replace('_', ' ')} test", accept).cite("6.3")
        draft.do(act("reject_insurance_certificate", document_id=file["file_id"], reason=reason))
        draft.say("text", TOO_LITTLE if short_cover else TOO_SHORT, "6.3: the test the certificate fails")
    else:
        draft.do(accept)
    return draft


def pay_invoice(world: World, invoice: Entity, rng: random.Random, persona: str) -> Draft | None:
    """Pay an approved invoice less retention once the lien waiver is in (say the amount).

    Refuse an invoice not yet approved, or one of a company whose insurance has expired (say the expiry).
    """
    company = world["subcontractors"][invoice["company_id"]]
    unapproved = invoice["status"] != "approved"
    lapsed = company["insurance_expiry"] < TODAY.isoformat()
    if unapproved and lapsed:
        return None
    draft = _subcontractor(world, invoice["company_id"], persona, "pay_invoice").cite("7.1")
    draft.portal = True
    draft.goal.append(
        f"You want your invoice {invoice['invoice_id']} paid, and to know how much will be paid. Your conditional"
        " lien waiver for it is in your project portal. If it cannot be paid, you want to know why."
    )
    draft.do(
        act("list_invoices", company_id=invoice["company_id"]),
        act("get_subcontractor", company_id=invoice["company_id"]),
    )
    amount = net_payment(invoice["amount"])
    pay = act("release_payment", invoice_id=invoice["invoice_id"], amount=amount)
    waiver = [draft.sign_in(), act("portal_upload_file", "user", file_id=f"file-{invoice['invoice_id'][4:]}w")]
    if unapproved or lapsed:
        why = "the caller may send the waiver anyway: it is theirs to send, and it changes no payment (7.3)"
        draft.steps.append(Step(why=why, alternatives=[[], waiver]))
    if unapproved:
        draft.trap("7.1: the invoice is still waiting for the site manager's approval", pay)
        draft.say("text", NOT_APPROVED, "7.1: the invoice has not been approved")
    elif lapsed:
        draft.trap(f"7.2: the insurance on file expired on {company['insurance_expiry']}", pay).cite("7.2")
        draft.say("date", company["insurance_expiry"], "7.2: the expiry date of the insurance on file")
    else:
        draft.cite("7.3", "7.4").do(*waiver, act("list_documents", company_id=invoice["company_id"]), pay)
        draft.say("amount", f"{amount:.2f}", "7.4: the amount paid after retention")
    return draft


def site_pass(world: World, worker: Entity, rng: random.Random, persona: str) -> Draft | None:
    """Issue a worker's pass on a project of a cleared or on-site package; refuse with a lapsed card or no clearance."""
    packages = sorted(
        (p for p in world["work_packages"].values() if p["company_id"] == worker["company_id"]),
        key=lambda p: p["package_id"],
    )
    if not packages:
        return None
    package = rng.choice(packages)
    project_id = package["project_id"]
    if any(
        p["project_id"] == project_id and p["worker_id"] == worker["worker_id"] for p in world["site_passes"].values()
    ):
        return None
    uncleared = package["status"] not in ("cleared", "on_site")
    expired = worker["safety_card_expiry"] < TODAY.isoformat()
    if uncleared and expired:
        return None
    draft = _subcontractor(world, worker["company_id"], persona, "site_pass").cite("10.1")
    draft.goal.append(
        f"You want a site pass on project {project_id} for your worker {worker['first_name']} {worker['last_name']}."
        " If one cannot be issued, you want to know why."
    )
    draft.do(
        act("list_work_packages", project_id=project_id),
        act("list_workers", company_id=worker["company_id"]),
        act("list_site_passes", project_id=project_id),
    )
    issue = act("issue_site_pass", project_id=project_id, worker_id=worker["worker_id"])
    if uncleared:
        draft.trap("10.1: the company's package on the project has not been cleared", issue)
        draft.say("text", NOT_CLEARED, "10.1: the package gives no access until it is cleared")
    elif expired:
        draft.trap(f"10.2: the safety card expired on {worker['safety_card_expiry']}", issue).cite("10.2")
        draft.say("date", worker["safety_card_expiry"], "10.2: the card's expiry date")
    else:
        draft.cite("10.3").do(issue)
    return draft


def change_order(world: World, order: Entity, rng: random.Random, persona: str) -> Draft | None:
    """The owner signs in their portal and the desk executes it (say the new contract value).

    Refuse an order whose price has lapsed, or one over the remaining contingency (say what remains).
    """
    project = world["projects"][order["project_id"]]
    lapsed = price_lapsed(order["priced_on"])
    over = order["amount"] > project["contingency_remaining"]
    if lapsed and over:
        return None
    owner = world["contacts"][project["owner_contact_id"]]
    role = f"the owner who commissioned project {project['project_id']} ({project['name']})"
    draft = Draft(world, owner, persona, role, intent="change_order", portal=True).verify("2.3").cite("8.1")
    draft.goal.append(
        f"You want change order {order['change_order_id']} ({order['description']}) executed, and to know your"
        " contract value afterwards. If it cannot be executed, you want to know why."
    )
    draft.do(
        act("list_change_orders", project_id=project["project_id"]),
        act("get_project", project_id=project["project_id"]),
    )
    execute = act("execute_change_order", change_order_id=order["change_order_id"])
    if lapsed:
        draft.trap(f"8.2: priced on {order['priced_on']}, more than 30 days ago", execute).cite("8.2")
        draft.say("text", LAPSED_PRICE, "8.2: the price has lapsed")
    elif over:
        draft.trap("8.3: the change order costs more than the remaining contingency", execute).cite("8.3")
        draft.say("amount", f"{project['contingency_remaining']:.2f}", "8.3: the contingency that remains")
    else:
        new_value = round(project["contract_value"] + order["amount"], 2)
        draft.cite("8.4").do(
            draft.sign_in(),
            act("portal_sign_change_order", "user", change_order_id=order["change_order_id"]),
            execute,
        )
        draft.say("amount", f"{new_value:.2f}", "8.4: the contract value once executed")
    return draft
