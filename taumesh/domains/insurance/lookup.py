"""How the tools find records and answer: one refusal text per missing record, JSON observations."""

from __future__ import annotations

import json
from typing import Any

from taumesh.domains import Data, Refusal


def dump(value: Any) -> str:
    """An observation: the value as JSON."""
    return json.dumps(value)


def record(data: Data, table: str, key: str, what: str) -> Any:
    """The record ``key`` of ``table``; a Refusal naming ``what`` when there is none."""
    if key not in data[table]:
        raise Refusal(f"{what} not found")
    return data[table][key]


def of_holder(data: Data, table: str, policyholder_id: str) -> list[Any]:
    """The records of ``table`` that belong to a policyholder (who must exist)."""
    record(data, "policyholders", policyholder_id, "policyholder")
    return [r for r in data[table].values() if r["policyholder_id"] == policyholder_id]
