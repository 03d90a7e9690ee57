"""quick_validate and validate_with_comparison against a real uvicorn: the side-by-side table, printed and as a dict."""

from __future__ import annotations

import rich.console

from taumesh.client import ModelComparison, ModelSpec, TaumeshClient, quick_validate, validate_with_comparison
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
    unknown_strategy = {"provider": "openai", "model": "gpt-4o", "agent_strategy": "no-such-strategy"}
    too_long = "m" * 201  # the server refuses it (422): a "rejected" line, the others still run
    with TaumeshClient(api.base_url, api.token) as client:
        comparison = validate_with_comparison(
            [oracle, unknown_strategy, too_long],
            env="retail",
            num_trials=2,
            client=client,
            user_strategy="scripted",
            task_ids=[0, 1, 2],
        )
    assert isinstance(comparison, ModelComparison)
    table = comparison.to_dict()
    assert table["model"] == ["openai/oracle (oracle)", "openai/gpt-4o (no-such-strategy)", f"openai/{too_long}"]
    # tasks, as the fork's metrics count them (3 tasks × 2 trials: 3)
    assert table["status"][0] == "completed" and table["success_rate"][0] == 1.0 and table["tasks"][0] == 3
    assert table["pass^1"][0] == table["pass^2"][0] == 1.0
    # the server refuses an unknown strategy up front (422), naming it
    assert table["status"][1] == "rejected" and table["run_id"][1] is None and "no-such-strategy" in table["error"][1]
    assert table["status"][2] == "rejected" and table["run_id"][2] is None and "body.model: " in table["error"][2]
    assert all(len(column) == 3 for column in table.values())

    text = str(comparison)
    assert "pass^2" in text and "openai/oracle (oracle)" in text and "1.0000" in text
    console = rich.console.Console(record=True, width=200)
    console.print(comparison)
    assert "no-such-strategy" in console.export_text()
