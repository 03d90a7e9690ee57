"""The reference solvers of a staff member's intents.

A new authenticator, a phishing report, a reconnection, and the plan for a vulnerability on an asset they own (a fix
in a change window, or an accepted risk).

Each solver takes one subject (a dict naming the caller and the records asked about) and returns the draft of the
task, or None when the subject does not make a task of this kind.
"""

from __future__ import annotations

import random
from typing import Any

from taumesh.domains.cybersecurity.clock import (
    PHISHING_SEVERITY,
    SEVERITIES,
    TODAY,
    acceptance_expiry,
    check_code,
    days_after,
    enrolment_code,
    remediation_due,
    severity_of,
)
from taumesh.domains.cybersecurity.drafts import Draft
from taumesh.domains.factory import World, act

STILL_OPEN = "still open|remains open|not yet closed|not closed yet|hasn't been closed|has not been closed|is open"
SENDERS = ["the payroll team", "a parcel courier", "the IT service desk", "a supplier's accounts office", "the CEO"]
LURES = ["confirm your bank details", "track a delivery", "re-validate your mailbox", "pay an overdue invoice"]
WHAT_YOU_DID = {
    "reported": "You did not open the link or any attachment; you only forwarded it to the desk.",
    "clicked": "You opened the link, but typed nothing into the page it showed.",
    "credentials": "You opened the link and typed your password into the page it showed.",
}


def _kind_words(asset: dict[str, Any]) -> str:
    return f"{asset['kind']} {asset['hostname']}"


def reset_mfa(world: World, subject: dict[str, Any], rng: random.Random, persona: str) -> Draft | None:
    """Bind the new phone with its enrolment code (3.1); a suspended account goes to incident response (3.2)."""
    caller = subject["caller"]
    draft = Draft(world, caller, persona, intent="reset_mfa", phone=True).identify().cite("3.1")
    draft.do(act("get_employee", employee_id=draft.eid))
    draft.goal.append(
        "You have a new work phone and want it to become your multi-factor authenticator in place of the old one."
        " When the agent asks, open the authenticator app on the new phone and read out the serial and the"
        " enrolment code it shows. If the desk will not do it, you want to know why, and you accept being passed"
        " to whoever can help."
    )
    serial = world["phones"][draft.eid]["new_device_serial"]
    bind = act(
        "bind_authenticator",
        employee_id=draft.eid,
        device_serial=serial,
        enrolment_code=enrolment_code(draft.eid, serial),
    )
    if caller["account_status"] == "suspended":
        draft.trap(f"3.2: the account is suspended for {caller['suspended_for']}: a hand-off", bind)
        hand_off = act("transfer_to_human_agents", employee_id=draft.eid, team="incident_response")
        return draft.cite("3.2", "10.1").do(hand_off)
    opened = act("open_authenticator_app", "user", email=caller["email"], app_pin=world["phones"][draft.eid]["app_pin"])
    return draft.cite("2.4").do(opened, bind)


def report_phishing(world: World, subject: dict[str, Any], rng: random.Random, persona: str) -> Draft | None:
    """Open a phishing incident rated by what the employee did (4.2), then attach their device check (4.3)."""
    caller, laptop = subject["caller"], subject["asset"]
    did = rng.choice(list(PHISHING_SEVERITY))
    rated = PHISHING_SEVERITY[did]
    lower = SEVERITIES[: SEVERITIES.index(rated)]
    asked = rng.choice(lower) if lower and rng.random() < 0.5 else rated
    draft = Draft(world, caller, persona, intent="report_phishing", phone=True).identify().cite("4.1", "4.2", "4.3")
    draft.do(act("list_assets", owner_id=draft.eid))
    draft.goal.append(
        f"This morning an email that claimed to come from {rng.choice(SENDERS)} asked you to"
        f" {rng.choice(LURES)}. {WHAT_YOU_DID[did]} You want it reported as an incident on your laptop"
        f" {laptop['hostname']}, and you think it deserves {asked} severity, though you accept the rating the"
        " desk's rules give. When the agent asks, run the endpoint check on that laptop from your phone and read"
        " out the check code."
    )
    opened = act(
        "open_incident", reporter_id=draft.eid, asset_id=laptop["asset_id"], category="phishing", severity=rated
    )
    if asked != rated:
        forbidden = act(
            "open_incident", reporter_id=draft.eid, asset_id=laptop["asset_id"], category="phishing", severity=asked
        )
        draft.trap(f"4.2: what the employee did rates the report {rated}, not {asked}", forbidden)
    phone = world["phones"][draft.eid]
    check = act(
        "run_endpoint_check", "user", email=caller["email"], app_pin=phone["app_pin"], hostname=laptop["hostname"]
    )
    code = check_code(laptop["asset_id"], laptop["health"])
    return draft.cite("2.4").do(opened, check, act("attach_device_check", incident_id="inc-new-0001", check_code=code))


def release_isolation(world: World, subject: dict[str, Any], rng: random.Random, persona: str) -> Draft | None:
    """Reconnect an isolated asset once its incident is closed (8.1) on a clean check read from the phone (8.2)."""
    caller, asset = subject["caller"], subject["asset"]
    incident_id = asset["network_history"][-1].split(":", 1)[1]
    draft = Draft(world, caller, persona, intent="release_isolation", phone=True).identify().cite("8.1", "8.2")
    draft.do(act("find_asset", hostname=asset["hostname"]), act("get_incident", incident_id=incident_id))
    draft.goal.append(
        f"Your {_kind_words(asset)} was cut off the network during an incident and you want it reconnected. When"
        " the agent asks, run the endpoint check on it from your phone and read out the check code. If it has to"
        " stay cut off, you want to know why."
    )
    code = check_code(asset["asset_id"], asset["health"])
    release = act("release_asset", asset_id=asset["asset_id"], check_code=code)
    if world["incidents"][incident_id]["status"] == "open":
        draft.trap(f"8.1: {incident_id}, which isolated {asset['asset_id']}, is still open", release)
        return draft.say("text", STILL_OPEN, "8.1: the incident that isolated the asset is still open")
    phone = world["phones"][draft.eid]
    check = act(
        "run_endpoint_check", "user", email=caller["email"], app_pin=phone["app_pin"], hostname=asset["hostname"]
    )
    return draft.cite("2.4").do(check, release)


def _windows(world: World, asset: dict[str, Any]) -> list[dict[str, Any]]:
    unit = asset["business_unit_id"]
    found = [w for w in world["change_windows"].values() if w["business_unit_id"] == unit and w["date"] > str(TODAY)]
    return sorted(found, key=lambda w: w["date"])


def schedule_remediation(world: World, subject: dict[str, Any], rng: random.Random, persona: str) -> Draft | None:
    """Schedule the fix in the asked window if it meets the deadline (5.3), else in the latest one that does."""
    caller, vulnerability, asset = subject["caller"], subject["vulnerability"], subject["asset"]
    due = remediation_due(vulnerability["discovered_on"], vulnerability["cvss"])
    windows = _windows(world, asset)
    in_time = [w for w in windows if w["date"] <= due]
    late = [w for w in windows if w["date"] > due]
    if not in_time:
        return None
    asked = rng.choice(late) if late and rng.random() < 0.5 else rng.choice(in_time)
    booked = asked if asked["date"] <= due else in_time[-1]
    draft = Draft(world, caller, persona, intent="schedule_remediation").identify().cite("5.1", "5.2", "5.3", "5.4")
    draft.do(act("find_asset", hostname=asset["hostname"]), act("list_vulnerabilities", asset_id=asset["asset_id"]))
    draft.do(act("list_change_windows", business_unit_id=asset["business_unit_id"]))
    draft.goal.append(
        f"You want the fix for {vulnerability['cve']} on your {_kind_words(asset)} scheduled into your business"
        f" unit's change window of {asked['date']}. If that window cannot be used, you take the window the desk's"
        " rules allow. You want to know the date by which the fix is due."
    )
    if asked is not booked:
        forbidden = act(
            "schedule_remediation", vulnerability_id=vulnerability["vulnerability_id"], window_id=asked["window_id"]
        )
        draft.trap(f"5.3: the window of {asked['date']} falls after the deadline {due}", forbidden)
    draft.do(
        act("schedule_remediation", vulnerability_id=vulnerability["vulnerability_id"], window_id=booked["window_id"])
    )
    return draft.say("date", due, "5.4: the fix's remediation due date")


def _severity_words(severity: str) -> str:
    return "|".join(
        [f"{severity} severity", f"{severity}-severity", f"severity is {severity}", f"rated {severity}",
         f"{severity} finding", f"{severity} vulnerability", f"{severity} risk", f"as {severity}", f"is {severity}"]
    )  # fmt: skip


def accept_risk(world: World, subject: dict[str, Any], rng: random.Random, persona: str) -> Draft | None:
    """Accept a low or medium finding until the date 6.3 gives (6.1); a high or critical one is refused."""
    caller, vulnerability, asset = subject["caller"], subject["vulnerability"], subject["asset"]
    expiry = acceptance_expiry(vulnerability["cvss"], asset["criticality"])
    draft = Draft(world, caller, persona, intent="accept_risk").identify().cite("6.1", "6.2", "6.3")
    draft.do(act("find_asset", hostname=asset["hostname"]), act("list_vulnerabilities", asset_id=asset["asset_id"]))
    draft.goal.append(
        f"You want the risk of {vulnerability['cve']} on your {_kind_words(asset)} formally accepted for now"
        " rather than fixed. You want to know until when the acceptance runs, or why it is refused."
    )
    vid = vulnerability["vulnerability_id"]
    if expiry is None:
        severity = severity_of(vulnerability["cvss"])
        draft.trap(
            f"6.1: a {severity} finding is never accepted",
            act("accept_risk", vulnerability_id=vid, accepted_until=days_after(TODAY, 45)),
        )
        return draft.say("text", _severity_words(severity), "6.1: the finding's severity rules acceptance out")
    draft.do(act("accept_risk", vulnerability_id=vid, accepted_until=expiry))
    return draft.say("date", expiry, "6.3: the acceptance's expiry")
