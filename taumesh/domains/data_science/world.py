"""The desk's worlds, one a seed.

Each holds twelve people (six analysts, three business stakeholders, three data owners), six data sets of
twenty-four customers each, the access grants on the restricted ones, and reports analysts published earlier. The
data sets play set parts (:data:`CASES`) so that every world holds each case the policy distinguishes: a data set
with no missing spend, one with a few missing values (dropped when cleaned) and one with many (imputed), restricted
and open data, and a channel group too small to compare. :data:`INVARIANTS` states what the desk's systems keep
true.
"""

from __future__ import annotations

import copy
import random
from typing import Any

from taumesh.domains.data_science.catalogue import DATASETS, FIRST, LAST, TEAMS, WORDS
from taumesh.domains.data_science.clock import GRANT_DAYS, REGIONS, TODAY, day, days_after, grant_code
from taumesh.domains.data_science.statistics import summary_figures
from taumesh.domains.factory import Invariant, SeededWorld, World, build_worlds, per_record

SEEDS = {"w1": 46_301, "w2": 46_302, "w3": 46_303}
"""One world per tag; the tasks of w1 and w2 are train, those of w3 test."""
TEST_WORLDS = frozenset({"w3"})
ROWS_PER_DATASET = 24
ANALYSTS, STAKEHOLDERS, OWNERS = (1, 2, 3, 4, 5, 6), (7, 8, 9), (10, 11, 12)
LAPSED = frozenset({5, 6, 9})
"""The people (by number in their world) whose privacy training has lapsed."""
CASES: dict[int, dict[str, Any]] = {
    1: {"restricted": True, "missing": 0, "store": 10, "owner": 10},
    2: {"restricted": False, "missing": 2, "store": 6, "owner": 10},
    3: {"restricted": False, "missing": 5, "store": 11, "owner": 11},
    4: {"restricted": False, "missing": 0, "store": 12, "owner": 11},
    5: {"restricted": True, "missing": 2, "store": 12, "owner": 12},
    6: {"restricted": True, "missing": 6, "store": 9, "owner": 12},
}
"""What each data set (by number in its world) is: restricted or open, rows without spend, store rows, owner."""
GRANTS = ((1, 1), (1, 2), (1, 7), (5, 2), (5, 3), (6, 1), (6, 4), (6, 8))
"""Active grants, as (data set, person); person 4's grant on data set 5 was revoked."""
REPORTS = ((1, 1), (2, 5), (3, 3), (4, 6), (1, 6), (2, 1), (3, 4), (5, 2), (6, 3))
"""Earlier reports, as (author, data set): each author may work on the data set."""

TABLES = [
    "requesters", "datasets", "rows", "grants", "derived_tables", "reports", "charts", "models", "verifications",
    "handoffs", "approval_apps",
]  # fmt: skip


def person(tag: str, n: int) -> str:
    """The id of person ``n`` of world ``tag``."""
    return f"rq-{tag}-{n:02d}"


def dataset(tag: str, n: int) -> str:
    """The id of data set ``n`` of world ``tag``."""
    return f"ds-{tag}-{n}"


def _people(world: World, rng: random.Random, tag: str) -> None:
    names = rng.sample([(f, last) for f in FIRST for last in LAST], 12)
    for n, (first, last) in enumerate(names, 1):
        key = person(tag, n)
        role = "analyst" if n in ANALYSTS else "stakeholder" if n in STAKEHOLDERS else "owner"
        lapse = -rng.randint(5, 200) if n in LAPSED else rng.randint(20, 300)
        world["requesters"][key] = {
            "requester_id": key,
            "first_name": first,
            "last_name": last,
            "role": role,
            "staff_number": f"ST-{rng.randint(10000, 99999)}",
            "passphrase": ".".join(rng.sample(WORDS, 2)),
            "team": rng.choice(TEAMS),
            "privacy_training_expires": days_after(TODAY, lapse),
        }
        if role == "owner":
            world["approval_apps"][key] = {
                "owner_id": key,
                "staff_number": world["requesters"][key]["staff_number"],
                "app_pin": f"{rng.randint(0, 9999):04d}",
                "signed_in": False,
                "shown": [],
            }


def _spend(rng: random.Random, visits: int, tenure: int, store: bool) -> float:
    return round(18 + 3.4 * visits + 0.45 * tenure + (9 if store else 0) + rng.gauss(0, 7), 2)


def _datasets(world: World, rng: random.Random, tag: str, index: int) -> None:
    for n, case in CASES.items():
        key = dataset(tag, n)
        name, description = DATASETS[index * 6 + n - 1]
        channels = ["store"] * case["store"] + ["web"] * (ROWS_PER_DATASET - case["store"])
        rng.shuffle(channels)
        missing = set(rng.sample([k for k in range(ROWS_PER_DATASET) if k % 4 != 3], case["missing"]))
        for k, channel in enumerate(channels):
            visits, tenure = rng.randint(1, 30), rng.randint(1, 60)
            row_id = f"{key}-r{k + 1:02d}"
            world["rows"][row_id] = {
                "row_id": row_id,
                "dataset_id": key,
                "region": rng.choice(REGIONS),
                "channel": channel,
                "visits": visits,
                "spend": None if k in missing else _spend(rng, visits, tenure, channel == "store"),
                "tenure_months": tenure,
                "split": "test" if k % 4 == 3 else "train",
            }
        world["datasets"][key] = {
            "dataset_id": key,
            "name": name,
            "description": description,
            "owner_id": person(tag, case["owner"]),
            "restricted": case["restricted"],
            "row_count": ROWS_PER_DATASET,
            "missing_spend": case["missing"],
        }


def _grants(world: World, rng: random.Random, tag: str) -> None:
    for (n, who), status in [*((g, "active") for g in GRANTS), ((5, 4), "revoked")]:
        ds, holder = dataset(tag, n), person(tag, who)
        granted = TODAY.toordinal() - rng.randint(5, 60)
        on = TODAY.fromordinal(granted)
        key = f"gr-{ds}-{holder}-1"
        world["grants"][key] = {
            "grant_id": key,
            "dataset_id": ds,
            "requester_id": holder,
            "granted_on": on.isoformat(),
            "expires_on": days_after(on, GRANT_DAYS),
            "status": status,
            "owner_code": grant_code(ds, holder),
            "revoked_on": days_after(TODAY, -rng.randint(1, 4)) if status == "revoked" else None,
        }


def _reports(world: World, rng: random.Random, tag: str) -> None:
    for n, (author, ds_number) in enumerate(REPORTS, 1):
        ds = dataset(tag, ds_number)
        column = rng.choice(["spend", "visits", "tenure_months"])
        found = [float(r[column]) for r in world["rows"].values() if r["dataset_id"] == ds and r[column] is not None]
        key = f"rp-{tag}-{n:02d}"
        world["reports"][key] = {
            "report_id": key,
            "author_id": person(tag, author),
            "table_id": ds,
            "kind": "summary",
            "column": column,
            "figures": summary_figures(found),
            "shared_with": [],
        }


def build_world(seed: int, tag: str) -> World:
    """Every table of one world, from ``seed``; every id carries ``tag``."""
    rng = random.Random(seed)
    world: World = {name: {} for name in TABLES}
    _people(world, rng, tag)
    _datasets(world, rng, tag, int(tag[1:]) - 1)
    _grants(world, rng, tag)
    _reports(world, rng, tag)
    return copy.deepcopy(world)


def _counts_match(world: World) -> list[str]:
    """A data set's row count and missing spend are those of its rows."""
    problems = []
    for key, found in world["datasets"].items():
        rows = [r for r in world["rows"].values() if r["dataset_id"] == key]
        if (len(rows), sum(r["spend"] is None for r in rows)) != (found["row_count"], found["missing_spend"]):
            problems.append(f"{key} misstates its rows or missing spend")
    return problems


def _split_scores(world: World) -> list[str]:
    """Every data set keeps at least four test rows with spend recorded, so a model can be scored."""
    problems = []
    for key in world["datasets"]:
        scored = [r for r in world["rows"].values() if r["dataset_id"] == key and r["split"] == "test" and r["spend"]]
        if len(scored) < 4:
            problems.append(f"{key} has {len(scored)} scorable test rows")
    return problems


def _grant_is_sound(world: World) -> list[str]:
    """A grant is on a restricted data set, for someone other than its owner; an active one has not expired."""
    problems = []
    for key, grant in world["grants"].items():
        found = world["datasets"][grant["dataset_id"]]
        if not found["restricted"] or found["owner_id"] == grant["requester_id"]:
            problems.append(f"{key} admits to open data or admits the owner")
        if grant["status"] == "active" and day(grant["expires_on"]) <= TODAY:
            problems.append(f"{key} is active past its expiry")
    return problems


def _report_figures(world: World) -> list[str]:
    """A report's figures are what its table's recorded values give."""
    problems = []
    for key, report in world["reports"].items():
        column = report["column"]
        found = [
            float(r[column])
            for r in world["rows"].values()
            if r["dataset_id"] == report["table_id"] and r[column] is not None
        ]
        if report["figures"] != summary_figures(found):
            problems.append(f"{key} states figures its table does not give")
    return problems


def _owner_has_app(found: dict[str, Any]) -> str | None:
    return None if found["owner_id"].split("-")[1] == found["dataset_id"].split("-")[1] else "is owned across worlds"


def _tagged(world: World) -> list[str]:
    return [
        f"{table}[{key}]" for table, records in world.items() for key in records if not set(key.split("-")) & set(SEEDS)
    ]


def _spend_positive(row: dict[str, Any]) -> str | None:
    return None if row["spend"] is None or row["spend"] > 0 else "has a spend of zero or less"


INVARIANTS = (
    per_record("rows", "a recorded spend is positive", _spend_positive),
    per_record("datasets", "a data set's owner is of its own world", _owner_has_app),
    Invariant("a data set states its own rows and missing values", _counts_match),
    Invariant("every data set can score a model on its test rows", _split_scores),
    Invariant("a grant is sound", _grant_is_sound),
    Invariant("a report's figures are its table's", _report_figures),
    Invariant("every id carries its world's tag", _tagged),
)


def worlds() -> list[SeededWorld]:
    """The three worlds, each checked against :data:`INVARIANTS`."""
    return build_worlds(build_world, SEEDS, INVARIANTS)
