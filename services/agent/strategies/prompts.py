"""The prompts of the LLM agent strategies: act and react use τ-bench v1's text; the few-shot framing is taumesh's."""

from __future__ import annotations

import json
from collections.abc import Sequence

from taumesh.models import ToolSchema

RESPOND = "respond"
"""The action name that means "say this to the customer" in the text action format."""

OBSERVATION_PREFIX = "API output: "
"""How a tool result is shown to act/react agents: as a user turn starting with this."""

TOOLS_HEADING = "\n#Available tools\n"
"""Between the policy and the tools' JSON in the act/react prompt (τ-bench's spelling, no space after '#')."""

_WEATHER_TOOL = """{
    "type": "function",
    "function": {
        "name": "get_current_weather",
        "description": "Get the current weather",
        "parameters": {
            "type": "object",
            "properties": {
                "location": {
                    "type": "string",
                    "description": "The city and state, e.g. San Francisco, CA",
                },
                "format": {
                    "type": "string",
                    "enum": ["celsius", "fahrenheit"],
                    "description": "The temperature unit to use. Infer this from the users location.",
                },
            },
            "required": ["location", "format"],
        },
    }
}
"""
"""The sample tool both instructions below show (with its trailing comma, as τ-bench has it)."""

# The two instructions below are τ-bench v1's own (sierra-research/tau-bench, MIT licence,
# tau_bench/agents/chat_react_agent.py, REACT_INSTRUCTION and ACT_INSTRUCTION with "respond" and "content"
# substituted), reproduced character for character: τ-bench records the prompt as the trajectory's system
# message, and results compared with τ-bench's must have been produced with the same prompt. Their quirks
# (the unquoted respond in the last example, a trailing comma in the sample JSON) are kept on purpose.
REACT_INSTRUCTION = (
    """
# Instruction
You need to act as an agent that use the above tools to help the user according to the above policy.

At each step, your generation should have exactly the following format:
Thought:
<A single line of reasoning to process the context and inform the decision making. Do not include extra lines.>
Action:
{"name": <The name of the action>, "arguments": <The arguments to the action in json format>}

The Action will be parsed, so it must be valid JSON.

You should not use made-up or placeholder arguments.

For example, if the user says "I want to know the current weather of San Francisco", and there is such a tool available
"""
    + _WEATHER_TOOL
    + """
Your response can be like this:
Thought:
"""
    "Since the user asks for the weather of San Francisco in USA, the unit should be in fahrenheit. I can query "
    "get_current_weather to get the weather.\n"
    """Action:
{"name": "get_current_weather", "arguments": {"location": "San Francisco, CA", "format": "fahrenheit"}}

And if the tool returns "70F", your response can be:
Thought:
I can answer the user now.
Action:
{"name": respond, "arguments": {"content": "The current weather of San Francisco is 70F."}}

Try to be helpful and always follow the policy.
"""
)
"""How a react agent answers: a one-line thought, then a JSON action."""

ACT_INSTRUCTION = (
    """
# Instruction
You need to act as an agent that use the above tools to help the user according to the above policy.

At each step, your generation should have exactly the following format:

Action:
{"name": <The name of the action>, "arguments": <The arguments to the action in json format>}

You should not use made-up or placeholder arguments.

The Action will be parsed, so it must be valid JSON.

For example, if the user says "I want to know the current weather of San Francisco", and there is such a tool available
```json
"""
    + _WEATHER_TOOL
    + """```

Your response can be like this:
Action:
{"name": "get_current_weather", "arguments": {"location": "San Francisco, CA", "format": "fahrenheit"}}

And if the tool returns "70F", your response can be:
Action:
{"name": respond, "arguments": {"content": "The current weather of San Francisco is 70F."}}

Try to be helpful and always follow the policy. Always make sure you generate valid JSON only.
"""
)
"""How an act agent answers: a JSON action only."""


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
    """System prompt of the act (``react=False``) and react strategies, exactly as τ-bench builds it.

    The policy, the tools as the OpenAI function list in JSON, then the instruction; τ-bench records this text as
    the trajectory's system message.
    """
    return policy + TOOLS_HEADING + tools_json(tools) + (REACT_INSTRUCTION if react else ACT_INSTRUCTION)


def few_shot_prompt(policy: str, displays: Sequence[str]) -> str:
    """System prompt of the few-shot strategy: the policy, then example conversations."""
    examples = "\n\n".join(f"## Example {i}\n{display}" for i, display in enumerate(displays, start=1))
    return (
        f"{policy}\n\n# Example conversations\nThe conversations below show how an agent following this policy "
        f"works through requests with the tools (tool calls appear as 'assistant: None' followed by the tool's "
        f"result). They are examples only: the customer you are talking to is a different one.\n\n{examples}"
    )
