"""Airline tools against τ-bench v1's recorded vectors: gold replays, single calls and sequences."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from taumesh.domains import Domain, Session, ToolCrash, load_domain
from tests.helpers.paths import V1_VECTORS, read_jsonl


def _rows(filename: str) -> list[dict[str, Any]]:
    path = V1_VECTORS / filename
    if not path.is_file():
        return []
    return [row for row in read_jsonl(path) if row.get("env", "airline") == "airline"]


TASKS = _rows("airline_test.jsonl")
ERROR_CASES = _rows("error_cases.jsonl")
SEQUENCES = _rows("sequence_cases.jsonl")


@pytest.fixture(scope="module")
def domain(v1_data_dir: Path) -> Domain:
    return load_domain("airline", v1_data_dir)


def test_tool_names_match_schemas(domain: Domain) -> None:
    schemas = json.loads((domain.root / "tools.json").read_text(encoding="utf-8"))
    assert {schema["function"]["name"] for schema in schemas} == set(domain.tools_by_name)
    assert len(domain.tool_schemas) == len(schemas)


def test_initial_hash(domain: Domain) -> None:
    assert domain.initial_hash == "4587e6b48ad2b2c4f3e1fecb40aabec7bb2286513273b8f8cec3f5865222f290"


@pytest.mark.parametrize("task", TASKS, ids=[f"task{task['task_id']}" for task in TASKS])
def test_gold_replay(domain: Domain, task: dict[str, Any]) -> None:
    session = Session(domain)
    assert session.data_hash() == task["initial_hash"]
    for index, (action, expected, step) in enumerate(
        zip(task["actions"], task["action_outputs"], task["steps"], strict=True)
    ):
        result = session.call(action["name"], copy.deepcopy(action["kwargs"]))
        assert result.observation == expected, f"step {index} ({action['name']})"
        assert result.done == step["done"], f"step {index} ({action['name']})"
        assert session.data_hash() == step["hash_after"], f"step {index} ({action['name']})"
    assert session.data_hash() == task["final_hash"]


@pytest.mark.parametrize(
    "case", ERROR_CASES, ids=[f"{i}-{case['tool']}-{case['note']}" for i, case in enumerate(ERROR_CASES)]
)
def test_error_case(domain: Domain, case: dict[str, Any]) -> None:
    session = Session(domain)
    if "raised" in case:
        with pytest.raises(ToolCrash):
            session.call(case["tool"], copy.deepcopy(case["kwargs"]))
        return
    result = session.call(case["tool"], copy.deepcopy(case["kwargs"]))
    assert result.observation == case["observation"]
    assert result.done == case["done"]
    if "hash_after" in case:
        assert session.data_hash() == case["hash_after"]
    if "data_changed" in case:
        assert (session.data_hash() != domain.initial_hash) == case["data_changed"]


@pytest.mark.parametrize(
    "case", SEQUENCES, ids=[f"{i}-{case['sequence'][0]['tool']}" for i, case in enumerate(SEQUENCES)]
)
def test_sequence_case(domain: Domain, case: dict[str, Any]) -> None:
    session = Session(domain)
    for index, (step, expected) in enumerate(zip(case["sequence"], case["results"], strict=True)):
        kwargs = copy.deepcopy(step["kwargs"])
        if "raised" in expected:
            with pytest.raises(ToolCrash):
                session.call(step["tool"], kwargs)
            continue
        result = session.call(step["tool"], kwargs)
        assert result.observation == expected["observation"], f"step {index} ({step['tool']})"
    assert session.data_hash() == case["hash_after"]


def test_base_data_unchanged(domain: Domain) -> None:
    """Runs last in this module: nothing above may have touched the shared base data."""
    for table in domain.spec.tables:
        with (domain.root / f"{table}.json").open(encoding="utf-8") as handle:
            assert domain.base_data[table] == json.load(handle), table
    assert Session(domain).data_hash() == domain.initial_hash
