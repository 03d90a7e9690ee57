"""Domain records shared by the services and the orchestrator (pydantic; protobuf stays at the wire)."""

from __future__ import annotations

import json
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StringConstraints

Role = Literal["system", "user", "assistant", "tool"]
Requestor = Literal["assistant", "user"]
Termination = Literal["user_stop", "terminate_tool", "max_steps", "env_abort", "agent_gave_up", "too_many_errors"]
"""How an episode ended; only ``user_stop`` and ``terminate_tool`` episodes are evaluated."""
EVALUATED_TERMINATIONS: frozenset[Termination] = frozenset({"user_stop", "terminate_tool"})
StandardBasis = Literal["DB", "ENV_ASSERTION", "ACTION", "COMMUNICATE", "NL_ASSERTION"]
"""The kinds of reward check τ² names (its ``RewardType``), each with its own value on the wire."""
CustomBasis = Annotated[str, StringConstraints(pattern=r"^[A-Z][A-Z0-9_]{0,63}$")]
"""A kind of check a domain defines itself (``KNOWLEDGE``); on the wire ``REWARD_BASIS_CUSTOM`` and its name."""
RewardBasis = StandardBasis | CustomBasis
"""What a reward check is named by: one of τ²'s kinds, or a domain's own."""
STANDARD_BASES: tuple[StandardBasis, ...] = ("DB", "ENV_ASSERTION", "ACTION", "COMMUNICATE", "NL_ASSERTION")

STOP_TOKEN = "###STOP###"  # noqa: S105 - not a password
"""τ-bench's marker: a simulated user's message containing it ends the conversation."""
USER_STOP_TOKENS = (STOP_TOKEN, "###TRANSFER###", "###OUT-OF-SCOPE###")
"""A simulated user's message holding any of these ends the episode (τ²'s user stops on all three)."""

# How a run plays a domain when it does not say otherwise: each domain's own benchmark's limits and seeds. A domain
# declares them (DomainPlugin.run_defaults), the env sends them with the domain (DomainInfo.run_defaults), and every
# front door takes from there each value its run was not given, so nothing outside the domains reads them from a name.

TaskIdStyle = Literal["index", "id"]
"""How results and routes spell a task: ``index``, τ-bench v1's integer position in the split (task ids that are
whole numbers become integers); ``id``, the task's own id as text (τ²'s ``"0"`` stays ``"0"``)."""
ReplayMode = Literal["trajectory", "timeline"]
"""What re-grading a recorded episode replays: ``trajectory``, the agent's tool calls as the agent saw them
(τ-bench v1); ``timeline``, every answered tool call in order, the user's too (τ², dual control)."""


class RunDefaults(BaseModel):
    """The limits, seeds and conventions of a domain's own benchmark, for what a run leaves unset."""

    model_config = ConfigDict(frozen=True, extra="forbid", use_attribute_docstrings=True)

    seed: int
    """Seeds the task order (``--shuffle``) and the models."""
    max_steps: int = Field(ge=1)
    """Steps an episode may take: tool calls and messages, each one step."""
    max_errors: int | None = Field(default=None, ge=1)
    """Tool results that are errors an episode may have, counted over the episode; None: no limit."""
    per_trial_seeds: bool = False
    """Whether each trial gets its own seed, derived from ``seed`` as τ² derives them (``random.seed(seed)`` then
    ``randint(0, 1_000_000)`` per trial); False: every trial gets ``seed``."""
    split: str | None = None
    """The split a run takes when it names none; None: the first of the domain's splits that has data."""
    task_id_style: TaskIdStyle = "index"
    replay: ReplayMode = "trajectory"
    model_seed: bool = False
    """Whether the models' requests carry the seed: τ²'s participants send it (``llm_args["seed"]``); τ-bench v1's
    run.py sends none, which False keeps (the parity bench, bench/parity_taubench.py, found the difference)."""


V1_RUN_DEFAULTS = RunDefaults(seed=10, max_steps=30)
"""τ-bench v1's run.py: ``--seed 10``, ``--max-num-steps 30``, no error limit, one seed for every trial."""


class ToolCall(BaseModel):
    """A function call requested by the agent or the user; ``arguments`` is the JSON text the model wrote."""

    id: str
    name: str
    arguments: str = "{}"
    requestor: Requestor = "assistant"

    def openai(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "type": "function",
            "function": {"name": self.name, "arguments": self.arguments},
        }


class ChatMessage(BaseModel):
    """One conversation turn."""

    role: Role
    content: str = ""
    tool_calls: list[ToolCall] = Field(default_factory=list)
    tool_call_id: str = ""
    name: str = ""
    reasoning: str = ""
    model_turns: list[str] | None = None
    """A user simulator's own model history for this USER message when it is not ``[reasoning or content]``
    (τ-bench's verify and reflection users; the proto's ``Message.model_turns``)."""

    def openai(self) -> dict[str, Any]:
        """The message in OpenAI chat form, as τ-bench's results record trajectories."""
        out: dict[str, Any] = {"role": self.role, "content": self.content}
        if self.tool_calls:
            out["tool_calls"] = [call.openai() for call in self.tool_calls]
        if self.role == "tool":
            out["tool_call_id"] = self.tool_call_id
            out["name"] = self.name
        return out

    @classmethod
    def from_openai(cls, message: dict[str, Any]) -> ChatMessage:
        """Parse a message in OpenAI chat form (as found in τ-bench results files)."""
        calls = [
            ToolCall(
                id=str(call.get("id") or ""),
                name=str(call.get("function", {}).get("name", "")),
                arguments=_arguments_text(call.get("function", {}).get("arguments", "{}")),
            )
            for call in message.get("tool_calls") or []
        ]
        return cls(
            role=message["role"],
            content=message.get("content") or "",
            tool_calls=calls,
            tool_call_id=str(message.get("tool_call_id") or ""),
            name=str(message.get("name") or ""),
        )


def _arguments_text(arguments: Any) -> str:
    return arguments if isinstance(arguments, str) else json.dumps(arguments)


class ToolSchema(BaseModel):
    """A tool the agent may call (OpenAI function format)."""

    name: str
    description: str = ""
    parameters: dict[str, Any] = Field(default_factory=dict)

    def openai(self) -> dict[str, Any]:
        return {
            "type": "function",
            "function": {"name": self.name, "description": self.description, "parameters": self.parameters},
        }


class TaskRef(BaseModel):
    """One task of a benchmark split, by the task's string id (τ-bench v1: its index in the split, in decimal)."""

    model_config = ConfigDict(frozen=True)

    domain: str
    split: str
    task_id: str


class EpisodeContext(BaseModel):
    """One attempt at one trial of one task."""

    task: TaskRef
    trial: int = 0
    episode_id: str = ""
    rollout_token: str = ""
    """``<rollout_id>.<hex HMAC-SHA256>`` for a model gateway (empty without a gateway key): model-calling agents
    send it as the ``X-Taumesh-Rollout`` header (:mod:`taumesh.gateway.signing`)."""


class ModelSettings(BaseModel):
    """The model behind an LLM strategy."""

    model: str = ""
    provider: str = ""
    temperature: float = 0.0
    api_base: str = ""
    seed: int = 0
    send_seed: bool = False
    """Whether each request carries ``seed`` (:attr:`RunDefaults.model_seed`); ``seed`` seeds the strategies' own draws
    either way (the few-shot agent's examples)."""


def _distinct(first: list[str], second: list[str]) -> list[str]:
    """``first`` then what ``second`` adds to it, each value once, in the order first seen."""
    return first + [value for value in dict.fromkeys(second) if value not in first]


class Usage(BaseModel):
    """Tokens and cost of model calls, and what the provider said about itself while serving them.

    The provider's own account (``system_fingerprints``, ``served_models``, ``seeded_calls``) travels with the usage
    but is left out of its serialisation (``model_dump``): the spend recorded in results (``info.agent_usage``…)
    stays as it was, and ``info.provider`` records the rest apart (docs/results.md).
    """

    prompt_tokens: int = 0
    completion_tokens: int = 0
    cost_usd: float = 0.0
    calls: int = 0
    system_fingerprints: list[str] = Field(default_factory=list, exclude=True)
    """The distinct ``system_fingerprint``s the provider returned, in the order first seen (empty: none returned)."""
    served_models: list[str] = Field(default_factory=list, exclude=True)
    """The distinct model names the provider said it served (each response's ``model``), in the order first seen."""
    seeded_calls: int = Field(default=0, exclude=True)
    """How many of the calls' requests carried a ``seed``."""

    def __add__(self, other: Usage) -> Usage:
        return Usage(
            prompt_tokens=self.prompt_tokens + other.prompt_tokens,
            completion_tokens=self.completion_tokens + other.completion_tokens,
            cost_usd=self.cost_usd + other.cost_usd,
            calls=self.calls + other.calls,
            system_fingerprints=_distinct(self.system_fingerprints, other.system_fingerprints),
            served_models=_distinct(self.served_models, other.served_models),
            seeded_calls=self.seeded_calls + other.seeded_calls,
        )


class DialogflowCxAgent(BaseModel):
    """A Dialogflow CX agent under test: ``projects/{project_id}/locations/{location}/agents/{agent_id}``."""

    project_id: str = ""
    location: str = "global"
    agent_id: str = ""

    @property
    def resource(self) -> str:
        """The agent's resource name."""
        return f"projects/{self.project_id}/locations/{self.location or 'global'}/agents/{self.agent_id}"


class AgentSettings(BaseModel):
    """How the agent under test runs."""

    strategy: str = "oracle"
    model: ModelSettings = Field(default_factory=ModelSettings)
    few_shot_displays_path: str = ""
    dialogflow_cx: DialogflowCxAgent | None = None
    """For the ``dialogflow-cx`` strategy: which CX agent plays."""


class UserSettings(BaseModel):
    """How the user is simulated."""

    strategy: str = "scripted"
    model: ModelSettings = Field(default_factory=ModelSettings)


class RewardCheck(BaseModel):
    """One check of a task's reward basis and its outcome."""

    basis: RewardBasis
    subject: str
    passed: bool
    expected: str = ""
    actual: str = ""
    explanation: str = ""


class GoldAction(BaseModel):
    """A gold action as the scorer reports it; ``requestor`` ``user`` for the simulated user's own (τ² telecom)."""

    name: str
    kwargs: dict[str, Any] = Field(default_factory=dict)
    requestor: Requestor = "assistant"

    def tau_bench(self) -> dict[str, Any]:
        """τ-bench's ``{name, kwargs}``, plus ``requestor: "user"`` for the user's only: v1 actions stay τ-bench's."""
        action: dict[str, Any] = {"name": self.name, "kwargs": self.kwargs}
        if self.requestor == "user":
            action["requestor"] = "user"
        return action


class Score(BaseModel):
    """The scorer's verdict on one episode: the reward and every check behind it."""

    reward: float
    checks: list[RewardCheck] = Field(default_factory=list)
    """Empty when the episode did not end (not evaluated)."""
    reward_basis: list[RewardBasis] = Field(default_factory=list)
    gold_actions: list[GoldAction] = Field(default_factory=list)
    required_outputs: list[str] = Field(default_factory=list)

    def tau_bench_reward_info(self) -> dict[str, Any] | None:
        """τ-bench v1's ``reward_info``: the outputs check when the task has outputs, else the database check.

        None for an episode that was not evaluated, as τ-bench writes no reward info for it.
        """
        if not self.checks:
            return None
        said = [check for check in self.checks if check.basis == "COMMUNICATE"]
        info: dict[str, Any]
        if said:
            info = {
                "r_outputs": 1.0 if all(check.passed for check in said) else 0.0,
                "outputs": {check.subject: check.passed for check in said},
            }
        else:
            database = next((check for check in self.checks if check.basis == "DB"), None)
            info = {
                "r_actions": 1.0 if database is not None and database.passed else 0.0,
                "gt_data_hash": database.expected if database is not None else "",
            }
        actions = [action.tau_bench() for action in self.gold_actions]
        return {"reward": self.reward, "info": info, "actions": actions}
