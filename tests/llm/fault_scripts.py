"""Scripts that plant user-simulator faults in played episodes, for ``taumesh analyze``'s attribution tests.

Unlike ``scripts.ScriptedLlmUser`` (whose opening is the instruction itself, a goal leak by analyze's check), the
user here opens as a customer would, naming only its user id, and the agent finds the task by that id; it says
``###STOP###`` once the agent answered. Per task, the user can instead leak its instruction verbatim, and the agent
can play the gold actions, skip the last one, or only ask a question (which the user answers by stopping: it stopped
before the goal was reachable).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from tests.helpers.fake_model import Reply, text, tool_call
from tests.llm.scripts import AGENT_MODEL, STOP, TaskIndex, final_text, own_turns, prompt_tokens, tokens

UserPlan = Literal["customer", "leak"]
AgentPlan = Literal["gold", "skip_last", "ask"]
QUESTION = "Could you tell me a little more about what you need?"


def opening(user_id: str) -> str:
    """What a well-behaved simulated user says first: who it is, not its instruction."""
    return f"Hi, I'm {user_id} and I need some help with one of my orders."


@dataclass
class PlantedFaults:
    """Plays the agent and the user of ``tasks`` (indices into ``index``), each as its plans say (default: a
    customer, and a gold agent). Agent requests are told apart by model name."""

    index: TaskIndex
    tasks: list[int]
    users: Mapping[int, UserPlan] = field(default_factory=dict)
    agents: Mapping[int, AgentPlan] = field(default_factory=dict)

    def task_of_agent_request(self, request: dict[str, Any]) -> int:
        first = next(m for m in request["messages"] if m["role"] == "user")["content"]
        for position in self.tasks:
            task = self.index.tasks[position]
            if first == task.instruction or first == opening(task.user_id):
                return position
        raise KeyError(f"no planted task opens with {first!r}")

    def agent(self, request: dict[str, Any]) -> Reply:
        position = self.task_of_agent_request(request)
        task = self.index.tasks[position]
        plan = self.agents.get(position, "gold")
        usage = {"prompt_tokens": prompt_tokens(request)}
        if plan == "ask":
            return text(QUESTION, completion_tokens=tokens(QUESTION), **usage)
        actions = task.actions[:-1] if plan == "skip_last" else task.actions
        done = sum(1 for m in request["messages"] if m["role"] == "tool")
        if done < len(actions):
            action = actions[done]
            return tool_call(action.name, action.kwargs, completion_tokens=tokens(json.dumps(action.kwargs)), **usage)
        said = final_text(task)
        return text(said, completion_tokens=tokens(said), **usage)

    def user(self, request: dict[str, Any]) -> Reply:
        position = self.index.of_user_request(request)
        task = self.index.tasks[position]
        plan = self.users.get(position, "customer")
        if own_turns(request) > 0:
            said = STOP
        elif plan == "leak":
            said = task.instruction
        else:
            said = opening(task.user_id)
        return text(said, prompt_tokens=prompt_tokens(request), completion_tokens=tokens(said))

    def __call__(self, request: dict[str, Any], ordinal: int) -> Reply:
        return self.agent(request) if request["model"] == AGENT_MODEL else self.user(request)
