"""The project desk's worlds: one region of the general contractor per seed, with its projects and subcontractors.

Every id carries the world's tag (``prj-w1-03``), so an entity belongs to one world and the test world (w3) shares
none with training; :data:`INVARIANTS` states what every built world keeps (milestones in order and inside the
contract, inspections passed in their sequence, certificates on file at their trade's minimum, past events in the
past).
"""

from __future__ import annotations

import random
from datetime import date, timedelta
from typing import Any

from taumesh.domains.construction.clock import (
    INSPECTION_SEQUENCES,
    PERMIT_RULES,
    TODAY,
    day,
    is_working_day,
    required_cover,
)
from taumesh.domains.construction.names import (
    CHANGE_ORDERS,
    FIRST,
    LAST,
    MILESTONES,
    PROJECT_KINDS,
    STREETS,
    TRADES,
    WORDS,
)
from taumesh.domains.factory import Invariant, SeededWorld, World, build_worlds, per_record

SEEDS = {"w1": 45_301, "w2": 45_302, "w3": 45_303}
"""One world per tag; tasks of w1 and w2 are train, of w3 test."""
TEST_WORLDS = frozenset({"w3"})
REGIONS = {"w1": "harbourside", "w2": "uplands", "w3": "riverbend"}
"""Each world is one region of the contractor, with its own email domain."""
PROJECTS = 6
SITE_MANAGERS = 3
WORKERS_PER_COMPANY = 3
TABLES = (
    "contacts",
    "projects",
    "subcontractors",
    "work_packages",
    "permits",
    "inspections",
    "milestones",
    "change_orders",
    "invoices",
    "payments",
    "workers",
    "site_passes",
    "documents",
    "portal_files",
    "portal_sessions",
    "desk_checks",
    "notices",
    "escalations",
)


def tag_of(identifier: str) -> str:
    """The world tag an id carries (``prj-w1-03`` -> ``w1``)."""
    return identifier.split("-")[1]


def worlds() -> list[SeededWorld]:
    """The three worlds, each checked against :data:`INVARIANTS`."""
    return build_worlds(build_world, SEEDS, INVARIANTS)


def _on(when: date) -> str:
    return when.isoformat()


def _working(when: date) -> date:
    """``when``, or the next working day."""
    while not is_working_day(when):
        when += timedelta(days=1)
    return when


class _Builder:
    """Fills one world's tables; each method adds one kind of record."""

    def __init__(self, seed: int, tag: str) -> None:
        self.rng = random.Random(seed)
        self.bookings = random.Random(seed + 1)
        """Draws the inspections already booked, apart from :attr:`rng` so the other records stay as they were."""
        self.tag = tag
        self.tables: World = {table: {} for table in TABLES}
        self.names = self.rng.sample([(f, last) for f in FIRST for last in LAST], 40)

    def contact(self, role: str, company_id: str | None = None) -> str:
        number = len(self.tables["contacts"]) + 1
        contact_id = f"con-{self.tag}-{number:03d}"
        first, last = self.names[number - 1]
        words = self.rng.sample(WORDS, 2)
        self.tables["contacts"][contact_id] = {
            "contact_id": contact_id,
            "first_name": first,
            "last_name": last,
            "email": f"{first}.{last}@{REGIONS[self.tag]}.example".lower(),
            "phone": f"555-{self.rng.randint(200, 989):03d}-{self.rng.randint(1000, 9999)}",
            "role": role,
            "company_id": company_id,
            "passphrase": f"{words[0]}-{words[1]}-{self.rng.randint(10, 99)}",
        }
        if role != "site_manager":
            self.tables["portal_sessions"][contact_id] = {"contact_id": contact_id, "signed_in": False}
        return contact_id

    def subcontractors(self) -> None:
        for number, (trade, stem) in enumerate(TRADES.items(), 1):
            company_id = f"sub-{self.tag}-{number:02d}"
            contact_id = self.contact("subcontractor", company_id)
            insurance = TODAY + timedelta(days=self.rng.choice([-10, 20, 75, 240, 330, 365, 420]))
            self.tables["subcontractors"][company_id] = {
                "company_id": company_id,
                "name": f"{stem} {REGIONS[self.tag].title()}",
                "trade": trade,
                "contact_id": contact_id,
                "licence_number": f"LIC-{self.rng.randint(100000, 999999)}",
                "licence_expiry": _on(TODAY + timedelta(days=self.rng.choice([-12, 35, 200, 400, 520, 610]))),
                "liability_cover": required_cover(trade) + self.rng.choice([0, 0, 1_000_000]),
                "insurance_expiry": _on(insurance),
                "insurance_history": [_on(insurance - timedelta(days=365))],
            }
            crew = self.rng.sample([(f, last) for f in FIRST[:12] for last in LAST[:12]], WORKERS_PER_COMPANY)
            for worker, (first, last) in enumerate(crew, 1):
                worker_id = f"wkr-{self.tag}-{number:02d}{worker}"
                self.tables["workers"][worker_id] = {
                    "worker_id": worker_id,
                    "company_id": company_id,
                    "first_name": first,
                    "last_name": last,
                    "safety_card_expiry": _on(TODAY + timedelta(days=self.rng.choice([-40, -5, 30, 180, 500]))),
                }
            self.portal_certificate(contact_id, trade, number)

    def portal_certificate(self, contact_id: str, trade: str, number: int) -> None:
        """The renewed certificate waiting in the subcontractor's own portal: sound, short of cover, or too short."""
        flaw = self.rng.choice(["none", "none", "cover", "runway"])
        cover = required_cover(trade) - (1_000_000 if flaw == "cover" else 0) + self.rng.choice([0, 500_000])
        runway = self.rng.choice([30, 60]) if flaw == "runway" else self.rng.choice([200, 365, 395])
        file_id = f"file-{self.tag}-{number:02d}c"
        self.tables["portal_files"][file_id] = {
            "file_id": file_id,
            "contact_id": contact_id,
            "kind": "insurance_certificate",
            "title": "Certificate of general liability insurance",
            "liability_cover": cover,
            "expires_on": _on(TODAY + timedelta(days=runway)),
            "invoice_id": None,
        }

    def project(self, number: int, managers: list[str]) -> None:
        project_id = f"prj-{self.tag}-{number:02d}"
        owner = self.contact("owner")
        value = float(self.rng.randrange(900_000, 6_000_000, 5_000))
        completion = TODAY + timedelta(days=self.rng.randint(160, 420))
        started = TODAY - timedelta(days=self.rng.randint(60, 240))
        self.tables["projects"][project_id] = {
            "project_id": project_id,
            "name": f"{self.rng.choice(PROJECT_KINDS).capitalize()} at {self.rng.choice(STREETS)}",
            "address": f"{self.rng.randint(10, 980)} {self.rng.choice(STREETS)}, {REGIONS[self.tag].title()}",
            "owner_contact_id": owner,
            "site_manager_id": managers[(number - 1) % len(managers)],
            "contract_value": value,
            "contingency_remaining": float(round(value * self.rng.uniform(0.004, 0.03), -2)),
            "contract_completion": _on(completion),
            "value_history": [],
            "completion_history": [],
        }
        self.milestones(project_id, started, completion)
        self.permits(project_id, value, started)
        self.packages(project_id, started, completion)
        self.change_orders(project_id, number)

    def milestones(self, project_id: str, started: date, completion: date) -> None:
        span = (completion - started).days
        done = sum(1 for k in range(len(MILESTONES)) if started + timedelta(days=span * (k + 1) // 6) < TODAY)
        for k, name in enumerate(MILESTONES):
            due = completion if k == len(MILESTONES) - 1 else started + timedelta(days=span * (k + 1) // 6)
            milestone_id = f"ms-{project_id[4:]}-{k + 1}"
            self.tables["milestones"][milestone_id] = {
                "milestone_id": milestone_id,
                "project_id": project_id,
                "name": name,
                "due_date": _on(due),
                "status": "complete" if k < done else "open",
                "date_history": [],
            }

    def permits(self, project_id: str, value: float, started: date) -> None:
        for kind in ("building", "electrical", "plumbing", "demolition"):
            permit_id = f"pmt-{project_id[4:]}-{kind[:2]}"
            needed = PERMIT_RULES[kind][0]
            draft = kind == "demolition" or self.rng.random() < 0.35
            documents = list(needed)
            if draft and self.rng.random() < 0.45:
                documents.remove(self.rng.choice(needed))
            self.tables["permits"][permit_id] = {
                "permit_id": permit_id,
                "project_id": project_id,
                "kind": kind,
                "valuation": float(round(value * self.rng.uniform(0.05, 0.4), -3)),
                "documents": documents,
                "status": "draft" if draft else "approved",
                "submitted_on": None if draft else _on(started - timedelta(days=40)),
                "fee_paid": None,
                "expires_on": None if draft else _on(TODAY + timedelta(days=self.rng.choice([9, 16, 120, 300]))),
            }
            if not draft:
                self.inspections(permit_id, kind, started)

    def inspections(self, permit_id: str, kind: str, started: date) -> None:
        sequence = INSPECTION_SEQUENCES[kind]
        passed = self.rng.randint(0, len(sequence) - 2)
        when = started + timedelta(days=10)
        for index, name in enumerate(sequence[: passed + 1]):
            failed = index == passed
            if failed and self.rng.random() < 0.5:
                continue
            inspection_id = f"ins-{permit_id[4:]}-{index + 1}"
            self.tables["inspections"][inspection_id] = {
                "inspection_id": inspection_id,
                "permit_id": permit_id,
                "kind": name,
                "date": _on(_working(min(when, TODAY - timedelta(days=3)))),
                "status": "failed" if failed else "passed",
            }
            when += timedelta(days=self.rng.randint(12, 30))
        if self.bookings.random() < 0.6:
            inspection_id = f"ins-{permit_id[4:]}-{passed + 1}s"
            self.tables["inspections"][inspection_id] = {
                "inspection_id": inspection_id,
                "permit_id": permit_id,
                "kind": sequence[passed],
                "date": _on(_working(TODAY + timedelta(days=self.bookings.choice([1, 2, 3, 7, 10])))),
                "status": "scheduled",
            }

    def packages(self, project_id: str, started: date, completion: date) -> None:
        companies = self.rng.sample(sorted(self.tables["subcontractors"]), 4)
        for k, company_id in enumerate(companies, 1):
            package_id = f"wp-{project_id[4:]}-{k}"
            upcoming = k > 2
            start = TODAY + timedelta(days=self.rng.randint(5, 40)) if upcoming else started + timedelta(days=20)
            end = min(start + timedelta(days=self.rng.randint(30, 160)), completion)
            status = "awaiting_clearance" if upcoming else "on_site"
            self.tables["work_packages"][package_id] = {
                "package_id": package_id,
                "project_id": project_id,
                "company_id": company_id,
                "scope": f"{self.tables['subcontractors'][company_id]['trade'].replace('_', ' ')} works",
                "start_date": _on(start),
                "end_date": _on(end),
                "value": float(self.rng.randrange(40_000, 400_000, 500)),
                "status": status,
                "status_history": [],
                "hold_reason": None,
            }
            if not upcoming:
                self.invoice(package_id, company_id)
                self.site_pass(project_id, company_id)

    def invoice(self, package_id: str, company_id: str) -> None:
        invoice_id = f"inv-{package_id[3:]}"
        amount = float(self.rng.randrange(8_000, 90_000)) + self.rng.choice([0.0, 0.5, 0.25])
        self.tables["invoices"][invoice_id] = {
            "invoice_id": invoice_id,
            "package_id": package_id,
            "company_id": company_id,
            "amount": amount,
            "status": self.rng.choice(["approved", "approved", "submitted"]),
        }
        contact_id = self.tables["subcontractors"][company_id]["contact_id"]
        file_id = f"file-{invoice_id[4:]}w"
        self.tables["portal_files"][file_id] = {
            "file_id": file_id,
            "contact_id": contact_id,
            "kind": "lien_waiver",
            "title": f"Conditional lien waiver for invoice {invoice_id}",
            "liability_cover": None,
            "expires_on": None,
            "invoice_id": invoice_id,
        }

    def site_pass(self, project_id: str, company_id: str) -> None:
        worker_id = next(w for w in sorted(self.tables["workers"]) if w.startswith(f"wkr-{company_id[4:]}"))
        pass_id = f"pass-{project_id[4:]}-{len(self.tables['site_passes']) + 1:02d}"
        issued = TODAY - timedelta(days=self.rng.randint(5, 50))
        self.tables["site_passes"][pass_id] = {
            "pass_id": pass_id,
            "project_id": project_id,
            "worker_id": worker_id,
            "issued_on": _on(issued),
        }

    def change_orders(self, project_id: str, number: int) -> None:
        for k in (1, 2):
            change_order_id = f"co-{project_id[4:]}-{k}"
            contingency = self.tables["projects"][project_id]["contingency_remaining"]
            amount = round(contingency * self.rng.choice([0.2, 0.45, 0.7, 1.3]) + self.rng.randint(1, 99) / 4, 2)
            self.tables["change_orders"][change_order_id] = {
                "change_order_id": change_order_id,
                "project_id": project_id,
                "description": CHANGE_ORDERS[(number * 2 + k) % len(CHANGE_ORDERS)],
                "amount": amount,
                "days_added": self.rng.choice([0, 3, 5, 8, 12]),
                "priced_on": _on(TODAY - timedelta(days=self.rng.choice([3, 9, 17, 26, 38, 52]))),
                "status": "awaiting_owner",
                "owner_signed_on": None,
            }


def build_world(seed: int, tag: str) -> World:
    """Every table of one world from ``seed``; every id carries ``tag``."""
    builder = _Builder(seed, tag)
    managers = [builder.contact("site_manager") for _ in range(SITE_MANAGERS)]
    builder.subcontractors()
    for number in range(1, PROJECTS + 1):
        builder.project(number, managers)
    return builder.tables


def _milestones_in_order(world: World) -> list[str]:
    problems = []
    for project_id, project in world["projects"].items():
        dates = [m["due_date"] for m in world["milestones"].values() if m["project_id"] == project_id]
        if dates != sorted(dates) or dates[-1] > project["contract_completion"]:
            problems.append(f"projects[{project_id}] milestones out of order or past completion")
    return problems


def _inspections_in_sequence(world: World) -> list[str]:
    problems = []
    for key, inspection in world["inspections"].items():
        permit = world["permits"][inspection["permit_id"]]
        sequence = INSPECTION_SEQUENCES[permit["kind"]]
        earlier = sequence[: sequence.index(inspection["kind"])]
        passed = {
            i["kind"]
            for i in world["inspections"].values()
            if i["permit_id"] == permit["permit_id"] and i["status"] == "passed"
        }
        if not set(earlier) <= passed or permit["status"] != "approved":
            problems.append(f"inspections[{key}] comes before its prerequisites pass")
    return problems


def _cover_on_file(company: dict[str, Any]) -> str | None:
    needed = required_cover(company["trade"])
    return None if company["liability_cover"] >= needed else f"cover {company['liability_cover']} under {needed}"


def _tagged(world: World) -> list[str]:
    return [f"{table}[{key}]" for table, records in world.items() for key in records if tag_of(key) not in SEEDS]


INVARIANTS = (
    per_record("subcontractors", "certificates on file carry their trade's minimum cover", _cover_on_file),
    per_record(
        "inspections",
        "inspections held took place before today, booked ones fall after it",
        lambda i: None if (day(i["date"]) < TODAY) == (i["status"] != "scheduled") else f"dated {i['date']}",
    ),
    per_record(
        "change_orders",
        "change orders cost something and were priced before today",
        lambda c: None if c["amount"] > 0 and day(c["priced_on"]) < TODAY else "free or priced in the future",
    ),
    Invariant("milestones run in order inside the contract", _milestones_in_order),
    Invariant("inspections pass in their permit's sequence", _inspections_in_sequence),
    Invariant("every id carries its world's tag", _tagged),
)
