"""The prompts of the LLM agent strategies (written for taumesh; the mechanics follow τ-bench v1)."""

from __future__ import annotations

import json
from collections.abc import Sequence

from taumesh.models import ToolSchema

RESPOND = "respond"
"""The action name that means "say this to the customer" in the text action format."""

OBSERVATION_PREFIX = "API output: "
"""How a tool result is shown to act/react agents: as a user turn starting with this."""

_TOOLS = """

# Tools
You can use the tools below. Each entry gives the tool's name, what it does, and the JSON Schema of its arguments.
{tools}"""

_ACTION_RULES = """
- To use a tool, give its name and the arguments its schema asks for. Its result comes back as the next message, \
which starts with "{prefix}".
- To write to the customer, use the name "{respond}" with the arguments {{"content": "<your message>"}}. The \
customer's answer comes back as the next message.
- Take one action per turn, and write nothing after the JSON object. Never make up the result of a tool.

For example, to ask the customer for a detail:
{example}"""

_ACT = """

# How to answer
Each of your turns is exactly one action: a JSON object with a "name" and an "arguments" object, written on the \
lines after "Action:", like this:
Action:
{{"name": "<tool name or {respond}>", "arguments": {{...}}}}
"""

_REACT = """

# How to answer
Each of your turns first reasons, then takes exactly one action. Write a few sentences after "Thought:" about what \
you know so far and what the policy requires next, then the action as a JSON object with a "name" and an \
"arguments" object on the lines after "Action:", like this:
Thought:
<your reasoning>
Action:
{{"name": "<tool name or {respond}>", "arguments": {{...}}}}
"""


def tools_json(tools: Sequence[ToolSchema]) -> str:
    """The tools as the OpenAI function list, in JSON."""
    return json.dumps([tool.openai() for tool in tools])


def action_json(name: str, arguments: object) -> str:
    """One action in the text format."""
    return json.dumps({"name": name, "arguments": arguments})


def action_text(name: str, arguments: object, thought: str | None) -> str:
    """An agent turn in the text format: ``Action:`` and, for react (``thought`` not None), ``Thought:`` first."""
    action = action_json(name, arguments)
    if thought is None:
        return f"Action:\n{action}"
    return f"Thought:\n{thought}\nAction:\n{action}"


def text_action_prompt(policy: str, tools: Sequence[ToolSchema], react: bool) -> str:
    """System prompt of the act (``react=False``) and react strategies: policy, tools, answer format."""
    example = action_text(
        RESPOND,
        {"content": "Could you give me the id of the order you want to change?"},
        "The customer wants to change an order but has not said which one." if react else None,
    )
    rules = _ACTION_RULES.format(prefix=OBSERVATION_PREFIX.strip(), respond=RESPOND, example=example)
    form = (_REACT if react else _ACT).format(respond=RESPOND)
    return policy + _TOOLS.format(tools=tools_json(tools)) + form + rules


def few_shot_prompt(policy: str, displays: Sequence[str]) -> str:
    """System prompt of the few-shot strategy: the policy, then example conversations."""
    examples = "\n\n".join(f"## Example {i}\n{display}" for i, display in enumerate(displays, start=1))
    return (
        f"{policy}\n\n# Example conversations\nThe conversations below show how an agent following this policy "
        f"works through requests with the tools (tool calls appear as 'assistant: None' followed by the tool's "
        f"result). They are examples only: the customer you are talking to is a different one.\n\n{examples}"
    )
