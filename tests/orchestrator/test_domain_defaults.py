"""Run limits not given are the domain's own, as the env sends them, whichever front door builds the run.

Each domain declares its run defaults (``DomainPlugin.run_defaults``); the env sends them in
``DomainInfo.run_defaults``; the CLI's, the REST API's and the Gym's configurations take every value they leave
unset from there (:func:`~taumesh.orchestrator.run.runner.resolve_domain`), over a real env service on loopback. No
code outside the domains chooses by a domain's name: a folder plugin declares its own and gets them.
"""

from __future__ import annotations

import asyncio
import json
import textwrap
from pathlib import Path

import pytest

from taumesh.api.runs import run_config as api_run_config
from taumesh.api.schemas import ValidateTasksRequest
from taumesh.api.settings import ApiSettings
from taumesh.models import TaskRef
from taumesh.orchestrator.config import RunConfig, ServiceAddresses
from taumesh.orchestrator.gym.config import GymConfig
from taumesh.orchestrator.run.runner import resolve_domain
from taumesh.orchestrator.run.stack import service_stack
from taumesh.settings import RunSettings
from tests.helpers.cli import ORACLE, assert_ok, load_json, results_path, taumesh

TAU2 = {"seed": 300, "max_steps": 200, "max_errors": 10, "per_trial_seeds": True}
TAU_BENCH = {"seed": 10, "max_steps": 30, "max_errors": None, "per_trial_seeds": False}
HEALTHCARE = {"seed": 10, "max_steps": 50, "max_errors": 10, "per_trial_seeds": True}


def resolved(config: RunConfig, data_dir: Path | None = None) -> RunConfig:
    """``config`` resolved against an env service started here, on loopback (the real ListDomains)."""

    async def go() -> RunConfig:
        async with service_stack(ServiceAddresses(), data_dir or config.data_dir) as clients:
            return (await resolve_domain(clients, config))[0]

    return asyncio.run(go())


def limits(config: RunConfig) -> dict[str, object]:
    played = config.limits
    return {
        "seed": played.seed,
        "max_steps": played.max_steps,
        "max_errors": played.max_errors,
        "per_trial_seeds": played.per_trial_seeds,
    }


@pytest.mark.parametrize(
    ("env", "want"), [("tau2-mock", TAU2), ("healthcare", HEALTHCARE), ("healthcare:v1", HEALTHCARE)]
)
def test_a_config_without_limits_takes_the_domains_own(tau2_data: Path, env: str, want: dict[str, object]) -> None:
    config = resolved(RunConfig(env=env))
    assert limits(config) == want
    assert config.agent.model.seed == config.user.model.seed == want["seed"]  # the run's seed seeds both models
    sent = env.startswith("tau2-")  # τ²'s requests carry it (llm_args["seed"]); healthcare's, like τ-bench v1's, not
    assert config.agent.model.send_seed == config.user.model.send_seed == sent


def test_a_config_cannot_play_before_it_has_asked_its_domain() -> None:
    with pytest.raises(RuntimeError, match="has not taken its domain's run defaults"):
        _ = RunConfig(env="tau2-mock").limits


def test_limits_given_are_kept(tau2_data: Path) -> None:
    config = resolved(RunConfig(env="tau2-mock", max_steps=7, max_errors=3, seed=1, per_trial_seeds=False))
    assert limits(config) == {"seed": 1, "max_steps": 7, "max_errors": 3, "per_trial_seeds": False}


def test_the_default_split_is_the_domains(tau2_data: Path) -> None:
    assert resolved(RunConfig(env="tau2-mock")).task_split == "base"
    assert resolved(RunConfig(env="healthcare")).task_split == "base"


def test_the_cli_the_api_and_gym_agree(tau2_data: Path, tmp_path: Path) -> None:
    cli = RunSettings(env="tau2-mock", log_dir=tmp_path).run_config()
    api = api_run_config(ValidateTasksRequest(env="tau2-mock"), ApiSettings(database_url=f"sqlite:///{tmp_path}/a"))
    gym = GymConfig(domain="tau2-mock").run_config(TaskRef(domain="tau2-mock", split="base", task_id="0"))
    assert limits(resolved(cli)) == limits(resolved(api)) == limits(resolved(gym)) == TAU2


def test_a_folder_plugin_declares_its_own(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A domain the code has never heard of gets the limits it declares, not τ-bench's by default."""
    plugin = tmp_path / "plugins" / "tiny"
    plugin.mkdir(parents=True)
    (plugin / "__init__.py").write_text(
        textwrap.dedent(
            """
            from pydantic import BaseModel
            from taumesh.domains import DomainPlugin, RunDefaults

            class Db(BaseModel):
                rows: dict[str, dict] = {}

            plugin = DomainPlugin(
                name="tiny", tools=(), database=Db, splits=("only",),
                run_defaults=RunDefaults(seed=5, max_steps=12, max_errors=2),
            )
            """
        ),
        encoding="utf-8",
    )
    data = tmp_path / "data" / "tiny"
    data.mkdir(parents=True)
    (data / "rows.json").write_text("{}", encoding="utf-8")
    (data / "wiki.md").write_text("policy", encoding="utf-8")
    task = {"user_id": "u", "instruction": "hi", "actions": [], "outputs": []}
    (data / "tasks_only.json").write_text(json.dumps([task]), encoding="utf-8")
    monkeypatch.setenv("TAUMESH_DOMAIN_PATH", str(tmp_path / "plugins"))
    config = resolved(RunConfig(env="tiny", data_dir=tmp_path / "data"))
    assert limits(config) == {"seed": 5, "max_steps": 12, "max_errors": 2, "per_trial_seeds": False}
    assert config.task_split == "only"


def test_healthcare_results_record_its_own_run_defaults(tmp_path: Path) -> None:
    result = taumesh("run", "--env", "healthcare", "--task-split", "test", "--task-ids", "0", *ORACLE,
                     "--log-dir", tmp_path)  # fmt: skip
    assert_ok(result)
    [entry] = load_json(results_path(tmp_path))
    assert entry["reward"] == 1.0
    recorded = entry["info"]["run_defaults"]
    assert {k: recorded[k] for k in HEALTHCARE} == HEALTHCARE
    assert (recorded["task_id_style"], recorded["replay"]) == ("id", "timeline")
    assert entry["info"]["run"]["max_steps"] == 50
