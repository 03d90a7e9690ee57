"""Every conversion between protobuf messages and taumesh's pydantic models, in one place."""

from __future__ import annotations

import json

from taumesh.agent.v1 import agent_pb2
from taumesh.common.v1 import common_pb2
from taumesh.models import (
    AgentSettings,
    ChatMessage,
    EpisodeContext,
    ModelSettings,
    Role,
    TaskRef,
    ToolCall,
    ToolSchema,
    Usage,
    UserSettings,
)
from taumesh.user_sim.v1 import user_sim_pb2

_ROLE_TO_PROTO: dict[Role, common_pb2.Role.ValueType] = {
    "system": common_pb2.ROLE_SYSTEM,
    "user": common_pb2.ROLE_USER,
    "assistant": common_pb2.ROLE_ASSISTANT,
    "tool": common_pb2.ROLE_TOOL,
}
_ROLE_FROM_PROTO = {value: key for key, value in _ROLE_TO_PROTO.items()}


class ConversionError(ValueError):
    """A protobuf message does not hold a valid value (the caller's mistake: INVALID_ARGUMENT)."""


def message_to_proto(message: ChatMessage) -> common_pb2.Message:
    return common_pb2.Message(
        role=_ROLE_TO_PROTO[message.role],
        content=message.content,
        tool_calls=[tool_call_to_proto(call) for call in message.tool_calls],
        tool_call_id=message.tool_call_id,
        name=message.name,
        reasoning=message.reasoning,
    )


def message_from_proto(message: common_pb2.Message) -> ChatMessage:
    role = _ROLE_FROM_PROTO.get(message.role)
    if role is None:
        raise ConversionError(f"message role {message.role} is not one of SYSTEM, USER, ASSISTANT, TOOL")
    return ChatMessage(
        role=role,
        content=message.content,
        tool_calls=[tool_call_from_proto(call) for call in message.tool_calls],
        tool_call_id=message.tool_call_id,
        name=message.name,
        reasoning=message.reasoning,
    )


def messages_from_proto(messages: object) -> list[ChatMessage]:
    return [message_from_proto(m) for m in messages]  # type: ignore[attr-defined]


def tool_call_to_proto(call: ToolCall) -> common_pb2.ToolCall:
    return common_pb2.ToolCall(id=call.id, name=call.name, arguments_json=call.arguments)


def tool_call_from_proto(call: common_pb2.ToolCall) -> ToolCall:
    return ToolCall(id=call.id, name=call.name, arguments=call.arguments_json)


def tool_schema_to_proto(schema: ToolSchema) -> common_pb2.ToolSchema:
    return common_pb2.ToolSchema(
        name=schema.name, description=schema.description, parameters_json=json.dumps(schema.parameters)
    )


def tool_schema_from_proto(schema: common_pb2.ToolSchema) -> ToolSchema:
    try:
        parameters = json.loads(schema.parameters_json) if schema.parameters_json else {}
    except json.JSONDecodeError as exc:
        raise ConversionError(f"tool {schema.name!r}: parameters_json is not JSON: {exc}") from exc
    return ToolSchema(name=schema.name, description=schema.description, parameters=parameters)


def task_ref_to_proto(task: TaskRef) -> common_pb2.TaskRef:
    return common_pb2.TaskRef(domain=task.domain, split=task.split, index=task.index)


def task_ref_from_proto(task: common_pb2.TaskRef) -> TaskRef:
    if not task.domain or not task.split:
        raise ConversionError("task needs a domain and a split")
    if task.index < 0:
        raise ConversionError(f"task index must be >= 0, not {task.index}")
    return TaskRef(domain=task.domain, split=task.split, index=task.index)


def episode_to_proto(episode: EpisodeContext) -> common_pb2.EpisodeContext:
    return common_pb2.EpisodeContext(
        task=task_ref_to_proto(episode.task), trial=episode.trial, episode_id=episode.episode_id
    )


def episode_from_proto(episode: common_pb2.EpisodeContext) -> EpisodeContext:
    return EpisodeContext(task=task_ref_from_proto(episode.task), trial=episode.trial, episode_id=episode.episode_id)


def model_to_proto(model: ModelSettings) -> common_pb2.ModelConfig:
    return common_pb2.ModelConfig(
        model=model.model,
        provider=model.provider,
        temperature=model.temperature,
        api_base=model.api_base,
        seed=model.seed,
    )


def model_from_proto(model: common_pb2.ModelConfig) -> ModelSettings:
    return ModelSettings(
        model=model.model,
        provider=model.provider,
        temperature=model.temperature,
        api_base=model.api_base,
        seed=model.seed,
    )


def usage_to_proto(usage: Usage) -> common_pb2.Usage:
    return common_pb2.Usage(
        prompt_tokens=usage.prompt_tokens,
        completion_tokens=usage.completion_tokens,
        cost_usd=usage.cost_usd,
        calls=usage.calls,
    )


def usage_from_proto(usage: common_pb2.Usage) -> Usage:
    return Usage(
        prompt_tokens=usage.prompt_tokens,
        completion_tokens=usage.completion_tokens,
        cost_usd=usage.cost_usd,
        calls=usage.calls,
    )


def agent_settings_to_proto(settings: AgentSettings) -> agent_pb2.AgentConfig:
    return agent_pb2.AgentConfig(
        strategy=settings.strategy,
        model=model_to_proto(settings.model),
        few_shot_displays_path=settings.few_shot_displays_path,
    )


def agent_settings_from_proto(config: agent_pb2.AgentConfig) -> AgentSettings:
    return AgentSettings(
        strategy=config.strategy,
        model=model_from_proto(config.model),
        few_shot_displays_path=config.few_shot_displays_path,
    )


def user_settings_to_proto(settings: UserSettings) -> user_sim_pb2.UserConfig:
    return user_sim_pb2.UserConfig(strategy=settings.strategy, model=model_to_proto(settings.model))


def user_settings_from_proto(config: user_sim_pb2.UserConfig) -> UserSettings:
    return UserSettings(strategy=config.strategy, model=model_from_proto(config.model))
