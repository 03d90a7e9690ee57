"""``taumesh run``'s settings: :class:`RunSettings`, and the ``--config`` file's runs and groups.

Apart from :mod:`taumesh.settings` because they build on the orchestrator's :class:`RunOptions` (domains, models,
the run spec's groups), which ``taumesh serve`` never needs; :mod:`taumesh.settings` imports this module on first use.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any, ClassVar

from taumesh.config_files import RunFileError, read_run_file
from taumesh.orchestrator.options import RUN_GROUPS, RunOptions, group_members
from taumesh.settings import SettingsError, TaumeshSettings, load_settings


class RunSettings(RunOptions, TaumeshSettings):
    """Every option of ``taumesh run``, from its flags, ``TAUMESH_*`` variables and the ``--config`` file."""

    model_config = TaumeshSettings.model_config  # the sources' (RunOptions' own is a plain model's)

    help_panels: ClassVar[dict[str, tuple[str, ...]]] = RUN_GROUPS


def load_run_settings(flags: Mapping[str, Any], config_file: Path | None) -> list[RunSettings]:
    """One :class:`RunSettings` per run: a ``--config`` file in the MT form names several subsets, one run each."""
    try:
        runs = read_run_file(config_file) if config_file is not None else [{}]
        runs = [ungrouped(values, config_file) for values in runs]
    except RunFileError as exc:
        raise SettingsError(str(exc)) from exc
    return [load_settings(RunSettings, flags, config_file, values) for values in runs]


def ungrouped(values: Mapping[str, Any], config_file: Path | str | None) -> dict[str, Any]:
    """A settings file's values with its groups flattened.

    ``agent: {strategy: react, model: gpt-4o}`` is ``agent_strategy: react`` and ``model: gpt-4o``; ``user: {model:
    …}`` is ``user_model``. Within a group a setting goes by its own name or without the group's prefix. A group's
    value is a mapping, which tells ``tasks:`` the group from ``tasks: certified``, the setting. A key the group does
    not hold is refused, naming the group's settings.
    """
    groups = group_members()  # RunSpec's groups (taumesh.orchestrator.run_spec)
    flat: dict[str, Any] = {}
    for key, value in values.items():
        if key not in groups or not isinstance(value, Mapping):
            if key in flat:
                raise RunFileError(f"{config_file}: {key} is set twice (in a group and on its own)")
            flat[key] = value
            continue
        members = groups[key]
        for inner, setting in value.items():
            name = next((n for n in (str(inner), f"{key}_{inner}") if n in members), None)
            if name is None:
                raise RunFileError(
                    f"{config_file}: {key}.{inner} is not a setting of the {key} group (its settings: "
                    f"{', '.join(members)})"
                )
            if name in flat or (name in values and name != key):
                raise RunFileError(f"{config_file}: {name} is set twice ({key}.{inner} and another)")
            flat[name] = setting
    return flat
