"""The desk's worlds, one a seed.

Each holds three client teams and their members, eight simulated sites (their terms for automated clients, robots
rules, pages and forms), and what the desk already runs for the teams: extractions with their rows, schedules, page
watches and the changes they caught. Every id carries the world's tag. Every site has the same shape, so that every
world holds each case the policy distinguishes: public sections, one a robots rule blocks, pages behind a sign-in
and a contacts page with personal data; sites that allow automated sign-in and one that does not; schedules with a
run in progress. :data:`INVARIANTS` states what the desk's systems keep true.
"""

from __future__ import annotations

import copy
import random
from typing import Any

from taumesh.domains.factory import Invariant, SeededWorld, World, build_worlds, per_record
from taumesh.domains.web_automation.catalogue import (
    ACCOUNT_PAGES,
    ACCOUNT_SECTION,
    BLOCKED_SECTIONS,
    DIRECTORY_SECTION,
    FIRST,
    FORMS,
    LAST,
    PRODUCTS,
    PUBLIC_SECTIONS,
    SITES,
    TEAMS,
    WORDS,
)
from taumesh.domains.web_automation.clock import CONTACT, PRICE, TODAY, days_after, monthly_requests
from taumesh.domains.web_automation.records import pages_under, under

SEEDS = {"w1": 46_401, "w2": 46_402, "w3": 46_403}
"""One world per tag; the tasks of w1 and w2 are train, those of w3 test."""
TEST_WORLDS = frozenset({"w3"})
SITES_PER_WORLD, MEMBERS_PER_TEAM, PAGES_PER_SECTION = 8, 4, 3
EXTRACTIONS, SCHEDULES, WATCHES = 8, 9, 9

Rec = dict[str, Any]
TABLES = [
    "teams", "members", "sites", "robots_rules", "pages", "forms", "submissions", "account_links", "extractions",
    "schedules", "watches", "changes", "exports", "verifications", "handoffs",
]  # fmt: skip


def _teams(world: World, rng: random.Random, tag: str, index: int) -> None:
    names = [(f, last) for f in FIRST for last in LAST]
    people = rng.sample(names, 3 * MEMBERS_PER_TEAM)
    for n in range(1, 4):
        team_id = f"tm-{tag}-{n}"
        world["teams"][team_id] = {"team_id": team_id, "name": TEAMS[index * 3 + n - 1], "requests_used": 0}
    for k, (first, last) in enumerate(people, 1):
        member_id = f"mb-{tag}-{k:02d}"
        world["members"][member_id] = {
            "member_id": member_id,
            "first_name": first,
            "last_name": last,
            "employee_number": f"E-{rng.randint(10000, 99999)}",
            "passphrase": "-".join(rng.sample(WORDS, 2)),
            "team_id": f"tm-{tag}-{(k - 1) % 3 + 1}",
        }


def _page(world: World, site_id: str, key: str, path: str, title: str, fields: Rec, rng: random.Random) -> None:
    shown = "; ".join(f"{name}: {value}" for name, value in fields.items())
    world["pages"][key] = {
        "page_id": key,
        "site_id": site_id,
        "path": path,
        "title": title,
        "text": f"{title}. {shown}.",
        "requires_sign_in": under(path, ACCOUNT_SECTION),
        "fields": fields,
        "last_changed": days_after(TODAY, -rng.randint(1, 60)),
        "version": rng.randint(2, 30),
    }


def _sites(world: World, rng: random.Random, tag: str, index: int) -> None:
    for n in range(1, SITES_PER_WORLD + 1):
        site_id = f"st-{tag}-{n}"
        host, name = SITES[index * SITES_PER_WORLD + n - 1]
        world["sites"][site_id] = {
            "site_id": site_id,
            "host": host,
            "name": name,
            "rate_limit_per_min": rng.choice([10, 20, 30, 60]),
            "min_interval_minutes": rng.choice([30, 60, 120, 240]),
            "allows_automated_sign_in": n % 3 != 0,
        }
        public = rng.sample(PUBLIC_SECTIONS, 2)
        blocked = rng.choice(BLOCKED_SECTIONS)
        sections = [(p, True) for p in public] + [(blocked, False), (DIRECTORY_SECTION, True)]
        for k, (prefix, allowed) in enumerate(sections, 1):
            rule_id = f"rb-{tag}-{n}-{k}"
            world["robots_rules"][rule_id] = {
                "rule_id": rule_id,
                "site_id": site_id,
                "path_prefix": prefix,
                "allowed": allowed,
            }
        count = 0
        for prefix in [*public, blocked]:
            for product in rng.sample(PRODUCTS, PAGES_PER_SECTION):
                count += 1
                slug = product.replace(" ", "-")
                fields = {PRICE: round(rng.uniform(4, 400), 2)}
                _page(world, site_id, f"pg-{tag}-{n}-{count:02d}", f"{prefix}/{slug}", product.title(), fields, rng)
        for path, title in ACCOUNT_PAGES:
            count += 1
            _page(world, site_id, f"pg-{tag}-{n}-{count:02d}", path, title, {"open_items": rng.randint(1, 9)}, rng)
        for first, last in rng.sample([(f, la) for f in FIRST for la in LAST], 2):
            count += 1
            email = f"{first.lower()}.{last.lower()}@{host}"
            path = f"{DIRECTORY_SECTION}/{first.lower()}-{last.lower()}"
            _page(world, site_id, f"pg-{tag}-{n}-{count:02d}", path, f"{first} {last}", {CONTACT: email}, rng)
        for k, (path, title) in enumerate(rng.sample(FORMS, 2), 1):
            form_id = f"fm-{tag}-{n}-{k}"
            world["forms"][form_id] = {
                "form_id": form_id,
                "site_id": site_id,
                "path": path,
                "title": title,
                "captcha": rng.random() < 0.7,
                "max_quantity": rng.choice([5, 10, 20, 50]),
            }


def _public(world: World, site_id: str) -> list[str]:
    return [
        r["path_prefix"]
        for _, r in sorted(world["robots_rules"].items())
        if r["site_id"] == site_id and r["allowed"] and r["path_prefix"] != DIRECTORY_SECTION
    ]


def _jobs(world: World, rng: random.Random, tag: str) -> None:
    """The extractions, schedules, watches and caught changes the desk already runs for the teams."""
    sites = sorted(world["sites"])
    for n in range(1, EXTRACTIONS + 1):
        site_id = rng.choice(sites)
        personal = n % 2 == 0
        prefix = DIRECTORY_SECTION if personal else rng.choice(_public(world, site_id))
        field = CONTACT if personal else PRICE
        pages = pages_under(world, site_id, prefix)
        team_id = f"tm-{tag}-{(n - 1) % 3 + 1}"
        world["teams"][team_id]["requests_used"] += len(pages)
        key = f"ex-{tag}-{n:02d}"
        world["extractions"][key] = {
            "extraction_id": key,
            "team_id": team_id,
            "site_id": site_id,
            "path_prefix": prefix,
            "field": field,
            "rows": [{"page_id": p["page_id"], field: p["fields"][field]} for p in pages],
            "pace_per_min": world["sites"][site_id]["rate_limit_per_min"],
            "contains_personal_data": personal,
        }
    for n in range(1, SCHEDULES + 1):
        site_id = rng.choice(sites)
        prefix = rng.choice(_public(world, site_id))
        interval = world["sites"][site_id]["min_interval_minutes"] * rng.choice([1, 2])
        key = f"sc-{tag}-{n:02d}"
        world["schedules"][key] = {
            "schedule_id": key,
            "team_id": f"tm-{tag}-{(n - 1) % 3 + 1}",
            "site_id": site_id,
            "path_prefix": prefix,
            "field": PRICE,
            "interval_minutes": interval,
            "monthly_requests": monthly_requests(len(pages_under(world, site_id, prefix)), interval),
            "status": "paused" if n % 4 == 0 else "active",
            "run_in_progress": n % 4 != 0 and n % 3 == 0,
            "runs_completed": rng.randint(120, 980),
        }
    public_pages = [
        p
        for _, p in sorted(world["pages"].items())
        if PRICE in p["fields"] and any(under(p["path"], s) for s in _public(world, p["site_id"]))
    ]
    for n, page in enumerate(rng.sample(public_pages, WATCHES), 1):
        watch_id = f"wt-{tag}-{n:02d}"
        world["watches"][watch_id] = {
            "watch_id": watch_id,
            "team_id": f"tm-{tag}-{(n - 1) % 3 + 1}",
            "page_id": page["page_id"],
            "interval_hours": rng.choice([6, 12, 24]),
            "baseline_version": page["version"] - 1,
        }
        change_id = f"cg-{tag}-{n:02d}"
        world["changes"][change_id] = {
            "change_id": change_id,
            "watch_id": watch_id,
            "page_id": page["page_id"],
            "detected_on": page["last_changed"],
            "field": PRICE,
            "old_value": round(page["fields"][PRICE] * rng.choice([0.8, 0.9, 1.1, 1.25]), 2),
            "new_value": page["fields"][PRICE],
            "status": "reviewed" if n % 5 == 0 else "unreviewed",
            "reviewed_by": f"mb-{tag}-{(n - 1) % 3 + 1:02d}" if n % 5 == 0 else None,
        }


def build_world(seed: int, tag: str) -> World:
    """Every table of one world, from ``seed``; every id carries ``tag``."""
    rng = random.Random(seed)
    index = int(tag[1:]) - 1
    world: World = {name: {} for name in TABLES}
    _teams(world, rng, tag, index)
    _sites(world, rng, tag, index)
    _jobs(world, rng, tag)
    return copy.deepcopy(world)


def _blocked(world: World, site_id: str, path: str) -> bool:
    return any(
        r["site_id"] == site_id and not r["allowed"] and under(path, r["path_prefix"])
        for r in world["robots_rules"].values()
    )


def _schedules_keep_the_terms(world: World) -> list[str]:
    """A schedule runs on a path robots rules allow, no more often than its site's terms allow."""
    problems = []
    for key, schedule in world["schedules"].items():
        site = world["sites"][schedule["site_id"]]
        if schedule["interval_minutes"] < site["min_interval_minutes"]:
            problems.append(f"{key} runs more often than {site['host']} allows")
        if _blocked(world, schedule["site_id"], schedule["path_prefix"]):
            problems.append(f"{key} runs on a path the robots rules block")
    return problems


def _one_blocked_section(world: World) -> list[str]:
    """Every site blocks exactly one section, so a blocked path has one rule to name."""
    blocked = [r["site_id"] for r in world["robots_rules"].values() if not r["allowed"]]
    return [f"{key} blocks {blocked.count(key)} sections" for key in world["sites"] if blocked.count(key) != 1]


def _changes_match_their_pages(world: World) -> list[str]:
    """A change a watch caught holds its page's current value, on the day the page last changed."""
    problems = []
    for key, change in world["changes"].items():
        page = world["pages"][change["page_id"]]
        if world["watches"][change["watch_id"]]["page_id"] != change["page_id"]:
            problems.append(f"{key} is not on its watch's page")
        if page["fields"].get(change["field"]) != change["new_value"] or page["last_changed"] != change["detected_on"]:
            problems.append(f"{key} does not hold its page's current value")
        if change["old_value"] == change["new_value"]:
            problems.append(f"{key} changes nothing")
    return problems


def _extraction_rows(world: World) -> list[str]:
    """An extraction's rows are its pages' values, and it holds personal data exactly when its field is personal."""
    problems = []
    for key, extraction in world["extractions"].items():
        field = extraction["field"]
        pages = pages_under(world, extraction["site_id"], extraction["path_prefix"])
        if extraction["rows"] != [{"page_id": p["page_id"], field: p["fields"][field]} for p in pages]:
            problems.append(f"{key}'s rows are not its pages' values")
        if extraction["contains_personal_data"] != (field == CONTACT):
            problems.append(f"{key} misstates whether it holds personal data")
    return problems


def _sign_in_only_under_account(page: Rec) -> str | None:
    return (
        None
        if page["requires_sign_in"] == under(page["path"], ACCOUNT_SECTION)
        else "needs a sign-in outside the account section"
    )


def _past(page: Rec) -> str | None:
    return None if page["last_changed"] < TODAY.isoformat() else "changed after today"


def _tagged(world: World) -> list[str]:
    return [f"{table}[{key}]" for table, records in world.items() for key in records if key.split("-")[1] not in SEEDS]


INVARIANTS = (
    per_record("pages", "only account pages need a sign-in", _sign_in_only_under_account),
    per_record("pages", "every page changed before today", _past),
    Invariant("a schedule keeps its site's robots rules and shortest interval", _schedules_keep_the_terms),
    Invariant("every site's robots rules block one section", _one_blocked_section),
    Invariant("a caught change holds its page's current value", _changes_match_their_pages),
    Invariant("an extraction's rows are its pages' values", _extraction_rows),
    Invariant("every id carries its world's tag", _tagged),
)


def worlds() -> list[SeededWorld]:
    """The three worlds, each checked against :data:`INVARIANTS`."""
    return build_worlds(build_world, SEEDS, INVARIANTS)
