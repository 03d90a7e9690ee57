"""τ²'s data models written in this project, and tool schemas with the fetched texts, equal what τ² produces."""

from __future__ import annotations

import gzip
import hashlib
import importlib
import json
import tomllib
from pathlib import Path

import pytest

from taumesh.domains.tau2 import Tau2Hasher, domain_data
from taumesh.domains.tau2._layout import Tau2Layout
from taumesh.domains.tau2._texts import domain_texts
from taumesh.domains.tau2_telecom.models import TelecomDB
from taumesh.domains.tau2_telecom.phone_models import MockPhoneAttributes, TelecomUserDB
from tests.helpers.tau2 import tau2_plugin

DOMAINS = ("mock", "airline", "retail", "telecom")


def _layout(domain: str) -> Tau2Layout:
    layout = tau2_plugin(domain).layout
    assert isinstance(layout, Tau2Layout)
    return layout


@pytest.mark.parametrize("domain", DOMAINS)
def test_tool_schemas_are_byte_identical_to_tau2s(tau2_data: Path, expected: Path, domain: str) -> None:
    layout = _layout(domain)
    root = domain_data(tau2_data, domain)
    reference = json.loads((expected / "tools" / f"{domain}.json").read_text())
    assert json.dumps(layout.tool_schemas(root)) == json.dumps(reference["agent_tools"])
    assert json.dumps(layout.user_tool_schemas(root)) == json.dumps(reference["user_tools"])
    policy = layout.policy(root)
    assert hashlib.sha256(policy.encode()).hexdigest() == reference["policy_sha256"]
    assert len(policy) == reference["policy_chars"]


@pytest.mark.parametrize("domain", ("mock", "airline", "retail"))
def test_normalised_database_is_the_string_tau2_hashes(tau2_data: Path, expected: Path, domain: str) -> None:
    base = _layout(domain).base_data(domain_data(tau2_data, domain))
    index = json.loads((expected / "canonical_db" / "INDEX.json").read_text())[f"{domain}/agent"]
    canonical = gzip.decompress((expected / "canonical_db" / index["file"]).read_bytes()).decode()
    text = Tau2Hasher(base).text(base)
    assert text == canonical
    assert hashlib.sha256(text.encode()).hexdigest() == index["sha256_of_hash_string"]


@pytest.mark.parametrize(
    ("model", "db_file", "index_key"),
    [(TelecomDB, "db.toml", "telecom/agent"), (TelecomUserDB, "user_db.toml", "telecom/user")],
)
def test_telecom_models_give_taus_initial_hash(
    tau2_data: Path, expected: Path, model: type[TelecomDB | TelecomUserDB], db_file: str, index_key: str
) -> None:
    data = domain_data(tau2_data, "telecom")
    dumped = model.model_validate(tomllib.loads((data / db_file).read_text(encoding="utf-8"))).model_dump()
    digest = hashlib.sha256(json.dumps(dumped, sort_keys=True, default=str).encode()).hexdigest()
    index = json.loads((expected / "canonical_db" / "INDEX.json").read_text(encoding="utf-8"))
    assert digest == index[index_key]["sha256_of_hash_string"]


def test_default_factories_build_fresh_values() -> None:
    first, second = MockPhoneAttributes(), MockPhoneAttributes()
    assert first.app_statuses["messaging"].permissions.sms is True
    assert first.app_statuses is not second.app_statuses


@pytest.mark.parametrize("domain", DOMAINS)
def test_tool_tags_agree_with_taus(tau2_data: Path, domain: str) -> None:
    """A tool τ² tags write is tagged write here, and every other tool read."""
    tools = {tool.name: tool for tool in tau2_plugin(domain).tools}
    for toolkit in domain_texts(domain).toolkits.values():
        assert [(tool.name, tools[tool.name].writes) for tool in toolkit.tools] == [
            (tool.name, tool.type == "write") for tool in toolkit.tools
        ]


def test_unknown_keys_are_refused_where_tau2_refuses_them() -> None:
    module = importlib.import_module("taumesh.domains.tau2_retail.models")
    assert module.Variant.model_validate(
        {"item_id": "1", "options": {}, "available": True, "price": 1, "extra": 1}
    ).model_dump() == {"item_id": "1", "options": {}, "available": True, "price": 1.0}
    with pytest.raises(ValueError, match="Extra inputs are not permitted"):
        module.RetailDB.model_validate({"products": {}, "users": {}, "orders": {}, "extra": {}})
