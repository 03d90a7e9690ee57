"""The desk's identity and read tools: who is calling, and what the plant's records say.

Reads never change anything; identity writes one record (the caller is verified), which the reward sees, so an
agent that acts without verifying ends in another state.
"""

from __future__ import annotations

from taumesh.domains import Data, Refusal, Tool
from taumesh.domains.manufacturing.records import checked_date, dump, fetch
from taumesh.domains.manufacturing.schema import params, text

_CONTACT = text("The caller's contact id, such as 'ct-w1-004'.")


class FindContact(Tool):
    name = "find_contact"
    description = "Find a caller's contact id by full name and badge number (plant staff) or account number (buyers)."
    parameters = params(
        first_name=text("First name."),
        last_name=text("Last name."),
        contact_number=text("Badge number or customer account number."),
    )

    @staticmethod
    def invoke(data: Data, first_name: str, last_name: str, contact_number: str) -> str:
        wanted = (first_name.strip().lower(), last_name.strip().lower(), contact_number.strip().upper())
        for contact in data["contacts"].values():
            if (contact["first_name"].lower(), contact["last_name"].lower(), contact["contact_number"]) == wanted:
                return str(contact["contact_id"])
        raise Refusal("no contact with that name and number")


class VerifyContact(Tool):
    name = "verify_contact"
    writes = True
    description = "Verify the caller is the contact by their four-digit desk PIN."
    parameters = params(contact_id=_CONTACT, desk_pin=text("Four digits."))

    @staticmethod
    def invoke(data: Data, contact_id: str, desk_pin: str) -> str:
        contact = fetch(data, "contacts", contact_id, "contact")
        if contact["desk_pin"] != desk_pin.strip():
            raise Refusal("the PIN does not match")
        data["verifications"][contact_id] = {"contact_id": contact_id, "verified": True}
        return dump({"contact_id": contact_id, "verified": True, "role": contact["role"]})


class GetContact(Tool):
    name = "get_contact"
    description = "A contact's record: role, company (buyers), home line and lock-out certification (operators)."
    parameters = params(contact_id=_CONTACT)

    @staticmethod
    def invoke(data: Data, contact_id: str) -> str:
        contact = dict(fetch(data, "contacts", contact_id, "contact"))
        contact.pop("desk_pin")
        return dump(contact)


class ListWorkOrders(Tool):
    name = "list_work_orders"
    description = "A customer's work orders: part, line, quantity, quantity done, due date, status and priority."
    parameters = params(customer_id=text("The customer's id, such as 'cus-w1-02'."))

    @staticmethod
    def invoke(data: Data, customer_id: str) -> str:
        fetch(data, "customers", customer_id, "customer")
        return dump([o for o in data["work_orders"].values() if o["customer_id"] == customer_id])


class GetWorkOrder(Tool):
    name = "get_work_order"
    description = "One work order with its part (unit cost and price) and its lots."
    parameters = params(work_order_id=text("The work order's id, such as 'wo-w1-017'."))

    @staticmethod
    def invoke(data: Data, work_order_id: str) -> str:
        order = fetch(data, "work_orders", work_order_id, "work order")
        lots = [lot for lot in data["lots"].values() if lot["work_order_id"] == work_order_id]
        return dump({**order, "part": data["parts"][order["part_id"]], "lots": lots})


class ListLineOrders(Tool):
    name = "list_line_orders"
    description = "The open work orders (planned or in production) of a line, with their priority and due date."
    parameters = params(line_id=text("The line's id, such as 'line-w1-2'."))

    @staticmethod
    def invoke(data: Data, line_id: str) -> str:
        fetch(data, "lines", line_id, "line")
        return dump(
            [
                o
                for o in data["work_orders"].values()
                if o["line_id"] == line_id and o["status"] in ("planned", "in_production")
            ]
        )


class GetLot(Tool):
    name = "get_lot"
    description = "One lot: its work order, quantity, production date and status, with its quality holds and NCRs."
    parameters = params(lot_id=text("The lot's id, as its label shows, such as 'lot-w1-031'."))

    @staticmethod
    def invoke(data: Data, lot_id: str) -> str:
        lot = fetch(data, "lots", lot_id, "lot")
        holds = [h for h in data["quality_holds"].values() if h["lot_id"] == lot_id]
        ncrs = [n for n in data["ncrs"].values() if n["lot_id"] == lot_id]
        return dump({**lot, "quality_holds": holds, "ncrs": ncrs})


class GetNcr(Tool):
    name = "get_ncr"
    description = "One non-conformance report, with the part's unit cost (what scrapping it costs per unit)."
    parameters = params(ncr_id=text("The NCR's id, such as 'ncr-w1-006'."))

    @staticmethod
    def invoke(data: Data, ncr_id: str) -> str:
        ncr = fetch(data, "ncrs", ncr_id, "NCR")
        order = data["work_orders"][data["lots"][ncr["lot_id"]]["work_order_id"]]
        return dump({**ncr, "work_order_id": order["work_order_id"], "part": data["parts"][order["part_id"]]})


class ListLines(Tool):
    name = "list_lines"
    description = "The plant's production lines, each with its machines and their status."
    parameters = params()

    @staticmethod
    def invoke(data: Data) -> str:
        return dump(
            [
                {**line, "machines": [m for m in data["machines"].values() if m["line_id"] == line["line_id"]]}
                for line in data["lines"].values()
            ]
        )


class ListMaintenanceWindows(Tool):
    name = "list_maintenance_windows"
    description = "A machine's maintenance windows, preventive and repair, oldest first."
    parameters = params(machine_id=text("The machine's id, such as 'mc-w1-07'."))

    @staticmethod
    def invoke(data: Data, machine_id: str) -> str:
        fetch(data, "machines", machine_id, "machine")
        found = [w for w in data["maintenance_windows"].values() if w["machine_id"] == machine_id]
        return dump(sorted(found, key=lambda w: (w["date"], w["window_id"])))


class ListShiftRuns(Tool):
    name = "list_shift_runs"
    description = (
        "A line's shift runs on a date: planned and downtime minutes, ideal rate, units made and good, status."
    )
    parameters = params(line_id=text("The line's id."), date=text("YYYY-MM-DD."))

    @staticmethod
    def invoke(data: Data, line_id: str, date: str) -> str:
        fetch(data, "lines", line_id, "line")
        wanted = checked_date(date)
        return dump([r for r in data["shift_runs"].values() if r["line_id"] == line_id and r["date"] == wanted])


LOOKUP_TOOLS: tuple[type[Tool], ...] = (
    FindContact,
    VerifyContact,
    GetContact,
    ListWorkOrders,
    GetWorkOrder,
    ListLineOrders,
    GetLot,
    GetNcr,
    ListLines,
    ListMaintenanceWindows,
    ListShiftRuns,
)
IDENTITY_TOOLS = frozenset({"find_contact", "verify_contact"})
"""Finding the caller by name and number, then verifying them by their desk PIN."""
