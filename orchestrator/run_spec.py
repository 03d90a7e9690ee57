"""``RunSpec``: a run in its groups, the nested form of :class:`~taumesh.orchestrator.options.RunOptions`.

The groups are :data:`~taumesh.orchestrator.options.RUN_GROUPS` by their first word (tasks, agent, user, limits,
services, outputs, scale, knowledge), with the judge's two settings in a ``judge`` group of their own. Within a group
a setting goes by its name without the group's prefix (``agent.strategy`` is ``agent_strategy``, ``user.model`` is
``user_model``); τ-bench's flat names are the aliases every front door already takes.

Each group's model is made from :class:`RunOptions`' own fields (their types, defaults, bounds and docstrings), so no
setting is declared twice; :func:`options_of` turns a spec into the flat model, whose validators (τ²'s ``--domain``,
the CX agent, ``--user-sim``) and :meth:`~RunOptions.run_config` are the one place a run is checked and built. A run's
``--config`` file may be written in this form (``taumesh.settings.ungrouped``); ``RunSpec.model_json_schema()``
documents it.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, create_model

from taumesh.orchestrator.options import JUDGE_SETTINGS, RunOptions, group_members

__all__ = [
    "GROUP_MODELS",
    "JUDGE_SETTINGS",
    "RunSpec",
    "flat_settings",
    "group_members",
    "options_of",
    "short_name",
    "spec_of",
]


def short_name(group: str, setting: str) -> str:
    """A setting's name within its group: without the group's prefix (``agent_strategy`` → ``strategy``)."""
    return setting.removeprefix(f"{group}_")


def _group_model(group: str, members: tuple[str, ...]) -> type[BaseModel]:
    """The group's model: each member's own field of :class:`RunOptions`, under its short name."""
    fields: dict[str, Any] = {}
    for name in members:
        declared = RunOptions.model_fields[name]
        fields[short_name(group, name)] = (declared.annotation, copy.copy(declared))
    config = ConfigDict(extra="forbid", use_attribute_docstrings=True)
    return create_model(f"Run{group.capitalize()}Settings", __config__=config, **fields)


GROUP_MODELS: dict[str, type[BaseModel]] = {
    group: _group_model(group, names) for group, names in group_members().items()
}
"""Each group's model, by the group's name."""

RunSpec: type[BaseModel] = create_model(
    "RunSpec",
    __config__=ConfigDict(extra="forbid"),
    __doc__="A run in its groups: the nested form of RunOptions (the same settings, defaults and checks).",
    **{group: (model, Field(default_factory=model)) for group, model in GROUP_MODELS.items()},  # type: ignore[call-overload]
)


def flat_settings(spec: BaseModel) -> dict[str, Any]:
    """The settings a spec sets, by their flat names (those left to their defaults are left out)."""
    flat: dict[str, Any] = {}
    for group, names in group_members().items():
        given = getattr(spec, group)
        for name in names:
            short = short_name(group, name)
            if short in given.model_fields_set:
                flat[name] = getattr(given, short)
    return flat


def options_of(spec: BaseModel | Mapping[str, Any]) -> RunOptions:
    """The flat run a spec describes, checked by :class:`RunOptions`' own validators."""
    validated = spec if isinstance(spec, BaseModel) else RunSpec.model_validate(spec)
    return RunOptions(**flat_settings(validated))


def spec_of(options: RunOptions) -> BaseModel:
    """``options`` in their groups (the settings it sets: defaults stay defaults)."""
    grouped: dict[str, dict[str, Any]] = {}
    for group, names in group_members().items():
        given = {short_name(group, name): getattr(options, name) for name in names if name in options.model_fields_set}
        if given:
            grouped[group] = given
    return RunSpec.model_validate(grouped)
