"""RunSpec, a run in its groups: the nested form of RunOptions, built from its fields, with the same checks.

Every setting is in exactly one group; a spec and the flat options it names are the same run; a run's ``--config``
file in the grouped form is the spec of that run; a key a group does not hold is refused; the JSON Schema documents
each group's settings with their own docstrings.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml
from pydantic import ValidationError

from taumesh.orchestrator.options import RunOptions
from taumesh.orchestrator.run_spec import RunSpec, group_members, options_of, spec_of
from taumesh.settings import load_run_settings

SPECS: list[dict[str, Any]] = [
    {"tasks": {"env": "airline", "task_ids": [3, 7], "num_trials": 4, "shuffle": True, "seed": 7}},
    {"tasks": {"domain": "retail", "task_split": "test"}, "agent": {"strategy": "react", "model": "gpt-4o"}},
    {
        "tasks": {"env": "tau2-mock", "tasks": "certified", "grader": "strict"},
        "agent": {"strategy": "tool-calling", "model": "gpt-4o", "model_provider": "openai", "temperature": 0.5},
        "user": {"strategy": "llm", "model": "gpt-4o-mini", "api_base": "http://127.0.0.1:9/v1"},
        "judge": {"model": "openai/gpt-4o"},
        "limits": {"max_steps": 12, "max_errors": 3, "max_concurrency": 8, "provider_limit": {"openai": 4}},
        "outputs": {"output_format": "taubench,mt", "quiet": True},
        "scale": {"workers": 2},
    },
]


def test_every_setting_of_a_run_is_in_exactly_one_group() -> None:
    members = [name for names in group_members().values() for name in names]
    assert sorted(members) == sorted(RunOptions.model_fields)
    assert list(group_members()) == [
        "tasks", "agent", "user", "limits", "services", "outputs", "scale", "knowledge", "judge",
    ]  # fmt: skip


@pytest.mark.parametrize("grouped", SPECS)
def test_a_spec_and_its_flat_options_are_the_same_run(grouped: dict[str, Any]) -> None:
    options = options_of(grouped)
    again = spec_of(options).model_dump(mode="json", exclude_unset=True)
    given = RunSpec.model_validate(grouped).model_dump(mode="json", exclude_unset=True)
    for group, settings in given.items():  # what was given is kept (a validator may add: --domain names the env)
        assert again[group] == again[group] | settings
    assert options_of(spec_of(options)).run_config() == options.run_config()


@pytest.mark.parametrize("grouped", SPECS)
def test_a_grouped_settings_file_is_its_spec(grouped: dict[str, Any], tmp_path: Path) -> None:
    path = tmp_path / "run.yaml"
    path.write_text(yaml.safe_dump(grouped), encoding="utf-8")
    [settings] = load_run_settings({}, path)
    assert settings.run_config() == options_of(grouped).run_config()


def test_a_key_a_group_does_not_hold_is_refused() -> None:
    with pytest.raises(ValidationError, match=r"agent\.colour"):
        RunSpec.model_validate({"agent": {"strategy": "oracle", "colour": "red"}})
    with pytest.raises(ValidationError, match=r"--domain 'airlines' names no domain"):
        options_of({"tasks": {"domain": "airlines"}})  # RunOptions' own checks, through the spec


def test_the_schema_documents_each_group_with_its_settings_own_words() -> None:
    schema = RunSpec.model_json_schema()
    assert set(schema["properties"]) == set(group_members())
    agent = schema["$defs"]["RunAgentSettings"]["properties"]
    assert agent["strategy"]["description"] == RunOptions.model_fields["agent_strategy"].description
    assert schema["$defs"]["RunUserSettings"]["properties"]["model"]["default"] == "gpt-4o"
