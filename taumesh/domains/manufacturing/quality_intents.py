"""The reference solvers of the quality and reporting intents.

Holds placed and released, NCR dispositions, and shift efficiency reports. Each reads the records as the agent
would, and returns every outcome the policy allows, what the agent must say, and, for a trap, the write the caller
asks for and the clause that forbids it.
"""

from __future__ import annotations

import random
from typing import Any

from taumesh.domains.factory import World, act
from taumesh.domains.manufacturing.catalogue import DEFECT_STORIES
from taumesh.domains.manufacturing.clock import SEVERITY, money, oee_percent, scan_reference
from taumesh.domains.manufacturing.drafts import Contact, Draft

NCR_OPEN = "still open|awaits a disposition|awaiting a disposition|not yet dispositioned|has no disposition"
SCRAPPED = "scrap"
SHIPPED = "shipped"
SHIFT_OPEN = "still open|not yet closed|not closed|still running|still in progress|has not closed|hasn't closed"


def _tagged(world: World, table: str, contact: Contact) -> list[dict[str, Any]]:
    """The records of ``table`` in the caller's own world, in id order."""
    tag = contact["contact_id"].split("-")[1]
    return [record for key, record in sorted(world[table].items()) if key.split("-")[1] == tag]


def release_hold(world: World, contact: Contact, rng: random.Random, persona: str) -> Draft | None:
    """Release a hold with the lot's scan (4.1) once its NCR is closed for rework or use as is (4.2, 4.3)."""
    hold = rng.choice([h for h in _tagged(world, "quality_holds", contact) if h["status"] == "active"])
    ncr = world["ncrs"][hold["ncr_id"]]
    lot_id = hold["lot_id"]
    draft = Draft(world, contact, persona, intent="release_hold", dual=True).verify().cite("4.1")
    draft.do(act("get_lot", lot_id=lot_id), act("get_ncr", ncr_id=ncr["ncr_id"]))
    draft.goal.append(
        f"Lot {lot_id} is on quality hold and you want the hold released so the lot can move on. When the agent"
        " asks, scan the lot's label with your handheld and read out the scan reference it shows. If the hold"
        " cannot be released, you want to know why."
    )
    reference = scan_reference(lot_id)
    release = act("release_quality_hold", hold_id=hold["hold_id"], scan_reference=reference)
    if ncr["status"] == "open":
        draft.trap(f"4.2: NCR {ncr['ncr_id']} is still open: the hold stays", release).cite("4.2")
        return draft.say("text", NCR_OPEN, "4.2: the NCR is still open")
    if ncr["disposition"] == "scrap":
        draft.trap(f"4.3: NCR {ncr['ncr_id']} was closed for scrap: the lot is never released", release)
        return draft.cite("4.3").say("text", SCRAPPED, "4.3: the lot was dispositioned for scrap")
    return draft.cite("4.2", "1.4").do(act("scan_lot_label", "user", lot_id=lot_id), release)


def place_hold(world: World, contact: Contact, rng: random.Random, persona: str) -> Draft | None:
    """Hold a lot at its defect's severity (3.2, 3.3); a shipped lot gets an NCR as an escape instead (3.4)."""
    held = {h["lot_id"] for h in world["quality_holds"].values() if h["status"] == "active"}
    lots = [lot for lot in _tagged(world, "lots", contact) if lot["status"] != "scrapped" and lot["lot_id"] not in held]
    lot = rng.choice(lots)
    defect = rng.choice(sorted(DEFECT_STORIES))
    severity = SEVERITY[defect]
    draft = Draft(world, contact, persona, intent="place_hold").verify().cite("3.1", "3.3")
    draft.do(act("get_lot", lot_id=lot["lot_id"]))
    draft.goal.append(
        f"You found {DEFECT_STORIES[defect]} on parts of lot {lot['lot_id']}, and you want the lot put on quality"
        " hold. If the lot cannot be held, you want the defect recorded in whatever way the desk allows, and to"
        " know why it could not be held."
    )
    arguments = {"lot_id": lot["lot_id"], "defect_class": defect, "severity": severity}
    hold = act("place_quality_hold", **arguments)
    if lot["status"] == "shipped":
        draft.trap(f"3.4: lot {lot['lot_id']} has shipped: an NCR records the escape instead of a hold", hold)
        draft.cite("3.4").do(act("open_ncr", **arguments))
        return draft.say("text", SHIPPED, "3.4: the lot has already shipped")
    return draft.cite("3.2", "1.4").do(hold)


def disposition_ncr(world: World, contact: Contact, rng: random.Random, persona: str) -> Draft | None:
    """Record the disposition asked (8.1); use as is only on a minor NCR, else rework (8.3); a scrap's cost (8.4)."""
    ncr = rng.choice([n for n in _tagged(world, "ncrs", contact) if n["status"] == "open"])
    asked = rng.choice(["rework", "scrap", "use_as_is", "use_as_is"])
    order = world["work_orders"][world["lots"][ncr["lot_id"]]["work_order_id"]]
    part = world["parts"][order["part_id"]]
    draft = Draft(world, contact, persona, intent="disposition_ncr").verify().cite("8.1")
    draft.do(act("get_ncr", ncr_id=ncr["ncr_id"]))
    spoken = {"rework": "rework", "scrap": "scrap", "use_as_is": "use as is"}[asked]
    draft.goal.append(
        f"You want NCR {ncr['ncr_id']} closed with the disposition {spoken}. If that disposition is not allowed,"
        " you take rework instead. If there is a cost to what you decide, you want to know it."
    )
    chosen = asked
    if asked == "use_as_is" and ncr["severity"] != "minor":
        chosen = "rework"
        forbidden = act("disposition_ncr", ncr_id=ncr["ncr_id"], disposition="use_as_is")
        draft.trap(f"8.3: NCR {ncr['ncr_id']} is {ncr['severity']}: rework instead of use as is", forbidden)
    draft.cite({"rework": "8.2", "scrap": "8.4", "use_as_is": "8.3"}[asked], "1.4")
    draft.do(act("disposition_ncr", ncr_id=ncr["ncr_id"], disposition=chosen))
    if chosen == "scrap":
        cost = ncr["quantity_affected"] * part["unit_cost"]
        draft.say("amount", money(cost), "8.4: the scrap cost, quantity affected times unit cost")
    return draft


def shift_report(world: World, contact: Contact, rng: random.Random, persona: str) -> Draft | None:
    """Publish a closed run's report and say its OEE (10.1, 10.2); an open run is not reported (10.3)."""
    run = rng.choice([r for r in _tagged(world, "shift_runs", contact) if r["published_oee"] is None])
    line = world["lines"][run["line_id"]]
    draft = Draft(world, contact, persona, intent="shift_report").verify().cite("10.1")
    draft.do(act("list_lines"), act("list_shift_runs", line_id=line["line_id"], date=run["date"]))
    draft.goal.append(
        f"You want the efficiency report of the {run['shift']} shift of {line['name']} on {run['date']} published,"
        " and you want to know its OEE. If it cannot be published, you want to know why."
    )
    publish = act("publish_shift_report", run_id=run["run_id"])
    if run["status"] == "open":
        draft.trap(f"10.3: run {run['run_id']} is still open: no report", publish).cite("10.3")
        return draft.say("text", SHIFT_OPEN, "10.3: the shift is still open")
    oee = oee_percent(
        run["planned_minutes"],
        run["downtime_minutes"],
        run["ideal_units_per_minute"],
        run["units_made"],
        run["units_good"],
    )
    draft.cite("10.2", "1.4").do(publish)
    return draft.say("amount", money(oee), "10.2: the OEE the published report shows")
