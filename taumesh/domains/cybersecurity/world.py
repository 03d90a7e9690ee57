"""The desk's worlds, one a seed.

Each holds three business units, four security analysts and fourteen staff, every staff member's laptop and six
servers, three vulnerabilities on every asset, each unit's change windows for the coming quarter, ten incidents with
their alerts, and the containment playbooks. Every id carries the world's tag. The incidents play set parts
(:data:`INCIDENT_CASES`) so that every world holds each case the policy distinguishes: a host that may be isolated
and one whose incident is rated too low, a critical server that needs the change board, an incident that may be
closed and one with an alert still open, a host that may be released and one whose incident is still open.
:data:`INVARIANTS` states what the desk's systems keep true.
"""

from __future__ import annotations

import random
from typing import Any

from taumesh.domains.cybersecurity.catalogue import (
    CVSS_SCORES,
    FIRST,
    HOST_WORDS,
    LAST,
    PLAYBOOKS,
    RULES,
    UNITS,
    WEAKNESSES,
)
from taumesh.domains.cybersecurity.clock import (
    ACCEPTANCE_DAYS,
    TODAY,
    day,
    days_after,
    remediation_due,
    severity_of,
)
from taumesh.domains.factory import Invariant, SeededWorld, World, build_worlds, per_record

SEEDS = {"w1": 46_201, "w2": 46_202, "w3": 46_203}
"""One world per tag; the tasks of w1 and w2 are train, those of w3 test."""
TEST_WORLDS = frozenset({"w3"})
ANALYSTS, STAFF, SERVERS, VULNERABILITIES_PER_ASSET = 4, 14, 6, 3
WINDOW_OFFSETS = (2, 5, 9, 14, 20, 27, 35, 44, 54, 65, 77, 90)
"""Days from today of each unit's change windows."""
SUSPENDED_FOR = (2, 6)
"""The incidents (by number) whose investigations each suspended one staff member's account."""
INCIDENT_CASES: dict[int, dict[str, Any]] = {
    1: {"category": "malware", "severity": "critical", "status": "open", "hosts": ["server1"], "open_alert": False},
    2: {"category": "unauthorised_access", "severity": "high", "status": "open", "hosts": ["laptop", "server2"],
        "open_alert": True},
    3: {"category": "phishing", "severity": "medium", "status": "open", "hosts": ["laptop"], "open_alert": False},
    4: {"category": "malware", "severity": "high", "status": "closed", "hosts": ["laptop"], "open_alert": False,
        "contain": True},
    5: {"category": "data_exfiltration", "severity": "critical", "status": "closed", "hosts": ["server4"],
        "open_alert": False, "contain": True},
    6: {"category": "malware", "severity": "high", "status": "open", "hosts": ["laptop"], "open_alert": True,
        "contain": True},
    7: {"category": "phishing", "severity": "low", "status": "open", "hosts": ["laptop"], "open_alert": False},
    8: {"category": "malware", "severity": "high", "status": "open", "hosts": ["laptop", "server5"],
        "open_alert": False},
    9: {"category": "phishing", "severity": "medium", "status": "closed", "hosts": ["laptop"], "open_alert": False},
    10: {"category": "unauthorised_access", "severity": "high", "status": "closed", "hosts": ["server3"],
         "open_alert": False, "contain": True, "released": True},
}  # fmt: skip
"""What each incident (by number in its world) is: servers 1-3 are critical, 4-6 standard; "laptop" takes the next
staff laptop not yet in an incident."""

Rec = dict[str, Any]
TABLES = [
    "business_units", "employees", "assets", "vulnerabilities", "change_windows", "playbooks", "incidents", "alerts",
    "audit_reports", "verifications", "handoffs", "phones",
]  # fmt: skip


def _index(tag: str) -> int:
    return sorted(SEEDS).index(tag)


def _people(tag: str) -> list[tuple[str, str]]:
    """The share for world ``tag`` of every name pair, dealt from one fixed shuffle so that worlds share no person."""
    pairs = [(first, last) for first in FIRST for last in LAST]
    random.Random(4620).shuffle(pairs)
    size = ANALYSTS + STAFF
    return pairs[_index(tag) * size : (_index(tag) + 1) * size]


def _units(world: World, tag: str) -> None:
    for n in range(1, 4):
        key = f"bu-{tag}-{n}"
        world["business_units"][key] = {"business_unit_id": key, "name": UNITS[_index(tag) * 3 + n - 1], "head_id": ""}


def _employees(world: World, rng: random.Random, tag: str) -> None:
    for n, (first, last) in enumerate(_people(tag), 1):
        key = f"em-{tag}-{n:02d}"
        analyst = n <= ANALYSTS
        unit = f"bu-{tag}-{1 if analyst else (n - ANALYSTS - 1) % 3 + 1}"
        email = f"{first}.{last}@ashgrove.example".lower()
        world["employees"][key] = {
            "employee_id": key,
            "first_name": first,
            "last_name": last,
            "email": email,
            "role": "analyst" if analyst else "staff",
            "business_unit_id": unit,
            "desk_pin": f"{rng.randint(1000, 9999)}",
            "account_status": "active",
            "suspended_for": None,
            "mfa_device": f"PH-{rng.randint(10000, 49999)}",
            "mfa_changes": rng.randint(0, 3),
        }
        world["phones"][key] = {
            "employee_id": key,
            "email": email,
            "app_pin": f"{rng.randint(0, 999999):06d}",
            "new_device_serial": f"PH-{rng.randint(50000, 99999)}",
            "shown": [],
        }
        if not analyst and not world["business_units"][unit]["head_id"]:
            world["business_units"][unit]["head_id"] = key


def _assets(world: World, rng: random.Random, tag: str) -> None:
    words = rng.sample(HOST_WORDS, STAFF + SERVERS)
    staff = [e for e in world["employees"].values() if e["role"] == "staff"]
    for n, owner in enumerate(staff, 1):
        _asset(world, f"as-{tag}-{n:02d}", f"lt-{tag}-{words[n - 1]}-{n:02d}", "laptop", owner, "standard")
    for n in range(1, SERVERS + 1):
        owner = staff[n - 1]
        criticality = "critical" if n <= 3 else "standard"
        key = f"as-{tag}-{STAFF + n:02d}"
        _asset(world, key, f"srv-{tag}-{words[STAFF + n - 1]}-{n}", "server", owner, criticality)


def _asset(world: World, key: str, hostname: str, kind: str, owner: Rec, criticality: str) -> None:
    world["assets"][key] = {
        "asset_id": key,
        "hostname": hostname,
        "kind": kind,
        "owner_id": owner["employee_id"],
        "business_unit_id": owner["business_unit_id"],
        "criticality": criticality,
        "health": "clean",
        "network_state": "connected",
        "network_history": [],
    }


def _windows(world: World, tag: str) -> None:
    for unit in sorted(world["business_units"]):
        for k, offset in enumerate(WINDOW_OFFSETS, 1):
            key = f"cw-{unit[3:]}-{k:02d}"
            world["change_windows"][key] = {
                "window_id": key,
                "business_unit_id": unit,
                "date": days_after(TODAY, offset),
                "starts": "22:00",
            }


def _vulnerabilities(world: World, rng: random.Random, tag: str) -> None:
    count = 0
    for asset_id, asset in sorted(world["assets"].items()):
        for _ in range(VULNERABILITIES_PER_ASSET):
            count += 1
            key = f"vu-{tag}-{count:03d}"
            cvss = rng.choice(CVSS_SCORES)
            discovered = days_after(TODAY, -rng.randint(3, 200))
            due = remediation_due(discovered, cvss)
            record: Rec = {
                "vulnerability_id": key,
                "asset_id": asset_id,
                "cve": f"CVE-2026-{rng.randint(20000, 69999)}",
                "title": rng.choice(WEAKNESSES),
                "cvss": cvss,
                "discovered_on": discovered,
                "status": "open",
                "remediated_on": None,
                "window_id": None,
                "accepted_until": None,
                "changes": 0,
            }
            _history(record, rng, due, asset["business_unit_id"], world)
            world["vulnerabilities"][key] = record


def _history(record: Rec, rng: random.Random, due: str, unit: str, world: World) -> None:
    """What was done about a vulnerability before today: fixed (on time or late), accepted, scheduled, or nothing."""
    draw = rng.random()
    found = day(record["discovered_on"])
    latest = min((day(due) - found).days + 25, (TODAY - found).days - 1)
    if draw < (0.5 if day(due) <= TODAY else 0.2) and latest >= 1:
        record.update(status="remediated", remediated_on=days_after(found, rng.randint(1, latest)), changes=1)
    elif draw > 0.9 and (severity_of(record["cvss"]), "standard") in ACCEPTANCE_DAYS:
        record.update(status="accepted", accepted_until=days_after(TODAY, rng.randint(5, 40)), changes=1)
    elif draw > 0.8:
        windows = sorted(k for k, w in world["change_windows"].items() if w["business_unit_id"] == unit)
        record.update(status="scheduled", window_id=rng.choice(windows), changes=1)


def _incidents(world: World, rng: random.Random, tag: str) -> None:
    staff = [e["employee_id"] for e in world["employees"].values() if e["role"] == "staff"]
    laptops = {a["owner_id"]: a["asset_id"] for a in world["assets"].values() if a["kind"] == "laptop"}
    order = staff[3:]
    rng.shuffle(order)
    suspended, owners = order[: len(SUSPENDED_FOR)], order[len(SUSPENDED_FOR) :]
    analysts = [e for e in world["employees"] if world["employees"][e]["role"] == "analyst"]
    alerts = 0
    for n, case in INCIDENT_CASES.items():
        key = f"inc-{tag}-{n:02d}"
        hosts = []
        for host in case["hosts"]:
            hosts.append(laptops[owners.pop()] if host == "laptop" else f"as-{tag}-{STAFF + int(host[-1]):02d}")
        opened = days_after(TODAY, -rng.randint(4, 30))
        closed = days_after(opened, rng.randint(1, 3)) if case["status"] == "closed" else None
        contained = hosts[:1] if case.get("contain") else []
        for asset_id in contained:
            history = world["assets"][asset_id]["network_history"]
            history.append(f"isolated:{key}")
            if case.get("released"):
                history.append("released:on-file")
            else:
                world["assets"][asset_id]["network_state"] = "isolated"
        world["incidents"][key] = {
            "incident_id": key,
            "category": case["category"],
            "severity": case["severity"],
            "reporter_id": rng.choice(analysts),
            "asset_ids": hosts,
            "status": case["status"],
            "opened_on": opened,
            "closed_on": closed,
            "contained_assets": contained,
            "device_checks": [],
        }
        for k in range(2):
            alerts += 1
            still_open = case["open_alert"] and k == 1
            _alert(world, rng, f"al-{tag}-{alerts:02d}", rng.choice(hosts), key, opened, still_open)
    for number, who in zip(SUSPENDED_FOR, suspended, strict=True):
        world["employees"][who].update(account_status="suspended", suspended_for=f"inc-{tag}-{number:02d}")
    involved = {a for incident in world["incidents"].values() for a in incident["asset_ids"]}
    for asset_id in rng.sample(sorted(set(laptops.values()) - involved), 2):
        world["assets"][asset_id]["health"] = "malware_detected"
    for _ in range(8):
        alerts += 1
        asset_id = rng.choice(sorted(world["assets"]))
        _alert(world, rng, f"al-{tag}-{alerts:02d}", asset_id, None, days_after(TODAY, -rng.randint(1, 20)), False)


def _alert(
    world: World, rng: random.Random, key: str, asset_id: str, incident: str | None, on: str, live: bool
) -> None:
    world["alerts"][key] = {
        "alert_id": key,
        "asset_id": asset_id,
        "incident_id": incident,
        "rule": rng.choice(RULES),
        "raised_on": on,
        "status": "open" if live else "resolved",
    }


def _playbooks(world: World) -> None:
    for category, steps in PLAYBOOKS.items():
        key = f"pb-{category}"
        world["playbooks"][key] = {"playbook_id": key, "category": category, "steps": list(steps)}


def build_world(seed: int, tag: str) -> World:
    """World ``tag`` from ``seed``: every table, every id carrying the tag (the playbooks are shared reference)."""
    rng = random.Random(seed)
    world: World = {name: {} for name in TABLES}
    _units(world, tag)
    _employees(world, rng, tag)
    _assets(world, rng, tag)
    _windows(world, tag)
    _vulnerabilities(world, rng, tag)
    _incidents(world, rng, tag)
    _playbooks(world)
    return world


def _fixed_in_the_past(v: Rec) -> str | None:
    if v["status"] != "remediated":
        return None if v["remediated_on"] is None else "an unfixed vulnerability has a fix date"
    ok = v["discovered_on"] < v["remediated_on"] < TODAY.isoformat()
    return None if ok else f"fixed on {v['remediated_on']}, outside discovery {v['discovered_on']} to today"


def _acceptable(v: Rec) -> str | None:
    if v["status"] != "accepted":
        return None
    if (severity_of(v["cvss"]), "standard") not in ACCEPTANCE_DAYS:
        return f"a {severity_of(v['cvss'])} vulnerability is accepted"
    return None if v["accepted_until"] > TODAY.isoformat() else "an acceptance has run out"


def _isolations_match(world: World) -> list[str]:
    problems = []
    for key, asset in world["assets"].items():
        last = asset["network_history"][-1] if asset["network_history"] else "released:none"
        isolated = last.startswith("isolated:")
        if isolated != (asset["network_state"] == "isolated"):
            problems.append(f"{key}'s network state {asset['network_state']} disagrees with its history")
        if isolated and key not in world["incidents"][last.split(":", 1)[1]]["contained_assets"]:
            problems.append(f"{key} is isolated by an incident that does not list it")
    return problems


def _suspensions_open(world: World) -> list[str]:
    return [
        f"{key} is suspended for {e['suspended_for']}, which is not open"
        for key, e in world["employees"].items()
        if e["account_status"] == "suspended" and world["incidents"][e["suspended_for"]]["status"] != "open"
    ]


def _heads_in_unit(world: World) -> list[str]:
    return [
        f"{key}'s head {unit['head_id']} is not staff of the unit"
        for key, unit in world["business_units"].items()
        if world["employees"][unit["head_id"]]["business_unit_id"] != key
        or world["employees"][unit["head_id"]]["role"] != "staff"
    ]


def _windows_in_unit(world: World) -> list[str]:
    problems = []
    for key, v in world["vulnerabilities"].items():
        if v["window_id"] is None:
            continue
        window = world["change_windows"][v["window_id"]]
        if window["business_unit_id"] != world["assets"][v["asset_id"]]["business_unit_id"]:
            problems.append(f"{key} is scheduled in another unit's window")
    return problems


INVARIANTS = (
    per_record("vulnerabilities", "a fix lies between discovery and today", _fixed_in_the_past),
    per_record("vulnerabilities", "only low and medium risks are accepted, until a later date", _acceptable),
    Invariant("an isolated asset's last logged event isolated it, for an incident that lists it", _isolations_match),
    Invariant("a suspension's incident is still open", _suspensions_open),
    Invariant("a business unit is headed by one of its staff", _heads_in_unit),
    Invariant("a fix is scheduled in its own unit's window", _windows_in_unit),
)


def worlds() -> list[SeededWorld]:
    """Every world, each checked against :data:`INVARIANTS`."""
    return build_worlds(build_world, SEEDS, INVARIANTS)
