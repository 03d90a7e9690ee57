"""One episode's view of a domain: τ-bench v1's ``Env.step`` for tool calls."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from taumesh.domains._cow import CowSwitch, CowTable
from taumesh.domains._errors import LAST_MUTATION, BaseDataMutation, ToolCrash
from taumesh.domains._readonly import ReadOnlyDict
from taumesh.domains._tool import Requestor
from taumesh.domains._view import DomainView


def _tag(writes: bool) -> str:
    return "tagged write" if writes else "tagged read"


@dataclass(frozen=True)
class StepResult:
    """The outcome of one tool call, as τ-bench's ``step`` reports it."""

    observation: str
    done: bool
    known_tool: bool
    error: bool


@dataclass
class Session:
    """An isolated episode over a domain: copy-on-write tables over the shared, read-only base data."""

    domain: DomainView
    switch: CowSwitch = field(default_factory=CowSwitch)
    data: dict[str, Any] = field(init=False)
    actions: list[tuple[str, dict[str, Any]]] = field(default_factory=list)

    def __post_init__(self) -> None:
        # the set of tables is fixed: a tool may change records, never swap a whole table
        self.data = ReadOnlyDict((name, CowTable(table, self.switch)) for name, table in self.domain.base_data.items())

    def call(self, name: str, kwargs: dict[str, Any], requestor: Requestor = "assistant") -> StepResult:
        """Run tool ``name`` with ``kwargs`` for ``requestor``: any exception becomes ``"Error: {e}"``.

        A tool of the other side is as unknown as a tool that does not exist. A tool that changes
        data it may not change raises :class:`BaseDataMutation` (a domain bug, never an observation),
        even when the tool itself catches the exception.
        """
        self.actions.append((name, kwargs))
        tool = self.domain.tools_by_name.get(name)
        if tool is None or tool.side != requestor:
            unknown = self.domain.spec.unknown_tool.format(name=name)
            return StepResult(unknown, done=False, known_tool=False, error=True)
        self.switch.copy_on_access = tool.writes
        watch = LAST_MUTATION.set(None)
        raised = False
        try:
            if tool.reads_documents:
                observation = tool.invoke(data=self.data, documents=self.domain.documents, **kwargs)
            else:
                observation = tool.invoke(data=self.data, **kwargs)
        except BaseDataMutation as exc:
            raise BaseDataMutation(f"tool {name!r} ({_tag(tool.writes)}): {exc}") from exc
        except Exception as exc:  # noqa: BLE001 - τ-bench turns every tool exception into text
            observation = f"Error: {exc}"
            raised = True
        finally:
            self.switch.copy_on_access = False
            violation = LAST_MUTATION.get()
            LAST_MUTATION.reset(watch)
        if violation is not None:  # the tool caught it: still a domain bug
            raise BaseDataMutation(
                f"tool {name!r} ({_tag(tool.writes)}) caught this and went on: {violation}"
            ) from violation
        if not isinstance(observation, str):
            raise ToolCrash(f"tool {name} returned {type(observation).__name__}, not an observation")
        done = name in self.domain.spec.terminate_tools
        error = raised or (self.domain.spec.error_from_text and observation.startswith("Error"))
        return StepResult(observation, done=done, known_tool=True, error=error)

    def data_hash(self) -> str:
        """τ-bench's ``get_data_hash()`` of this session's current data."""
        return self.domain.hasher.hash(self.data)

    def copied_records(self) -> int:
        """How many records this session holds a private copy of (its whole memory cost)."""
        return sum(len(table.changed_keys()) for table in self.data.values())
