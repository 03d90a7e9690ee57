"""τ²'s telecom data models, rebuilt from its sources (enums, dates, lambda default factories)."""

from __future__ import annotations

import hashlib
import json
import tomllib
from pathlib import Path

import pytest

from taumesh.domains.tau2 import domain_data, domain_sources
from taumesh.domains.tau2._source_models import database_model, read_models


@pytest.mark.parametrize(
    ("module", "db_file", "index_key"),
    [("data_model.py", "db.toml", "telecom/agent"), ("user_data_model.py", "user_db.toml", "telecom/user")],
)
def test_rebuilt_models_give_taus_initial_hash(
    tau2_data: Path, expected: Path, module: str, db_file: str, index_key: str
) -> None:
    data = domain_data(tau2_data, "telecom")
    model = database_model(read_models(domain_sources(data) / module))
    dumped = model.model_validate(tomllib.loads((data / db_file).read_text(encoding="utf-8"))).model_dump()
    digest = hashlib.sha256(json.dumps(dumped, sort_keys=True, default=str).encode()).hexdigest()
    index = json.loads((expected / "canonical_db" / "INDEX.json").read_text(encoding="utf-8"))
    assert digest == index[index_key]["sha256_of_hash_string"]


def test_lambda_default_factories_build_fresh_values(tau2_data: Path) -> None:
    models = read_models(domain_sources(domain_data(tau2_data, "telecom")) / "user_data_model.py")
    first, second = models["MockPhoneAttributes"](), models["MockPhoneAttributes"]()
    assert first.app_statuses["messaging"].permissions.sms is True
    assert first.app_statuses is not second.app_statuses
