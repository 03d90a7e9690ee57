"""Asking a model for a JSON answer until it gives a readable one: the fault analysis's and the NL judge's loop."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from taumesh.llm import ModelError, complete
from taumesh.models import ModelSettings, Usage

T = TypeVar("T")


@dataclass
class Asked(Generic[T]):
    """What asking gave: the answer read (None when none was readable or the model failed), and what it cost."""

    answer: T | None
    usage: Usage
    problem: str = ""
    """Why the last answer could not be read (empty when one was)."""
    error: ModelError | None = None
    """The model's failure that stopped the asking, if one did."""


async def ask_until_readable(
    settings: ModelSettings,
    system: str,
    question: str,
    read: Callable[[str], T],
    reask: Callable[[str], str],
    max_asks: int,
) -> Asked[T]:
    """Ask ``question`` under ``system``; an answer ``read`` refuses (ValueError) is asked again: ``reask(problem)``.

    At most ``max_asks`` calls in all. A :class:`~taumesh.llm.ModelError` ends the asking and is returned with the
    usage spent so far, for the caller to report as it must.
    """
    messages: list[dict[str, Any]] = [{"role": "system", "content": system}, {"role": "user", "content": question}]
    usage = Usage()
    problem = ""
    for _ in range(max_asks):
        try:
            completion = await complete(settings, messages)
        except ModelError as exc:
            return Asked(None, usage, problem, exc)
        usage += completion.usage
        try:
            return Asked(read(completion.message.content), usage)
        except ValueError as exc:
            problem = str(exc)
            messages += [
                {"role": "assistant", "content": completion.message.content},
                {"role": "user", "content": reask(problem)},
            ]
    return Asked(None, usage, problem)
