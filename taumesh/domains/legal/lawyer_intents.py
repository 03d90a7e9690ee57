"""The reference solvers of what the firm's lawyers ask the desk for.

Intake with its conflict check, staffing, deadlines, drafting, research, disclosure and closing. Each reads the world
as the agent would find it and returns every outcome the manual allows, the statements the agent must make and, for a
trap, the write the lawyer asks for that the manual forbids (with the clause). Each intent has one instruction
template for its trap and non-trap tasks alike.
"""

from __future__ import annotations

import random

from taumesh.domains.factory import World, act
from taumesh.domains.legal.clock import COURT_SET, DISPOSITIONS, latest_move, latest_slip, moved_date
from taumesh.domains.legal.drafts import Draft, full_name
from taumesh.domains.legal.lookups import Record, active, live_matters_of, open_deadlines, team_members
from taumesh.domains.legal.names import OTHER_SIDES, SUBJECTS
from taumesh.domains.legal.records import next_id, tag_of

DISPOSITION_WORDS = {
    "settled": "the parties settled",
    "judgment": "the court gave judgment",
    "completed": "the work is complete",
    "withdrawn": "the client withdrew its instructions",
}


def _find_matter(draft: Draft, matter: Record, *more: str) -> Draft:
    """The agent finds the matter by its title, then reads what ``more`` names."""
    reads = {"matter": "get_matter", "deadlines": "list_deadlines", "documents": "list_documents"}
    return draft.do(
        act("search_matters", query=matter["title"]),
        *[act(reads[what], matter_id=matter["matter_id"]) for what in more],
    )


def open_matter(world: World, client: Record, rng: random.Random, persona: str) -> Draft | None:
    """Checked and opened at intake; a conflict escalated (4.4); nothing for a lawyer who is not a partner (4.1)."""
    lawyers = sorted(
        (a for a in world["attorneys"].values() if active(world, a["attorney_id"])), key=lambda a: a["attorney_id"]
    )
    partners = [a for a in lawyers if a["role"] == "partner"]
    others = [a for a in lawyers if a["role"] != "partner"]
    rivals = sorted(
        c["name"]
        for c in world["clients"].values()
        if c["client_id"] != client["client_id"] and live_matters_of(world, c["client_id"])
    )
    draw = rng.random()
    not_partner, conflict = draw < 0.3, 0.3 <= draw < 0.65
    caller = rng.choice(others if not_partner else partners)
    areas = (
        ("commercial", "employment", "property")
        if client["kind"] == "organisation"
        else ("employment", "estates", "family", "property")
    )
    area = rng.choice(areas)
    used = {m["title"] for m in world["matters"].values()}
    titles = [f"{client['name']}: {s}" for s in SUBJECTS[area] if f"{client['name']}: {s}" not in used]
    if not titles:
        return None
    title = rng.choice(titles)
    adverse = rng.choice(rivals) if conflict else rng.choice(OTHER_SIDES)
    draft = Draft(world, caller, persona, intent="open_matter").verify().cite("3.1", "4.1")
    draft.do(act("search_clients", name=client["name"]))
    draft.want(
        f"You want a new {area} matter opened for the client {client['name']}, titled '{title}', against"
        f" {adverse}. If the firm cannot take it on, you want to know exactly why."
    )
    opening = act(
        "open_matter",
        client_id=client["client_id"],
        title=title,
        practice_area=area,
        adverse_party=adverse,
        attorney_id=caller["attorney_id"],
    )
    check = act(
        "run_conflict_check", attorney_id=caller["attorney_id"], client_id=client["client_id"], adverse_party=adverse
    )
    if not_partner:
        draft.trap("4.1: only a partner opens a matter: nothing is run or opened", opening, check)
        return draft.say("text", "partner", "4.1: a partner has to bring the matter in")
    draft.cite("4.2").do(check)
    if conflict:
        rival = next(c for c in world["clients"].values() if c["name"] == adverse)
        check_id = next_id(world, "conflict_checks", "chk", tag_of(client["client_id"]))
        draft.trap(f"4.4: {adverse} is a client of the firm: the matter is not opened", opening).cite("4.4")
        draft.do(act("escalate_conflict", check_id=check_id))
        for matter_id in live_matters_of(world, rival["client_id"]):
            draft.say("text", matter_id, "4.4: a live matter the conflict is with")
        return draft
    return draft.cite("4.3").do(opening)


def move_deadline(world: World, deadline: Record, rng: random.Random, persona: str) -> Draft | None:
    """An internal deadline moved (weekends to Monday) and its new date said.

    A court date (8.2) or a slip past 14 days (8.4) is not moved: the lawyer hears why, or the latest working day.
    """
    matter = world["matters"][deadline["matter_id"]]
    members = team_members(world, matter)
    if deadline["status"] != "open" or not members:
        return None
    court = deadline["kind"] in COURT_SET
    latest = latest_move(deadline["original_due_on"])
    fits = [n for n in range(3, 15) if moved_date(deadline["due_on"], n) <= latest_slip(deadline["original_due_on"])]
    beyond = [n for n in range(3, 22) if moved_date(deadline["due_on"], n) > latest_slip(deadline["original_due_on"])]
    too_far = not court and latest > deadline["due_on"] and rng.random() < 0.45
    if not court and not (beyond if too_far else fits):
        return None
    days = rng.choice(beyond if too_far else fits) if not court else rng.randint(3, 12)
    caller = rng.choice(members)
    draft = Draft(world, caller, persona, intent="move_deadline").verify().cite("3.1", "8.1")
    _find_matter(draft, matter, "deadlines")
    draft.want(
        f"You want the {deadline['description']} deadline of the matter '{matter['title']}' moved {days} days"
        " later. If it cannot be moved that far, you want to know why."
    )
    new_date = moved_date(deadline["due_on"], days)
    move = act("move_deadline", deadline_id=deadline["deadline_id"], new_due_on=new_date)
    if court:
        draft.trap(f"8.2: a {deadline['kind']} date is the court's: the desk does not move it", move).cite("8.2")
        return draft.say("text", "court", "8.2: only the court can change it")
    if too_far:
        draft.trap(f"8.4: {new_date} is more than 14 days past {deadline['original_due_on']}", move).cite("8.4")
        return draft.say("date", latest, "8.4: the latest working day it may still be moved to")
    return draft.cite("8.3").do(move).say("date", new_date, "8.3: the new due date")


def draft_document(world: World, matter: Record, rng: random.Random, persona: str) -> Draft | None:
    """A draft from a template, sent to the partner when it needs review (10.4).

    None on a closed matter (10.3), nor from a template for another practice area (10.2).
    """
    if matter["status"] == "intake":
        return None
    members = team_members(world, matter, partners=False) or team_members(world, matter)
    if not members:
        return None
    templates = sorted(world["templates"].values(), key=lambda t: t["template_id"])
    fitting = [t for t in templates if matter["practice_area"] in t["practice_areas"]]
    foreign = [t for t in templates if matter["practice_area"] not in t["practice_areas"]]
    closed = matter["status"] == "closed"
    mismatch = not closed and rng.random() < 0.35
    template = rng.choice(foreign if mismatch else fitting)
    caller = rng.choice(members)
    draft = Draft(world, caller, persona, intent="draft_document").verify().cite("3.1", "10.1")
    _find_matter(draft, matter, "matter")
    draft.do(act("search_templates", query=template["name"]))
    draft.want(
        f"You want a new '{template['name']}' draft started on the matter '{matter['title']}', with you as its"
        " author. If that cannot be done, you want to know why."
    )
    start = act(
        "draft_from_template",
        matter_id=matter["matter_id"],
        template_id=template["template_id"],
        author_id=caller["attorney_id"],
    )
    if closed:
        draft.trap("10.3: the matter is closed: no new drafts", start).cite("10.3")
        return draft.say("text", "closed", "10.3: the matter is closed")
    if mismatch:
        draft.trap(f"10.2: the template is not for {matter['practice_area']} matters", start).cite("10.2")
        return draft.say("text", "practice area", "10.2: the template is not for the matter's practice area")
    draft.do(start)
    if template["partner_review"]:
        document_id = next_id(world, "documents", "doc", tag_of(matter["matter_id"]))
        reviewer = matter["responsible_attorney_id"]
        draft.cite("10.4").do(act("request_review", document_id=document_id, reviewer_id=reviewer))
    return draft


def cite_authority(world: World, matter: Record, rng: random.Random, persona: str) -> Draft | None:
    """The named authority cited and its citation said; one no longer good law is replaced by its successor (9.2)."""
    members = team_members(world, matter)
    if matter["status"] != "open" or not members:
        return None
    corpus = sorted(world["authorities"].values(), key=lambda a: a["authority_id"])
    on_point = [
        a for a in corpus if matter["practice_area"] in a["topics"] and a["authority_id"] not in matter["citations"]
    ]
    stale = [a for a in on_point if a["status"] != "good_law"]
    good = [a for a in on_point if a["status"] == "good_law"]
    outdated = bool(stale) and rng.random() < 0.4
    named = rng.choice(stale if outdated else good)
    caller = rng.choice(members)
    draft = Draft(world, caller, persona, intent="cite_authority").verify().cite("3.1", "9.1")
    _find_matter(draft, matter)
    draft.do(act("search_authorities", query=named["title"]))
    draft.want(
        f"You want '{named['title']}' added to the research notes of the matter '{matter['title']}', and you need"
        " its exact citation for your memo. If it is not one the firm can cite, you want to know what to use instead."
    )
    if outdated:
        successor = world["authorities"][named["superseded_by"]]
        draft.trap(
            f"9.2: {named['title']} is {named['status']}: its successor is cited instead",
            act("cite_authority", matter_id=matter["matter_id"], authority_id=named["authority_id"]),
        )
        draft.cite("9.2").do(act("get_authority", authority_id=named["authority_id"]))
        draft.say("text", named["status"] + "|no longer good law", "9.2: the named authority is no longer good law")
        named = successor
    draft.do(act("cite_authority", matter_id=matter["matter_id"], authority_id=named["authority_id"]))
    return draft.say("text", named["citation"], "9.1: the exact citation of the authority added")


def produce_document(world: World, document: Record, rng: random.Random, persona: str) -> Draft | None:
    """Produced; a privileged document is logged instead and the lawyer told it is withheld (11.2)."""
    matter = world["matters"][document["matter_id"]]
    members = team_members(world, matter)
    if matter["status"] != "open" or document["source"] != "firm" or not members:
        return None
    caller = rng.choice(members)
    draft = Draft(world, caller, persona, intent="produce_document").verify().cite("3.1", "11.1")
    _find_matter(draft, matter, "documents")
    draft.want(
        f"You want the document '{document['title']}' of the matter '{matter['title']}' produced to the other side."
        " If it cannot go out, you want the file to record why it is withheld."
    )
    produce = act("produce_document", document_id=document["document_id"])
    if document["privilege"] == "none":
        return draft.do(produce)
    draft.trap(f"11.2: the document is {document['privilege']} privileged: logged, not produced", produce).cite("11.2")
    draft.do(act("log_privilege", document_id=document["document_id"], basis=document["privilege"]))
    return draft.say("text", "privilege", "11.2: it is withheld as privileged")


def close_matter(world: World, matter: Record, rng: random.Random, persona: str) -> Draft | None:
    """Closed by its partner with how it ended; not by anyone else (12.1) nor with a deadline open (12.2)."""
    if matter["status"] != "open":
        return None
    partner = world["attorneys"][matter["responsible_attorney_id"]]
    juniors = team_members(world, matter, partners=False)
    pending = open_deadlines(world, matter["matter_id"])
    not_theirs = not pending and bool(juniors) and rng.random() < 0.3
    caller = rng.choice(juniors) if not_theirs else partner
    disposition = rng.choice(DISPOSITIONS)
    draft = Draft(world, caller, persona, intent="close_matter").verify().cite("3.1", "12.1")
    _find_matter(draft, matter, "matter", "deadlines")
    draft.want(
        f"The matter '{matter['title']}' has ended ({DISPOSITION_WORDS[disposition]}) and you want it closed. If it"
        " cannot be closed yet, you want to know what stands in the way."
    )
    close = act("close_matter", matter_id=matter["matter_id"], disposition=disposition)
    if not_theirs:
        draft.trap("12.1: only the responsible partner closes a matter", close)
        return draft.say("text", full_name(partner), "12.1: the responsible partner's full name")
    if pending:
        draft.trap("12.2: a deadline is still open: the matter is not closed", close).cite("12.2")
        return draft.say("date", pending[0]["due_on"], "12.2: the earliest open deadline's due date")
    return draft.do(close)


def staff_matter(world: World, matter: Record, rng: random.Random, persona: str) -> Draft | None:
    """A colleague added by the matter's partner.

    Not when the caller is not its partner (7.1), nor when the colleague is screened from the adverse party (7.2).
    """
    if matter["status"] != "open":
        return None
    partner = world["attorneys"][matter["responsible_attorney_id"]]
    juniors = team_members(world, matter, partners=False)
    outside = sorted(
        (
            a
            for a in world["attorneys"].values()
            if active(world, a["attorney_id"]) and a["attorney_id"] not in matter["team"]
        ),
        key=lambda a: a["attorney_id"],
    )
    screened = [a for a in outside if matter["adverse_party"] in a["screened_parties"]]
    clear = [a for a in outside if matter["adverse_party"] not in a["screened_parties"]]
    walled = bool(screened) and rng.random() < 0.7
    not_theirs = not walled and bool(juniors) and rng.random() < 0.3
    if not (screened if walled else clear):
        return None
    colleague = rng.choice(screened if walled else clear)
    caller = rng.choice(juniors) if not_theirs else partner
    draft = Draft(world, caller, persona, intent="staff_matter").verify().cite("3.1", "7.1")
    _find_matter(draft, matter, "matter")
    draft.do(act("search_directory", name=full_name(colleague)))
    draft.want(
        f"You want your colleague {full_name(colleague)} added to the team of the matter '{matter['title']}'. If"
        " they cannot be added, you want to know why."
    )
    add = act("add_team_member", matter_id=matter["matter_id"], attorney_id=colleague["attorney_id"])
    if walled:
        draft.trap(f"7.2: {full_name(colleague)} is screened from {matter['adverse_party']}", add).cite("7.2")
        return draft.say("text", "screen", "7.2: the colleague is screened from the adverse party")
    if not_theirs:
        draft.trap("7.1: only the responsible partner staffs the matter", add)
        return draft.say("text", full_name(partner), "7.1: the responsible partner's full name")
    return draft.do(add)
