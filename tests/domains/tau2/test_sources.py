"""Data models and tool schemas rebuilt from τ²'s sources equal what τ² itself produces."""

from __future__ import annotations

import gzip
import hashlib
import json
from pathlib import Path

import pytest

from taumesh.domains.tau2 import Tau2Layout, domain_data, domain_sources
from taumesh.domains.tau2._source_models import SourceError, read_models
from taumesh.domains.tau2._source_tools import read_tools

TOOLKITS = {"mock": "MockTools", "airline": "AirlineTools", "retail": "RetailTools"}


@pytest.mark.parametrize("domain", sorted(TOOLKITS))
def test_tool_schemas_are_byte_identical_to_tau2s(tau2_data: Path, expected: Path, domain: str) -> None:
    layout = Tau2Layout(toolkit=TOOLKITS[domain])
    root = domain_data(tau2_data, domain)
    reference = json.loads((expected / "tools" / f"{domain}.json").read_text())
    assert json.dumps(layout.tool_schemas(root)) == json.dumps(reference["agent_tools"])
    assert layout.user_tool_schemas(root) == reference["user_tools"]
    policy = layout.policy(root)
    assert hashlib.sha256(policy.encode()).hexdigest() == reference["policy_sha256"]
    assert len(policy) == reference["policy_chars"]


@pytest.mark.parametrize("domain", sorted(TOOLKITS))
def test_normalised_database_is_the_string_tau2_hashes(tau2_data: Path, expected: Path, domain: str) -> None:
    from taumesh.domains.tau2 import Tau2Hasher

    layout = Tau2Layout(toolkit=TOOLKITS[domain])
    base = layout.base_data(domain_data(tau2_data, domain))
    index = json.loads((expected / "canonical_db" / "INDEX.json").read_text())[f"{domain}/agent"]
    canonical = gzip.decompress((expected / "canonical_db" / index["file"]).read_bytes()).decode()
    text = Tau2Hasher(base).text(base)
    assert text == canonical
    assert hashlib.sha256(text.encode()).hexdigest() == index["sha256_of_hash_string"]


def test_source_with_unknown_construct_is_refused(tmp_path: Path) -> None:
    source = tmp_path / "data_model.py"
    source.write_text("from pydantic import BaseModel\nclass A(BaseModel):\n    x: Mystery = 1\n")
    with pytest.raises(SourceError, match="unknown name 'Mystery'"):
        read_models(source)


def test_tool_types_come_from_the_decorators(tau2_data: Path) -> None:
    sources = domain_sources(domain_data(tau2_data, "mock"))
    tools = read_tools(sources / "tools.py", "MockTools", read_models(sources / "data_model.py"))
    assert [(tool.name, tool.tool_type) for tool in tools] == [
        ("create_task", "write"),
        ("get_users", "read"),
        ("update_task_status", "write"),
        ("transfer_to_human_agents", "generic"),
    ]
