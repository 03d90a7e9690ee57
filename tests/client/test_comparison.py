"""quick_validate and validate_with_comparison against a real uvicorn: the side-by-side table, printed and as a dict."""

from __future__ import annotations

import pytest
import rich.console

from taumesh.client import (
    ComparisonRefused,
    InvalidRequestError,
    ModelComparison,
    ModelSpec,
    NotFoundError,
    TaumeshClient,
    quick_validate,
    validate_with_comparison,
)
from tests.helpers.api import ApiServer


def test_quick_validate_runs_one_benchmark(api: ApiServer) -> None:
    answer = quick_validate(
        "openai",
        "gpt-4o",
        "retail",
        base_url=api.base_url,
        api_key=api.token,
        agent_strategy="oracle",
        user_strategy="scripted",
        task_ids=[8, 9],
    )
    assert answer.status == "completed" and sorted(r.task_id for r in answer.results) == [8, 9]
    assert answer.metrics is not None and answer.metrics.success_rate == 1.0


def test_model_specs_take_the_forks_forms() -> None:
    assert ModelSpec.parse("anthropic/claude-x") == ModelSpec(model="claude-x", model_provider="anthropic")
    assert ModelSpec.parse("gpt-4o") == ModelSpec(model="gpt-4o", model_provider="openai")
    assert ModelSpec.parse({"provider": "google", "model": "g"}).label == "google/g"
    assert ModelSpec(model="m", agent_strategy="react").label == "openai/m (react)"


def test_comparison_table_side_by_side(api: ApiServer) -> None:
    oracle = ModelSpec(model="oracle", agent_strategy="oracle")
    scripted = {"provider": "openai", "model": "gpt-4o", "agent_strategy": "oracle"}
    with TaumeshClient(api.base_url, api.token) as client:
        comparison = validate_with_comparison(
            [oracle, scripted], env="retail", num_trials=2, client=client, user_strategy="scripted", task_ids=[0, 1, 2]
        )
    assert isinstance(comparison, ModelComparison)
    table = comparison.to_dict()
    assert table["model"] == ["openai/oracle (oracle)", "openai/gpt-4o (oracle)"]
    # tasks, as the fork's metrics count them (3 tasks × 2 trials: 3)
    assert table["status"] == ["completed", "completed"] and table["success_rate"][0] == 1.0 and table["tasks"][0] == 3
    assert table["pass^1"][0] == table["pass^2"][0] == 1.0
    assert all(len(column) == 2 for column in table.values())

    text = str(comparison)
    assert "pass^2" in text and "openai/oracle (oracle)" in text and "1.0000" in text
    console = rich.console.Console(record=True, width=200)
    console.print(comparison)
    assert "openai/gpt-4o (oracle)" in console.export_text()


def test_every_model_is_checked_before_any_runs(api: ApiServer) -> None:
    """The REST fork's example failed on its second model after the first had run: now nothing runs, and each
    refused model is named with its reason."""
    oracle = ModelSpec(model="oracle", agent_strategy="oracle")
    unknown_model = {"provider": "openai", "model": "no-such-model-anywhere"}
    unknown_strategy = {"provider": "openai", "model": "gpt-4o", "agent_strategy": "no-such-strategy"}
    with TaumeshClient(api.base_url, api.token) as client:
        before = client.runs.list().total
        with pytest.raises(ComparisonRefused) as refused:
            validate_with_comparison(
                [oracle, unknown_model, unknown_strategy], client=client, user_strategy="scripted", task_ids=[0]
            )
        assert client.runs.list().total == before  # the valid first model was not started
    assert set(refused.value.refused) == {"openai/no-such-model-anywhere", "openai/gpt-4o (no-such-strategy)"}
    message = str(refused.value)
    assert "refused before any model ran" in message
    assert "'no-such-model-anywhere' is not a model litellm lists" in message and "no-such-strategy" in message
    assert isinstance(refused.value, InvalidRequestError) and refused.value.status_code == 422


def test_check_runs_nothing(api: ApiServer) -> None:
    with TaumeshClient(api.base_url, api.token) as client:
        before = client.runs.list().total
        checked = client.runs.check(env="retail", agent_strategy="oracle", user_strategy="scripted", task_ids=[0])
        assert checked.valid and checked.request_id and client.runs.list().total == before
        with pytest.raises(NotFoundError):
            client.runs.check(env="no-such-domain", agent_strategy="oracle", user_strategy="scripted")
