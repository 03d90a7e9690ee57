"""The desk's work-order tools: a buyer's quantity changes, rush priority and cancellations, and a calculator.

Each change leaves a trace on the order (a revision count, the fee charged, the reason for a cancellation), so a
change made and then made again differently is never the same state as the second change alone.
"""

from __future__ import annotations

from typing import Any

from taumesh.domains import Data, Refusal, Tool, check_powers
from taumesh.domains.manufacturing.clock import cancellation_fee, expedite_fee
from taumesh.domains.manufacturing.records import choice, dump, fetch
from taumesh.domains.manufacturing.schema import params, text, whole

PRIORITIES = ["standard", "rush"]
CANCEL_REASONS = ["demand_change", "design_change", "duplicate_order"]
_ORDER = text("The work order's id, such as 'wo-w1-017'.")


def order_value(data: Data, order: dict[str, Any]) -> float:
    """What the customer pays for the whole order: its quantity at the part's unit price."""
    return float(order["quantity"] * data["parts"][order["part_id"]]["unit_price"])


def _open_order(data: Data, work_order_id: str) -> Any:
    order = fetch(data, "work_orders", work_order_id, "work order")
    if order["status"] in ("completed", "cancelled"):
        raise Refusal(f"the work order is {order['status']}")
    return order


class ChangeOrderQuantity(Tool):
    name = "change_order_quantity"
    writes = True
    description = "Change an open work order's quantity; the order counts each revision."
    parameters = params(work_order_id=_ORDER, new_quantity=whole("Units."))

    @staticmethod
    def invoke(data: Data, work_order_id: str, new_quantity: int) -> str:
        order = _open_order(data, work_order_id)
        if new_quantity < max(order["quantity_done"], 1):
            raise Refusal("the quantity cannot go below the units already made")
        order["quantity"] = new_quantity
        order["revisions"] += 1
        return dump(order)


class SetOrderPriority(Tool):
    name = "set_order_priority"
    writes = True
    description = "Set an open work order's priority; rush charges the expedite fee, which the order records."
    parameters = params(work_order_id=_ORDER, priority=text("The priority.", PRIORITIES))

    @staticmethod
    def invoke(data: Data, work_order_id: str, priority: str) -> str:
        order = _open_order(data, work_order_id)
        choice(priority, PRIORITIES, "priority")
        if order["priority"] == priority:
            raise Refusal(f"the work order is already {priority}")
        order["priority"] = priority
        order["expedite_fee"] = expedite_fee(order_value(data, order)) if priority == "rush" else None
        return dump(order)


class CancelWorkOrder(Tool):
    name = "cancel_work_order"
    writes = True
    description = "Cancel a work order for a reason; one already in production is charged the cancellation fee."
    parameters = params(work_order_id=_ORDER, reason=text("Why the buyer cancels.", CANCEL_REASONS))

    @staticmethod
    def invoke(data: Data, work_order_id: str, reason: str) -> str:
        order = fetch(data, "work_orders", work_order_id, "work order")
        choice(reason, CANCEL_REASONS, "reason")
        if order["status"] == "cancelled":
            raise Refusal("the work order is already cancelled")
        fee = 0.0 if order["status"] == "planned" else cancellation_fee(order_value(data, order))
        order.update(status="cancelled", cancellation=reason, cancellation_fee=fee)
        return dump(order)


class Calculate(Tool):
    name = "calculate"
    description = "Calculate an arithmetic expression (numbers, + - * / and parentheses)."
    parameters = params(expression=text("Such as '(480 - 35) / 480'."))

    @staticmethod
    def invoke(data: Data, expression: str) -> str:
        if not all(char in "0123456789+-*/(). " for char in expression):
            raise Refusal("invalid characters in expression")
        check_powers(expression)
        try:
            return str(round(float(eval(expression, {"__builtins__": None}, {})), 4))  # noqa: S307 - characters checked
        except (SyntaxError, ZeroDivisionError, TypeError) as error:
            raise Refusal(f"cannot calculate: {error}") from None


ORDER_TOOLS: tuple[type[Tool], ...] = (ChangeOrderQuantity, SetOrderPriority, CancelWorkOrder, Calculate)
