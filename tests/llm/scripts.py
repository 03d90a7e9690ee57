"""Scripts for the fake OpenAI server: a gold-following agent, simulated users, a judge, fault injection.

The agent and the user are told apart by model name (``AGENT_MODEL`` / ``USER_MODEL``); the task of a request by
its instruction (the scripted user's opening message is the instruction itself).
"""

from __future__ import annotations

import json
import random
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from taumesh.domains import Task
from tests.helpers.fake_model import Reply, empty, rate_limited, server_error, slow, text, tool_call

AGENT_MODEL = "gpt-4o"
USER_MODEL = "gpt-4o-mini"
JUDGE_MODEL = "gpt-4o"
CLOSING = "Is there anything else I can help you with?"
STOP = "###STOP###"

AgentStyle = Literal["tools", "act", "react"]


def tokens(text_value: str) -> int:
    """A stand-in tokenizer: about four characters a token."""
    return max(1, len(text_value) // 4)


def prompt_tokens(request: dict[str, Any]) -> int:
    return sum(tokens(json.dumps(m)) for m in request.get("messages", []))


def final_text(task: Task) -> str:
    return " ".join(task.outputs) if task.outputs else CLOSING


class TaskIndex:
    """Finds the task a request is about."""

    def __init__(self, tasks: Sequence[Task]) -> None:
        self.tasks = list(tasks)
        self.by_instruction = {t.instruction: i for i, t in enumerate(self.tasks)}

    def of_agent_request(self, request: dict[str, Any]) -> int:
        """The task of an agent request: its first user message is the instruction."""
        first_user = next(m for m in request["messages"] if m["role"] == "user")
        return self.by_instruction[first_user["content"]]

    def of_user_request(self, request: dict[str, Any]) -> int:
        """The task of a user-simulator request: its instruction is in the system prompt (or the review request)."""
        text_value = "\n".join(str(m.get("content") or "") for m in request["messages"][:2])
        for instruction, index in self.by_instruction.items():
            if instruction in text_value:
                return index
        raise KeyError("no task instruction found in the request")

    def of_request(self, request: dict[str, Any]) -> int:
        return self.of_agent_request(request) if request["model"] == AGENT_MODEL else self.of_user_request(request)


@dataclass
class GoldAgent:
    """Plays a task's gold actions one per request (counting the results already in the prompt), then speaks."""

    index: TaskIndex
    style: AgentStyle = "tools"
    skip_last_action: set[int] = field(default_factory=set)
    """Task indices (into the index) on which the agent "forgets" the last gold action (reward 0)."""

    def done(self, request: dict[str, Any]) -> int:
        if self.style == "tools":
            return sum(1 for m in request["messages"] if m["role"] == "tool")
        return sum(1 for m in request["messages"] if m["role"] == "user" and m["content"].startswith("API output: "))

    def __call__(self, request: dict[str, Any]) -> Reply:
        position = self.index.of_agent_request(request)
        task = self.index.tasks[position]
        actions = task.actions[:-1] if position in self.skip_last_action else task.actions
        done = self.done(request)
        usage = {"prompt_tokens": prompt_tokens(request)}
        if done < len(actions):
            action = actions[done]
            if self.style == "tools":
                return tool_call(
                    action.name, action.kwargs, completion_tokens=tokens(json.dumps(action.kwargs)), **usage
                )
            body = json.dumps({"name": action.name, "arguments": action.kwargs})
            return text(self._text(body, f"Step {done + 1} of the plan."), completion_tokens=tokens(body), **usage)
        said = final_text(task)
        if self.style == "tools":
            return text(said, completion_tokens=tokens(said), **usage)
        body = json.dumps({"name": "respond", "arguments": {"content": said}})
        return text(self._text(body, "Everything is done; tell the customer."), completion_tokens=tokens(body), **usage)

    def _text(self, action: str, thought: str) -> str:
        if self.style == "react":
            return f"Thought:\n{thought}\nAction:\n{action}"
        return f"Action:\n{action}"


def own_turns(request: dict[str, Any]) -> int:
    """How many messages the simulated user has already written (assistant turns of its prompt)."""
    return sum(1 for m in request["messages"] if m["role"] == "assistant")


@dataclass
class ScriptedLlmUser:
    """Says the instruction, then ###STOP### once the agent answered (``react`` adds thoughts)."""

    index: TaskIndex
    react: bool = False

    def __call__(self, request: dict[str, Any]) -> Reply:
        task = self.index.tasks[self.index.of_user_request(request)]
        said = task.instruction if own_turns(request) == 0 else STOP
        if self.react:
            thought = "I open with my request." if said != STOP else "My request is handled; I end the chat."
            said = f"Thought:\n{thought}\nUser Response:\n{said}"
        return text(said, prompt_tokens=prompt_tokens(request), completion_tokens=tokens(said))


def is_review(request: dict[str, Any]) -> bool:
    """A verify/reflection review call (its system prompt asks for a verdict)."""
    return '"verdict"' in str(request["messages"][0].get("content") or "")


def is_reflection(request: dict[str, Any]) -> bool:
    last = str(request["messages"][-1].get("content") or "")
    return "Reflection:" in last and "Response:" in last


BAD_DRAFT = "I would like to order a pizza with extra cheese."


@dataclass
class ReviewedUser:
    """For verify/reflection: each first draft is off-script, the review rejects it, the rewrite is right."""

    index: TaskIndex

    def __call__(self, request: dict[str, Any]) -> Reply:
        usage = {"prompt_tokens": prompt_tokens(request)}
        if is_review(request):
            draft = str(request["messages"][-1]["content"]).rsplit("# The customer's draft reply", 1)[-1]
            if BAD_DRAFT in draft:
                verdict = {"verdict": "reject", "reason": "The situation is not about pizza."}
            else:
                verdict = {"verdict": "accept", "reason": "Faithful."}
            body = json.dumps(verdict)
            return text(body, completion_tokens=tokens(body), **usage)
        task = self.index.tasks[self.index.of_user_request(request)]
        rejected = "A reviewer rejected" in str(request["messages"][-1].get("content") or "")
        turns = sum(1 for m in request["messages"] if m["role"] == "assistant" and m["content"] != BAD_DRAFT)
        if not rejected:
            return text(BAD_DRAFT, completion_tokens=tokens(BAD_DRAFT), **usage)
        said = task.instruction if turns == 0 else STOP
        if is_reflection(request):
            said = f"Reflection:\nI drifted from my situation.\nResponse:\n{said}"
        return text(said, completion_tokens=tokens(said), **usage)


@dataclass
class Router:
    """Agent requests to ``agent``, everything else to ``user``."""

    agent: Callable[[dict[str, Any]], Reply]
    user: Callable[[dict[str, Any]], Reply]

    def __call__(self, request: dict[str, Any], ordinal: int) -> Reply:
        return self.agent(request) if request["model"] == AGENT_MODEL else self.user(request)


@dataclass
class Faulty:
    """Fails ``rate`` of the requests at random (seeded): 429, 500, slow or empty; ``down`` tasks always get 503."""

    inner: Callable[[dict[str, Any], int], Reply]
    index: TaskIndex
    rate: float = 0.2
    seed: int = 7
    slow_seconds: float = 1.0
    down: set[int] = field(default_factory=set)
    kinds: tuple[str, ...] = ("429", "500", "slow", "empty")
    injected: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        self._rng = random.Random(self.seed)
        self._lock = threading.Lock()

    def __call__(self, request: dict[str, Any], ordinal: int) -> Reply:
        if self.index.of_request(request) in self.down:
            return server_error(503)
        with self._lock:
            fail = self._rng.random() < self.rate
            kind = self._rng.choice(self.kinds)
        if not fail:
            return self.inner(request, ordinal)
        self.injected.append(kind)
        if kind == "429":
            return rate_limited("0.01")
        if kind == "500":
            return server_error(500)
        if kind == "slow":
            return slow(self.slow_seconds, self.inner(request, ordinal))
        return empty(prompt_tokens=prompt_tokens(request))


def judge_answer(verdict: dict[str, Any]) -> Reply:
    body = json.dumps(verdict)
    return text(f"Here is my analysis:\n```json\n{body}\n```", completion_tokens=tokens(body))


class CountingScript:
    """Refuses ``refusals`` of the requests with 429 (seeded, with ``retry_after``), answers the rest with ``inner``
    after ``latency``; counts the requests being answered at once, and their peak."""

    def __init__(
        self,
        inner: Callable[[dict[str, Any], int], Reply],
        refusals: float,
        latency: float,
        retry_after: str = "0.05",
    ) -> None:
        self.inner, self.refusals, self.latency, self.retry_after = inner, refusals, latency, retry_after
        self.lock = threading.Lock()
        self.random = random.Random(29)
        self.in_flight = self.peak = self.refused = 0

    def __call__(self, request: dict[str, Any], ordinal: int) -> Reply:
        with self.lock:
            self.in_flight += 1
            self.peak = max(self.peak, self.in_flight)
            refuse = self.random.random() < self.refusals
            self.refused += refuse
        try:
            time.sleep(self.latency)  # the model thinking: the request is held, and counted, meanwhile
            return rate_limited(self.retry_after) if refuse else self.inner(request, ordinal)
        finally:
            with self.lock:
                self.in_flight -= 1
