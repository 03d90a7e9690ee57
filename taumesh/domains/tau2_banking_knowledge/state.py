"""The bank's database in a task's initial state, and its hash (τ²'s rule).

The hash is ``sha256(json.dumps(db, sort_keys=True, default=str))`` over every table of :class:`TransactionalDB`.
A task's ``initialization_data.agent_data`` is deep-merged into the database (a dict into a dict, anything else
replaced), then validated again; the user's side shares the agent's database.
"""

from __future__ import annotations

import copy
import hashlib
import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from taumesh.domains import DataError, describe_validation_error
from taumesh.domains.tau2_banking_knowledge.models import TransactionalDB
from taumesh.domains.tau2_banking_knowledge.tasks import BankingTask

DB_FILE = "db.json"


def load_db(domain_dir: Path) -> dict[str, Any]:
    """The pristine database of the domain folder, every table present; DataError naming a bad file."""
    path = domain_dir / DB_FILE
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError as exc:
        raise DataError(f"{path} not found") from exc
    except json.JSONDecodeError as exc:
        raise DataError(f"{path} is not JSON: {exc}") from exc
    return validated(raw, str(path))


def validated(raw: Any, where: str) -> dict[str, Any]:
    """``raw`` through :class:`TransactionalDB` (tables defaulted), as plain JSON."""
    try:
        return TransactionalDB.model_validate(raw).model_dump()
    except ValidationError as exc:
        raise DataError(describe_validation_error(exc, where)) from exc


def deep_merge(into: dict[str, Any], update: Mapping[str, Any]) -> None:
    """``update`` merged into ``into``: dicts key by key, any other value replaced."""
    for key, value in update.items():
        if isinstance(value, Mapping) and isinstance(into.get(key), dict):
            deep_merge(into[key], value)
        else:
            into[key] = copy.deepcopy(value)


def initial_db(pristine: Mapping[str, Any], task: BankingTask) -> dict[str, Any]:
    """The database at the start of ``task``: the pristine one with the task's ``agent_data`` merged in."""
    db = copy.deepcopy(dict(pristine))
    state = task.initial_state
    data = state.initialization_data if state is not None else None
    if data is not None and data.agent_data:
        deep_merge(db, data.agent_data)
        db = validated(db, f"task {task.id}'s initialization_data.agent_data")
    return db


def db_hash(db: Mapping[str, Any]) -> str:
    """τ²'s database hash."""
    return hashlib.sha256(json.dumps(db, sort_keys=True, default=str).encode("utf-8")).hexdigest()
