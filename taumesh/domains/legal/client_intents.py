"""The reference solvers of what client contacts ask the desk for: engaging the firm, and sending it documents.

Both end in the client's own portal (dual control): they sign the letter, or upload the file, themselves. Each solver
reads the world as the agent would find it and returns every outcome the manual allows, what must be said and, for a
trap, the write the contact asks for that the manual forbids (with the clause).
"""

from __future__ import annotations

import random

from taumesh.domains.factory import World, act
from taumesh.domains.legal.clock import NO_CONTINGENCY, fixed_fee_offered, retainer
from taumesh.domains.legal.drafts import Draft, full_name
from taumesh.domains.legal.lookups import Record, contacts_of
from taumesh.domains.legal.names import FILE_NAMES
from taumesh.domains.legal.records import next_id, tag_of


def engage(world: World, matter: Record, rng: random.Random, persona: str) -> Draft | None:
    """The letter on the asked (or, for a barred contingency, hourly) basis, signed, and the matter opened for work.

    Traps: no cleared conflict check on the matter (5.1), a contact who is not the organisation's signatory (5.2), a
    contingency fee in a family or criminal matter (5.3: hourly terms instead).
    """
    if matter["status"] != "intake":
        return None
    area = matter["practice_area"]
    contacts = contacts_of(world, matter["client_id"])
    signer = next(c for c in contacts if c["signatory"])
    others = [c for c in contacts if not c["signatory"]]
    cleared = matter["conflict_check_id"] is not None
    not_signer = cleared and bool(others) and rng.random() < 0.5
    barred = cleared and not not_signer and area in NO_CONTINGENCY and rng.random() < 0.7
    allowed = [
        "hourly",
        *(["fixed"] if fixed_fee_offered(area) else []),
        *(["contingency"] if area not in NO_CONTINGENCY else []),
    ]
    asked = "contingency" if barred else rng.choice(allowed)
    caller = rng.choice(others) if not_signer else signer
    draft = Draft(world, caller, persona, intent="engage").verify().cite("3.1", "5.1")
    draft.do(act("get_client", client_id=matter["client_id"]))
    draft.want(
        f"You want to sign the firm's engagement letter for the matter '{matter['title']}', with the firm working on"
        f" {'an' if asked == 'hourly' else 'a'} {asked} fee. If the firm cannot offer that basis, its standard hourly"
        " terms are fine."
    )
    issue = act(
        "issue_engagement_letter", matter_id=matter["matter_id"], contact_id=caller["contact_id"], fee_basis=asked
    )
    if not cleared:
        draft.trap("5.1: the matter's conflict check is not complete: no letter is sent", issue)
        return draft.say("text", "conflict", "5.1: the conflict check is not complete")
    if not_signer:
        draft.trap("5.2: the caller is not the organisation's signatory: no letter is sent", issue).cite("5.2")
        return draft.say("text", full_name(signer), "5.2: the signatory's full name")
    basis = "hourly" if barred else asked
    if barred:
        draft.trap(f"5.3: no contingency fee in a {area} matter: the hourly terms instead", issue).cite("5.3")
    partner = world["attorneys"][matter["responsible_attorney_id"]]
    letter_id = next_id(world, "engagement_letters", "eng", tag_of(matter["matter_id"]))
    draft.cite("5.4", "5.5").do(
        act("issue_engagement_letter", matter_id=matter["matter_id"], contact_id=caller["contact_id"], fee_basis=basis),
        act("open_portal", "user", email=caller["email"]),
        act("sign_engagement_letter", "user", letter_id=letter_id),
        act("activate_matter", matter_id=matter["matter_id"]),
    )
    deposit = retainer(basis, area, partner["hourly_rate"])
    if deposit:
        draft.say("amount", f"{deposit:.2f}", "5.4: the retainer the letter asks for")
    return draft


def upload(world: World, matter: Record, rng: random.Random, persona: str) -> Draft | None:
    """A slot opened and the client's file uploaded into it; none for a matter at intake or closed (6.2)."""
    caller = rng.choice(contacts_of(world, matter["client_id"]))
    file_name = rng.choice(FILE_NAMES)
    draft = Draft(world, caller, persona, intent="upload").verify().cite("3.1", "6.1")
    draft.do(act("get_client", client_id=matter["client_id"]))
    draft.want(
        f"You want to send the firm your file '{file_name}' for the matter '{matter['title']}'. If the firm cannot"
        " take it now, you want to know why."
    )
    slot = act("request_upload", matter_id=matter["matter_id"], contact_id=caller["contact_id"])
    if matter["status"] == "intake":
        draft.trap("6.2: the matter is not yet engaged: no upload slot", slot).cite("6.2")
        return draft.say("text", "engagement", "6.2: the engagement letter has to be signed first")
    if matter["status"] == "closed":
        draft.trap("6.2: the matter is closed: no upload slot", slot).cite("6.2")
        return draft.say("text", "closed", "6.2: the matter is closed")
    request_id = next_id(world, "upload_requests", "upl", tag_of(matter["matter_id"]))
    return draft.do(
        slot,
        act("open_portal", "user", email=caller["email"]),
        act("upload_file", "user", request_id=request_id, file_name=file_name),
    )
