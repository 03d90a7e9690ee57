"""The reference solvers of an operator's intents: burns, commands, leaving safe mode, alarms.

Every change to what a spacecraft does needs the operator's second approval, read from their console (dual
control): the operator signs in to it before calling, and displays the code for the exact record the desk changes.
"""

from __future__ import annotations

import random
from typing import Any

from taumesh.domains.factory import World, act
from taumesh.domains.space.catalogue import CHANNELS
from taumesh.domains.space.clock import MANEUVER_THRESHOLD, PAYLOAD_COMMANDS, approval_code, days_ahead
from taumesh.domains.space.drafts import Caller, Draft

BELOW_THRESHOLD = "threshold|below 0.0001|below 1e-4|less than 0.0001|under 0.0001|too low to"
SAFE_MODE = "safe mode|safe-mode|safemode"


def _craft_words(world: World, spacecraft_id: str) -> str:
    return f"{world['spacecraft'][spacecraft_id]['name']} ({spacecraft_id})"


def _latest(world: World, channel_id: str) -> dict[str, Any]:
    readings = [r for r in world["readings"].values() if r["channel_id"] == channel_id]
    return max(readings, key=lambda r: r["time_utc"])


def _outside(world: World, channel_id: str) -> bool:
    channel = world["channels"][channel_id]
    return not channel["low"] <= _latest(world, channel_id)["value"] <= channel["high"]


def _approve(draft: Draft, subject_id: str, write: str, **kwargs: Any) -> Draft:
    """The operator displays the code for ``subject_id``; the desk makes ``write`` with it (2.4)."""
    code = approval_code(subject_id)
    shown = act("show_approval_code", "user", subject_id=subject_id)
    return draft.do(shown, act(write, **kwargs, approval_code=code))


def approve_maneuver(
    world: World, caller: Caller, maneuver: dict[str, Any], rng: random.Random, persona: str
) -> Draft | None:
    """Approve a burn worth making (7.1) that spares the reserve (7.2) with the operator's code (7.3)."""
    conjunction = world["conjunctions"][maneuver["conjunction_id"]]
    craft = world["spacecraft"][maneuver["spacecraft_id"]]
    unlikely = conjunction["probability"] < MANEUVER_THRESHOLD
    short = craft["propellant_kg"] - maneuver["propellant_kg"] < craft["reserve_kg"]
    if unlikely and short:
        return None  # one reason per task
    draft = Draft(world, caller, persona, intent="approve_maneuver", dual=True).identify().cite("7.1", "7.2", "7.3")
    draft.do(act("get_maneuver", maneuver_id=maneuver["maneuver_id"]))
    draft.goal.append(
        f"You are the second approver for avoidance manoeuvre {maneuver['maneuver_id']}, planned for"
        f" {_craft_words(world, craft['spacecraft_id'])} against {conjunction['object_name']}, and you want it"
        " approved. When the agent asks, display the approval code for the manoeuvre on your console and read it"
        " out. If it cannot be approved, you want to know why, and you accept being passed to whoever can help."
    )
    forbidden = act(
        "approve_maneuver", maneuver_id=maneuver["maneuver_id"], approval_code=approval_code(maneuver["maneuver_id"])
    )
    if unlikely:
        draft.trap(f"7.1: probability {conjunction['probability']} is below 0.0001", forbidden)
        return draft.say("text", BELOW_THRESHOLD, "7.1: the probability is below the threshold")
    if short:
        draft.trap(f"7.2: the burn would leave {craft['spacecraft_id']} below its reserve: a hand-off", forbidden)
        return draft.cite("11.1").do(act("transfer_to_human_agents", caller_id=draft.cid, team="flight_dynamics"))
    return _approve(draft.cite("1.4"), maneuver["maneuver_id"], "approve_maneuver", maneuver_id=maneuver["maneuver_id"])


def queue_command(
    world: World, caller: Caller, found: dict[str, Any], rng: random.Random, persona: str
) -> Draft | None:
    """Queue a command on a booked pass (8.1) with its code (8.2); no payload command in safe mode (8.3)."""
    if found["status"] != "booked" or days_ahead(found["date"]) < 1:
        return None
    craft = world["spacecraft"][found["spacecraft_id"]]
    command = rng.choice(["payload_power_on", "start_imaging_sequence", "dump_housekeeping", "reset_reaction_wheel"])
    draft = Draft(world, caller, persona, intent="queue_command", dual=True).identify().cite("8.1", "8.2", "8.3")
    draft.do(act("get_spacecraft", spacecraft_id=craft["spacecraft_id"]))
    draft.do(act("list_passes", spacecraft_id=craft["spacecraft_id"]))
    station = world["ground_stations"][found["station_id"]]["name"]
    draft.goal.append(
        f"You want the command {command} queued for {_craft_words(world, craft['spacecraft_id'])} on its booked"
        f" pass {found['pass_id']} over {station} on {found['date']}. When the agent asks, display the approval"
        " code for the pass on your console and read it out. If it cannot be queued, you want to know why."
    )
    if craft["mode"] == "safe" and command in PAYLOAD_COMMANDS:
        forbidden = act(
            "queue_command", pass_id=found["pass_id"], command=command, approval_code=approval_code(found["pass_id"])
        )
        draft.trap(f"8.3: {craft['spacecraft_id']} is in safe mode: no payload command", forbidden)
        return draft.say("text", SAFE_MODE, "8.3: the spacecraft is in safe mode")
    return _approve(
        draft.cite("8.4", "1.4"), found["pass_id"], "queue_command", pass_id=found["pass_id"], command=command
    )


def recover_spacecraft(
    world: World, caller: Caller, craft: dict[str, Any], rng: random.Random, persona: str
) -> Draft | None:
    """Return a spacecraft to nominal mode (9.1) with its code (9.3), unless a channel is out of limits (9.2)."""
    if craft["mode"] != "safe":
        return None
    draft = Draft(world, caller, persona, intent="recover_spacecraft", dual=True).identify().cite("9.1", "9.3")
    draft.do(act("get_telemetry", spacecraft_id=craft["spacecraft_id"]))
    draft.goal.append(
        f"{_craft_words(world, craft['spacecraft_id'])} is in safe mode and you want it returned to nominal mode."
        " When the agent asks, display the approval code for the spacecraft on your console and read it out. If it"
        " has to stay in safe mode, you want to know why."
    )
    faulty = [
        c
        for key, c in sorted(world["channels"].items())
        if c["spacecraft_id"] == craft["spacecraft_id"] and _outside(world, key)
    ]
    if len(faulty) > 1:
        return None
    if faulty:
        label = CHANNELS[faulty[0]["channel"]][0]
        forbidden = act(
            "set_spacecraft_mode",
            spacecraft_id=craft["spacecraft_id"],
            mode="nominal",
            approval_code=approval_code(craft["spacecraft_id"]),
        )
        draft.trap(f"9.2: {label} is outside its limits: the spacecraft stays in safe mode", forbidden)
        phrases = "|".join([label, faulty[0]["channel"], label.replace("temperature", "temp")])
        return draft.cite("9.2").say("text", phrases, "9.2: the channel at fault")
    return _approve(
        draft.cite("1.4"),
        craft["spacecraft_id"],
        "set_spacecraft_mode",
        spacecraft_id=craft["spacecraft_id"],
        mode="nominal",
    )


def acknowledge_alarm(
    world: World, caller: Caller, alarm: dict[str, Any], rng: random.Random, persona: str
) -> Draft | None:
    """Acknowledge an alarm whose channel is back within limits (10.1); else say its latest reading (10.2)."""
    if alarm["status"] != "active":
        return None
    channel = world["channels"][alarm["channel_id"]]
    label = CHANNELS[channel["channel"]][0]
    draft = Draft(world, caller, persona, intent="acknowledge_alarm").identify().cite("10.1")
    draft.do(act("list_alarms", spacecraft_id=channel["spacecraft_id"]))
    draft.do(act("get_telemetry", spacecraft_id=channel["spacecraft_id"]))
    draft.goal.append(
        f"The {label} alarm {alarm['alarm_id']} on {_craft_words(world, channel['spacecraft_id'])} went off this"
        " morning, and you want it acknowledged. If it cannot be acknowledged, you want to know why and what the"
        " latest reading is."
    )
    acknowledge = act("acknowledge_alarm", alarm_id=alarm["alarm_id"], caller_id=draft.cid)
    if _outside(world, alarm["channel_id"]):
        value = _latest(world, alarm["channel_id"])["value"]
        draft.trap(f"10.2: the latest {label} reading {value} is still outside its limits", acknowledge)
        return draft.cite("10.2").say("amount", f"{value:g}", "10.2: the latest reading")
    return draft.cite("1.4").do(acknowledge)
