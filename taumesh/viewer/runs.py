"""Results files read into one shape: a :class:`Run` of :class:`Episode` records, whatever wrote the file.

Three forms are read: taumesh's τ-bench list (with its ``.errors.json`` beside it), τ-bench's own ``run.py`` list
(the same shape, fewer ``info`` keys), and τ²'s ``Results`` document (ours from ``--output-format tau2`` or τ²'s).
Trajectories are the whole conversation (a list's ``traj`` with the user's own tool calls put back in place,
:meth:`RunResult.timeline`), kept in OpenAI chat form; τ²'s messages are converted to it.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, Field

from taumesh.orchestrator.results.names import faults_path
from taumesh.orchestrator.results.records import RunResult
from taumesh.orchestrator.results.results_file import load_results
from taumesh.simulators import UNRECORDED, recorded_version

ResultsFormat = Literal["taumesh", "tau-bench", "tau2"]


class Episode(BaseModel):
    """One trial of one task: its outcome, its cost and what happened in it."""

    task_id: str
    trial: int
    reward: float | None
    """None: an infrastructure error (``error`` says why), never a failure of the agent."""
    error: str = ""
    termination: str = ""
    agent_cost: float = 0.0
    user_cost: float = 0.0
    agent_tokens: int = 0
    user_tokens: int = 0
    judge_cost: float = 0.0
    """What the scorer's judge model spent on the episode (τ²'s NL assertions)."""
    interrupted_cost: float = 0.0
    """What attempts of the episode the infrastructure cut short spent (already in agent_cost and user_cost)."""
    instruction: str = ""
    messages: list[dict[str, Any]] = Field(default_factory=list)
    """The whole conversation in time order, in OpenAI chat form (tool calls with JSON-text arguments): the user's
    own tool calls (τ²'s telecom) are user messages whose calls carry ``requestor: "user"``, their results tool
    messages with ``requestor: "user"``."""
    gold_actions: list[dict[str, Any]] = Field(default_factory=list)
    """The task's gold actions, ``{name, kwargs}``; with ``requestor`` (``assistant`` or ``user``) where the task has
    gold actions of the user's (τ²)."""
    reward_checks: list[dict[str, Any]] = Field(default_factory=list)
    """``{basis, subject, passed, expected, actual, explanation}`` per check of the reward."""
    reward_info: dict[str, Any] | None = None
    """The reward's details as the file records them (τ-bench's ``reward_info`` or τ²'s ``RewardInfo``)."""
    trace_id: str = ""
    history_messages: int = 0
    """How many messages of the task's message history (τ²) open the conversation, after any system prompt: played
    before the episode began, so the first divergence skips them."""

    @property
    def cost(self) -> float:
        """The episode's full cost: agent, user simulator and judge, interrupted attempts included."""
        return self.agent_cost + self.user_cost + self.judge_cost


class Run(BaseModel):
    """One results file."""

    id: str
    """Stable for the file's path, used in the viewer's URLs."""
    path: str
    name: str
    format: ResultsFormat
    domain: str = ""
    model: str = ""
    strategy: str = ""
    user: str = ""
    user_sim_versions: list[str] = Field(default_factory=lambda: [UNRECORDED])
    """The user-simulator versions the results record (``info.user_sim_version``, :mod:`taumesh.simulators`), sorted:
    one for a taumesh run, ``unrecorded`` for τ-bench's and τ²'s own files. Scores played against different
    simulators are not comparable (τ² #345: 78 % became about 50 %), so the viewer and the report show it."""
    config: dict[str, Any] = Field(default_factory=dict)
    episodes: list[Episode]
    faults: dict[str, Any] | None = None
    """``taumesh analyze``'s report (``RESULTS_faults.json`` beside the file) when there is one."""
    validity: dict[str, Any] = Field(default_factory=dict)
    """What the results record of how far to trust them (``info.validity``: audit version, task set, grader)."""


def run_id(path: Path) -> str:
    """A short id for ``path`` (the same path always gives the same id)."""
    return hashlib.sha256(str(path.resolve()).encode()).hexdigest()[:12]


def _usage(info: dict[str, Any], key: str) -> tuple[float, int]:
    usage = info.get(key) or {}
    tokens = int(usage.get("prompt_tokens") or 0) + int(usage.get("completion_tokens") or 0)
    return float(usage.get("cost_usd") or 0.0), tokens


def _checks_from_v1(reward_info: dict[str, Any] | None) -> list[dict[str, Any]]:
    """τ-bench v1's ``reward_info`` as checks: the data hash, and each required output."""
    details = (reward_info or {}).get("info") or {}
    checks: list[dict[str, Any]] = []
    if "r_actions" in details:
        checks.append(
            {
                "basis": "DB",
                "subject": "data hash",
                "passed": float(details["r_actions"]) >= 1.0,
                "expected": str(details.get("gt_data_hash", "")),
                "actual": "",
                "explanation": "",
            }
        )
    for output, found in (details.get("outputs") or {}).items():
        checks.append(
            {"basis": "COMMUNICATE", "subject": output, "passed": bool(found), "expected": output, "actual": ""}
        )
    return checks


def _user_calls_marked(timeline: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """``timeline`` with each call of a user message marked ``requestor: "user"``, as τ²'s messages mark them."""
    marked = []
    for message in timeline:
        if message.get("role") == "user" and message.get("tool_calls"):
            calls = [{**call, "requestor": call.get("requestor") or "user"} for call in message["tool_calls"]]
            message = {**message, "tool_calls": calls}
        marked.append(message)
    return marked


def episode_from_result(result: RunResult) -> Episode:
    """An entry of a τ-bench list (taumesh's or τ-bench's own)."""
    info = result.info
    task = info.get("task") or {}
    agent_cost, agent_tokens = _usage(info, "agent_usage")
    user_cost, user_tokens = _usage(info, "user_usage")
    if not info.get("user_usage"):
        user_cost = float(info.get("user_cost") or 0.0)
    lost = info.get("interrupted_attempts_usage") or {}
    lost_agent, lost_user = (float((lost.get(side) or {}).get("cost_usd") or 0.0) for side in ("agent", "user"))
    error = info.get("error") or {}
    reward_info = info.get("reward_info")
    return Episode(
        task_id=str(result.task_id),
        trial=result.trial,
        reward=result.reward,
        error=str(error.get("cause", "")) if error else "",
        termination=str(info.get("termination", "")),
        agent_tokens=agent_tokens,
        user_tokens=user_tokens,
        judge_cost=float((info.get("judge_usage") or {}).get("cost_usd") or 0.0),
        agent_cost=agent_cost + lost_agent,
        user_cost=user_cost + lost_user,
        interrupted_cost=lost_agent + lost_user,
        instruction=str(task.get("instruction", "")),
        messages=_user_calls_marked(result.timeline()),
        gold_actions=list(task.get("actions") or (reward_info or {}).get("actions") or []),
        reward_checks=list(info.get("reward_checks") or _checks_from_v1(reward_info)),
        reward_info=reward_info,
        trace_id=str(info.get("trace_id", "")),
        history_messages=int(info.get("history_messages") or 0),
    )


def openai_messages(tau2_messages: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
    """τ²'s messages in OpenAI chat form (a ``MultiToolMessage`` becomes one tool message per result)."""
    out: list[dict[str, Any]] = []
    for message in tau2_messages:
        role = message.get("role")
        if role == "tool":
            for tool in message.get("tool_messages") or [message]:
                out.append(
                    {
                        "role": "tool",
                        "tool_call_id": tool.get("id", ""),
                        "content": tool.get("content") or "",
                        "requestor": tool.get("requestor", "assistant"),
                    }
                )
            continue
        converted: dict[str, Any] = {"role": role, "content": message.get("content") or ""}
        calls = message.get("tool_calls") or []
        if calls:
            converted["tool_calls"] = [
                {
                    "id": call.get("id", ""),
                    "type": "function",
                    "function": {"name": call.get("name", ""), "arguments": json.dumps(call.get("arguments") or {})},
                    "requestor": call.get("requestor") or role,
                }
                for call in calls
            ]
        out.append(converted)
    return out


def _checks_from_tau2(reward_info: dict[str, Any]) -> list[dict[str, Any]]:
    """τ²'s ``RewardInfo`` as checks, one per DB check, action, assertion and required communication."""
    checks: list[dict[str, Any]] = []
    if reward_info.get("db_check"):
        checks.append({"basis": "DB", "subject": "database", "passed": bool(reward_info["db_check"].get("db_match"))})
    for item in reward_info.get("action_checks") or []:
        action = item.get("action") or {}
        subject = f"{action.get('name', '')}({json.dumps(action.get('arguments') or {}, sort_keys=True)})"
        checks.append({"basis": "ACTION", "subject": subject, "passed": bool(item.get("action_match"))})
    for item in reward_info.get("env_assertions") or []:
        assertion = item.get("env_assertion") or {}
        checks.append(
            {"basis": "ENV_ASSERTION", "subject": str(assertion.get("func_name", "")), "passed": bool(item.get("met"))}
        )
    for key, basis, subject in (
        ("communicate_checks", "COMMUNICATE", "info"),
        ("nl_assertions", "NL_ASSERTION", "nl_assertion"),
    ):
        for item in reward_info.get(key) or []:
            checks.append(
                {
                    "basis": basis,
                    "subject": str(item.get(subject, "")),
                    "passed": bool(item.get("met")),
                    "explanation": str(item.get("justification") or ""),
                }
            )
    return checks


def _gold_from_tau2(task: dict[str, Any]) -> list[dict[str, Any]]:
    criteria = task.get("evaluation_criteria") or {}
    return [
        {
            "name": action.get("name", ""),
            "kwargs": action.get("arguments") or {},
            "requestor": action.get("requestor") or "assistant",
        }
        for action in criteria.get("actions") or []
    ]


def load_tau2(path: Path, document: dict[str, Any]) -> Run:
    """τ²'s ``Results{timestamp, info, tasks, simulations}``."""
    tasks = {str(task.get("id")): task for task in document.get("tasks") or []}
    episodes = []
    for sim in document.get("simulations") or []:
        task = tasks.get(str(sim.get("task_id")), {})
        reward_info = sim.get("reward_info") or {}
        scenario = (task.get("user_scenario") or {}).get("instructions")
        episodes.append(
            Episode(
                task_id=str(sim.get("task_id")),
                trial=int(sim.get("trial") or 0),
                reward=reward_info.get("reward"),
                termination=str(sim.get("termination_reason") or ""),
                agent_cost=float(sim.get("agent_cost") or 0.0),
                user_cost=float(sim.get("user_cost") or 0.0),
                instruction=json.dumps(scenario, indent=1) if isinstance(scenario, dict) else str(scenario or ""),
                messages=openai_messages(sim.get("messages") or []),
                gold_actions=_gold_from_tau2(task),
                reward_checks=_checks_from_tau2(reward_info),
                reward_info=reward_info,
                history_messages=len((task.get("initial_state") or {}).get("message_history") or []),
            )
        )
    info = document.get("info") or {}
    agent, user = info.get("agent_info") or {}, info.get("user_info") or {}
    return Run(
        id=run_id(path),
        path=str(path),
        name=path.name,
        format="tau2",
        domain=str((info.get("environment_info") or {}).get("domain_name", "")),
        model=str(agent.get("llm") or ""),
        strategy=str(agent.get("implementation") or ""),
        user=" ".join(str(part) for part in (user.get("implementation"), user.get("llm")) if part),
        config={key: value for key, value in info.items() if key != "environment_info"},
        episodes=episodes,
    )


def _user_tools(episodes: Iterable[Episode]) -> set[str]:
    """The names of the tools the user called itself in any of ``episodes``."""
    return {
        str((call.get("function") or {}).get("name", ""))
        for episode in episodes
        for message in episode.messages
        for call in message.get("tool_calls") or []
        if call.get("requestor") == "user"
    }


def gold_actions_with_requestors(episodes: list[Episode]) -> None:
    """Give each gold action without a ``requestor`` its side, in a run where the user called tools.

    τ-bench's layout records gold actions as ``{name, kwargs}``, and taumesh adds ``requestor: "user"`` to the user's
    own (τ² telecom): in a file where some action has the key, one without it is the assistant's. Older files have
    none, so there a gold action naming a tool the user called in some episode of the run is taken as the user's.
    Runs where the user called no tool (τ-bench v1's) are left as they are.
    """
    user_tools = _user_tools(episodes)
    if not user_tools:
        return
    recorded = any("requestor" in action for episode in episodes for action in episode.gold_actions)
    for episode in episodes:
        episode.gold_actions = [
            action
            if action.get("requestor")
            else {**action, "requestor": "assistant" if recorded else _side(action, user_tools)}
            for action in episode.gold_actions
        ]


def _side(action: dict[str, Any], user_tools: set[str]) -> str:
    return "user" if action.get("name") in user_tools else "assistant"


def recorded_simulators(results: Iterable[RunResult]) -> list[str]:
    """The simulator versions ``results`` record, sorted (``[unrecorded]`` for an empty run).

    An entry recording none counts as ``unrecorded``, as ``taumesh compare`` counts it: a run begun before the registry
    and resumed after it mixes a known simulator with an unknown one, and says so.
    """
    return sorted({recorded_version(result.info) for result in results}) or [UNRECORDED]


def load_list(path: Path) -> Run:
    """A τ-bench list: taumesh's (with its errors file) or τ-bench's own."""
    loaded = load_results(path)
    episodes = [episode_from_result(result) for result in loaded]
    gold_actions_with_requestors(episodes)
    results = json.loads(path.read_text(encoding="utf-8"))
    fingerprint = next((entry["info"]["run"] for entry in results if "run" in (entry.get("info") or {})), None)
    recorded: Any = next((e["info"]["validity"] for e in results if "validity" in (e.get("info") or {})), {})
    config: dict[str, Any] = dict(fingerprint or {})
    agent, user = config.get("agent") or {}, config.get("user") or {}
    return Run(
        id=run_id(path),
        path=str(path),
        name=path.name,
        format="taumesh" if fingerprint is not None else "tau-bench",
        domain=str(config.get("env", "")),
        model=str(agent.get("model") or agent.get("name") or ""),
        strategy=str(agent.get("strategy", "")),
        user=" ".join(str(part) for part in (user.get("strategy"), user.get("model")) if part),
        user_sim_versions=recorded_simulators(loaded),
        config=config,
        episodes=episodes,
        validity=recorded if isinstance(recorded, dict) else {},
    )


def load_run(path: Path) -> Run:
    """Read one results file, whichever of the three forms it is in."""
    raw = json.loads(path.read_text(encoding="utf-8"))
    run = load_tau2(path, raw) if isinstance(raw, dict) and "simulations" in raw else load_list(path)
    faults = faults_path(path)
    if faults.exists():
        run.faults = json.loads(faults.read_text(encoding="utf-8"))
    return run


def is_results_file(path: Path) -> bool:
    """Whether ``path`` looks like a results file (not an errors file, a τ² twin, or an analysis report)."""
    name = path.name
    return path.suffix == ".json" and not name.endswith((".errors.json", "_faults.json"))


def results_files(paths: Iterable[Path]) -> list[Path]:
    """The results files among ``paths``; a folder gives every results file in it, newest first.

    A τ² document written beside a τ-bench list (``X.tau2.json`` next to ``X.json``) is the same run: only the list
    is kept.
    """
    found: list[Path] = []
    for path in paths:
        if path.is_dir():
            inside = sorted(
                (p for p in path.rglob("*.json") if is_results_file(p)), key=lambda p: p.stat().st_mtime, reverse=True
            )
            found += [p for p in inside if not (p.name.endswith(".tau2.json") and list_beside(p).exists())]
        else:
            found.append(path)
    return found


def list_beside(tau2_document: Path) -> Path:
    """The τ-bench list ``X.json`` of which the τ² document ``X.tau2.json`` is a copy (when both exist)."""
    return tau2_document.with_name(tau2_document.name.removesuffix(".tau2.json") + ".json")


def load_runs(paths: Iterable[Path]) -> list[Run]:
    """Every run in ``paths`` (files, or folders of them); a file that is not a results file raises ValueError."""
    runs = []
    for path in results_files(paths):
        try:
            runs.append(load_run(path))
        except (ValueError, KeyError, TypeError) as exc:
            raise ValueError(f"{path}: not a results file ({exc})") from exc
    return runs
