"""How a fork's ``envs/base.py`` compares with upstream τ-bench's, piece by piece.

The worker runs the fork's own ``step`` and ``get_data_hash`` (and any the Env class redefines), so a change
there is followed. The reward is taumesh's (DB and COMMUNICATE checks over the fork's own hashes); the two
``calculate_reward`` bodies τ-bench has had are recognised by the digest of their syntax tree (digests of
sierra-research/tau-bench at 59a200c, and of its earlier version that checks outputs instead of the data when a
task has outputs); any other is reported as a difference and scored as upstream's.
"""

from __future__ import annotations

UPSTREAM = {
    "to_hashable": "a7553fbd1001bc8a",
    "consistent_hash": "6dd49eaac650ba9d",
    "Env.step": "aa0235a02876e713",
    "Env.get_data_hash": "7e0e650bcbba1aa8",
    "Env.calculate_reward": "ad7fcbba59056196",
}
"""Digests of upstream's pieces (``_worker.base_fingerprints`` of its checkout)."""
OUTPUTS_ELSE_DB = "231e3f2af016efe0"
"""The digest of the earlier ``calculate_reward``: outputs when the task has some, else the data hash."""


def reward_variant(base: dict[str, str]) -> str:
    """``upstream``, ``outputs-else-db`` or ``unknown`` for a fork's ``calculate_reward`` digest."""
    found = base.get("Env.calculate_reward", "")
    if found == UPSTREAM["Env.calculate_reward"]:
        return "upstream"
    if found == OUTPUTS_ELSE_DB:
        return "outputs-else-db"
    return "unknown"


def differences(base: dict[str, str], overrides: dict[str, list[str]]) -> list[str]:
    """What differs from upstream's base code, and what taumesh does about it, one sentence each."""
    found = []
    for piece, digest in UPSTREAM.items():
        if piece not in base:
            found.append(f"envs/base.py has no {piece}")
        elif base[piece] != digest and piece != "Env.calculate_reward":
            found.append(f"envs/base.py's {piece} differs from upstream's: the fork's own runs in its worker")
    variant = reward_variant(base)
    if variant == "outputs-else-db":
        found.append(
            "envs/base.py's calculate_reward is τ-bench's earlier one (a task with outputs is scored on them alone, "
            "else on the data): followed (reward basis COMMUNICATE, else DB)"
        )
    elif variant == "unknown" and "Env.calculate_reward" in base:
        found.append("envs/base.py's calculate_reward differs from upstream's: NOT followed, scored as upstream's")
    for env, names in sorted(overrides.items()):
        for name in names:
            note = "NOT followed, scored as upstream's" if name == "calculate_reward" else "its own runs in the worker"
            found.append(f"{env}'s Env redefines {name}: {note}")
    return found
