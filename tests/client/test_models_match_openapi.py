"""The client's hand-written models against the running server's /openapi.json: same fields, same required ones."""

from __future__ import annotations

from typing import Any, get_type_hints

import httpx
import pytest
from pydantic import BaseModel

from taumesh.client import models
from taumesh.client.models import ErrorBody, RunOptions
from tests.helpers.api import ApiServer

MIRRORED: list[tuple[type[BaseModel], str]] = [
    (models.HealthResponse, "HealthResponse"),
    (models.ProviderStatus, "ProviderStatus"),
    (models.TaskResult, "TaskResult"),
    (models.Metrics, "Metrics"),
    (models.ValidateTasksResponse, "ValidateTasksResponse"),
    (models.RunAccepted, "RunAccepted"),
    (models.RunChecked, "RunChecked"),
    (models.Run, "Run"),
    (models.RunList, "RunList"),
    (models.Trajectory, "Trajectory"),
    (models.TaskInfo, "TaskInfo"),
    (models.ListTasksResponse, "ListTasksResponse"),
    (ErrorBody, "ErrorResponse"),
]


@pytest.fixture(scope="module")
def schemas(api: ApiServer) -> dict[str, Any]:
    document: dict[str, Any] = httpx.get(f"{api.base_url}/openapi.json").json()
    return document["components"]["schemas"]  # type: ignore[no-any-return]


@pytest.mark.parametrize(("model", "name"), MIRRORED, ids=[name for _, name in MIRRORED])
def test_client_model_has_the_server_fields(model: type[BaseModel], name: str, schemas: dict[str, Any]) -> None:
    server = schemas[name]
    assert set(model.model_fields) == set(server["properties"]), name
    required_here = {field for field, info in model.model_fields.items() if info.is_required()}
    # the server always sends a required field or one with a default; the client may read more leniently
    always_sent = {f for f, spec in server["properties"].items() if "default" in spec} | set(server.get("required", []))
    assert required_here <= always_sent, name


def test_run_options_are_the_request_fields_but_wait(schemas: dict[str, Any]) -> None:
    request_fields = set(schemas["ValidateTasksRequest"]["properties"])
    assert set(get_type_hints(RunOptions)) == request_fields - {"wait"}
