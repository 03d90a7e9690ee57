"""The hospitality domain's own behaviour, through a Session and the CLI (the bar every τ++ domain meets is checked
by ``tests/domains/test_tau_plus_plus.py``).

- the generator rebuilds the shipped files byte for byte, over three worlds whose invariants hold, and the test
  world's guests and records are never touched by a train task;
- the guest's phone is theirs: a code pushed to the hotel app verifies only once read from it (the last one sent), a
  mobile key goes only to the device code the guest reads from their app and waits for them to activate it, which
  the agent cannot do, and the phone itself is outside the state hash;
- the traps sit in the data: a late check-out is refused where the room is assigned to an arrival on the departure
  day, and a room move goes to the first room the desk's own listing shows;
- the oracle with the scripted user solves the test split over the real services.
"""

from __future__ import annotations

import functools
import json
from pathlib import Path

from taumesh.domains import Catalog, Domain, Registry, Session
from taumesh.domains.factory import FactoryTask
from taumesh.domains.hospitality import DATA, RELEASE, build
from taumesh.domains.hospitality.build import generated_files
from taumesh.domains.hospitality.clock import app_code
from taumesh.domains.hospitality.world import TEST_WORLDS, worlds
from tests.helpers.cli import ORACLE, explain_result, invoke, load_json, results_path


@functools.cache
def _domain() -> Domain:
    return Catalog(Path("unused"), Registry.discover()).get("hospitality")


def _tasks(split: str = "base") -> list[FactoryTask]:
    return [t for t in _domain().tasks(split) if isinstance(t, FactoryTask)]


def _guest_with_phone() -> tuple[str, str]:
    guest_id = "gst-w1-001"
    return guest_id, str(_domain().base_data["phones"][guest_id]["app_pin"])


def test_the_generator_rebuilds_the_shipped_files_byte_for_byte() -> None:
    for name, text in generated_files().items():
        assert (DATA / name).read_text(encoding="utf-8") == text, (
            f"{name} is stale: run python -m taumesh.domains.hospitality.build"
        )
    assert _domain().data_release == RELEASE


def test_three_worlds_keep_their_invariants_and_test_guests_are_never_in_train() -> None:
    built = worlds()  # raises on any broken invariant
    assert [w.tag for w in built] == ["w1", "w2", "w3"]
    train, test = _tasks("train"), _tasks("test")
    release = build.RELEASE
    assert {release.world_of(t) for t in test} == set(TEST_WORLDS)
    assert not {release.world_of(t) for t in train} & TEST_WORLDS
    assert not {t.user_id for t in train} & {t.user_id for t in test}
    assert not set().union(*map(release.touched, train)) & set().union(*map(release.touched, test))
    assert len(train) + len(test) == len(_tasks("base"))


def test_an_app_code_verifies_only_when_read_from_the_guests_own_app() -> None:
    guest_id, pin = _guest_with_phone()
    session = Session(_domain())
    assert session.call("send_app_code", {"guest_id": guest_id}).observation.startswith("A one-time code")
    session.call("send_app_code", {"guest_id": guest_id})  # a resend: only the last code counts (policy 2.3)
    assert session.call("view_app_inbox", {}).error  # the agent has no hand on the guest's phone
    assert "signed out" in session.call("view_app_inbox", {}, "user").observation
    assert session.call("open_hotel_app", {"pin": pin}, "user").observation == "The hotel app is open."
    inbox = json.loads(session.call("view_app_inbox", {}, "user").observation)
    first, last = app_code(guest_id, 1), app_code(guest_id, 2)
    assert [first in m["text"] for m in inbox] == [True, False] and last in inbox[1]["text"]
    assert session.call("verify_app_code", {"guest_id": guest_id, "code": first}).error
    assert not session.call("verify_app_code", {"guest_id": guest_id, "code": last}).error
    assert session.data["verifications"][guest_id]["verified"] is True


def test_a_mobile_key_goes_only_to_the_device_the_guest_reads_and_waits_for_them_to_activate_it() -> None:
    stays = _domain().base_data["reservations"].values()
    stay = next(s for s in stays if s["status"] == "checked_in" and not s["digital_key"])
    guest_id, reservation_id = stay["guest_id"], stay["reservation_id"]
    phone = _domain().base_data["phones"][guest_id]
    other = next(p for p in _domain().base_data["phones"].values() if p["guest_id"] != guest_id)
    session = Session(_domain())
    assert session.call("view_device_code", {}).error  # only the guest sees their app
    session.call("open_hotel_app", {"pin": phone["app_pin"]}, "user")
    read = json.loads(session.call("view_device_code", {}, "user").observation)["device_code"]
    wrong = session.call("issue_digital_key", {"reservation_id": reservation_id, "device_code": other["device_code"]})
    assert wrong.error and "device code" in wrong.observation
    assert not session.call("issue_digital_key", {"reservation_id": reservation_id, "device_code": read}).error
    assert session.data["phones"][guest_id]["keys"][-1]["status"] == "pending"
    assert session.call("activate_digital_key", {}).error  # only the guest can
    room_number = _domain().base_data["rooms"][stay["room_id"]]["number"]
    activated = json.loads(session.call("activate_digital_key", {}, "user").observation)
    assert activated == [{"reservation_id": reservation_id, "room_number": room_number, "status": "active"}]


def test_the_guests_phone_is_outside_the_state_hash() -> None:
    """What the guest does in the app counts through the agent's writes that carry it, not on its own."""
    guest_id, pin = _guest_with_phone()
    session = Session(_domain())
    before = session.data_hash()
    session.call("open_hotel_app", {"pin": pin}, "user")
    assert session.data_hash() == before
    session.call("send_app_code", {"guest_id": guest_id})
    assert session.data_hash() != before  # the desk's record of the code sent counts


def test_late_checkout_traps_are_rooms_needed_by_an_arrival_or_times_past_four() -> None:
    traps = [t for t in _tasks() if t.intent == "late_checkout" and t.trap]
    assert traps
    for task in traps:
        asked = task.forbidden[0].kwargs
        stay = _domain().base_data["reservations"][asked["reservation_id"]]
        room = json.loads(Session(_domain()).call("get_room", {"room_id": stay["room_id"]}).observation)
        arriving = [a for a in room["assigned_arrivals"] if a["check_in"] == stay["check_out"]]
        if "7.4" in task.clauses:
            assert arriving and not [a for a in task.actions if a.name == "set_late_checkout"], task.id
        else:
            assert not arriving and asked["checkout_time"] > "16:00", task.id
            assert task.actions[-1].kwargs["checkout_time"] == "16:00", task.id


def test_a_room_move_goes_to_the_first_room_the_desk_lists() -> None:
    moves = [t for t in _tasks() if t.intent == "room_move" and t.actions[-1].name == "move_room"]
    assert moves
    for task in moves:
        listing = next(a for a in task.actions if a.name == "list_vacant_rooms")
        rooms = json.loads(Session(_domain()).call(listing.name, listing.kwargs).observation)
        assert task.actions[-1].kwargs["new_room_id"] == rooms[0]["room_id"], task.id


def test_the_oracle_solves_the_test_split_over_the_services(tmp_path: Path) -> None:
    result = invoke("run", "--env", "hospitality", "--task-split", "test", *ORACLE, "--log-dir", tmp_path)
    assert result.exit_code == 0, explain_result(result)
    rewards = {r["task_id"]: r["reward"] for r in load_json(results_path(tmp_path))}
    assert rewards == {t.id: 1.0 for t in _tasks("test")}
