"""The bank's database, tasks and initial states against upstream's recorded hashes (shared ``vectors.jsonl``)."""

from __future__ import annotations

import gzip
import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from taumesh.domains import DataError
from taumesh.domains.tau2_banking_knowledge.state import db_hash, initial_db, load_db
from taumesh.domains.tau2_banking_knowledge.tasks import load_tasks
from tests.helpers.paths import SHARED

FIXTURES = SHARED / "tau2" / "head_banking_knowledge"
DOMAIN = FIXTURES / "data"

pytestmark = pytest.mark.skipif(not DOMAIN.is_dir(), reason=f"{DOMAIN} is not there")


def vectors() -> dict[str, dict[str, Any]]:
    with (FIXTURES / "vectors.jsonl").open(encoding="utf-8") as lines:
        return {record["task_id"]: record for record in map(json.loads, lines)}


def test_pristine_database_is_upstreams_canonical_string() -> None:
    db = load_db(DOMAIN)
    canonical = gzip.decompress((FIXTURES / "canonical_initial_db.json.gz").read_bytes()).decode()
    assert json.dumps(db, sort_keys=True, default=str) == canonical
    raw = json.loads((DOMAIN / "db.json").read_text(encoding="utf-8"))
    assert db_hash(db) != db_hash(raw)  # the six defaulted tables


def test_tasks_come_from_tasks_dir_with_their_initial_hashes_and_allowlists() -> None:
    recorded = vectors()
    tasks = load_tasks(DOMAIN)
    assert [task.id for task in tasks] == list(recorded)  # 97, in the loader's order
    pristine = load_db(DOMAIN)
    for task in tasks:
        vector = recorded[task.id]
        assert db_hash(initial_db(pristine, task)) == vector["initial_db_hash"], task.id
        assert task.read_log_allowlist() == set(vector["env_kwargs"]["read_log_allowlist"]), task.id
        assert task.user_tools == vector["user_tools"], task.id
        assert task.evaluation_criteria is not None
        assert list(task.evaluation_criteria.reward_basis) == vector["reward_basis"], task.id


def test_a_broken_task_file_is_named(tmp_path: Path) -> None:
    shutil.copytree(DOMAIN / "tasks", tmp_path / "tasks")
    (tmp_path / "tasks" / "task_010.json").write_text('{"id": "task_010", "user_scenario": 3}')
    with pytest.raises(DataError, match=r"task_010\.json"):
        load_tasks(tmp_path)
