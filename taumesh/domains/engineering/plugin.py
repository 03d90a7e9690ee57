"""The engineering plugin: a factory domain whose reward also runs the repository's tests in the sandbox."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from taumesh.domains import Task
from taumesh.domains.engineering import checkout
from taumesh.domains.engineering.grading import StateOutcomes, TestsPass
from taumesh.domains.factory import FactoryPlugin, StatementsSaid
from taumesh.models import RewardBasis


@dataclass(frozen=True)
class EngineeringPlugin(FactoryPlugin):
    """The factory's plugin with DB over the state without file text, and ``TESTS`` (:mod:`.grading`) beside it."""

    def __post_init__(self) -> None:
        super().__post_init__()
        object.__setattr__(self, "_reward", (StateOutcomes(), StatementsSaid(), TestsPass()))

    def run_problem(self) -> str | None:
        """Without a working bubblewrap no code change can be graded, so the domain is refused up front."""
        problem = checkout.sandbox_problem()
        return None if problem is None else f"the engineering domain grades code in a sandbox, which {problem}"

    def reward_basis(self, task: Task) -> list[RewardBasis]:
        return [*super().reward_basis(task), "TESTS"]

    def listed_checks(self, task: Task) -> Mapping[RewardBasis, int]:
        return {**super().listed_checks(task), "TESTS": 1}
