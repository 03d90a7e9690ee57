"""The progress display's figures per provider: model calls in flight against the window, and 429s."""

from __future__ import annotations

import asyncio
import io

from rich.console import Console
from rich.text import Text

from taumesh.llm.limiter import ProviderStats
from taumesh.models import AgentSettings, ModelSettings, UserSettings
from taumesh.orchestrator.config import RunConfig
from taumesh.orchestrator.provider_limits import AGENT_METHODS, provider_limits
from taumesh.orchestrator.run.progress import ProgressState, RunProgress

OPENAI = ProviderStats(provider="openai", in_flight=3, window=10, cap=20, rate_limited=4, calls=50)
IDLE = ProviderStats(provider="anthropic", in_flight=0, window=5, cap=5, rate_limited=0, calls=0)


def test_the_plain_line_ends_with_each_provider_called() -> None:
    state = ProgressState(total=4, providers=lambda: [IDLE, OPENAI])
    assert state.line("retail test").endswith(" | openai calls in flight 3/10, 429s 4")
    assert ProgressState(total=4).provider_figures() == []  # no limiter: nothing shown


def test_the_live_display_shows_the_run_limiters() -> None:
    out = io.StringIO()
    console = Console(file=out, width=160, force_terminal=True)
    config = RunConfig(
        agent=AgentSettings(strategy="tool-calling", model=ModelSettings(model="gpt-4o", provider="openai")),
        user=UserSettings(strategy="scripted"),
        provider_limits={"openai": 20},
    )

    async def run() -> None:
        with provider_limits(config) as limits:
            limiter = limits.by_method[AGENT_METHODS[0]]
            async with RunProgress(console, "retail test", 1):
                permit = await limiter.acquire()
                limiter.release(permit, rate_limited=True, retry_after=0)
                await limiter.acquire()  # in flight as the display stops, drawing its last figures

    asyncio.run(run())
    screen = Text.from_ansi(out.getvalue()).plain
    assert "openai calls in flight 1/10, 429s 1" in screen
