"""Gather groups of rollouts from Python and compute GRPO-style advantages: the shapes of data a trainer gets.

    python examples/group_rollouts.py

No model and no training: the stand-in policy below solves a task on some trials and not on others. Its good trials
are played by the oracle agent (the task's gold solution) and its bad ones by the null agent (one refusal), both
against the scripted user, through the embedded services. A real loop would pass its own agent instead (a model
behind ``model=...``, or ``agent_addr=...``: an agent service it serves).
"""

import statistics

from taumesh.rollout import RolloutEpisode, group_rollouts

TASKS = ["cancel_reservation-w1-01", "cancel_reservation-w1-03", "cancel_reservation-w1-05"]
TRIALS = 4


def play(agent_strategy: str, seed: int) -> list[RolloutEpisode]:
    """``TRIALS`` rollouts of each task by one agent."""
    return group_rollouts(
        env="hospitality",
        task_split="base",
        task_ids=TASKS,
        trials=TRIALS,
        agent_strategy=agent_strategy,
        user_strategy="scripted",
        seed=seed,
    )


def advantages(rewards: list[float]) -> list[float]:
    """Each reward against its group's: (reward - mean) / (standard deviation + 1e-6), as GRPO normalises them."""
    mean, spread = statistics.fmean(rewards), statistics.pstdev(rewards)
    return [(reward - mean) / (spread + 1e-6) for reward in rewards]


def main() -> None:
    """One group per task, its rewards' advantages, and one episode's reward vector."""
    episodes = play("oracle", seed=1) + play("null", seed=2)  # the stand-in policy's good and bad samples
    for task_id in TASKS:
        group = [e for e in episodes if e.task_id == task_id and e.error is None]  # errors are not rewards
        rewards = [e.reward or 0.0 for e in group]
        credit = [statistics.fmean(c.credit for c in e.reward_vector) for e in group]
        print(f"{task_id}: {len(group)} rollouts, mean reward {statistics.fmean(rewards):.2f}")
        print(f"  advantages {[round(a, 2) for a in advantages(rewards)]}")
        print(f"  checks passed per rollout {[round(c, 2) for c in credit]}")
        print(f"  seeds {[e.seed for e in group]}")
    first = episodes[0]
    print(f"an episode: {len(first.trajectory)} messages, reward {first.reward}, checks:")
    for check in first.reward_vector:
        print(f"  {check.basis} {check.subject}: {'passed' if check.passed else 'failed'}")


if __name__ == "__main__":
    main()
