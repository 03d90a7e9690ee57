"""How far one episode has gone against its limits, and how it ended."""

from __future__ import annotations

from taumesh.env.v1 import env_pb2
from taumesh.models import RunDefaults, Termination


class Progress:
    """The episode's steps (tool calls plus messages to the user) and tool errors, against the run's limits.

    ``source`` is what took the last step (a tool's name, or ``user``), as τ-bench records it; ``termination`` is
    None while the episode goes on.
    """

    def __init__(self, limits: RunDefaults) -> None:
        self.limits = limits
        self.steps, self.source, self.tool_errors = 0, "user", 0
        self.termination: Termination | None = None
        self.gave_up = ""
        """Why the agent stopped, when it answered OUT_OF_RANGE (termination ``agent_gave_up``)."""

    @property
    def steps_left(self) -> bool:
        return self.steps < self.limits.max_steps

    def step(self, source: str) -> None:
        """One step taken, by ``source``."""
        self.steps += 1
        self.source = source

    def took(self, status: env_pb2.ToolCallStatus.ValueType) -> None:
        """Count a tool result's error; end the episode when the tool (or the error limit) ends it."""
        if status == env_pb2.TOOL_CALL_STATUS_ERROR:
            self.tool_errors += 1  # τ²: every error counts, consecutive or not
        if status == env_pb2.TOOL_CALL_STATUS_ABORTED:
            self.termination = "env_abort"
        elif self.limits.max_errors is not None and self.tool_errors >= self.limits.max_errors:
            self.termination = "too_many_errors"  # scored 0, as τ² does
        elif status == env_pb2.TOOL_CALL_STATUS_TERMINATED:
            self.termination = "terminate_tool"
