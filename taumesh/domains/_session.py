"""One episode's view of a domain: τ-bench v1's ``Env.step`` for tool calls."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from taumesh.domains._cow import CowSwitch, CowTable

if TYPE_CHECKING:
    from taumesh.domains._domain import Domain


class ToolCrash(Exception):
    """The tool broke outside what τ-bench's ``step`` catches (it returned no string).

    The original lets this escape ``step`` and aborts the task with reward 0; we report it the same
    way instead of inventing an observation.
    """


@dataclass(frozen=True)
class StepResult:
    """The outcome of one tool call, as τ-bench's ``step`` reports it."""

    observation: str
    done: bool
    known_tool: bool
    error: bool


@dataclass
class Session:
    """An isolated episode over a domain: copy-on-write tables over the shared base data."""

    domain: Domain
    switch: CowSwitch = field(default_factory=CowSwitch)
    data: dict[str, Any] = field(init=False)
    actions: list[tuple[str, dict[str, Any]]] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.data = {name: CowTable(table, self.switch) for name, table in self.domain.base_data.items()}

    def call(self, name: str, kwargs: dict[str, Any]) -> StepResult:
        """Run tool ``name`` with ``kwargs``: any exception becomes ``"Error: {e}"``."""
        self.actions.append((name, kwargs))
        tool = self.domain.tools_by_name.get(name)
        if tool is None:
            return StepResult(f"Unknown action {name}", done=False, known_tool=False, error=True)
        self.switch.copy_on_access = tool.writes
        try:
            observation = tool.invoke(data=self.data, **kwargs)
        except Exception as exc:  # noqa: BLE001 - τ-bench turns every tool exception into text
            observation = f"Error: {exc}"
        finally:
            self.switch.copy_on_access = False
        if not isinstance(observation, str):
            raise ToolCrash(f"tool {name} returned {type(observation).__name__}, not an observation")
        done = name in self.domain.spec.terminate_tools
        return StepResult(observation, done=done, known_tool=True, error=observation.startswith("Error"))

    def data_hash(self) -> str:
        """τ-bench's ``get_data_hash()`` of this session's current data."""
        return self.domain.hasher.hash(self.data)

    def copied_records(self) -> int:
        """How many records this session holds a private copy of (its whole memory cost)."""
        return sum(len(table.changed_keys()) for table in self.data.values())
