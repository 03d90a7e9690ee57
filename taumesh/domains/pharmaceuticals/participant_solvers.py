"""Reference solvers of the participant's intents: consent, e-diary and travel, each using their study app.

Where the participant acts in their own app (a signature, reading a code, sending a receipt), those steps are gold
actions of theirs, and the instruction tells them how to open the app.
"""

from __future__ import annotations

import random
from typing import Any

from taumesh.domains.factory import World, act
from taumesh.domains.pharmaceuticals.clock import TODAY, claim_deadline, consent_form_id, travel_payment, unlock_code
from taumesh.domains.pharmaceuticals.draft import Draft

Entity = dict[str, Any]


def _participant(world: World, participant: Entity, manner: str, intent: str) -> Draft:
    site = world["sites"][participant["site_id"]]
    study = world["studies"][participant["study_id"]]
    role = f"a participant in study {study['protocol_code']} at {site['name']}"
    caller = world["callers"][participant["caller_id"]]
    return Draft(world, caller, manner, role, intent=intent, app=True).identify("2.3")


def reconsent(world: World, participant: Entity, rng: random.Random, manner: str) -> Draft | None:
    """Send the current consent, the participant signs it in their app, file it; a withdrawn participant gets none."""
    study = world["studies"][participant["study_id"]]
    if (
        participant["status"] not in ("randomised", "withdrawn")
        or participant["consent_version"] == study["consent_version"]
    ):
        return None
    draft = _participant(world, participant, manner, "reconsent").cite("8.1")
    draft.goal.append(
        "You have heard that your study's consent form has a new version, and you want to sign it so that you can"
        " carry on in the study. If that cannot be done, you want to know why."
    )
    pid = participant["participant_id"]
    draft.do(act("get_participant", participant_id=pid), act("get_study", study_id=study["study_id"]))
    send = act("send_consent_form", participant_id=pid, version=study["consent_version"])
    if participant["withdrawn_on"]:
        draft.trap(f"8.2: the participant withdrew on {participant['withdrawn_on']}", send).cite("8.2")
        draft.say("date", participant["withdrawn_on"], "8.2: the withdrawal date on record")
        return draft
    form_id = consent_form_id(pid, study["consent_version"])
    draft.do(
        send,
        draft.open_app(),
        act("app_inbox", "user"),
        act("app_sign_consent", "user", form_id=form_id),
        act("list_consent_forms", participant_id=pid),
        act("file_consent", form_id=form_id),
    )
    return draft


def unlock_diary(world: World, participant: Entity, rng: random.Random, manner: str) -> Draft | None:
    """Reopen a locked diary with the code the participant reads from their app; a closed one stays closed."""
    if participant["status"] != "randomised" or participant["diary_status"] == "open":
        return None
    pid = participant["participant_id"]
    draft = _participant(world, participant, manner, "unlock_diary").cite("9.1")
    draft.goal.append(
        "Your e-diary in the study app is locked and will not take today's entry; you want it reopened. If that"
        " cannot be done, you want to know why."
    )
    draft.do(act("get_participant", participant_id=pid))
    unlock = act("unlock_diary", participant_id=pid, code=unlock_code(pid, participant["diary_unlocks"]))
    if participant["diary_status"] == "closed":
        draft.trap(f"9.2: the diary closed on {participant['diary_closes_on']}", unlock).cite("9.2")
        draft.say("date", participant["diary_closes_on"], "9.2: the date the diary closed")
        return draft
    draft.do(
        act("send_diary_unlock_code", participant_id=pid),
        draft.open_app(),
        act("app_inbox", "user"),
        unlock,
    )
    return draft


def claim_travel(world: World, receipt: Entity, rng: random.Random, manner: str) -> Draft | None:
    """The participant sends the receipt from their app and the desk pays it up to the cap; a late claim is refused."""
    visit = world["visits"][receipt["visit_id"]]
    participant = world["participants"][visit["participant_id"]]
    pid = participant["participant_id"]
    draft = _participant(world, participant, manner, "claim_travel").cite("10.1")
    draft.goal.append(
        f"You want to be reimbursed for your travel to your {visit['name']} visit on {visit['visit_date']}, and to"
        " know how much you will be paid; the receipt is in your study app. If it cannot be paid, you want to know"
        " why."
    )
    draft.do(act("list_visits", participant_id=pid))
    amount = travel_payment(receipt["amount"])
    pay = act("pay_travel_claim", visit_id=visit["visit_id"], amount=amount)
    deadline = claim_deadline(visit["visit_date"])
    if deadline < TODAY.isoformat():
        draft.trap(f"10.3: the claim deadline was {deadline}", pay).cite("10.3")
        draft.say("date", deadline, "10.3: the last day the claim could have been paid")
        return draft
    draft.cite("10.2").do(
        draft.open_app(),
        act("app_inbox", "user"),
        act("app_upload_receipt", "user", receipt_id=receipt["receipt_id"]),
        act("list_travel", participant_id=pid),
        pay,
    )
    draft.say("amount", f"{amount:.2f}", "10.2: the amount paid")
    return draft
