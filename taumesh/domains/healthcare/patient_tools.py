"""The patient's tools (``side = "user"``): their phone, insurance card, home monitor, pharmacy app and calendar.

The clinic cannot see any of it: the agent learns what is there only from what the patient reports. The phone
is locked until the patient unlocks it with their passcode (which also says whose phone this is).
"""

from __future__ import annotations

import json
from typing import Any

from taumesh.domains import Data, Refusal, Tool
from taumesh.domains.healthcare.schema import obj, text


def _phone(data: Data) -> Any:
    for device in data["devices"].values():
        if device["unlocked"]:
            return device
    raise Refusal("your phone is locked: unlock it with your passcode first")


class PatientTool(Tool):
    side = "user"


class UnlockPhone(PatientTool):
    name = "unlock_phone"
    writes = True
    description = "Unlock your phone with your passcode; every other tool needs it unlocked."
    parameters = obj(passcode=text("Your six-digit passcode."))

    @staticmethod
    def invoke(data: Data, passcode: str) -> str:
        for device in data["devices"].values():
            if device["passcode"] == passcode.strip():
                device["unlocked"] = True
                return "Phone unlocked."
        raise Refusal("wrong passcode")


class ViewInsuranceCard(PatientTool):
    name = "view_insurance_card"
    description = "Look at the insurance card in your wallet (its photo is on your phone)."
    parameters = obj()

    @staticmethod
    def invoke(data: Data) -> str:
        return json.dumps(_phone(data)["insurance_card"])


class ReadSmsInbox(PatientTool):
    name = "read_sms_inbox"
    description = "Read the text messages on your phone, newest last."
    parameters = obj()

    @staticmethod
    def invoke(data: Data) -> str:
        return json.dumps(_phone(data)["sms_inbox"])


class _TakeReading(PatientTool):
    writes = True
    kind: str = ""
    parameters = obj()

    @classmethod
    def take(cls, data: Data) -> str:
        device = _phone(data)
        queue = device["monitor_queue"]
        if not queue or queue[0]["kind"] != cls.kind:
            raise Refusal(f"your monitor is a {device['monitor']['kind']}")
        reading = queue.pop(0)
        device["monitor_history"].append(reading)
        return json.dumps(reading)


class TakeBloodPressureReading(_TakeReading):
    name = "take_blood_pressure_reading"
    kind = "blood_pressure"
    description = "Take a reading with your home blood-pressure cuff (systolic, diastolic, pulse)."

    @staticmethod
    def invoke(data: Data) -> str:
        return TakeBloodPressureReading.take(data)


class TakeGlucoseReading(_TakeReading):
    name = "take_glucose_reading"
    kind = "glucose"
    description = "Take a reading with your home glucose meter (mg/dL)."

    @staticmethod
    def invoke(data: Data) -> str:
        return TakeGlucoseReading.take(data)


class ViewMonitorHistory(PatientTool):
    name = "view_monitor_history"
    description = "The readings your home monitor has stored, oldest first."
    parameters = obj()

    @staticmethod
    def invoke(data: Data) -> str:
        device = _phone(data)
        return json.dumps({"monitor": device["monitor"]["kind"], "readings": device["monitor_history"]})


class CheckPharmacyApp(PatientTool):
    name = "check_pharmacy_app"
    description = "Your pharmacy app: your prescriptions' numbers, refills left and last fill dates."
    parameters = obj()

    @staticmethod
    def invoke(data: Data) -> str:
        return json.dumps(_phone(data)["pharmacy_app"])


class ViewCalendar(PatientTool):
    name = "view_calendar"
    description = "Your personal calendar's events."
    parameters = obj()

    @staticmethod
    def invoke(data: Data) -> str:
        return json.dumps(_phone(data)["calendar"])


class AddCalendarEvent(PatientTool):
    name = "add_calendar_event"
    writes = True
    description = "Add an event to your personal calendar."
    parameters = obj(title=text("What it is."), start=text("YYYY-MM-DDTHH:MM."))

    @staticmethod
    def invoke(data: Data, title: str, start: str) -> str:
        calendar = _phone(data)["calendar"]
        event = {"event_id": f"ev-new-{len(calendar) + 1}", "title": title, "start": start}
        calendar.append(event)
        return json.dumps(event)


class RemoveCalendarEvent(PatientTool):
    name = "remove_calendar_event"
    writes = True
    description = "Remove an event from your personal calendar."
    parameters = obj(event_id=text("The event's id."))

    @staticmethod
    def invoke(data: Data, event_id: str) -> str:
        calendar = _phone(data)["calendar"]
        for index, event in enumerate(calendar):
            if event["event_id"] == event_id:
                del calendar[index]
                return f"Removed {event_id}."
        raise Refusal("event not found")


class ViewPhoneNumber(PatientTool):
    name = "view_phone_number"
    description = "Your own phone number, as the phone's settings show it."
    parameters = obj()

    @staticmethod
    def invoke(data: Data) -> str:
        patient = data["patients"][_phone(data)["patient_id"]]
        return str(patient["phone"])


PATIENT_TOOLS: tuple[type[Tool], ...] = (
    UnlockPhone,
    ViewInsuranceCard,
    ReadSmsInbox,
    TakeBloodPressureReading,
    TakeGlucoseReading,
    ViewMonitorHistory,
    CheckPharmacyApp,
    ViewCalendar,
    AddCalendarEvent,
    RemoveCalendarEvent,
    ViewPhoneNumber,
)
