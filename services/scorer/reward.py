"""The scorer's memory of gold states; the reward itself is the domain's (:meth:`taumesh.domains.Domain.score`)."""

from __future__ import annotations

from taumesh.domains import Domain, Task


class GoldStates:
    """Data hashes after each task's gold actions (the domain's :meth:`~Domain.gold_hash`), computed once per task.

    A domain's gold hash may carry more than the hash (τ²'s also holds how the gold state's texts differ from
    the base data's, so scoring a replay that reached it hashes nothing): it is kept as the domain returned it.
    """

    def __init__(self) -> None:
        self._hashes: dict[tuple[str, str, str], str] = {}

    def hash(self, domain: Domain, split: str, task: Task) -> str:
        key = (domain.name, split, task.id)
        if key not in self._hashes:
            self._hashes[key] = domain.gold_hash(task)
        return self._hashes[key]
