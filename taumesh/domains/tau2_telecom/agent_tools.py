"""The agent's side of telecom (the carrier's CRM), behaving as τ²'s ``TelecomTools``; texts come from the fetch.

τ²'s tables are lists, searched in order; here they are tables keyed by position (see
``taumesh.domains.tau2._hash``). Records are the dumped JSON: dates are ``"YYYY-MM-DD"`` strings,
which compare and sort as τ²'s dates do. Where τ² assigns an attribute without validation the raw
value is assigned, so the hash stays τ²'s; new records are validated with the domain's models.
"""

from __future__ import annotations

import datetime
import uuid
from typing import Any

from pydantic import BaseModel

from taumesh.domains import Data, Tool
from taumesh.domains.tau2 import ModelDump, dump_json, to_json_str
from taumesh.domains.tau2._common_tools import Transfer
from taumesh.domains.tau2._toolkit import read, read_function, write, write_function
from taumesh.domains.tau2_telecom.models import Bill, LineItem

TODAY = datetime.date(2025, 2, 25)
"""τ²'s ``get_today()``: telecom's clock is fixed."""


def _new(model: type[BaseModel], **fields: Any) -> dict[str, Any]:
    """A record τ² would build as ``model(**fields)``: validated, with its defaults."""
    record: dict[str, Any] = dump_json(model.model_validate(fields))
    return record


def _line_item(description: str, amount: Any, item_type: str) -> dict[str, Any]:
    return _new(LineItem, description=description, amount=amount, date=TODAY, item_type=item_type)


def _find(data: Data, table: str, field: str, value: Any, label: str) -> Any:
    for record in data[table].values():
        if record[field] == value:
            return record
    raise ValueError(f"{label} with ID {value} not found")


def line_by_id(data: Data, line_id: str) -> Any:
    """τ²'s ``_get_line_by_id``."""
    return _find(data, "lines", "line_id", line_id, "Line")


def plan_by_id(data: Data, plan_id: str) -> Any:
    """τ²'s ``_get_plan_by_id``."""
    return _find(data, "plans", "plan_id", plan_id, "Plan")


def bill_by_id(data: Data, bill_id: str) -> Any:
    """τ²'s ``_get_bill_by_id``."""
    return _find(data, "bills", "bill_id", bill_id, "Bill")


def customer_by_id(data: Data, customer_id: str) -> Any:
    """τ²'s ``get_customer_by_id``."""
    return _find(data, "customers", "customer_id", customer_id, "Customer")


def line_by_phone(data: Data, phone_number: str) -> Any:
    """τ²'s ``_get_line_by_phone``."""
    for line in data["lines"].values():
        if line["phone_number"] == phone_number:
            return line
    raise ValueError(f"Line with phone number {phone_number} not found")


def customer_by_phone(data: Data, phone_number: str) -> Any:
    """τ²'s ``get_customer_by_phone``: by contact number, else by a line's number."""
    for customer in data["customers"].values():
        if customer["phone_number"] == phone_number:
            return customer
        for line_id in customer["line_ids"]:
            if line_by_id(data, line_id)["phone_number"] == phone_number:
                return customer
    raise ValueError(f"Customer with phone number {phone_number} not found")


def bills_awaiting_payment(data: Data, customer: Any) -> list[Any]:
    """τ²'s ``_get_bills_awaiting_payment``, in the customer's bill order."""
    return [
        bill for bill_id in customer["bill_ids"] if (bill := bill_by_id(data, bill_id))["status"] == "Awaiting Payment"
    ]


def set_bill_to_paid(data: Data, bill_id: str) -> None:
    """τ²'s ``_set_bill_to_paid``."""
    bill_by_id(data, bill_id)["status"] = "Paid"


def _target_line(data: Data, customer_id: str, line_id: str) -> Any:
    customer = customer_by_id(data, customer_id)
    if line_id not in customer["line_ids"]:
        raise ValueError(f"Line {line_id} not found for customer {customer_id}")
    return line_by_id(data, line_id)


def _first_of_next_month(day: datetime.date) -> datetime.date:
    return (day.replace(day=1) + datetime.timedelta(days=32)).replace(day=1)


def _apply_one_time_charge(data: Data, customer_id: str, amount: Any, description: str) -> None:
    """τ²'s ``_apply_one_time_charge``: a line item on the customer's draft bill (a new, randomly named one if none)."""
    customer = customer_by_id(data, customer_id)
    draft = next(
        (bill for bill_id in customer["bill_ids"] if (bill := bill_by_id(data, bill_id))["status"] == "Draft"), None
    )
    if draft is None:
        start = _first_of_next_month(TODAY)
        end = start.replace(month=start.month + 1 if start.month < 12 else 1, year=start.year + (start.month == 12))
        bill_id = f"B{uuid.uuid4().hex[:8]}"
        draft = _new(
            Bill,
            bill_id=bill_id,
            customer_id=customer_id,
            period_start=start,
            period_end=end - datetime.timedelta(days=1),
            issue_date=start,
            total_due=0,
            due_date=start + datetime.timedelta(days=14),
            status="Draft",
        )
        bills = data["bills"]
        bills[str(len(bills))] = draft
        customer["bill_ids"].append(bill_id)
    item_type = "Credit" if amount < 0 else "Charge"
    draft["line_items"].append(_new(LineItem, description=description, amount=amount, date=TODAY, item_type=item_type))
    draft["total_due"] += amount


_BY_PREFIX = (("L", line_by_id), ("D", None), ("B", bill_by_id), ("C", customer_by_id), ("P", plan_by_id))


class TelecomTools(Transfer):
    """τ²'s ``TelecomTools``: the carrier's customers, lines, plans and bills."""

    @read
    def get_customer_by_phone(self, phone_number: str) -> str:
        data = self.data
        return to_json_str(ModelDump(customer_by_phone(data, phone_number)))

    @read
    def get_customer_by_id(self, customer_id: str) -> str:
        data = self.data
        return to_json_str(ModelDump(customer_by_id(data, customer_id)))

    @read
    def get_customer_by_name(self, full_name: str, dob: str) -> str:
        data = self.data
        matching = [
            ModelDump(customer)
            for customer in data["customers"].values()
            if customer["full_name"].lower() == full_name.lower() and customer["date_of_birth"] == dob
        ]
        return to_json_str(matching)

    @read
    def get_details_by_id(self, id: str) -> str:
        data = self.data
        for prefix, finder in _BY_PREFIX:
            if id.startswith(prefix):
                record = _find(data, "devices", "device_id", id, "Device") if finder is None else finder(data, id)
                return to_json_str(ModelDump(record))
        raise ValueError(f"Unknown ID format or type: {id}")

    @write
    def suspend_line(self, customer_id: str, line_id: str, reason: str) -> str:
        data = self.data
        line = _target_line(data, customer_id, line_id)
        if line["status"] != "Active":
            raise ValueError("Line must be active to suspend")
        line["status"] = "Suspended"
        line["suspension_start_date"] = TODAY.isoformat()
        message = "Line suspended successfully. $5/month holding fee will apply."
        return to_json_str({"message": message, "line": ModelDump(line)})

    @write
    def resume_line(self, customer_id: str, line_id: str) -> str:
        data = self.data
        line = _target_line(data, customer_id, line_id)
        if line["status"] not in ("Suspended", "Pending Activation"):
            raise ValueError("Line must be suspended to resume")
        line["status"] = "Active"
        line["suspension_start_date"] = None
        return to_json_str({"message": "Line resumed successfully", "line": ModelDump(line)})

    @read
    def get_bills_for_customer(self, customer_id: str, limit: int = 12) -> str:
        data = self.data
        customer = customer_by_id(data, customer_id)
        bills = [bill_by_id(data, bill_id) for bill_id in customer["bill_ids"]]
        ordered = sorted(bills, key=lambda bill: bill["issue_date"], reverse=True)
        return to_json_str([ModelDump(bill) for bill in ordered[:limit]])

    @write
    def send_payment_request(self, customer_id: str, bill_id: str) -> str:
        data = self.data
        customer = customer_by_id(data, customer_id)
        if bills_awaiting_payment(data, customer):
            raise ValueError("A bill is already awaiting payment for this customer")
        if bill_id not in customer["bill_ids"]:
            raise ValueError(f"Bill {bill_id} not found for customer {customer_id}")
        bill = bill_by_id(data, bill_id)
        bill["status"] = "Awaiting Payment"
        return f"Payment request sent to the customer for bill {bill['bill_id']}"

    @read
    def get_data_usage(self, customer_id: str, line_id: str) -> str:
        data = self.data
        line = _target_line(data, customer_id, line_id)
        plan = plan_by_id(data, line["plan_id"])
        cycle_end = _first_of_next_month(TODAY) - datetime.timedelta(days=1)
        usage = {
            "line_id": line_id,
            "data_used_gb": line["data_used_gb"],
            "data_limit_gb": plan["data_limit_gb"],
            "data_refueling_gb": line["data_refueling_gb"],
            "cycle_end_date": cycle_end,  # a date: τ²'s rendering refuses it, and so does ours
        }
        return to_json_str(usage)

    @write
    def enable_roaming(self, customer_id: str, line_id: str) -> str:
        data = self.data
        line = _target_line(data, customer_id, line_id)
        if line["roaming_enabled"]:
            return "Roaming was already enabled"
        line["roaming_enabled"] = True
        return "Roaming enabled successfully"

    @write
    def disable_roaming(self, customer_id: str, line_id: str) -> str:
        data = self.data
        line = _target_line(data, customer_id, line_id)
        if not line["roaming_enabled"]:
            return "Roaming was already disabled"
        line["roaming_enabled"] = False
        return "Roaming disabled successfully"

    @write
    def refuel_data(self, customer_id: str, line_id: str, gb_amount: float) -> str:
        data = self.data
        line = _target_line(data, customer_id, line_id)
        if gb_amount <= 0:
            raise ValueError("Refuel amount must be positive")
        plan = plan_by_id(data, line["plan_id"])
        price = plan["data_refueling_price_per_gb"]
        charge = gb_amount * price
        line["data_refueling_gb"] += gb_amount
        _apply_one_time_charge(data, customer_id, charge, f"Data refueling: {gb_amount} GB at ${price}/GB")
        return to_json_str(
            {
                "message": f"Successfully added {gb_amount} GB of data for line {line_id} for ${charge:.2f}",
                "new_data_refueling_gb": line["data_refueling_gb"],
                "charge": charge,
            }
        )

    @write_function
    def set_data_usage(self, customer_id: str, line_id: str, data_used_gb: float) -> str:
        data = self.data
        _target_line(data, customer_id, line_id)["data_used_gb"] = data_used_gb
        return f"Data usage set to {data_used_gb} GB for line {line_id}"

    @write_function
    def suspend_line_for_overdue_bill(
        self, customer_id: str, line_id: str, new_bill_id: str, contract_ended: bool
    ) -> str:
        data = self.data
        line = line_by_id(data, line_id)
        if line["status"] != "Active":
            raise ValueError("Line must be active to suspend for unpaid bill")
        amount = plan_by_id(data, line["plan_id"])["price_per_month"]
        if amount <= 0:
            raise ValueError("Amount must be positive for overdue bill")
        customer = customer_by_id(data, customer_id)
        if any(bill_by_id(data, bill_id)["status"] == "Overdue" for bill_id in customer["bill_ids"]):
            raise ValueError("Customer already has an overdue bill")
        last_of_last_month = TODAY.replace(day=1) - datetime.timedelta(days=1)
        first_of_last_month = last_of_last_month.replace(day=1)
        bill = _new(
            Bill,
            bill_id=new_bill_id,
            customer_id=customer_id,
            period_start=first_of_last_month,
            period_end=last_of_last_month,
            issue_date=first_of_last_month,
            total_due=0,
            due_date=first_of_last_month + datetime.timedelta(days=14),
            status="Overdue",
        )
        item_type = "Charge" if amount > 0 else "Credit"
        description = f"Charge for line {line['line_id']}"
        bill["line_items"].append(
            _new(LineItem, description=description, amount=amount, date=TODAY, item_type=item_type)
        )
        bill["total_due"] += amount
        bills = data["bills"]
        bills[str(len(bills))] = bill
        customer["bill_ids"].append(new_bill_id)
        line["status"] = "Suspended"
        line["suspension_start_date"] = TODAY.isoformat()
        if contract_ended:
            line["contract_end_date"] = last_of_last_month.isoformat()
        return f"Line {line_id} suspended for unpaid bill {new_bill_id}. Contract ended: {contract_ended}"

    @read_function
    def assert_data_refueling_amount(self, customer_id: str, line_id: str, expected_amount: float) -> bool:
        data = self.data
        return bool(abs(_target_line(data, customer_id, line_id)["data_refueling_gb"] - expected_amount) < 1e-6)

    @read_function
    def assert_line_status(self, customer_id: str, line_id: str, expected_status: Any) -> bool:
        data = self.data
        return bool(_target_line(data, customer_id, line_id)["status"] == expected_status)

    @read_function
    def assert_overdue_bill_exists(self, customer_id: str, overdue_bill_id: str) -> bool:
        data = self.data
        customer = customer_by_id(data, customer_id)
        if overdue_bill_id not in customer["bill_ids"]:
            raise ValueError(f"Overdue bill {overdue_bill_id} not found")
        if bill_by_id(data, overdue_bill_id)["status"] != "Overdue":
            raise ValueError(f"Overdue bill {overdue_bill_id} is not overdue")
        return True

    @read_function
    def assert_no_overdue_bill(self, overdue_bill_id: str) -> bool:
        data = self.data
        try:
            bill = bill_by_id(data, overdue_bill_id)
        except ValueError:
            return True
        return bool(bill["status"] == "Paid")


AGENT_TOOLS: tuple[type[Tool], ...] = TelecomTools.tools()
AGENT_FUNCTIONS: tuple[type[Tool], ...] = TelecomTools.functions()
