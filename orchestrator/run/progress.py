"""A run's live progress: done/total and ETA, running reward and pass^1, errors, tokens and cost, episodes in flight.

On a terminal it is a rich Live display; anywhere else (a pipe, a CI log) it is one plain line every
``TAUMESH_PROGRESS_INTERVAL`` seconds and one at the end, without control characters. With ``verbose`` each
episode's conversation is printed as it ends (see :mod:`taumesh.orchestrator.results.transcript`).
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import timedelta
from types import TracebackType

from pydantic import Field
from pydantic_settings import BaseSettings, SettingsConfigDict
from rich.console import Console, Group, RenderableType
from rich.live import Live
from rich.progress_bar import ProgressBar
from rich.table import Table
from rich.text import Text

from taumesh.llm.limiter import ProviderStats
from taumesh.models import Usage
from taumesh.orchestrator.provider_limits import current_limits
from taumesh.orchestrator.results.records import RunResult
from taumesh.orchestrator.results.transcript import print_transcript
from taumesh.stats import is_success


class ProgressSettings(BaseSettings):
    """How often the plain progress line is printed off a terminal (``TAUMESH_PROGRESS_INTERVAL``, seconds)."""

    model_config = SettingsConfigDict(env_prefix="TAUMESH_PROGRESS_")

    interval: float = Field(default=30.0, gt=0)


def duration(seconds: float) -> str:
    """``seconds`` as ``H:MM:SS``."""
    return str(timedelta(seconds=round(seconds)))


@dataclass
class ProgressState:
    """The running figures of a run, updated as episodes start and end; ``clock`` is injectable for tests."""

    total: int
    clock: Callable[[], float] = time.monotonic
    done: int = 0
    in_flight: int = 0
    errors: int = 0
    scored: int = 0
    reward_sum: float = 0.0
    agent: Usage = field(default_factory=Usage)
    user: Usage = field(default_factory=Usage)
    trials: dict[int | str, tuple[int, int]] = field(default_factory=dict)
    """Per task: (successes, scored trials), for pass^1 as τ-bench defines it (mean over tasks of c/n)."""
    providers: Callable[[], list[ProviderStats]] | None = None
    """Model calls in flight and 429s per provider (:mod:`taumesh.orchestrator.provider_limits`), when limited."""
    started_at: float = field(init=False)

    def __post_init__(self) -> None:
        self.started_at = self.clock()

    def episode_started(self) -> None:
        self.in_flight += 1

    def episode_finished(self, result: RunResult) -> None:
        self.in_flight = max(0, self.in_flight - 1)
        self.done += 1
        agent, user = result.usage()
        self.agent += agent
        self.user += user
        if result.is_error or result.reward is None:
            self.errors += 1
            return
        self.scored += 1
        self.reward_sum += result.reward
        successes, trials = self.trials.get(result.task_id, (0, 0))
        self.trials[result.task_id] = (successes + is_success(result.reward), trials + 1)

    @property
    def elapsed(self) -> float:
        return self.clock() - self.started_at

    @property
    def eta(self) -> float | None:
        """Seconds left at the average pace so far; None before the first episode ends."""
        if not self.done:
            return None
        return self.elapsed / self.done * max(0, self.total - self.done)

    @property
    def average_reward(self) -> float | None:
        return self.reward_sum / self.scored if self.scored else None

    @property
    def pass_1(self) -> float | None:
        if not self.trials:
            return None
        return sum(c / n for c, n in self.trials.values()) / len(self.trials)

    def figures(self) -> list[str]:
        """The figures after done/total, each ``label value``, in the order both displays show them."""
        eta = self.eta
        return [
            f"in flight {self.in_flight}",
            f"elapsed {duration(self.elapsed)}",
            f"ETA {'n/a' if eta is None else duration(eta)}",
            f"average reward {_figure(self.average_reward)}",
            f"pass^1 {_figure(self.pass_1)}",
            f"errors {self.errors}",
            f"agent {_usage(self.agent)}",
            f"user {_usage(self.user)}",
            f"total ${self.agent.cost_usd + self.user.cost_usd:.4f}",
        ]

    def provider_figures(self) -> list[str]:
        """Per provider called so far: ``openai calls in flight 20/20, 429s 35`` (the window after the slash)."""
        if self.providers is None:
            return []
        return [
            f"{p.provider} calls in flight {p.in_flight}/{p.window}, 429s {p.rate_limited}"
            for p in self.providers()
            if p.calls or p.in_flight or p.rate_limited
        ]

    def line(self, title: str) -> str:
        """One plain line: ``progress: TITLE done/total (pct) | figures… | providers…``."""
        percent = 100 * self.done / self.total if self.total else 100.0
        figures = [*self.figures(), *self.provider_figures()]
        return f"progress: {title} {self.done}/{self.total} ({percent:.0f}%) | " + " | ".join(figures)


def _figure(value: float | None) -> str:
    return "n/a" if value is None else f"{value:.4f}"


def _usage(usage: Usage) -> str:
    return f"{usage.prompt_tokens}+{usage.completion_tokens} tokens ${usage.cost_usd:.4f}"


class _LiveView:
    """What the Live display draws, from the state at each refresh (so elapsed time and ETA keep moving)."""

    def __init__(self, state: ProgressState, title: str) -> None:
        self.state, self.title = state, title

    def __rich__(self) -> RenderableType:
        state = self.state
        bar = Table.grid(padding=(0, 1))
        bar.add_row(
            f"[bold]{self.title}",
            ProgressBar(total=max(state.total, 1), completed=state.done, width=40),
            f"{state.done}/{state.total}",
        )
        figures = state.figures()
        lines = [Text("  " + "  ".join(figures[:6])), Text("  " + "  ".join(figures[6:]))]
        providers = state.provider_figures()
        if providers:
            lines.append(Text("  " + "  ".join(providers)))
        return Group(bar, *lines)


class RunProgress:
    """Shows a run's progress on ``console`` while it runs (an async context manager around the episodes).

    ``enabled`` False shows no progress (``--quiet``); ``verbose`` prints each conversation as it ends either way.
    """

    def __init__(
        self,
        console: Console,
        title: str,
        total: int,
        *,
        enabled: bool = True,
        verbose: bool = False,
        interval: float | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.console, self.title = console, title
        limits = current_limits()  # the run's, read here: the Live display draws from another thread
        self.state = ProgressState(total=total, clock=clock, providers=limits.stats if limits else None)
        self.enabled, self.verbose = enabled, verbose
        self.interval = ProgressSettings().interval if interval is None else interval
        self.live_display = console.is_terminal and not console.is_dumb_terminal
        self._live: Live | None = None
        self._ticker: asyncio.Task[None] | None = None

    async def __aenter__(self) -> RunProgress:
        if not self.enabled:
            return self
        if self.live_display:
            self._live = Live(_LiveView(self.state, self.title), console=self.console, refresh_per_second=4)
            self._live.start()
        else:
            self._ticker = asyncio.create_task(self._print_lines())
        return self

    async def __aexit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        if self._live is not None:
            self._live.stop()  # leaves the final figures on screen
        if self._ticker is not None:
            self._ticker.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._ticker
            self._print_line()

    def episode_started(self) -> None:
        self.state.episode_started()

    def episode_finished(self, result: RunResult) -> None:
        self.state.episode_finished(result)
        if self.verbose:
            print_transcript(result, self.console)  # above the Live display on a terminal

    async def _print_lines(self) -> None:
        while True:
            await asyncio.sleep(self.interval)
            self._print_line()

    def _print_line(self) -> None:
        self.console.print(self.state.line(self.title), markup=False, highlight=False, soft_wrap=True)
