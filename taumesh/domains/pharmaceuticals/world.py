"""The trial desk's worlds: one country's sites of the sponsor's studies per seed, with their participants.

Every id carries the world's tag (``ptp-w1-07``), so an entity belongs to one world and the test world (w3) shares
none with training; :data:`INVARIANTS` states what every built world keeps (visits in protocol order, allocations
only for the randomised, submitted safety reports classified by the seriousness criteria, past events in the past,
sites under their enrolment cap).
"""

from __future__ import annotations

import random
from datetime import date, timedelta
from typing import Any

from taumesh.domains.factory import Invariant, SeededWorld, World, build_worlds, per_record
from taumesh.domains.pharmaceuticals.clock import STABILITY_DAYS, TODAY, arm_index, consent_form_id, day, kit_number
from taumesh.domains.pharmaceuticals.names import CITIES, EVENTS, FIRST, INDICATIONS, LAST, MEDICINES, VISITS, WORDS

SEEDS = {"w1": 45_501, "w2": 45_502, "w3": 45_503}
"""One world per tag; tasks of w1 and w2 are train, of w3 test."""
TEST_WORLDS = frozenset({"w3"})
COUNTRIES = {"w1": "nl", "w2": "pt", "w3": "be"}
"""Each world is the sponsor's trial network in one country, with its own email domain."""
STUDIES = 2
SITES_PER_STUDY = 2
PARTICIPANTS_PER_SITE = 6
SCREENING_PER_SITE = 2
VISIT_WEEKS = (-2, 0, 4, 8, 12, 24)
"""Each visit's target, in weeks from baseline (the names are :data:`names.VISITS`)."""
DIARY_WEEKS = 12
"""The e-diary is kept through the treatment period: twelve weeks from baseline."""
SERIOUS_TERMS = frozenset({"pneumonia", "fainting episode", "chest pain", "gastrointestinal bleeding"})
TABLES = (
    "callers",
    "studies",
    "sites",
    "participants",
    "visits",
    "adverse_events",
    "samples",
    "consent_forms",
    "receipts",
    "travel_claims",
    "unblindings",
    "deviations",
    "verifications",
    "handoffs",
    "app_sessions",
    "app_messages",
    "app_receipts",
)


def tag_of(identifier: str) -> str:
    """The world tag an id carries (``ptp-w1-07`` -> ``w1``)."""
    return identifier.split("-")[1]


def worlds() -> list[SeededWorld]:
    """The three worlds, each checked against :data:`INVARIANTS`."""
    return build_worlds(build_world, SEEDS, INVARIANTS)


def _iso(when: date) -> str:
    return when.isoformat()


class _Builder:
    """Fills one world's tables; each method adds one kind of record."""

    def __init__(self, seed: int, tag: str) -> None:
        self.rng = random.Random(seed)
        self.tag = tag
        self.tables: World = {table: {} for table in TABLES}
        self.names = self.rng.sample([(f, last) for f in FIRST for last in LAST], 80)

    def caller(self, role: str, site_id: str) -> str:
        number = len(self.tables["callers"]) + 1
        caller_id = f"cal-{self.tag}-{number:03d}"
        first, last = self.names[number - 1]
        words = self.rng.sample(WORDS, 2)
        participant = role == "participant"
        domain = f"post-{COUNTRIES[self.tag]}.example" if participant else f"trials-{COUNTRIES[self.tag]}.example"
        self.tables["callers"][caller_id] = {
            "caller_id": caller_id,
            "role": role,
            "first_name": first,
            "last_name": last,
            "email": f"{first}.{last}@{domain}".lower(),
            "site_id": site_id,
            "desk_passcode": f"{words[0]}-{words[1]}-{self.rng.randint(10, 99)}",
            "app_pin": f"{self.rng.randint(0, 9999):04d}" if participant else None,
        }
        if participant:
            self.tables["app_sessions"][caller_id] = {"caller_id": caller_id, "signed_in": False}
        return caller_id

    def study(self, number: int) -> str:
        study_id = f"std-{self.tag}-{number}"
        medicine = self.rng.choice(MEDICINES)
        dose = self.rng.choice([50, 100, 150])
        versions = [f"v{k}" for k in range(1, self.rng.choice([3, 4]) + 1)]
        self.tables["studies"][study_id] = {
            "study_id": study_id,
            "protocol_code": f"{medicine[:3].upper()}-{self.rng.randint(201, 389)}",
            "medicine": medicine,
            "indication": self.rng.choice(INDICATIONS),
            "arms": ["placebo", f"{medicine} {dose} mg", f"{medicine} {dose * 2} mg"],
            "consent_version": versions[-1],
            "consent_versions": versions,
            "min_age": self.rng.choice([18, 21]),
            "max_age": self.rng.choice([65, 70, 75]),
            "min_egfr": self.rng.choice([30, 45, 60]),
            "window_days": self.rng.choice([3, 5, 7]),
        }
        return study_id

    def site(self, study_id: str, number: int) -> None:
        site_id = f"site-{self.tag}-{number}"
        coordinator = self.caller("coordinator", site_id)
        city = self.rng.choice(CITIES)
        self.tables["sites"][site_id] = {
            "site_id": site_id,
            "study_id": study_id,
            "name": f"{city} {self.rng.choice(['University Hospital', 'Clinical Research Unit', 'Medical Centre'])}",
            "city": city,
            "coordinator_id": coordinator,
            "enrolment_cap": self.rng.choice([12, 16, 20]),
        }
        for k in range(PARTICIPANTS_PER_SITE):
            self.participant(site_id, study_id, screening=k < SCREENING_PER_SITE)

    def participant(self, site_id: str, study_id: str, screening: bool) -> None:
        number = len(self.tables["participants"]) + 1
        participant_id = f"ptp-{self.tag}-{number:02d}"
        study = self.tables["studies"][study_id]
        caller_id = self.caller("participant", site_id)
        age = self.rng.randint(study["min_age"] - 3, study["max_age"] + 3) if screening else None
        age = age if age is not None else self.rng.randint(study["min_age"] + 2, study["max_age"] - 2)
        born = TODAY - timedelta(days=age * 365 + self.rng.randint(20, 340))
        egfr = self.rng.randint(study["min_egfr"] - 12, study["min_egfr"] + 40)
        if not screening:
            egfr = max(egfr, study["min_egfr"] + 3)
        baseline = TODAY - timedelta(days=self.rng.randint(20, 200))
        versions = study["consent_versions"]
        record: dict[str, Any] = {
            "participant_id": participant_id,
            "caller_id": caller_id,
            "study_id": study_id,
            "site_id": site_id,
            "date_of_birth": _iso(born),
            "egfr": egfr,
            "status": "screening",
            "status_history": [],
            "screen_failure_reason": None,
            "kit_number": None,
            "kit_history": [],
            "arm": None,
            "unblinded": False,
            "consent_version": versions[-1],
            "consent_history": versions[:-1][-1:],
            "withdrawn_on": None,
            "diary_status": "open",
            "diary_closes_on": _iso(baseline + timedelta(weeks=DIARY_WEEKS)),
            "diary_unlocks": self.rng.choice([0, 0, 1, 2]),
        }
        self.tables["participants"][participant_id] = record
        if screening:
            self.visit(participant_id, 0, TODAY - timedelta(days=self.rng.randint(2, 9)), done=True)
            record["diary_closes_on"] = _iso(TODAY + timedelta(weeks=DIARY_WEEKS + 3))
            return
        record.update(
            status="randomised",
            status_history=["screening"],
            kit_number=kit_number(participant_id),
            arm=study["arms"][arm_index(participant_id, len(study["arms"]))],
        )
        if self.rng.random() < 0.25:
            record.update(kit_history=[record["kit_number"]], kit_number=kit_number(participant_id, 1))
        if self.rng.random() < 0.55:
            record.update(consent_version=versions[-2], consent_history=versions[:-2][-1:])
        withdrawn = self.rng.random() < 0.2
        if withdrawn:
            record["withdrawn_on"] = _iso(baseline + timedelta(days=self.rng.randint(10, (TODAY - baseline).days - 3)))
            record.update(status="withdrawn", status_history=["screening", "randomised"], diary_status="closed")
        elif record["diary_closes_on"] < _iso(TODAY):
            record["diary_status"] = "closed"
        else:
            record["diary_status"] = self.rng.choice(["open", "locked", "locked"])
        self.visits(participant_id, baseline, record["withdrawn_on"], study["window_days"])
        self.consent_forms(participant_id, record)
        if not withdrawn and self.rng.random() < 0.85:
            self.adverse_event(participant_id)

    def visit(self, participant_id: str, index: int, target: date, done: bool) -> str:
        visit_id = f"vis-{participant_id[4:]}-{index + 1}"
        held = target + timedelta(days=self.rng.randint(-1, 1)) if done else None
        self.tables["visits"][visit_id] = {
            "visit_id": visit_id,
            "participant_id": participant_id,
            "number": index + 1,
            "name": VISITS[index],
            "target_date": _iso(target),
            "status": "completed" if done else "to_book",
            "visit_date": _iso(min(held, TODAY - timedelta(days=1))) if held else None,
            "date_history": [],
        }
        return visit_id

    def visits(self, participant_id: str, baseline: date, withdrawn_on: str | None, window_days: int) -> None:
        held: list[str] = []
        for index, weeks in enumerate(VISIT_WEEKS):
            target = baseline + timedelta(weeks=weeks)
            if withdrawn_on and _iso(target) > withdrawn_on:
                break
            done = target + timedelta(days=window_days) < TODAY
            if done:
                held.append(self.visit(participant_id, index, target, done=True))
            else:
                self.visit(participant_id, index, target, done=False)
        for visit_id in held[1:]:
            self.travel(participant_id, visit_id)

    def travel(self, participant_id: str, visit_id: str) -> None:
        """A receipt for a held visit: claimed already, waiting in the participant's app, or never kept."""
        fate = self.rng.choice(["claimed", "claimed", "in_app", "in_app", "none"])
        amount = round(self.rng.uniform(14, 80), 2)
        caller_id = self.tables["participants"][participant_id]["caller_id"]
        visit = self.tables["visits"][visit_id]
        receipt_id = f"rcp-{visit_id[4:]}"
        if fate == "claimed":
            self.tables["receipts"][receipt_id] = {
                "receipt_id": receipt_id,
                "participant_id": participant_id,
                "visit_id": visit_id,
                "amount": amount,
            }
            claim_id = f"clm-{visit_id[4:]}"
            self.tables["travel_claims"][claim_id] = {
                "claim_id": claim_id,
                "visit_id": visit_id,
                "participant_id": participant_id,
                "amount": amount,
                "paid_on": _iso(day(visit["visit_date"]) + timedelta(days=self.rng.randint(3, 20))),
            }
        elif fate == "in_app":
            self.tables["app_receipts"][receipt_id] = {
                "receipt_id": receipt_id,
                "caller_id": caller_id,
                "visit_id": visit_id,
                "amount": amount,
                "title": f"Travel receipt, {visit['name']} visit",
            }

    def consent_forms(self, participant_id: str, record: dict[str, Any]) -> None:
        for version in [*record["consent_history"], record["consent_version"]]:
            form_id = consent_form_id(participant_id, version)
            signed = _iso(TODAY - timedelta(days=self.rng.randint(120, 400)))
            self.tables["consent_forms"][form_id] = {
                "form_id": form_id,
                "participant_id": participant_id,
                "version": version,
                "sent_on": signed,
                "signed_on": signed,
                "filed": True,
            }

    def adverse_event(self, participant_id: str) -> None:
        ae_id = f"ae-{participant_id[4:]}"
        term = self.rng.choice(EVENTS)
        serious_term = term in SERIOUS_TERMS
        hospitalised = serious_term and self.rng.random() < 0.8
        life_threatening = serious_term and not hospitalised
        onset = TODAY - timedelta(days=self.rng.randint(1, 14))
        aware = min(onset + timedelta(days=self.rng.randint(0, 2)), TODAY)
        submitted = self.rng.random() < 0.25
        self.tables["adverse_events"][ae_id] = {
            "ae_id": ae_id,
            "participant_id": participant_id,
            "term": term,
            "hospitalised": hospitalised,
            "life_threatening": life_threatening,
            "onset_date": _iso(onset),
            "site_aware_date": _iso(aware),
            "status": "submitted" if submitted else "draft",
            "seriousness": ("serious" if serious_term else "non_serious") if submitted else None,
            "submitted_on": _iso(aware) if submitted else None,
        }

    def samples(self) -> None:
        randomised = sorted(k for k, p in self.tables["participants"].items() if p["status"] == "randomised")
        for number, participant_id in enumerate(self.rng.sample(randomised, min(14, len(randomised))), 1):
            sample_id = f"smp-{self.tag}-{number:02d}"
            self.tables["samples"][sample_id] = {
                "sample_id": sample_id,
                "participant_id": participant_id,
                "site_id": self.tables["participants"][participant_id]["site_id"],
                "kind": self.rng.choice(sorted(STABILITY_DAYS)),
                "collected_on": _iso(TODAY - timedelta(days=self.rng.randint(0, 3))),
                "pickup_date": None,
                "pickup_history": [],
            }


def build_world(seed: int, tag: str) -> World:
    """Every table of one world from ``seed``; every id carries ``tag``."""
    builder = _Builder(seed, tag)
    site = 0
    for number in range(1, STUDIES + 1):
        study_id = builder.study(number)
        for _ in range(SITES_PER_STUDY):
            site += 1
            builder.site(study_id, site)
    builder.samples()
    return builder.tables


def _visits_in_order(world: World) -> list[str]:
    by_participant: dict[str, list[dict[str, Any]]] = {}
    for visit in world["visits"].values():
        by_participant.setdefault(visit["participant_id"], []).append(visit)
    problems = []
    for participant_id, visits in by_participant.items():
        ordered = sorted(visits, key=lambda v: v["number"])
        targets = [v["target_date"] for v in ordered]
        states = [v["status"] for v in ordered]
        if targets != sorted(targets) or states != sorted(states, key=lambda s: s != "completed"):
            problems.append(f"participants[{participant_id}] visits out of protocol order")
    return problems


def _allocation(participant: dict[str, Any]) -> str | None:
    allocated = participant["kit_number"] is not None and participant["arm"] is not None
    return None if allocated == (participant["status"] in ("randomised", "withdrawn")) else "allocation mismatch"


def _classified(event: dict[str, Any]) -> str | None:
    if event["status"] != "submitted":
        return None
    serious = event["hospitalised"] or event["life_threatening"]
    return None if (event["seriousness"] == "serious") == serious else "classified against the criteria"


def _under_cap(world: World) -> list[str]:
    return [
        f"sites[{key}] over its cap"
        for key, site in world["sites"].items()
        if sum(p["site_id"] == key and p["kit_number"] is not None for p in world["participants"].values())
        > site["enrolment_cap"]
    ]


def _tagged(world: World) -> list[str]:
    return [f"{table}[{key}]" for table, records in world.items() for key in records if tag_of(key) not in SEEDS]


INVARIANTS = (
    per_record("participants", "only randomised participants hold a kit and an arm", _allocation),
    per_record("adverse_events", "submitted reports follow the seriousness criteria", _classified),
    per_record(
        "adverse_events",
        "sites learn of an event on or after its onset, and before today ends",
        lambda e: None if e["onset_date"] <= e["site_aware_date"] <= TODAY.isoformat() else "aware out of order",
    ),
    per_record(
        "visits",
        "visits held took place before today",
        lambda v: None if v["status"] != "completed" or day(v["visit_date"]) < TODAY else f"held {v['visit_date']}",
    ),
    per_record(
        "samples",
        "samples were collected by today",
        lambda s: None if day(s["collected_on"]) <= TODAY else f"collected {s['collected_on']}",
    ),
    Invariant("visits keep the protocol's order", _visits_in_order),
    Invariant("sites stay under their enrolment cap", _under_cap),
    Invariant("every id carries its world's tag", _tagged),
)
