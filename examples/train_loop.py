"""A training loop's shape with taumesh: a policy function plays groups of rollouts, GRPO-style advantages come out.

    python examples/train_loop.py

Offline and in seconds: hospitality (a τ++ factory domain) with the scripted user, the services embedded on
loopback. There is no model and no training. The policy is a stand-in: it is handed each task's gold plan (the
closure below), and, like a sampling policy, it sometimes errs: a draw from the episode's seed decides whether it
forgets the plan's last step, or leaves out what it should tell the user. The seed is
:func:`taumesh.rollout.seed_for` of the step, the task and the trial, so the loop prints the same numbers every time.

A real loop passes its own model instead, the same way: ``policy=`` gets what the agent sees (the conversation as
OpenAI chat messages, the tools as OpenAI tool schemas, the policy text, the episode) and returns the next assistant
message. With a model gateway configured, each episode would also carry the token-level traces of its model calls
(prompt and completion token ids, log-probabilities, loss mask); this loop has none, and a trainer without a
gateway re-tokenises the trajectory with its chat template.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import statistics
from pathlib import Path
from typing import Any

from taumesh.domains import load_domain
from taumesh.rollout import PolicyRequest, RolloutEpisode, stream_rollouts

ENV, SPLIT = "hospitality", "base"
TASKS = {task.id: task for task in load_domain(ENV, Path()).tasks(SPLIT)}
BATCHES = [["cancel_reservation-w1-01", "cancel_reservation-w1-03"], ["cancel_reservation-w1-05"]]
"""The tasks of each training step."""
GROUP = 4
"""Rollouts per task (GRPO's group size)."""
SLIPS = (0.25, 0.5)
"""The stand-in policy forgets its plan's last step below the first, and leaves out what it should say below the
second (of a draw in [0, 1) from the episode's seed)."""


def policy(request: PolicyRequest) -> dict[str, Any]:
    """The stand-in policy: the task's gold plan as tool calls, one per turn, then its outputs in words.

    A real policy would render ``request.chat()`` and ``request.tools`` with its chat template and sample.
    """
    task = TASKS[request.task_id]
    plan, outputs = task.agent_actions(), task.outputs
    draw = random.Random(request.seed).random()  # a reproducible stand-in for sampling
    if draw < SLIPS[0]:
        plan = plan[:-1]
    elif draw < SLIPS[1]:
        outputs = []
    done = sum(message["role"] == "tool" for message in request.messages)
    if done < len(plan):
        call = {"type": "function", "function": {"name": plan[done].name, "arguments": json.dumps(plan[done].kwargs)}}
        return {"role": "assistant", "content": None, "tool_calls": [call]}
    return {"role": "assistant", "content": " ".join(outputs) or "Done. Anything else?"}


def advantages(values: list[float]) -> list[float]:
    """Each value against its group's: (value - mean) / (standard deviation + 1e-6), as GRPO normalises rewards."""
    mean, spread = statistics.fmean(values), statistics.pstdev(values)
    return [(value - mean) / (spread + 1e-6) for value in values]


def train_on(task_id: str, group: list[RolloutEpisode]) -> None:
    """What a trainer would take from one finished group: here, its shapes and advantages, printed."""
    rewards = [episode.reward or 0.0 for episode in group]
    credit = [statistics.fmean(c.credit for c in e.reward_vector) if e.reward_vector else 0.0 for e in group]
    checks = {len(episode.reward_vector) for episode in group}
    traces = [len(getattr(episode, "traces", None) or []) for episode in group]  # a gateway's, when configured
    print(f"  {task_id}: group of {len(group)}")
    print(f"    trajectories: {len(group)} x {[len(episode.trajectory) for episode in group]} messages")
    print(f"    rewards: ({len(rewards)},) {rewards}")
    print(f"    reward vectors: ({len(group)}, {'/'.join(map(str, sorted(checks)))}) checks, mean credit {credit}")
    print(f"    advantages (reward): {[round(a, 2) for a in advantages(rewards)]}")
    print(f"    advantages (mean credit): {[round(a, 2) for a in advantages(credit)]}")
    print(f"    token traces: {traces} (none without a model gateway)")


async def main() -> None:
    """Per step: stream the batch's rollouts, and hand each task's group to the trainer as soon as it is complete."""
    for step, batch in enumerate(BATCHES):
        print(f"step {step}: {len(batch)} tasks x {GROUP} rollouts")
        groups: dict[str, list[RolloutEpisode]] = {}
        stream = stream_rollouts(env=ENV, task_split=SPLIT, task_ids=batch, trials=GROUP, user_strategy="scripted",
                                 seed=step, policy=policy, max_concurrency=8)  # fmt: skip
        async with contextlib.aclosing(stream):
            async for episode in stream:
                if episode.error is not None:  # an infrastructure failure: never a reward, left out of its group
                    continue
                group = groups.setdefault(episode.task_id, [])
                group.append(episode)
                if len(group) == GROUP:
                    train_on(episode.task_id, sorted(group, key=lambda e: e.trial))
        print(f"  (trainer.step() would run here on {sum(map(len, groups.values()))} rollouts)")


if __name__ == "__main__":
    asyncio.run(main())
