"""``few-shot``: tool-calling with example conversations (a JSONL of ``{"messages_display": str}``) in the prompt."""

from __future__ import annotations

import json
import random
from pathlib import Path

from taumesh.domains import Catalog
from taumesh.llm.access import current_grants
from taumesh.rpc.errors import InvalidArgument
from taumesh.services.agent.strategies.base import AgentTurn
from taumesh.services.agent.strategies.prompts import few_shot_prompt
from taumesh.services.agent.strategies.tool_calling import ToolCallingAgent

EXAMPLES_PER_PROMPT = 5
"""How many examples are drawn for an episode (τ-bench's default)."""


def load_displays(path: Path) -> list[str]:
    """The ``messages_display`` strings of a few-shot file; INVALID_ARGUMENT when missing or malformed."""
    if not path.is_file():
        raise InvalidArgument(f"few-shot displays file {str(path)!r} not found (--few-shot-displays-path)")
    displays: list[str] = []
    with path.open(encoding="utf-8") as handle:
        for number, line in enumerate(handle, start=1):
            if not line.strip():
                continue
            try:
                record = json.loads(line)
            except json.JSONDecodeError as exc:
                raise InvalidArgument(f"{path}:{number}: not JSON ({exc})") from exc
            display = record.get("messages_display") if isinstance(record, dict) else None
            if not isinstance(display, str):
                raise InvalidArgument(f"{path}:{number}: expected an object with a string 'messages_display'")
            displays.append(display)
    if not displays:
        raise InvalidArgument(f"few-shot displays file {str(path)!r} holds no example")
    return displays


class FewShotAgent(ToolCallingAgent):
    """Tool-calling with examples drawn from ``few_shot_displays_path``.

    The draw is deterministic: seeded by the model seed and the episode's task and trial, so every call of an
    episode sees the same examples and a rerun with the same seed sees them again.
    """

    name = "few-shot"

    def __init__(self, catalog: Catalog) -> None:
        super().__init__(catalog)
        self._files: dict[tuple[str, int, int], list[str]] = {}

    def displays(self, path_text: str) -> list[str]:
        """The file's examples, read once per version of the file; only files the operator allowed."""
        if not path_text:
            raise InvalidArgument("agent strategy 'few-shot' needs --few-shot-displays-path")
        # decided on the path alone: a refused path gets the same answer whether a file is there or not
        path = current_grants().few_shot_file(path_text, "config.few_shot_displays_path")
        try:
            stat = path.stat()
        except OSError as exc:
            raise InvalidArgument(f"few-shot displays file {path_text!r} not found (--few-shot-displays-path)") from exc
        key = (str(path.resolve()), stat.st_mtime_ns, stat.st_size)
        if key not in self._files:
            self._files[key] = load_displays(path)
        return self._files[key]

    def system_prompt(self, turn: AgentTurn) -> str:
        displays = self.displays(turn.settings.few_shot_displays_path)
        task = turn.episode.task
        rng = random.Random(
            f"{turn.settings.model.seed}:{task.domain}:{task.split}:{task.task_id}:{turn.episode.trial}"
        )
        chosen = rng.sample(displays, min(EXAMPLES_PER_PROMPT, len(displays)))
        return few_shot_prompt(turn.policy, chosen)
