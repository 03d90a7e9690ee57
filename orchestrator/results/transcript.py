"""An episode's conversation as ``--verbose`` prints it: user, agent, tool calls with arguments, and tool results.

The user's own tool calls (τ²'s telecom) and their results appear where they happened. Each speaker has its
colour (as τ²'s console display colours roles); a console that is not a terminal gets the same text without
colour. Message text never carries control characters into the output.
"""

from __future__ import annotations

import re

from rich.console import Console
from rich.text import Text

from taumesh.models import ChatMessage
from taumesh.orchestrator.results.records import RunResult

STYLES = {"user": "bold green", "assistant": "bold blue", "call": "bold yellow", "tool": "bold magenta"}
TOOL_RESULT_LIMIT = 2000
"""Characters of a tool result shown; longer results (a whole product catalogue) are cut and say how much."""

_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]")


def clean(text: str) -> str:
    """``text`` without control characters other than newline and tab (each becomes ``?``)."""
    return _CONTROL.sub("?", text)


def heading(result: RunResult) -> str:
    """``task T trial N: reward R, how it ended, S steps``, or the error that left it unscored."""
    where = f"task {result.task_id} trial {result.trial}"
    error = result.info.get("error")
    if result.is_error and isinstance(error, dict):
        return f"{where}: {error.get('kind', 'error')} error after {error.get('attempts', '?')} attempts"
    return f"{where}: reward {result.reward:g}, {result.info.get('termination')}, {result.info.get('steps')} steps"


def transcript_lines(result: RunResult) -> list[Text]:
    """One styled line (possibly multi-line text) per message and per tool call, in conversation order."""
    lines: list[Text] = []
    for raw in result.timeline():
        message = ChatMessage.from_openai(raw)
        speaker = "agent" if message.role == "assistant" else message.role
        if message.role == "system":
            lines.append(Text(f"system: policy of {len(message.content)} characters (not shown)", style="dim"))
            continue
        if message.role == "tool":
            lines.append(_line(f"tool {message.name} → ", STYLES["tool"], _clip(message.content)))
            continue
        if message.content:
            lines.append(_line(f"{speaker}: ", STYLES.get(message.role, "bold"), message.content))
        for call in message.tool_calls:
            lines.append(_line(f"{speaker} calls ", STYLES["call"], f"{call.name}({call.arguments})"))
    error = result.info.get("error")
    if isinstance(error, dict):
        lines.append(_line("error: ", "bold red", str(error.get("cause", ""))))
    return lines


def print_transcript(result: RunResult, console: Console) -> None:
    """Print ``result``'s conversation under a rule naming the episode and its outcome."""
    console.rule(Text(clean(heading(result))), style="dim")
    for line in transcript_lines(result):
        console.print(line, soft_wrap=True)


def _line(label: str, style: str, body: str) -> Text:
    return Text.assemble((label, style), clean(body))


def _clip(text: str) -> str:
    if len(text) <= TOOL_RESULT_LIMIT:
        return text
    return f"{text[:TOOL_RESULT_LIMIT]}… ({len(text) - TOOL_RESULT_LIMIT} more characters)"
