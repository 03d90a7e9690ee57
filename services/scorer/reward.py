"""The scorer's memory of gold states; the reward itself is the domain's (:meth:`taumesh.domains.Domain.score`)."""

from __future__ import annotations

from taumesh.domains import Domain, Task
from taumesh.domains._reward import compute_reward, output_found, reward_basis

__all__ = ["GoldStates", "compute_reward", "output_found", "reward_basis"]


class GoldStates:
    """Data hashes after each task's gold actions (the domain's :meth:`~Domain.gold_hash`), computed once per task.

    A τ² domain's gold hash is a :class:`~taumesh.domains.tau2._reward.GoldState`: it also holds how the gold
    state's texts differ from the base data's, so scoring a replay that reached it hashes nothing.
    """

    def __init__(self) -> None:
        self._hashes: dict[tuple[str, str, str], str] = {}

    def hash(self, domain: Domain, split: str, task: Task) -> str:
        key = (domain.name, split, task.id)
        if key not in self._hashes:
            self._hashes[key] = domain.gold_hash(task)
        return self._hashes[key]
