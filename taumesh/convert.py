"""Every conversion between protobuf messages and taumesh's pydantic models, in one place."""

from __future__ import annotations

import json
from collections.abc import Sequence
from functools import lru_cache

from pydantic import TypeAdapter, ValidationError

from taumesh.agent.v1 import agent_pb2
from taumesh.common.v1 import common_pb2
from taumesh.env.v1 import env_pb2
from taumesh.models import (
    V1_RUN_DEFAULTS,
    AgentSettings,
    ChatMessage,
    CustomBasis,
    DialogflowCxAgent,
    EpisodeContext,
    GoldAction,
    ModelSettings,
    ReplayMode,
    Requestor,
    RewardBasis,
    RewardCheck,
    Role,
    RunDefaults,
    Score,
    TaskIdStyle,
    TaskRef,
    Termination,
    ToolCall,
    ToolSchema,
    Usage,
    UserSettings,
)
from taumesh.scorer.v1 import scorer_pb2
from taumesh.user_sim.v1 import user_sim_pb2

_ROLE_TO_PROTO: dict[Role, common_pb2.Role.ValueType] = {
    "system": common_pb2.ROLE_SYSTEM,
    "user": common_pb2.ROLE_USER,
    "assistant": common_pb2.ROLE_ASSISTANT,
    "tool": common_pb2.ROLE_TOOL,
}
_ROLE_FROM_PROTO = {value: key for key, value in _ROLE_TO_PROTO.items()}

_REQUESTOR_TO_PROTO: dict[Requestor, common_pb2.Requestor.ValueType] = {
    "assistant": common_pb2.REQUESTOR_ASSISTANT,
    "user": common_pb2.REQUESTOR_USER,
}
_REQUESTOR_FROM_PROTO = {value: key for key, value in _REQUESTOR_TO_PROTO.items()} | {
    common_pb2.REQUESTOR_UNSPECIFIED: "assistant"  # agents need not set it
}

_TERMINATION_TO_PROTO: dict[Termination, common_pb2.Termination.ValueType] = {
    "user_stop": common_pb2.TERMINATION_USER_STOP,
    "terminate_tool": common_pb2.TERMINATION_TERMINATE_TOOL,
    "max_steps": common_pb2.TERMINATION_MAX_STEPS,
    "env_abort": common_pb2.TERMINATION_ENV_ABORT,
    "agent_gave_up": common_pb2.TERMINATION_AGENT_GAVE_UP,
    "too_many_errors": common_pb2.TERMINATION_TOO_MANY_ERRORS,
}
_TERMINATION_FROM_PROTO = {value: key for key, value in _TERMINATION_TO_PROTO.items()}

_BASIS_TO_PROTO: dict[str, scorer_pb2.RewardBasis.ValueType] = {
    "DB": scorer_pb2.REWARD_BASIS_DB,
    "ENV_ASSERTION": scorer_pb2.REWARD_BASIS_ENV_ASSERTION,
    "ACTION": scorer_pb2.REWARD_BASIS_ACTION,
    "COMMUNICATE": scorer_pb2.REWARD_BASIS_COMMUNICATE,
    "NL_ASSERTION": scorer_pb2.REWARD_BASIS_NL_ASSERTION,
}
_BASIS_FROM_PROTO: dict[scorer_pb2.RewardBasis.ValueType, RewardBasis] = {
    value: key for key, value in _BASIS_TO_PROTO.items()
}
_CUSTOM_BASIS: TypeAdapter[str] = TypeAdapter(CustomBasis)


class ConversionError(ValueError):
    """A protobuf message does not hold a valid value (the caller's mistake: INVALID_ARGUMENT).

    ``fields`` names the offending fields, as (path, description) pairs for a ``google.rpc.BadRequest``.
    """

    def __init__(self, message: str, fields: list[tuple[str, str]] | None = None) -> None:
        super().__init__(message)
        self.fields = fields or []


def message_to_proto(message: ChatMessage) -> common_pb2.Message:
    return common_pb2.Message(
        role=_ROLE_TO_PROTO[message.role],
        content=message.content,
        tool_calls=[tool_call_to_proto(call) for call in message.tool_calls],
        tool_call_id=message.tool_call_id,
        name=message.name,
        reasoning=message.reasoning,
        model_turns=None if message.model_turns is None else common_pb2.ModelTurns(contents=message.model_turns),
    )


def message_from_proto(message: common_pb2.Message, role: Role | None = None) -> ChatMessage:
    """The message as a model; ``role`` overrides the wire's (the caller knows who spoke, whatever was sent)."""
    role = role or _ROLE_FROM_PROTO.get(message.role)
    if role is None:
        raise ConversionError(f"message role {message.role} is not one of SYSTEM, USER, ASSISTANT, TOOL")
    return ChatMessage(
        role=role,
        content=message.content,
        tool_calls=[tool_call_from_proto(call) for call in message.tool_calls],
        tool_call_id=message.tool_call_id,
        name=message.name,
        reasoning=message.reasoning,
        model_turns=list(message.model_turns.contents) if message.HasField("model_turns") else None,
    )


def messages_from_proto(messages: object) -> list[ChatMessage]:
    return [message_from_proto(m) for m in messages]  # type: ignore[attr-defined]


def tool_call_to_proto(call: ToolCall) -> common_pb2.ToolCall:
    return common_pb2.ToolCall(
        id=call.id, name=call.name, arguments_json=call.arguments, requestor=_REQUESTOR_TO_PROTO[call.requestor]
    )


def tool_call_from_proto(call: common_pb2.ToolCall) -> ToolCall:
    requestor = _REQUESTOR_FROM_PROTO.get(call.requestor)
    if requestor is None:
        raise ConversionError(f"tool call {call.id!r}: requestor {call.requestor} is not ASSISTANT or USER")
    return ToolCall(id=call.id, name=call.name, arguments=call.arguments_json, requestor=requestor)


def tool_schema_to_proto(schema: ToolSchema) -> common_pb2.ToolSchema:
    return common_pb2.ToolSchema(
        name=schema.name, description=schema.description, parameters_json=json.dumps(schema.parameters)
    )


def tool_schema_from_proto(schema: common_pb2.ToolSchema) -> ToolSchema:
    """The schema as a model, shared: callers must not mutate it (``parameters`` included).

    Every agent and user call carries the same few schemas, so each distinct one is parsed once per process.
    """
    return _tool_schema(schema.name, schema.description, schema.parameters_json)


@lru_cache(maxsize=4096)
def _tool_schema(name: str, description: str, parameters_json: str) -> ToolSchema:
    try:
        parameters = json.loads(parameters_json) if parameters_json else {}
    except (ValueError, RecursionError) as exc:  # JSONDecodeError, huge numbers, deep nesting
        raise ConversionError(
            f"tool {name!r}: parameters_json is not JSON: {str(exc)[:200]}",
            fields=[("tools.parameters_json", "must be a JSON object")],
        ) from exc
    if not isinstance(parameters, dict):
        raise ConversionError(
            f"tool {name!r}: parameters_json must be a JSON object",
            fields=[("tools.parameters_json", "must be a JSON object")],
        )
    return ToolSchema(name=name, description=description, parameters=parameters)


def task_ref_to_proto(task: TaskRef) -> common_pb2.TaskRef:
    return common_pb2.TaskRef(domain=task.domain, split=task.split, task_id=task.task_id)


def task_ref_from_proto(task: common_pb2.TaskRef) -> TaskRef:
    missing = [name for name in ("domain", "split", "task_id") if not getattr(task, name)]
    if missing:
        raise ConversionError(f"task needs {', '.join(missing)}", fields=[(f"task.{n}", "required") for n in missing])
    return TaskRef(domain=task.domain, split=task.split, task_id=task.task_id)


def termination_to_proto(termination: Termination) -> common_pb2.Termination.ValueType:
    return _TERMINATION_TO_PROTO[termination]


def termination_from_proto(termination: common_pb2.Termination.ValueType) -> Termination:
    found = _TERMINATION_FROM_PROTO.get(termination)
    if found is None:
        raise ConversionError("termination is required", fields=[("termination", "must be set")])
    return found


def basis_to_proto(basis: RewardBasis) -> tuple[scorer_pb2.RewardBasis.ValueType, str]:
    """A basis on the wire: τ²'s kinds by value; a domain's own as ``REWARD_BASIS_CUSTOM`` and its name."""
    standard = _BASIS_TO_PROTO.get(basis)
    return (standard, "") if standard is not None else (scorer_pb2.REWARD_BASIS_CUSTOM, basis)


def basis_from_proto(value: scorer_pb2.RewardBasis.ValueType, name: str, where: str) -> RewardBasis:
    """A basis from the wire; ``name`` names a ``REWARD_BASIS_CUSTOM`` one. Unset, unknown or unnamed: an error."""
    if value == scorer_pb2.REWARD_BASIS_CUSTOM:
        try:
            return _CUSTOM_BASIS.validate_python(name)
        except ValidationError as exc:
            raise ConversionError(f"{where}: custom basis name {name!r} is not an upper-case identifier") from exc
    basis = _BASIS_FROM_PROTO.get(value)
    if basis is None:
        raise ConversionError(f"{where} has no basis")
    return basis


def reward_check_to_proto(check: RewardCheck) -> scorer_pb2.RewardCheck:
    basis, custom = basis_to_proto(check.basis)
    return scorer_pb2.RewardCheck(
        basis=basis,
        custom_basis=custom,
        subject=check.subject,
        passed=check.passed,
        expected=check.expected,
        actual=check.actual,
        explanation=check.explanation,
    )


def reward_check_from_proto(check: scorer_pb2.RewardCheck) -> RewardCheck:
    return RewardCheck(
        basis=basis_from_proto(check.basis, check.custom_basis, f"reward check {check.subject!r}"),
        subject=check.subject,
        passed=check.passed,
        expected=check.expected,
        actual=check.actual,
        explanation=check.explanation,
    )


def score_to_proto(score: Score) -> scorer_pb2.ScoreEpisodeResponse:
    basis = [basis_to_proto(b) for b in score.reward_basis]
    return scorer_pb2.ScoreEpisodeResponse(
        reward=score.reward,
        checks=[reward_check_to_proto(check) for check in score.checks],
        reward_basis=[value for value, _ in basis],
        custom_reward_basis=[name for value, name in basis if value == scorer_pb2.REWARD_BASIS_CUSTOM],
        gold_actions=[
            scorer_pb2.GoldAction(
                name=action.name,
                kwargs_json=json.dumps(action.kwargs),
                requestor=_REQUESTOR_TO_PROTO[action.requestor],
            )
            for action in score.gold_actions
        ],
        required_outputs=score.required_outputs,
    )


def gold_action_from_proto(action: scorer_pb2.GoldAction) -> GoldAction:
    """A scorer's gold action; an unset requestor is the assistant's (scorers written before the field)."""
    requestor = _REQUESTOR_FROM_PROTO.get(action.requestor)
    if requestor is None:
        raise ConversionError(f"gold action {action.name!r}: requestor {action.requestor} is not ASSISTANT or USER")
    try:
        kwargs = json.loads(action.kwargs_json or "{}")
    except (ValueError, RecursionError) as exc:
        raise ConversionError(f"gold action kwargs are not JSON: {exc}") from exc
    return GoldAction(name=action.name, kwargs=kwargs, requestor=requestor)


def reward_basis_from_proto(response: scorer_pb2.ScoreEpisodeResponse) -> list[RewardBasis]:
    """The reward basis of a score: each ``REWARD_BASIS_CUSTOM`` entry named in turn by ``custom_reward_basis``.

    Kinds this client does not know (a newer scorer's) are left out, as before custom kinds existed.
    """
    names = iter(response.custom_reward_basis)
    basis: list[RewardBasis] = []
    for value in response.reward_basis:
        if value == scorer_pb2.REWARD_BASIS_CUSTOM:
            name = next(names, "")
            basis.append(basis_from_proto(value, name, "reward basis"))
        elif value in _BASIS_FROM_PROTO:
            basis.append(_BASIS_FROM_PROTO[value])
    return basis


def score_from_proto(response: scorer_pb2.ScoreEpisodeResponse) -> Score:
    actions = [gold_action_from_proto(action) for action in response.gold_actions]
    return Score(
        reward=response.reward,
        checks=[reward_check_from_proto(check) for check in response.checks],
        reward_basis=reward_basis_from_proto(response),
        gold_actions=actions,
        required_outputs=list(response.required_outputs),
    )


def episode_to_proto(episode: EpisodeContext) -> common_pb2.EpisodeContext:
    return common_pb2.EpisodeContext(
        task=task_ref_to_proto(episode.task),
        trial=episode.trial,
        episode_id=episode.episode_id,
        rollout_token=episode.rollout_token,
    )


def episode_from_proto(episode: common_pb2.EpisodeContext) -> EpisodeContext:
    return EpisodeContext(
        task=task_ref_from_proto(episode.task),
        trial=episode.trial,
        episode_id=episode.episode_id,
        rollout_token=episode.rollout_token,
    )


def model_to_proto(model: ModelSettings) -> common_pb2.ModelConfig:
    return common_pb2.ModelConfig(
        model=model.model,
        provider=model.provider,
        temperature=model.temperature,
        api_base=model.api_base,
        seed=model.seed,
        send_seed=model.send_seed,
    )


def model_from_proto(model: common_pb2.ModelConfig) -> ModelSettings:
    return ModelSettings(
        model=model.model,
        provider=model.provider,
        temperature=model.temperature,
        api_base=model.api_base,
        seed=model.seed,
        send_seed=model.send_seed,
    )


def usage_to_proto(usage: Usage) -> common_pb2.Usage:
    return common_pb2.Usage(
        prompt_tokens=usage.prompt_tokens,
        completion_tokens=usage.completion_tokens,
        cost_usd=usage.cost_usd,
        calls=usage.calls,
        system_fingerprints=usage.system_fingerprints,
        served_models=usage.served_models,
        seeded_calls=usage.seeded_calls,
    )


def usage_from_proto(usage: common_pb2.Usage) -> Usage:
    return Usage(
        prompt_tokens=usage.prompt_tokens,
        completion_tokens=usage.completion_tokens,
        cost_usd=usage.cost_usd,
        calls=usage.calls,
        system_fingerprints=list(usage.system_fingerprints),
        served_models=list(usage.served_models),
        seeded_calls=usage.seeded_calls,
    )


def agent_settings_to_proto(settings: AgentSettings) -> agent_pb2.AgentConfig:
    config = agent_pb2.AgentConfig(
        strategy=settings.strategy,
        model=model_to_proto(settings.model),
        few_shot_displays_path=settings.few_shot_displays_path,
    )
    if settings.dialogflow_cx is not None:
        config.dialogflow_cx.CopyFrom(agent_pb2.DialogflowCxAgent(**settings.dialogflow_cx.model_dump()))
    return config


def agent_settings_from_proto(config: agent_pb2.AgentConfig) -> AgentSettings:
    return AgentSettings(
        strategy=config.strategy,
        model=model_from_proto(config.model),
        few_shot_displays_path=config.few_shot_displays_path,
        dialogflow_cx=(
            DialogflowCxAgent(
                project_id=config.dialogflow_cx.project_id,
                location=config.dialogflow_cx.location or "global",
                agent_id=config.dialogflow_cx.agent_id,
            )
            if config.HasField("dialogflow_cx")
            else None
        ),
    )


def user_settings_to_proto(settings: UserSettings) -> user_sim_pb2.UserConfig:
    return user_sim_pb2.UserConfig(strategy=settings.strategy, model=model_to_proto(settings.model))


def user_settings_from_proto(config: user_sim_pb2.UserConfig) -> UserSettings:
    return UserSettings(strategy=config.strategy, model=model_from_proto(config.model))


_TASK_ID_STYLE_TO_PROTO: dict[TaskIdStyle, env_pb2.TaskIdStyle.ValueType] = {
    "index": env_pb2.TASK_ID_STYLE_INDEX,
    "id": env_pb2.TASK_ID_STYLE_ID,
}
_REPLAY_TO_PROTO: dict[ReplayMode, env_pb2.ReplayMode.ValueType] = {
    "trajectory": env_pb2.REPLAY_MODE_TRAJECTORY,
    "timeline": env_pb2.REPLAY_MODE_TIMELINE,
}


def run_defaults_to_proto(
    defaults: RunDefaults, default_split: str, user_stop_tokens: Sequence[str]
) -> env_pb2.RunDefaults:
    """A domain's run defaults on the wire, with the split it takes by default and its user's stop tokens."""
    return env_pb2.RunDefaults(
        seed=defaults.seed,
        max_steps=defaults.max_steps,
        max_errors=defaults.max_errors or 0,
        per_trial_seeds=defaults.per_trial_seeds,
        default_split=default_split,
        task_id_style=_TASK_ID_STYLE_TO_PROTO[defaults.task_id_style],
        replay_mode=_REPLAY_TO_PROTO[defaults.replay],
        user_stop_tokens=list(user_stop_tokens),
        model_seed=defaults.model_seed,
    )


def run_defaults_from_proto(info: env_pb2.DomainInfo) -> RunDefaults:
    """The run defaults the env sends with a domain; τ-bench v1's from an env older than them (none sent)."""
    if not info.HasField("run_defaults"):
        return V1_RUN_DEFAULTS
    wire = info.run_defaults
    return RunDefaults(
        seed=wire.seed,
        max_steps=wire.max_steps or V1_RUN_DEFAULTS.max_steps,
        max_errors=wire.max_errors or None,
        per_trial_seeds=wire.per_trial_seeds,
        split=wire.default_split or None,
        task_id_style="id" if wire.task_id_style == env_pb2.TASK_ID_STYLE_ID else "index",
        replay="timeline" if wire.replay_mode == env_pb2.REPLAY_MODE_TIMELINE else "trajectory",
        model_seed=wire.model_seed,
    )
