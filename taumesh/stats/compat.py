"""Whether two runs can be compared: the same task set, data release and user simulator, or what differs."""

from __future__ import annotations

from pydantic import BaseModel, Field


class RunIdentity(BaseModel):
    """What decides whether two runs measure the same thing (taken from ``info.run`` and the run's manifest)."""

    label: str
    tasks: list[str]
    trials: list[int] = Field(default_factory=list)
    env: str = ""
    task_split: str = ""
    user_model: str = ""
    user_strategy: str = ""
    data_release: str = ""
    """The data the run was scored against (its manifest's release id); empty when unknown."""
    user_sim_version: str = ""
    """The user-simulator versions that played (``info.user_sim_version``, comma-joined); empty when unknown. Not a
    difference that needs ``--force``: ``taumesh compare`` refuses it unless ``--allow-simulator-change``, and a paired
    report notes it (:func:`simulator_note`)."""


def _few(items: list[str], limit: int = 5) -> str:
    shown = ", ".join(items[:limit])
    return shown + (f" and {len(items) - limit} more" if len(items) > limit else "")


def differences(a: RunIdentity, b: RunIdentity) -> list[str]:
    """Each way the runs differ that makes their scores incomparable, in words naming both values.

    An unknown value (an empty string: a file that does not record it) is not a difference.
    """
    found: list[str] = []
    only_a = sorted(set(a.tasks) - set(b.tasks))
    only_b = sorted(set(b.tasks) - set(a.tasks))
    if only_a or only_b:
        parts = []
        if only_a:
            parts.append(f"{len(only_a)} only in {a.label} ({_few(only_a)})")
        if only_b:
            parts.append(f"{len(only_b)} only in {b.label} ({_few(only_b)})")
        found.append("task set differs: " + "; ".join(parts))
    for what, left, right in (
        ("domain", a.env, b.env),
        ("task split", a.task_split, b.task_split),
        ("user-simulator model", a.user_model, b.user_model),
        ("user-simulator strategy", a.user_strategy, b.user_strategy),
        ("data release", a.data_release, b.data_release),
    ):
        if left and right and left != right:
            found.append(f"{what} differs: {left!r} in {a.label}, {right!r} in {b.label}")
    return found


def trial_note(a: RunIdentity, b: RunIdentity) -> str | None:
    """A note when the runs played different trial numbers (they are paired on the trials both played)."""
    if not a.trials or not b.trials or set(a.trials) == set(b.trials):
        return None
    shared = sorted(set(a.trials) & set(b.trials))
    counts = f"{len(a.trials)} in {a.label}, {len(b.trials)} in {b.label}"
    return f"trials differ ({counts}): paired on the {len(shared)} both played"


def simulator_note(a: RunIdentity, b: RunIdentity) -> str | None:
    """A note when the runs were played against different user-simulator versions (both known)."""
    if not a.user_sim_version or not b.user_sim_version or a.user_sim_version == b.user_sim_version:
        return None
    return (
        f"user simulators differ: {a.user_sim_version!r} in {a.label}, {b.user_sim_version!r} in {b.label}; the "
        "difference mixes the agents' and the simulators'"
    )
