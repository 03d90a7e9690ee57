"""What the discoverable tools share: registration under upstream's names, balances, dates and report shapes.

A tool is a function ``(data, **arguments) -> str`` named (``__qualname__``) as upstream's method, so Python's
argument errors read as upstream's. Numbers arrive as floats (``json.loads(parse_int=float)``), as upstream's.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from datetime import datetime
from typing import Any

from taumesh.domains import Data
from taumesh.domains.tau2_banking_knowledge import records as db
from taumesh.domains.tau2_banking_knowledge.toolkit import AGENT_TOOLKIT, USER_TOOLKIT, owned

Function = Callable[..., str]
NOW = datetime(2025, 11, 14, 3, 40, 0)
"""The scenario's fixed clock."""
NOT_FOUND = ("No records found", "No results found")


def registry(toolkit: str) -> tuple[dict[str, Function], Callable[[Function], Function]]:
    """A table of tools and the decorator that names a function as ``toolkit``'s method and adds it."""
    tools: dict[str, Function] = {}

    def register(function: Function) -> Function:
        tools[function.__name__] = owned(function, toolkit)
        return function

    return tools, register


AGENT, agent_tool = registry(AGENT_TOOLKIT)
"""The agent's discoverable tools, filled as their modules are imported."""
USER, user_tool = registry(USER_TOOLKIT)
"""The user's discoverable tools, filled as their modules are imported."""


def parse_balance(value: Any) -> float:
    """A balance given as a number or as text like ``$2,850.00``."""
    if isinstance(value, (int, float)):
        return float(value)
    if isinstance(value, str):
        return float(value.replace("$", "").replace(",", ""))
    return 0.0


def account_balance(account: dict[str, Any]) -> float:
    """An account's ``current_holdings`` (else ``balance``)."""
    return parse_balance(account.get("current_holdings", account.get("balance", 0)))


def money_text(value: Any) -> float:
    """A dollar text (``$1,000.00``) as a number, 0 when unreadable."""
    try:
        return float(str(value).replace("$", "").replace(",", ""))
    except (ValueError, TypeError):
        return 0.0


def age_days(opened: str, today: datetime = NOW) -> int:
    """Days since an ``MM/DD/YYYY`` date; ValueError when it is not one."""
    return (today - datetime.strptime(opened, "%m/%d/%Y")).days


def titled(code: str) -> str:
    """``snake_case`` as upstream shows it: ``Snake Case``."""
    return code.replace("_", " ").title()


def found(result: str) -> bool:
    """Whether a query's text lists records."""
    return not any(marker in result for marker in NOT_FOUND)


def exists_text(data: Data, table: str, field: str, value: str) -> bool:
    """Whether the query upstream writes for ``field == value`` lists records."""
    return found(db.lookup(data, table, field, value))


def history(data: Data, name: str, heading: str, table: str, field: str, value: str, *, title: str, none: str) -> str:
    """A read tool's report: its heading, the query's records, or ``none``."""
    result = db.lookup(data, table, field, value)
    parts = [heading, "", f"Executed: {name}", title]
    parts.append(result if found(result) else f"\n{none}")
    return "\n".join(parts)


def arguments_json(arguments: dict[str, Any]) -> str:
    """Arguments as upstream echoes them."""
    return json.dumps(arguments, indent=2)


def listing(table: str, rows: list[tuple[str, Any]]) -> str:
    """Records listed as a query lists them."""
    lines = [f"Found {len(rows)} record(s) in '{table}':\n"]
    for index, (key, record) in enumerate(rows, 1):
        lines.append(f"{index}. Record ID: {key}")
        lines.extend(f"   {field}: {value}" for field, value in record.items())
        lines.append("")
    return "\n".join(lines)


def update(data: Data, table: str, key: str, changes: dict[str, Any]) -> bool:
    """Set fields of a record; False when there is none under ``key``."""
    records = db.records(data, table)
    if key not in records:
        return False
    records[key].update(changes)
    return True
