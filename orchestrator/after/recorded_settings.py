"""What a results file records of the run that wrote it, read by the commands that come after the run.

``rescore``, ``verify`` and ``analyze`` take a run's domain, split, data release and grader from its file, and a flag
overrides a value only when it is given: a results file of healthcare's train split is rescored against train, not
against whatever split a flag's default would name. ``report`` and ``compare`` have no such flags: they read the same
records through the viewer's runs.

τ-bench's ``run.py`` files record none of this (no ``info.run``): the flags apply, and the domain's first split. τ²'s
``Results`` documents record their domain (τ²'s name), limits and seed, but no split.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from pydantic import BaseModel

from taumesh.domains import Registry
from taumesh.orchestrator.episode.grading import GRADERS
from taumesh.orchestrator.results.records import DATA_RELEASE


class RecordedSettingsError(ValueError):
    """A results file records settings that contradict each other (several graders, or an unknown one).

    Its rewards mean different things, so nothing after the run can take one of them as the file's.
    """


class RecordedSettings(BaseModel):
    """The settings a results file records; None (or empty) where it records none."""

    env: str | None = None
    """The taumesh domain (``info.run.env``; a τ² document's ``domain_name`` as taumesh names it)."""
    task_split: str | None = None
    """``info.run.task_split``; τ²'s documents and τ-bench's run.py record none."""
    data_releases: frozenset[str] = frozenset()
    """``info.run.data_release`` of its entries: one release for a file of one run, none before releases existed."""
    grader: str = "faithful"
    """``info.validity.grader`` (else ``info.run.grader``); faithful when the file records none, as every run
    before graders existed was graded."""
    max_steps: int | None = None
    max_errors: int | None = None
    seed: int | None = None

    def split_for(self, given: str | None) -> str | None:
        """The split a command takes: the flag's when given, else the file's; None: the domain's first."""
        return given or self.task_split


def _entries(raw: Any) -> list[dict[str, Any]]:
    return [entry for entry in raw if isinstance(entry, dict)] if isinstance(raw, list) else []


def _info(entry: dict[str, Any], key: str) -> dict[str, Any]:
    info = entry.get("info")
    value = info.get(key) if isinstance(info, dict) else None
    return value if isinstance(value, dict) else {}


def _int(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _tau2_document(info: dict[str, Any]) -> RecordedSettings:
    environment = info.get("environment_info")
    name = environment.get("domain_name") if isinstance(environment, dict) else None
    max_errors = _int(info.get("max_errors"))
    return RecordedSettings(
        env=(Registry.discover().named_by("tau2", name) or name) if isinstance(name, str) and name else None,
        max_steps=_int(info.get("max_steps")),
        max_errors=max_errors or None,  # τ² writes 0 for "no limit"
        seed=_int(info.get("seed")),
    )


def recorded_settings(path: Path) -> RecordedSettings:
    """What ``path`` records of its run; nothing for a file that does not read (the command reports that itself).

    Raises :class:`RecordedSettingsError` when its entries record several graders or an unknown one.
    """
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return RecordedSettings()
    if isinstance(raw, dict):
        info = raw.get("info")
        return _tau2_document(info) if isinstance(info, dict) else RecordedSettings()
    entries = _entries(raw)
    runs = [run for run in (_info(entry, "run") for entry in entries) if run]
    first = next((run for run in runs if run.get("env")), {})
    graders = {
        str(_info(entry, "validity").get("grader") or _info(entry, "run").get("grader") or "faithful")
        for entry in entries
        if _info(entry, "validity") or _info(entry, "run")
    }
    if len(graders) > 1:
        raise RecordedSettingsError(f"{path} records results of several graders ({', '.join(sorted(graders))})")
    grader = graders.pop() if graders else "faithful"
    if grader not in GRADERS:
        raise RecordedSettingsError(f"{path} records an unknown grader {grader!r} (known: {', '.join(GRADERS)})")
    return RecordedSettings(
        env=str(first["env"]) if first.get("env") else None,
        task_split=str(first["task_split"]) if first.get("task_split") else None,
        data_releases=frozenset(str(run[DATA_RELEASE]) for run in runs if run.get(DATA_RELEASE)),
        grader=grader,
        max_steps=_int(first.get("max_steps")),
    )
