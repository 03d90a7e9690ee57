"""Sessions in a τ² task's initial state, and the calls τ² makes outside the agent's tools."""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from typing import Any, Protocol, runtime_checkable

from taumesh.domains import DataError, DomainView, Requestor, Session, StepResult, Tool
from taumesh.domains.tau2._layout import Tau2Layout, dump_json
from taumesh.domains.tau2._tasks import EnvFunctionCall, InitialState, Tau2Task


@runtime_checkable
class Toolkit(Protocol):
    """What a session needs of a τ² plugin (``Tau2Plugin`` is one): ``sync_tools``, and functions by name."""

    sync: Callable[[Session], None] | None

    def function(self, name: str) -> type[Tool] | None: ...


_KINDS: dict[type, bool] = {}
"""Whether a spec class is a :class:`Toolkit`: a runtime protocol check costs ~50 µs, and every tool call asks."""


def tau2_plugin(domain: DomainView) -> Toolkit:
    spec = domain.spec
    kind = type(spec)
    if kind not in _KINDS:
        _KINDS[kind] = isinstance(spec, Toolkit)
    if not _KINDS[kind]:
        raise TypeError(f"domain {domain.name!r} is not a τ² domain")
    return spec  # type: ignore[return-value]  # checked above, once per class


def sync(session: Session) -> None:
    """τ²'s ``sync_tools``: the plugin's, if it has one."""
    plugin = tau2_plugin(session.domain)
    if plugin.sync is not None:
        plugin.sync(session)


def run_tool(session: Session, name: str, arguments: dict[str, Any], requestor: Requestor = "assistant") -> StepResult:
    """τ²'s ``make_tool_call``: one tool call (HEAD's own tools included over a HEAD data folder)."""
    return session.call(name, arguments, requestor)


def call_tool(session: Session, name: str, arguments: dict[str, Any], requestor: Requestor = "assistant") -> StepResult:
    """τ²'s ``Environment.get_response``: the tool call, then ``sync_tools``."""
    result = run_tool(session, name, arguments, requestor)
    sync(session)
    return result


def run_function(session: Session, call: EnvFunctionCall) -> Any:
    """τ²'s ``run_env_function_call``: any function of a toolkit by name (tools give their observation)."""
    plugin = tau2_plugin(session.domain)
    function = plugin.function(call.func_name)
    if function is None or function.side != call.env_type:
        raise ValueError(f"Function {call.func_name} not found in {call.env_type} tools")
    session.switch.copy_on_access = function.writes
    try:
        result = function.invoke(data=session.data, **call.arguments)
    finally:
        session.switch.copy_on_access = False
    sync(session)
    return result


def _merge(base: Any, update: Any) -> Any:
    """Addict's recursive ``update``: dicts merge key by key, anything else is replaced."""
    if not (isinstance(base, Mapping) and isinstance(update, Mapping)):
        return update
    merged = dict(base)
    for key, value in update.items():
        merged[key] = _merge(merged[key], value) if key in merged else value
    return merged


def _record_models(session: Session) -> dict[str, Any]:
    layout = session.domain.spec.layout
    if not isinstance(layout, Tau2Layout):
        raise TypeError(f"domain {session.domain.name!r} has no τ² layout")
    model = layout.database_model(session.domain.root)
    records: dict[str, Any] = {}
    for table, info in model.model_fields.items():
        arguments: tuple[Any, ...] = getattr(info.annotation, "__args__", ())
        records[table] = arguments[-1] if len(arguments) == 2 else None  # dict[str, Record]
    return records


def update_data(session: Session, agent_data: Mapping[str, Any]) -> None:
    """τ²'s ``update_db``: merge ``agent_data`` into the tables and re-validate what changed."""
    models = _record_models(session)
    with session.switch.writing():
        for table, records in agent_data.items():
            record_model = models.get(table)
            if record_model is None or not isinstance(records, Mapping):
                raise DataError(
                    f"initialization_data of {session.domain.name} changes {table!r}, not a table of records"
                )
            target = session.data[table]
            for key, update in records.items():
                merged = _merge(target[key], update) if key in target else update
                target[key] = dump_json(record_model.model_validate(merged))


def _replay_history(session: Session, state: InitialState) -> None:
    """Run the tool calls of the message history and check that each gives the recorded answer."""
    messages = list(state.message_history or [])
    index = 0
    while index < len(messages):
        message = messages[index]
        index += 1
        if message.role == "tool":
            raise DataError("Tool message not expected. Tool messages should always follow a tool call.")
        for tool_call in message.tool_calls or []:
            if index >= len(messages) or messages[index].role != "tool":
                raise DataError(f"tool call {tool_call.id} of the message history has no tool message after it")
            expected = messages[index]
            index += 1
            if expected.id != tool_call.id:
                raise DataError(f"Tool call id mismatch. Got {tool_call.id} and {expected.id}")
            result = call_tool(session, tool_call.name, tool_call.arguments, tool_call.requestor)
            if _parsed(result.observation) != _parsed(expected.content or ""):
                raise DataError(
                    f"message history of the task: {tool_call.name} returned {result.observation!r}, "
                    f"the history says {expected.content!r}"
                )


def _parsed(text: str) -> Any:
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        return text


def apply_initial_state(session: Session, task: Tau2Task) -> None:
    """τ²'s ``set_state``: initialization data, initialization actions, message history, then a sync."""
    state = task.initial_state
    if state is not None:
        if state.initialization_data is not None and state.initialization_data.agent_data is not None:
            update_data(session, state.initialization_data.agent_data)
        if state.initialization_data is not None and state.initialization_data.user_data is not None:
            raise DataError(f"{session.domain.name} has no user data to initialise")
        for action in state.initialization_actions or []:
            run_function(session, action)
        _replay_history(session, state)
    sync(session)


def open_session(domain: DomainView, task: Tau2Task) -> Session:
    """A fresh session of ``domain`` in ``task``'s initial state (τ²'s ``Orchestrator.initialize``)."""
    session = Session(domain)
    apply_initial_state(session, task)
    return session
