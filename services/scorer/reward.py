"""τ-bench v1's reward: the final database must equal the gold one, and required outputs must be said."""

from __future__ import annotations

import copy
from collections.abc import Sequence
from typing import Any

from pydantic import BaseModel

from taumesh.domains import Action, Domain, Session, Task


class ActionsCheck(BaseModel):
    """τ-bench's RewardActionInfo."""

    r_actions: float
    gt_data_hash: str


class OutputsCheck(BaseModel):
    """τ-bench's RewardOutputInfo: each required output and whether the agent said it."""

    r_outputs: float
    outputs: dict[str, bool]


class Reward(BaseModel):
    """τ-bench's RewardResult."""

    reward: float
    info: ActionsCheck | OutputsCheck | None
    actions: list[Action]

    def tau_bench_info(self) -> dict[str, Any]:
        """The ``reward_info`` object of a τ-bench results file."""
        return {
            "reward": self.reward,
            "info": self.info.model_dump() if self.info is not None else None,
            "actions": [action.model_dump() for action in self.actions],
        }


class GoldStates:
    """Data hashes after each task's gold actions, computed once per task and kept."""

    def __init__(self) -> None:
        self._hashes: dict[tuple[str, str, int], str] = {}

    def hash(self, domain: Domain, split: str, index: int, task: Task) -> str:
        key = (domain.name, split, index)
        if key not in self._hashes:
            session = Session(domain)
            for action in task.actions:
                if action.name not in domain.spec.terminate_tools:
                    session.call(action.name, copy.deepcopy(action.kwargs))
            self._hashes[key] = session.data_hash()
        return self._hashes[key]


def output_found(output: str, responses: Sequence[str]) -> bool:
    """τ-bench's test: the output, lowercased, is a substring of some response lowercased without commas."""
    needle = output.lower()
    return any(needle in response.lower().replace(",", "") for response in responses)


def compute_reward(
    domain: Domain, task: Task, gold_hash: str, ended: bool, final_hash: str, responses: Sequence[str]
) -> Reward:
    """Score one episode as τ-bench's ``calculate_reward`` does.

    ``responses`` are the agent's messages to the user. An episode that did not end gets 0 and no info.
    """
    gold_actions = [a for a in task.actions if a.name != "respond"]
    if not ended:
        return Reward(reward=0.0, info=None, actions=gold_actions)
    matches = final_hash == gold_hash
    reward = 1.0 if matches else 0.0
    info: ActionsCheck | OutputsCheck = ActionsCheck(r_actions=reward, gt_data_hash=gold_hash)
    if task.outputs:
        # τ-bench replaces the info by the outputs check whenever the task has outputs, found or not
        # (so a failed actions check is hidden when the outputs were said).
        found = {output: output_found(output, responses) for output in task.outputs}
        r_outputs = 1.0 if all(found.values()) else 0.0
        if not r_outputs:
            reward = 0.0
        info = OutputsCheck(r_outputs=r_outputs, outputs=found)
    return Reward(reward=reward, info=info, actions=gold_actions)
