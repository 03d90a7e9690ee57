"""τ-bench v1's reward as named checks: the default :meth:`DomainPlugin.score`.

The final database must equal the gold one (DB), and every required output must be said (COMMUNICATE). The reward
is the product of the checks over the task's reward basis.
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from typing import TYPE_CHECKING

from taumesh.models import EVALUATED_TERMINATIONS, GoldAction, RewardBasis, RewardCheck, Score, Termination

if TYPE_CHECKING:
    from taumesh.domains._domain import Domain, Task


def v1_gold_hash(domain: Domain, task: Task) -> str:
    """The data hash after the task's gold actions (terminate tools skipped), from the base data."""
    from taumesh.domains._session import Session

    session = Session(domain)
    for action in task.actions:
        if action.name not in domain.spec.terminate_tools:
            session.call(action.name, copy.deepcopy(action.kwargs))
    return session.data_hash()


def output_found(output: str, responses: Sequence[str]) -> bool:
    """τ-bench's test: the output, lowercased, is a substring of some response lowercased without commas."""
    needle = output.lower()
    return any(needle in response.lower().replace(",", "") for response in responses)


def reward_basis(task: Task) -> list[RewardBasis]:
    """What a v1 task's reward rests on: the database, plus what it requires the agent to say."""
    return ["DB", "COMMUNICATE"] if task.outputs else ["DB"]


def compute_reward(
    task: Task, gold_hash: str, termination: Termination, final_hash: str, responses: Sequence[str]
) -> Score:
    """Score one episode as τ-bench's ``calculate_reward`` does.

    ``responses`` are the agent's messages to the user. An episode that did not end gets 0 and no checks.
    """
    basis = reward_basis(task)
    score = Score(
        reward=0.0,
        reward_basis=basis,
        gold_actions=[GoldAction(name=a.name, kwargs=a.kwargs) for a in task.actions if a.name != "respond"],
        required_outputs=list(task.outputs),
    )
    if termination not in EVALUATED_TERMINATIONS:
        return score
    checks = [
        RewardCheck(
            basis="DB", subject="database", passed=final_hash == gold_hash, expected=gold_hash, actual=final_hash
        ),
        *(
            RewardCheck(basis="COMMUNICATE", subject=output, passed=output_found(output, responses), expected=output)
            for output in task.outputs
        ),
    ]
    passed = all(check.passed for check in checks if check.basis in basis)
    return score.model_copy(update={"reward": 1.0 if passed else 0.0, "checks": checks})
