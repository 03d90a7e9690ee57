"""Fault attribution without a model: the checks a failed episode is put to before any judge is asked.

A check that fires decides the episode's fault on evidence anyone can re-read; only episodes none fires on go to the
judging model (``fault_analysis``). In order, the first that fires wins:

1. ``task_flagged``: the stored validity audit flags the task (the caller sends the flags): a failure there says
   little of the agent, so it is the task's.
2. ``stopped_early``: the simulated user said ``###STOP###`` before the agent had called any tool a gold action names:
   the goal was not yet reachable when the user left.
3. ``leaked_goal``: a user message repeats :data:`LEAK_WORDS` or more consecutive words of the instruction verbatim.
   τ-bench's user rules say "Do not repeat the exact instruction in the conversation"; a simulator that pastes its
   instruction hands the agent what a customer would have to be asked for, so the episode did not measure the agent
   as the task intends.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Literal

from pydantic import BaseModel

from taumesh.models import STOP_TOKEN, ChatMessage

Check = Literal["task_flagged", "stopped_early", "leaked_goal"]

LEAK_WORDS = 12
"""Consecutive instruction words a user message must repeat to leak the goal: longer than a name, a zip code and an
order id said together ("I'm Yusuf Rossi, zip code 19122, order #W7178" is 8), shorter than any sentence of a
τ-bench instruction's situation."""


class TaskFlagSeen(BaseModel):
    """One flag of the stored validity audit on the episode's task."""

    kind: str
    detail: str


class CheckedFault(BaseModel):
    """A fault a check attributed: to whom, which kind (for the user), and the evidence."""

    check: Check
    author: Literal["task", "user"]
    user_fault: Literal["stopped_early", "leaked_goal"] | None = None
    description: str


def _words(text: str) -> list[str]:
    return re.findall(r"\w+", text.lower())


def leaked_span(instruction: str, said: str, at_least: int = LEAK_WORDS) -> str | None:
    """The first run of ``at_least`` consecutive instruction words that ``said`` repeats, or None."""
    wanted = _words(instruction)
    heard = " " + " ".join(_words(said)) + " "
    for start in range(len(wanted) - at_least + 1):
        span = " ".join(wanted[start : start + at_least])
        if f" {span} " in heard:
            return span
    return None


def stopped_before_any_gold_call(trajectory: Sequence[ChatMessage], gold_tools: set[str]) -> int | None:
    """The index of the user's ``###STOP###`` message when no tool a gold action names was called before it."""
    for index, message in enumerate(trajectory):
        if message.role == "assistant" and any(call.name in gold_tools for call in message.tool_calls):
            return None
        if message.role == "user" and STOP_TOKEN in message.content:
            return index
    return None


def check_fault(
    instruction: str, gold_tools: set[str], trajectory: Sequence[ChatMessage], flags: Sequence[TaskFlagSeen]
) -> CheckedFault | None:
    """The fault the first check that fires attributes (module docstring), or None: the judge decides."""
    if flags:
        found = "; ".join(f"{flag.kind}: {flag.detail}" for flag in flags)
        return CheckedFault(
            check="task_flagged", author="task", description=f"The validity audit flags this task ({found})."
        )
    if gold_tools:
        stop = stopped_before_any_gold_call(trajectory, gold_tools)
        if stop is not None:
            return CheckedFault(
                check="stopped_early",
                author="user",
                user_fault="stopped_early",
                description=f"The user ended the conversation (message {stop}) before the agent had called any "
                f"tool of the gold actions ({', '.join(sorted(gold_tools))}).",
            )
    for index, message in enumerate(trajectory):
        if message.role != "user":
            continue
        span = leaked_span(instruction, message.content)
        if span is not None:
            return CheckedFault(
                check="leaked_goal",
                author="user",
                user_fault="leaked_goal",
                description=f'The user repeated its instruction verbatim (message {index}: "{span} ...").',
            )
    return None
