"""Reading a table the desk can analyse: a data set's own rows, or a cleaned table's rows with its fill applied.

Every analysis tool reads through :func:`table_rows`, so a report, a chart and a model see the same rows.
"""

from __future__ import annotations

from typing import Any

from taumesh.domains import Data, Refusal


def dataset_of(data: Data, table_id: str) -> Any:
    """The data set a table comes from (itself, or the one a cleaned table was made from)."""
    if table_id in data["datasets"]:
        return data["datasets"][table_id]
    if table_id in data["derived_tables"]:
        return data["datasets"][data["derived_tables"][table_id]["dataset_id"]]
    raise Refusal(f"no data set or cleaned table {table_id!r}")


def table_rows(data: Data, table_id: str) -> list[dict[str, Any]]:
    """The rows of ``table_id`` in id order; a cleaned table's missing spend is its fill value."""
    dataset = dataset_of(data, table_id)
    own = sorted((r for r in data["rows"].values() if r["dataset_id"] == dataset["dataset_id"]), key=_key)
    if table_id in data["datasets"]:
        return [dict(r) for r in own]
    derived = data["derived_tables"][table_id]
    kept = set(derived["row_ids"])
    filled = [dict(r) for r in own if r["row_id"] in kept]
    for row in filled:
        if row["spend"] is None:
            row["spend"] = derived["fill_value"]
    return filled


def _key(row: dict[str, Any]) -> str:
    return str(row["row_id"])


def values(rows: list[dict[str, Any]], column: str) -> list[float]:
    """The recorded (not missing) values of ``column``."""
    return [float(r[column]) for r in rows if r[column] is not None]


def has_grant(data: Data, dataset_id: str, requester_id: str) -> bool:
    """Whether ``requester_id`` holds an active grant on ``dataset_id``."""
    return any(
        g["dataset_id"] == dataset_id and g["requester_id"] == requester_id and g["status"] == "active"
        for g in data["grants"].values()
    )
