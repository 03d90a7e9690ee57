"""Run limits not given follow the domain, whichever front door builds the run: CLI, REST API, Gym."""

from __future__ import annotations

from pathlib import Path

import pytest

from taumesh.api.runs import run_config as api_run_config
from taumesh.api.schemas import ValidateTasksRequest
from taumesh.api.settings import ApiSettings
from taumesh.models import TaskRef
from taumesh.orchestrator.config import RunConfig
from taumesh.orchestrator.gym.config import GymConfig
from taumesh.settings import RunSettings

TAU2 = {"max_steps": 200, "max_errors": 10, "tau2_trial_seeds": True}
TAU_BENCH = {"max_steps": 30, "max_errors": None, "tau2_trial_seeds": False}


def limits(config: RunConfig) -> dict[str, object]:
    return {"max_steps": config.max_steps, "max_errors": config.max_errors, "tau2_trial_seeds": config.tau2_trial_seeds}


@pytest.mark.parametrize(("env", "want", "seed"), [("tau2-airline", TAU2, 300), ("retail", TAU_BENCH, 10)])
def test_a_config_without_limits_takes_the_domains(env: str, want: dict[str, object], seed: int) -> None:
    config = RunConfig(env=env)
    assert limits(config) == want and config.seed == seed


def test_limits_given_are_kept_even_none() -> None:
    config = RunConfig(env="tau2-airline", max_steps=7, max_errors=None, seed=1)
    assert (config.max_steps, config.max_errors, config.seed) == (7, None, 1)


def test_the_cli_the_api_and_gym_agree_on_a_tau2_domain(tmp_path: Path) -> None:
    cli = RunSettings(env="tau2-airline", log_dir=tmp_path).run_config()
    api = api_run_config(ValidateTasksRequest(env="tau2-airline"), ApiSettings(database_url=f"sqlite:///{tmp_path}/a"))
    gym = GymConfig(domain="tau2-airline").run_config(TaskRef(domain="tau2-airline", split="base", task_id="0"))
    assert limits(cli) == limits(api) == limits(gym) == TAU2
