"""Model calls in flight per provider: a cap, and AIMD on 429s (halve on a rate limit, then creep back up).

One :class:`ProviderLimiter` per provider grants permits, one per model call in flight. Its window starts at the
cap (``--provider-limit openai=20``) or, with no cap, at the run's ``--max-concurrency``; a call the provider
refused with 429 halves it (once per round of calls, not once per refused call) and holds every new call back
for the Retry-After the provider asked (:data:`DEFAULT_PAUSE_S` when it named none); each call that succeeds
raises it by ``1/window``, about one more call per window's worth of successes, never above the cap.

A concurrency limiter, not a rate limiter (aiolimiter and limits bound requests per second, not calls in flight),
and asyncio-only: it lives in the process that decides which calls start (taumesh run's orchestrator).
"""

from __future__ import annotations

import asyncio
import json
import time
from collections import deque
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Annotated

from pydantic import BaseModel, BeforeValidator

from taumesh.models import ModelSettings

DEFAULT_PAUSE_S = 1.0
"""How long new calls wait after a 429 whose response named no Retry-After."""
DECREASE = 0.5
"""The window is multiplied by this on a rate limit."""


def parse_provider_limit(text: str) -> tuple[str, int]:
    """``"openai=20"`` → ``("openai", 20)``; ValueError naming the problem otherwise."""
    provider, sep, number = text.partition("=")
    provider, number = provider.strip(), number.strip()
    if not sep or not provider:
        raise ValueError(f"provider limit {text!r} is not PROVIDER=N (for example openai=20)")
    try:
        limit = int(number)
    except ValueError:
        raise ValueError(f"provider limit {text!r}: {number!r} is not a whole number") from None
    if limit < 1:
        raise ValueError(f"provider limit {text!r}: the limit must be at least 1")
    return provider, limit


def parse_provider_limits(value: object) -> dict[str, int]:
    """Limits from a mapping (or its JSON), ``PROVIDER=N`` entries, or one comma list of them; later ones win."""
    if value is None:
        return {}
    if isinstance(value, Mapping):
        items: Iterable[object] = [f"{k}={v}" for k, v in value.items()]
    elif isinstance(value, str) and value.lstrip().startswith("{"):  # JSON, as an environment variable may say
        return parse_provider_limits(json.loads(value))
    elif isinstance(value, str):
        items = [part for part in value.split(",") if part.strip()]
    elif isinstance(value, list | tuple):
        items = value
    else:
        raise ValueError(f"provider limits must be PROVIDER=N entries, not {type(value).__name__}")
    return dict(parse_provider_limit(str(item)) for item in items)


ProviderLimits = Annotated[dict[str, int], BeforeValidator(parse_provider_limits)]
"""Caps of model calls in flight per provider, given as a mapping, ``PROVIDER=N`` entries or one comma list."""


def provider_of(settings: ModelSettings) -> str:
    """The provider a model's calls go to: the one given, the model's ``provider/`` prefix, or litellm's guess."""
    if settings.provider:
        return settings.provider
    if "/" in settings.model:
        return settings.model.split("/", 1)[0]
    from taumesh.llm._litellm import litellm  # only for a bare model name such as gpt-4o

    try:
        return str(litellm.get_llm_provider(settings.model)[1])
    except Exception:  # noqa: BLE001  # litellm does not know it: the model name stands for its own provider
        return settings.model


class ProviderStats(BaseModel):
    """One provider's figures, for the progress display."""

    provider: str
    in_flight: int
    window: int
    """Calls allowed in flight now (AIMD's window, at most the cap)."""
    cap: int | None
    rate_limited: int
    """Calls the provider answered with 429."""
    calls: int
    """Calls that got an answer other than a rate limit."""


@dataclass(frozen=True)
class Permit:
    """Leave to make one call; ``epoch`` tells a 429 of a call started before the last decrease from a new one."""

    epoch: int


class ProviderLimiter:
    """Permits for one provider's calls: at most ``window`` in flight, none while a Retry-After runs, FIFO."""

    def __init__(
        self, provider: str, cap: int | None, ceiling: int, *, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.provider, self.cap = provider, cap
        self.ceiling = float(cap if cap is not None else max(1, ceiling))
        self.window = self.ceiling
        self.clock = clock
        self.in_flight = self.rate_limited = self.calls = 0
        self.paused_until = 0.0
        self._epoch = 0
        self._waiters: deque[asyncio.Future[Permit]] = deque()

    @property
    def allowed(self) -> int:
        """Calls the window lets be in flight now (at least one)."""
        return max(1, int(self.window))

    def _paused(self) -> bool:
        return self.clock() < self.paused_until

    async def acquire(self) -> Permit:
        """Wait for a free slot in the window and for any Retry-After to pass; first come, first served."""
        if not self._waiters and self.in_flight < self.allowed and not self._paused():
            self.in_flight += 1
            return Permit(self._epoch)
        waiter: asyncio.Future[Permit] = asyncio.get_running_loop().create_future()
        self._waiters.append(waiter)
        try:
            return await waiter
        except asyncio.CancelledError:
            if waiter.done() and not waiter.cancelled():  # granted as the waiter was cancelled: hand it back
                self.abandon()
            raise

    def _grant(self) -> None:
        """Hand free slots to the waiters in turn (none during a pause: its timer calls again)."""
        if self._paused():
            return
        while self._waiters and self.in_flight < self.allowed:
            waiter = self._waiters.popleft()
            if waiter.done():  # cancelled while waiting
                continue
            self.in_flight += 1
            waiter.set_result(Permit(self._epoch))

    def release(self, permit: Permit, *, rate_limited: bool = False, retry_after: float | None = None) -> None:
        """End a call: a success widens the window, a 429 narrows it and pauses new calls."""
        self.in_flight = max(0, self.in_flight - 1)
        if rate_limited:
            self.rate_limited += 1
            if permit.epoch == self._epoch:  # the first 429 of this round: one decrease per round
                self.window = max(1.0, self.window * DECREASE)
                self._epoch += 1
            wait = DEFAULT_PAUSE_S if retry_after is None else max(0.0, retry_after)
            if wait > 0:
                self.paused_until = max(self.paused_until, self.clock() + wait)
                asyncio.get_running_loop().call_later(wait, self._grant)
        else:
            self.calls += 1
            self.window = min(self.ceiling, self.window + 1.0 / self.window)
        self._grant()

    def abandon(self) -> None:
        """End a call that got no answer from the provider (cancelled, or failed otherwise): the window stays."""
        self.in_flight = max(0, self.in_flight - 1)
        self._grant()

    def stats(self) -> ProviderStats:
        return ProviderStats(
            provider=self.provider,
            in_flight=self.in_flight,
            window=self.allowed,
            cap=self.cap,
            rate_limited=self.rate_limited,
            calls=self.calls,
        )


class ProviderLimiters:
    """The limiters of one run (or of one worker of it), one per provider, made on first use."""

    def __init__(self, caps: Mapping[str, int], ceiling: int) -> None:
        self.caps, self.ceiling = dict(caps), ceiling
        self._limiters: dict[str, ProviderLimiter] = {}

    def get(self, provider: str) -> ProviderLimiter:
        if provider not in self._limiters:
            self._limiters[provider] = ProviderLimiter(provider, self.caps.get(provider), self.ceiling)
        return self._limiters[provider]

    def stats(self) -> list[ProviderStats]:
        return [limiter.stats() for _, limiter in sorted(self._limiters.items())]


def workers_problem(caps: Mapping[str, int], workers: int) -> str | None:
    """Why ``caps`` cannot be shared among ``workers`` processes (one below their number), or None."""
    for provider, cap in caps.items():
        if cap < workers:
            return (
                f"--provider-limit {provider}={cap} is below --workers {workers}: each worker needs at least one call"
            )
    return None
