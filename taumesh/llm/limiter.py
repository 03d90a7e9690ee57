"""Model calls in flight per provider: a cap, and AIMD on 429s (halve on a rate limit, then creep back up).

One :class:`ProviderLimiter` per provider grants permits, one per model call in flight. Its window starts at the
cap (``--provider-limit openai=20``) or, with no cap, at the run's ``--max-concurrency``. Every 429 holds new calls
back for the Retry-After the provider asked (:data:`DEFAULT_PAUSE_S` when it named none); each call that succeeds
raises the window by ``1/window``, about one more call per window's worth of successes, never above the cap.

Decreases go by rounds, as TCP's go by round trips: a round is a window's worth of calls admitted in turn (at
least :data:`MIN_ROUND`), judged once all of them are answered. A decrease ends the rounds open, so a 429 of a call
admitted before it never decreases again, and a round's 429s halve the window at most once: as soon as they are
more than the provider's background share of refusals explains (none at first; :func:`more_than_background`).
It never leaves the window above the calls in flight then (at least :data:`MIN_ROUND`), as TCP halves its flight
size, not a window it does not use: a run allowed 1,000 calls with 100 in flight comes down to 100 at once.

The round after a decrease judges it, as TCP undoes a spurious one: if the window held calls back in it (else it ran
as wide as before, and tells nothing), and its share of 429s did not fall to half the share of the round that
decreased (counted to its last answer), and is at most :data:`MAX_BACKGROUND`, narrowing did not help, so the
refusals are not the run's concurrency's doing: the window goes back to where it was, and that share becomes the
background; not above the calls in flight at the decrease, though, since a window wider than the run used was never
tested (as TCP validates an unused window, RFC 7661). So a provider
refusing 30 % of calls at random costs pauses but not the window, while one refusing calls past what it allows
(most of them, once past it: refused calls come back at once) is followed down round after round.

A concurrency limiter, not a rate limiter (aiolimiter and limits bound requests per second, not calls in flight),
and asyncio-only: it lives in the process that decides which calls start (taumesh run's orchestrator).
"""

from __future__ import annotations

import asyncio
import json
import math
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
MIN_ROUND = 20
"""Calls a round admits at least before it is judged: a share of 429s among fewer is mostly noise."""
MAX_BACKGROUND = 0.4
"""The largest share of 429s taken for the provider's background: a round refusing more is overload, always."""
SIGNIFICANCE = 2.0
"""How many standard deviations above the background share a round's 429s must be to decrease the window."""


def more_than_background(refused: int, calls: int, background: float) -> bool:
    """Whether ``refused`` 429s in a round of ``calls`` are more than a background share explains.

    More, that is, than a provider refusing ``background`` of all calls at random would give, by
    :data:`SIGNIFICANCE` standard deviations; with no background, any 429 is.
    """
    spread = SIGNIFICANCE * math.sqrt(calls * background * (1.0 - background))
    return refused > background * calls + spread


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
    """Leave to make one call; ``epoch`` tells a call of this round from one admitted before it began."""

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
        self.background = 0.0
        """The share of calls the provider refuses whatever the window (learned from decreases that did not help)."""
        self._epoch = 0
        self._rounds: dict[int, _Round] = {}
        self._judging: _Judging | None = None
        self._waiters: deque[asyncio.Future[Permit]] = deque()
        self._new_round()

    @property
    def allowed(self) -> int:
        """Calls the window lets be in flight now (at least one)."""
        return max(1, int(self.window))

    def _paused(self) -> bool:
        return self.clock() < self.paused_until

    def _admit(self) -> Permit:
        """Count a call in flight, and in the round admitting; a full round closes its door to new calls."""
        self.in_flight += 1
        permit = Permit(self._epoch)
        admitting = self._rounds[self._epoch]
        admitting.admitted += 1
        if admitting.admitted >= admitting.size:
            self._new_round()
        return permit

    async def acquire(self) -> Permit:
        """Wait for a free slot in the window and for any Retry-After to pass; first come, first served."""
        if not self._waiters and self.in_flight < self.allowed and not self._paused():
            return self._admit()
        if self.in_flight >= self.allowed:  # the window holds this call back: the round runs narrower than wanted
            self._rounds[self._epoch].bound = True
        waiter: asyncio.Future[Permit] = asyncio.get_running_loop().create_future()
        self._waiters.append(waiter)
        try:
            return await waiter
        except asyncio.CancelledError:
            if waiter.done() and not waiter.cancelled():  # granted as the waiter was cancelled: hand it back
                self.abandon(waiter.result())
            raise

    def _grant(self) -> None:
        """Hand free slots to the waiters in turn (none during a pause: its timer calls again)."""
        if self._paused():
            return
        while self._waiters and self.in_flight < self.allowed:
            waiter = self._waiters.popleft()
            if waiter.done():  # cancelled while waiting
                continue
            waiter.set_result(self._admit())

    def release(self, permit: Permit, *, rate_limited: bool = False, retry_after: float | None = None) -> None:
        """End a call: a success widens the window; a 429 pauses new calls and may narrow it (once a round)."""
        self.in_flight = max(0, self.in_flight - 1)
        if rate_limited:
            self.rate_limited += 1
            wait = DEFAULT_PAUSE_S if retry_after is None else max(0.0, retry_after)
            if wait > 0:
                self.paused_until = max(self.paused_until, self.clock() + wait)
                asyncio.get_running_loop().call_later(wait, self._grant)
        else:
            self.calls += 1
            self.window = min(self.ceiling, self.window + 1.0 / self.window)
        self._answer(permit, rate_limited)
        self._grant()

    def _answer(self, permit: Permit, rate_limited: bool | None) -> None:
        """Count an answer (None: the call got none) in its round, and decrease or judge as it calls for.

        The window decreases when the round's 429s are more than the background explains; the round after a
        decrease judges it once all its calls are answered. A call admitted before the last decrease has no round.
        """
        if self._judging is not None and permit.epoch == self._judging.decreased_epoch:  # the round that decreased
            self._judging.decreased.answered += 1
            self._judging.decreased.refused += bool(rate_limited)
        round_ = self._rounds.get(permit.epoch)
        if round_ is None:
            return
        round_.answered += 1
        round_.refused += bool(rate_limited)
        if rate_limited and (
            round_.refused > MAX_BACKGROUND * round_.size  # overload: no need to wait for the judgement
            if self._judging is not None
            else more_than_background(round_.refused, round_.size, self.background)
        ):
            flight = self.in_flight + 1  # the calls in flight as this one was refused: TCP's FlightSize
            # an undo goes back no higher than the calls in flight: a window wider than the run used was never tested
            # (as TCP validates an unused window, RFC 7661)
            self._judging = _Judging(self._epoch + 1, min(self.window, flight), permit.epoch, round_)
            self.window = max(1.0, min(self.window * DECREASE, max(flight, MIN_ROUND)))
            self._rounds.clear()
            self._new_round()
        elif round_.answered >= round_.admitted and permit.epoch != self._epoch:  # closed, and all answered
            del self._rounds[permit.epoch]
            if self._judging is not None and self._judging.epoch == permit.epoch:
                self._judge(round_)

    def _judge(self, judged: _Round) -> None:
        """Undo the last decrease when the round after it refused about as often: narrowing did not help.

        Only a round the window held back can tell: one whose calls all found room ran as wide as without the
        decrease, so its 429s say nothing of narrowing, and the decrease stands (the next 429 may narrow again).
        """
        assert self._judging is not None
        judging, self._judging = self._judging, None
        decreased = judging.decreased
        if not judged.bound:
            return
        share = judged.refused / max(1, judged.answered)
        if share <= MAX_BACKGROUND and share > decreased.refused / max(1, decreased.answered) / 2:
            self.window = min(self.ceiling, max(self.window, judging.undo_to))
            self.background = share

    def _new_round(self) -> None:
        """Open the next round: a window's worth of calls, or the calls wanted now if fewer (at least MIN_ROUND)."""
        self._epoch += 1
        wanted = self.in_flight + len(self._waiters)
        self._rounds[self._epoch] = _Round(max(min(self.allowed, wanted), MIN_ROUND))

    def abandon(self, permit: Permit | None = None) -> None:
        """End a call that got no answer from the provider (cancelled, or failed otherwise): the window stays."""
        self.in_flight = max(0, self.in_flight - 1)
        if permit is not None:
            self._answer(permit, None)
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


@dataclass
class _Round:
    """The calls admitted in one round (a window's worth) and their answers so far."""

    size: int
    """Calls it admits: a window's worth when it opened (the calls wanted then if fewer), at least
    :data:`MIN_ROUND`."""
    admitted: int = 0
    answered: int = 0
    refused: int = 0
    bound: bool = False
    """Whether the window held a call back while this round admitted (it ran as wide as the window let it)."""


@dataclass
class _Judging:
    """A decrease awaiting judgement: the round judging it, the window to undo to, and the round that decreased it.

    The decreasing round goes on counting its answers (though they decrease nothing more): the share it refused
    is known only once its calls are all answered, and a 429 that comes at once decreases before the rest do.
    """

    epoch: int
    undo_to: float
    """The window an undo restores: the one before the decrease, but no more than the calls then in flight."""
    decreased_epoch: int
    decreased: _Round


class ProviderLimiters:
    """The limiters of one run (or of one worker of it), one per provider, made on first use."""

    def __init__(self, caps: Mapping[str, int], ceiling: int) -> None:
        self.caps, self.ceiling = dict(caps), ceiling
        self._limiters: dict[str, ProviderLimiter] = {}

    def get(self, provider: str) -> ProviderLimiter:
        if provider not in self._limiters:
            self._limiters[provider] = self.make(provider, self.caps.get(provider))
        return self._limiters[provider]

    def make(self, provider: str, cap: int | None) -> ProviderLimiter:
        """A new limiter of ``provider`` (capped at ``cap`` calls, if any)."""
        return ProviderLimiter(provider, cap, self.ceiling)

    def stats(self) -> list[ProviderStats]:
        return [limiter.stats() for _, limiter in sorted(self._limiters.items())]
