"""The REST run request declares no field ``taumesh run`` already has: it narrows the run's own (issue 23)."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from taumesh.api.schemas import ValidateTasksRequest
from taumesh.orchestrator.config import RunScope

SHARED = ("num_trials", "task_split", "start_index", "end_index", "max_concurrency", "shuffle")


@pytest.mark.parametrize("name", SHARED)
def test_a_shared_field_keeps_the_run_s_default_and_help(name: str) -> None:
    request, run = ValidateTasksRequest.model_fields[name], RunScope.model_fields[name]
    assert request.description == run.description and request.description
    assert request.get_default() == run.get_default()


def test_the_api_s_bounds_narrow_the_run_s() -> None:
    for too_many in ({"num_trials": 11}, {"max_concurrency": 65}, {"task_split": "x" * 51}):
        with pytest.raises(ValidationError):
            ValidateTasksRequest(env="retail", **too_many)
    with pytest.raises(ValidationError):  # the run's own bound still holds
        ValidateTasksRequest(env="retail", num_trials=0)
    assert ValidateTasksRequest(env="retail", num_trials=10, max_concurrency=64).num_trials == 10
