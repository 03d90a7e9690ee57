"""The plant's worlds, one a seed.

Each holds lines and machines, staff and customers' buyers, work orders with their lots, quality holds and NCRs,
shift runs and maintenance windows. Every id but the parts' carries the world's tag. :data:`INVARIANTS` states what
a plant's systems keep true (an order's progress agrees with its status, a held lot has an active hold, an NCR's
severity follows its defect class, a line carries at most two rush orders, a shift's counts fit its running time)
and :func:`worlds` checks it on each world it builds.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Callable
from typing import Any

from taumesh.domains.factory import Invariant, SeededWorld, World, build_worlds, per_record
from taumesh.domains.manufacturing.catalogue import COMPANIES, FIRST, LAST, LINE_NAMES, MACHINE_KINDS, PARTS
from taumesh.domains.manufacturing.clock import RUSH_SLOTS, SEVERITY, TODAY, days_after, expedite_fee

SEEDS = {"w1": 45_201, "w2": 45_202, "w3": 45_203}
"""One world per tag; the tasks of w1 and w2 are train, those of w3 test."""
TEST_WORLDS = frozenset({"w3"})
LINES, MACHINES_PER_LINE, CUSTOMERS, ORDERS = 4, 4, 6, 44
OPERATORS, PLANNERS, BUYERS_PER_CUSTOMER = 12, 6, 2
RUSH_PER_LINE = (2, 1, 2, 0)
"""Open rush orders per line: two lines are full (policy 6.2), two have room."""

Record = dict[str, Any]
TODAY_TEXT = TODAY.isoformat()


def _past(field: str) -> Callable[[Record], str | None]:
    """A rule: ``field`` (a date, or None) is before today."""

    def rule(record: Record) -> str | None:
        value = record[field]
        return None if value is None or value < TODAY_TEXT else f"{field} {value} is not past"

    return rule


def _progress(order: Record) -> str | None:
    done, quantity, status = order["quantity_done"], order["quantity"], order["status"]
    expected = {"planned": done == 0, "in_production": 0 < done < quantity, "completed": done == quantity}
    if not expected.get(status, True):
        return f"{done} of {quantity} done does not fit status {status}"
    if status in ("planned", "in_production") and order["due_date"] <= TODAY_TEXT:
        return "an open order falls due in the past"
    return None


def _severity(ncr: Record) -> str | None:
    wanted = SEVERITY[ncr["defect_class"]]
    return None if ncr["severity"] == wanted else f"severity {ncr['severity']} is not {wanted}"


def _shift_counts(run: Record) -> str | None:
    running = run["planned_minutes"] - run["downtime_minutes"]
    if not 0 < running <= run["planned_minutes"]:
        return "downtime is not within the planned minutes"
    if not 0 < run["units_good"] <= run["units_made"] <= run["ideal_units_per_minute"] * running:
        return "units made exceed the ideal rate, or good units exceed units made"
    if (run["date"] == TODAY_TEXT) != (run["status"] == "open") or (run["status"] == "open" and run["published_oee"]):
        return "only today's run is open, and it is not published"
    return None


def _held_lots(world: World) -> list[str]:
    active = {h["lot_id"] for h in world["quality_holds"].values() if h["status"] == "active"}
    held = {key for key, lot in world["lots"].items() if lot["status"] == "on_hold"}
    problems = [f"lot {key} is on hold without an active hold" for key in sorted(held - active)]
    problems += [f"lot {key} has an active hold but is not on hold" for key in sorted(active - held)]
    return problems


def _holds_have_their_ncr(world: World) -> list[str]:
    return [
        key
        for key, hold in world["quality_holds"].items()
        if world["ncrs"].get(hold["ncr_id"], {}).get("lot_id") != hold["lot_id"]
    ]


def _rush_slots(world: World) -> list[str]:
    problems = []
    for line_id in world["lines"]:
        rush = [
            o
            for o in world["work_orders"].values()
            if o["line_id"] == line_id and o["priority"] == "rush" and o["status"] in ("planned", "in_production")
        ]
        if len(rush) > RUSH_SLOTS:
            problems.append(f"{line_id} carries {len(rush)} rush orders")
    return problems


def _handhelds(world: World) -> list[str]:
    operators = {key for key, c in world["contacts"].items() if c["role"] == "operator"}
    problems = [f"operator {key} has no handheld" for key in sorted(operators - set(world["handhelds"]))]
    problems += [
        f"handheld {key} is not its operator's badge"
        for key, h in world["handhelds"].items()
        if h["badge_number"] != world["contacts"][key]["contact_number"]
    ]
    return problems


def _tagged(world: World) -> list[str]:
    return [
        f"{table}[{key}]"
        for table, records in world.items()
        if table != "parts"
        for key in records
        if key.split("-")[1] not in SEEDS
    ]


INVARIANTS = (
    per_record("work_orders", "an order's progress agrees with its status and due date", _progress),
    per_record("ncrs", "an NCR's severity follows its defect class (policy 3.3)", _severity),
    per_record("ncrs", "NCRs were opened in the past", _past("opened")),
    per_record("shift_runs", "a shift's counts fit its running time; only today's run is open", _shift_counts),
    per_record("lots", "lots were produced in the past", _past("produced")),
    per_record("machines", "preventive maintenance was done in the past", _past("last_preventive")),
    per_record("quality_holds", "holds were placed in the past", _past("placed")),
    Invariant("a lot is on hold exactly when it has an active hold", _held_lots),
    Invariant("every hold records its NCR, on the same lot", _holds_have_their_ncr),
    Invariant("a line carries at most two open rush orders", _rush_slots),
    Invariant("every operator has a handheld under their badge", _handhelds),
    Invariant("every id but the parts' carries its world's tag", _tagged),
)


def worlds() -> list[SeededWorld]:
    """The three worlds, each checked against :data:`INVARIANTS`."""
    return build_worlds(build_world, SEEDS, INVARIANTS)


def _empty() -> World:
    names = ["customers", "contacts", "lines", "machines", "work_orders", "lots", "quality_holds", "ncrs"]
    names += ["shift_runs", "maintenance_windows", "verifications", "handoffs", "handhelds"]
    return {"parts": copy.deepcopy(PARTS), **{name: {} for name in names}}


def build_world(seed: int, tag: str) -> World:
    """Every table of one world, from ``seed``; every id but the parts' carries ``tag``."""
    rng = random.Random(seed)
    tables = _empty()
    index = sorted(SEEDS).index(tag)
    _lines(rng, tables, tag, LINE_NAMES[index * LINES : (index + 1) * LINES])
    for number, company in enumerate(COMPANIES[index * CUSTOMERS : (index + 1) * CUSTOMERS], 1):
        customer_id = f"cus-{tag}-{number:02d}"
        tables["customers"][customer_id] = {"customer_id": customer_id, "name": company}
    _people(rng, tables, tag)
    _orders(rng, tables, tag)
    _shift_runs(rng, tables, tag)
    return tables


def _lines(rng: random.Random, tables: World, tag: str, names: list[str]) -> None:
    for number, name in enumerate(names, 1):
        line_id = f"line-{tag}-{number}"
        tables["lines"][line_id] = {"line_id": line_id, "name": name}
        kinds = rng.sample(MACHINE_KINDS, MACHINES_PER_LINE)
        for kind in kinds:
            machine_id = f"mc-{tag}-{len(tables['machines']) + 1:02d}"
            last = days_after(TODAY, -rng.randint(20, 170))
            tables["machines"][machine_id] = {
                "machine_id": machine_id,
                "line_id": line_id,
                "name": f"{kind} {rng.randint(1, 9)}",
                "status": rng.choice(["running", "running", "running", "idle", "down"]),
                "last_preventive": last,
            }
            _window(tables, tag, machine_id, "preventive", last, None, "done")
            if tables["machines"][machine_id]["status"] == "down":
                started = days_after(TODAY, -rng.randint(0, 2))
                _window(tables, tag, machine_id, "repair", started, f"LT-H{rng.randint(10000, 99999)}", "in_progress")


def _window(tables: World, tag: str, machine_id: str, kind: str, date: str, tag_no: str | None, status: str) -> None:
    window_id = f"win-{tag}-{len(tables['maintenance_windows']) + 1:03d}"
    tables["maintenance_windows"][window_id] = {
        "window_id": window_id,
        "machine_id": machine_id,
        "kind": kind,
        "date": date,
        "lockout_tag": tag_no,
        "status": status,
    }


def _contact(rng: random.Random, tables: World, tag: str, name: tuple[str, str], role: str) -> Record:
    contact_id = f"ct-{tag}-{len(tables['contacts']) + 1:03d}"
    staff = role != "buyer"
    contact = {
        "contact_id": contact_id,
        "first_name": name[0],
        "last_name": name[1],
        "role": role,
        "contact_number": f"B{rng.randint(10000, 99999)}" if staff else f"AC-{rng.randint(100000, 999999)}",
        "desk_pin": f"{rng.randint(1000, 9999)}",
        "customer_id": None,
        "home_line": None,
        "lockout_certified_until": None,
    }
    tables["contacts"][contact_id] = contact
    return contact


def _people(rng: random.Random, tables: World, tag: str) -> None:
    names = rng.sample([(f, last) for f in FIRST for last in LAST], OPERATORS + PLANNERS + 2 * CUSTOMERS)
    lines = sorted(tables["lines"])
    for number in range(OPERATORS):
        operator = _contact(rng, tables, tag, names.pop(), "operator")
        operator["home_line"] = lines[number % len(lines)]
        certified = rng.random()
        if certified < 0.7:
            operator["lockout_certified_until"] = days_after(TODAY, rng.randint(20, 500))
        elif certified < 0.88:
            operator["lockout_certified_until"] = days_after(TODAY, -rng.randint(3, 120))
        tables["handhelds"][operator["contact_id"]] = {
            "contact_id": operator["contact_id"],
            "badge_number": operator["contact_number"],
            "pin": f"{rng.randint(100000, 999999)}",
            "signed_in": False,
            "screen": ["Shift messages: none."],
        }
    for _ in range(PLANNERS):
        _contact(rng, tables, tag, names.pop(), "planner")
    for customer_id in sorted(tables["customers"]):
        for _ in range(BUYERS_PER_CUSTOMER):
            _contact(rng, tables, tag, names.pop(), "buyer")["customer_id"] = customer_id


def _orders(rng: random.Random, tables: World, tag: str) -> None:
    lines = sorted(tables["lines"])
    rush_left = dict(zip(lines, RUSH_PER_LINE, strict=True))
    customers = sorted(tables["customers"])
    for number in range(ORDERS):
        status = rng.choice(["planned", "planned", "in_production", "in_production", "in_production", "completed"])
        line_id = lines[number % len(lines)]
        quantity = rng.randrange(200, 2401, 50)
        done = {"planned": 0, "completed": quantity}.get(status, rng.randrange(50, quantity, 25))
        due = days_after(TODAY, -rng.randint(3, 40) if status == "completed" else rng.randint(4, 40))
        rush = status != "completed" and rush_left[line_id] > 0 and rng.random() < 0.5
        rush_left[line_id] -= rush
        order_id = f"wo-{tag}-{number + 1:03d}"
        part = PARTS[rng.choice(sorted(PARTS))]
        tables["work_orders"][order_id] = {
            "work_order_id": order_id,
            "customer_id": customers[number % len(customers)],
            "part_id": part["part_id"],
            "line_id": line_id,
            "quantity": quantity,
            "quantity_done": done,
            "due_date": due,
            "status": status,
            "priority": "rush" if rush else "standard",
            "revisions": 0,
            "expedite_fee": expedite_fee(quantity * part["unit_price"]) if rush else None,
            "cancellation": None,
            "cancellation_fee": None,
        }
        if done:
            _lots(rng, tables, tag, tables["work_orders"][order_id])


def _lots(rng: random.Random, tables: World, tag: str, order: Record) -> None:
    left = order["quantity_done"]
    shipped = order["status"] == "completed"
    while left > 0:
        size = min(left, rng.randrange(100, 700, 25))
        left -= size
        lot_id = f"lot-{tag}-{len(tables['lots']) + 1:03d}"
        lot = {
            "lot_id": lot_id,
            "work_order_id": order["work_order_id"],
            "quantity": size,
            "produced": days_after(TODAY, -rng.randint(2, 30)),
            "status": "shipped" if shipped and rng.random() < 0.8 else "in_stock",
        }
        tables["lots"][lot_id] = lot
        if lot["status"] == "in_stock" and rng.random() < 0.38:
            _hold(rng, tables, tag, lot, active=True)
        elif rng.random() < 0.15:
            _hold(rng, tables, tag, lot, active=False)


def _hold(rng: random.Random, tables: World, tag: str, lot: Record, active: bool) -> None:
    defect = rng.choice(sorted(SEVERITY))
    ncr_id = f"ncr-{tag}-{len(tables['ncrs']) + 1:03d}"
    opened = days_after(lot["produced"], rng.randint(0, 1))
    opened = min(opened, days_after(TODAY, -1))
    closed = not active or rng.random() < 0.6
    dispositions = ["rework", "rework", "scrap"] + (["use_as_is"] if SEVERITY[defect] == "minor" else [])
    tables["ncrs"][ncr_id] = {
        "ncr_id": ncr_id,
        "lot_id": lot["lot_id"],
        "defect_class": defect,
        "severity": SEVERITY[defect],
        "quantity_affected": rng.randrange(25, lot["quantity"] + 1, 25) if lot["quantity"] >= 25 else lot["quantity"],
        "opened": opened,
        "status": "closed" if closed else "open",
        "disposition": rng.choice([d for d in dispositions if active or d != "scrap"]) if closed else None,
        "customer_escape": False,
    }
    hold_id = f"hold-{tag}-{len(tables['quality_holds']) + 1:03d}"
    tables["quality_holds"][hold_id] = {
        "hold_id": hold_id,
        "lot_id": lot["lot_id"],
        "ncr_id": ncr_id,
        "placed": opened,
        "status": "active" if active else "released",
        "release_scan": None,
    }
    if active:
        lot["status"] = "on_hold"


def _shift_runs(rng: random.Random, tables: World, tag: str) -> None:
    for line_id in sorted(tables["lines"]):
        for back in (3, 2, 1, 0):
            for shift in ("day", "night") if back else ("day",):
                planned = rng.choice([450, 480, 510])
                downtime = rng.randrange(10, 140, 5)
                rate = rng.choice([1.5, 2.0, 2.5, 3.2, 4.0])
                made = int(rate * (planned - downtime) * rng.uniform(0.62, 0.97))
                good = made - rng.randint(1, max(2, made // 14))
                run_id = f"run-{tag}-{len(tables['shift_runs']) + 1:03d}"
                closed = back > 0
                tables["shift_runs"][run_id] = {
                    "run_id": run_id,
                    "line_id": line_id,
                    "date": days_after(TODAY, -back),
                    "shift": shift,
                    "planned_minutes": planned,
                    "downtime_minutes": downtime,
                    "ideal_units_per_minute": rate,
                    "units_made": made,
                    "units_good": good,
                    "status": "closed" if closed else "open",
                    "published_oee": None,
                }
