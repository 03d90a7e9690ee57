"""Vectorised Gym environments: N sub-environments over one set of services, stepped together on one event loop.

``gymnasium.make_vec("taumesh/AgentEnv-v0", num_envs=4, ...)`` (or ``UserEnv``) makes an :class:`AgentVectorEnv`
(:class:`UserVectorEnv`): Gymnasium's ``VectorEnv`` API with the single environment's text observations and actions,
batched. Every sub-environment is the single environment (its task choice, pre-flight, actions, rewards and info),
but they share one driver: one thread and event loop, and one env, user (or agent) and scorer service, in-process
on loopback or running ones by address. Each sub-environment has its own episode, hence its own env session, and
its own seat: a loopback AgentService (or UserSimService) of its own, so that the turn loop finds each seat by
address as it finds any agent. ``reset`` and ``step`` hand every sub-environment its part at once (one caller thread
each) and the episodes' work runs concurrently on the shared loop: N episodes waiting for a model take one wait.

Autoreset follows Gymnasium's modes (``autoreset_mode=``, default next-step): a sub-environment whose episode ended
plays its next episode, of the task its last ``reset`` options name (else one drawn with its own generator).
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import AsyncExitStack
from functools import partial
from typing import Any, ClassVar, TypeVar

import gymnasium as gym
import numpy as np
import numpy.typing as npt
from gymnasium.vector import AutoresetMode
from gymnasium.vector.utils import batch_space

from taumesh.orchestrator.clients import ServiceClients
from taumesh.orchestrator.gym.actions import parse_action
from taumesh.orchestrator.gym.config import GymConfig
from taumesh.orchestrator.gym.driver import EpisodeDriver, SeatRole
from taumesh.orchestrator.gym.envs import RESET_OPTIONS, AgentEnv, UserEnv, _TaumeshEnv
from taumesh.orchestrator.gym.observations import action_space, observation_space
from taumesh.orchestrator.gym.seats import Seat, agent_seat_service, user_seat_service
from taumesh.orchestrator.run.stack import serving_targets
from taumesh.rpc.server import start_server

T = TypeVar("T")
Step = tuple[str, float, bool, bool, dict[str, Any]]


class SharedServices:
    """One thread and event loop, the services behind every sub-environment, and one seat per sub-environment."""

    def __init__(self, role: SeatRole, config: GymConfig, num_envs: int) -> None:
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, name=f"taumesh-gym-vector-{role}", daemon=True)
        self.thread.start()
        self.drivers: list[SeatDriver] = []
        self._exit = AsyncExitStack()
        try:
            asyncio.run_coroutine_threadsafe(self._open(role, config, num_envs), self.loop).result()
        except BaseException:
            self.close()
            raise

    async def _open(self, role: SeatRole, config: GymConfig, num_envs: int) -> None:
        seats = [Seat() for _ in range(num_envs)]
        make_service = agent_seat_service if role == "agent" else user_seat_service
        addresses: list[str] = []
        for seat in seats:
            server = await start_server([make_service(seat)])
            self._exit.push_async_callback(partial(server.stop, grace=1.0))
            addresses.append(server.address)
        given = config.addresses.model_copy(update={role: addresses[0]})  # no built-in seat is started
        targets = await self._exit.enter_async_context(serving_targets(given, config.data_dir))
        for seat, address in zip(seats, addresses, strict=True):
            mine = targets.model_copy(update={role: address, "embedded": targets.embedded | {role}})
            clients = mine.connect()
            self._exit.push_async_callback(clients.close)
            self.drivers.append(SeatDriver(role, seat, self.loop, clients))

    async def _shutdown(self) -> None:
        await asyncio.gather(*(driver.abandon() for driver in self.drivers))  # every episode's env session closed
        for driver in self.drivers:
            driver.clients = None
        await self._exit.aclose()

    def close(self) -> None:
        """Give up every episode in play, stop the services and the loop. Idempotent."""
        if self.loop.is_closed():
            return
        if self.thread.is_alive():
            try:
                asyncio.run_coroutine_threadsafe(self._shutdown(), self.loop).result()
            finally:
                self.loop.call_soon_threadsafe(self.loop.stop)
                self.thread.join()
        self.loop.close()


class SeatDriver(EpisodeDriver):
    """One sub-environment's seat and episode, on the shared loop and services of :class:`SharedServices`.

    It is :class:`EpisodeDriver` without a loop or services of its own: those belong to the vector environment.
    """

    def __init__(self, role: SeatRole, seat: Seat, loop: asyncio.AbstractEventLoop, clients: ServiceClients) -> None:
        self.role, self.seat, self.loop, self.clients = role, seat, loop, clients
        self.episode = None
        self.limiters = None
        self._exit = AsyncExitStack()

    def close(self) -> None:
        """Give up the episode in play (its env session is closed); the shared services stay up."""
        if self.clients is not None and not self.loop.is_closed():
            self.call(self.abandon())


class _SubEnv(_TaumeshEnv):
    """The single environment on a seat of a vector environment (its driver is given, not started)."""

    def __init__(self, driver: SeatDriver, **settings: Any) -> None:
        super().__init__(**settings)
        self._seat_driver = driver

    @property
    def driver(self) -> EpisodeDriver:
        return self._seat_driver

    def check_action(self, action: object) -> None:
        """Raise what ``step(action)`` would raise for a bad action, before any sub-environment moves."""
        if self._turn is None or self._outcome is not None:
            return  # no turn to answer (step reports the end, or refuses for want of a reset)
        if not isinstance(action, str):
            raise TypeError(f"an action is text, not {type(action).__name__}")
        parse_action(action, [tool.name for tool in self._turn.tools], self.requestor, "checked")

    def close(self) -> None:
        self._seat_driver.close()
        self._turn = None


class _SubAgentEnv(_SubEnv, AgentEnv):
    pass


class _SubUserEnv(_SubEnv, UserEnv):
    pass


class TaumeshVectorEnv(gym.vector.VectorEnv[tuple[str, ...], tuple[str, ...], npt.NDArray[Any]]):
    """``num_envs`` sub-environments of one seat over one set of services, batched as Gymnasium's vector API says.

    ``reset(seed=s)`` seeds sub-environment i with ``s + i`` (or a list, one each). ``reset(options=...)`` takes the
    single environment's options; a list value (``{"task_id": ["a", "a", "b", "b"]}``) gives one to each
    sub-environment, and ``options["reset_mask"]`` (a boolean array) resets only those. Observations and actions
    are tuples of text; rewards, terminations and truncations arrays; infos Gymnasium's dict of arrays with their
    ``_key`` masks.
    """

    sub_env: ClassVar[type[_SubEnv]]
    role: ClassVar[SeatRole]

    def __init__(
        self, num_envs: int = 2, autoreset_mode: str | AutoresetMode = AutoresetMode.NEXT_STEP, **settings: Any
    ) -> None:
        if num_envs < 1:
            raise ValueError(f"num_envs must be at least 1, not {num_envs}")
        self.num_envs = num_envs
        self.autoreset_mode = AutoresetMode(autoreset_mode)
        self.metadata = {"autoreset_mode": self.autoreset_mode, "render_modes": []}
        config = GymConfig(**settings)  # bad settings: refused before anything starts
        self.single_observation_space = observation_space()
        self.single_action_space = action_space()
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self._services = SharedServices(self.role, config, num_envs)
        self.envs: list[_SubEnv] = [self.sub_env(driver, **settings) for driver in self._services.drivers]
        self._pool = ThreadPoolExecutor(max_workers=num_envs, thread_name_prefix=f"taumesh-vector-{self.role}")
        self._observations: list[str] = [""] * num_envs
        self._options: list[dict[str, Any]] = [{} for _ in range(num_envs)]
        self._autoreset = np.zeros(num_envs, dtype=np.bool_)

    def _each(self, work: Callable[[int], T], indices: Sequence[int]) -> list[T]:
        """``work(i)`` for each index at once, one caller thread each (the episodes run together on the loop)."""
        return list(self._pool.map(work, indices))

    def _per_env(self, options: dict[str, Any]) -> list[dict[str, Any]]:
        """Each sub-environment's reset options: a list value gives one to each, any other value is everyone's."""
        unknown = set(options) - RESET_OPTIONS
        if unknown:
            raise ValueError(f"unknown reset options {sorted(unknown)}; known: {sorted(RESET_OPTIONS)}, reset_mask")
        for name, value in options.items():
            if isinstance(value, list | tuple) and len(value) != self.num_envs:
                raise ValueError(f"reset option {name!r} has {len(value)} values for {self.num_envs} environments")
        return [
            {name: value[i] if isinstance(value, list | tuple) else value for name, value in options.items()}
            for i in range(self.num_envs)
        ]

    def reset(
        self, *, seed: int | list[int | None] | None = None, options: dict[str, Any] | None = None
    ) -> tuple[tuple[str, ...], dict[str, Any]]:
        """Start an episode in every sub-environment (those of ``options["reset_mask"]`` only, when given)."""
        options = dict(options or {})
        mask = np.asarray(options.pop("reset_mask", np.ones(self.num_envs, dtype=np.bool_)))
        if mask.shape != (self.num_envs,) or mask.dtype != np.bool_ or not mask.any():
            raise ValueError(f"reset_mask must be a boolean array of shape ({self.num_envs},) with a True value")
        seeds = [seed + i for i in range(self.num_envs)] if isinstance(seed, int) else seed or [None] * self.num_envs
        if len(seeds) != self.num_envs:
            raise ValueError(f"{len(seeds)} seeds for {self.num_envs} environments")
        per_env = self._per_env(options)
        chosen = [i for i in range(self.num_envs) if mask[i]]
        for i in chosen:
            self._options[i] = per_env[i]
        started = self._each(lambda i: self.envs[i].reset(seed=seeds[i], options=self._options[i]), chosen)
        infos: dict[str, Any] = {}
        for i, (observation, info) in zip(chosen, started, strict=True):
            self._observations[i] = observation
            self._autoreset[i] = False
            infos = self._add_info(infos, info, i)
        return tuple(self._observations), infos

    def _step_one(self, i: int, action: str) -> Step:
        env = self.envs[i]
        if self.autoreset_mode == AutoresetMode.NEXT_STEP and self._autoreset[i]:
            observation, info = env.reset(options=self._options[i])  # the action is ignored, as Gymnasium's
            return observation, 0.0, False, False, info
        observation, reward, terminated, truncated, info = env.step(action)
        if self.autoreset_mode == AutoresetMode.SAME_STEP and (terminated or truncated):
            final = {"final_obs": observation, "final_info": info}
            observation, info = env.reset(options=self._options[i])
            info = {**info, **final}
        return observation, float(reward), terminated, truncated, info

    def step(
        self, actions: Sequence[str]
    ) -> tuple[tuple[str, ...], npt.NDArray[np.float64], npt.NDArray[np.bool_], npt.NDArray[np.bool_], dict[str, Any]]:
        """Answer every sub-environment's turn with its action, all at once; sub-environments that ended autoreset."""
        if len(actions) != self.num_envs:
            raise ValueError(f"{len(actions)} actions for {self.num_envs} environments")
        for i, action in enumerate(actions):  # a bad action is refused before any sub-environment moves
            if not (self.autoreset_mode == AutoresetMode.NEXT_STEP and self._autoreset[i]):
                self.envs[i].check_action(action)
        stepped = self._each(lambda i: self._step_one(i, actions[i]), range(self.num_envs))
        rewards = np.zeros(self.num_envs, dtype=np.float64)
        terminations = np.zeros(self.num_envs, dtype=np.bool_)
        truncations = np.zeros(self.num_envs, dtype=np.bool_)
        infos: dict[str, Any] = {}
        for i, (observation, reward, terminated, truncated, info) in enumerate(stepped):
            self._observations[i] = observation
            rewards[i], terminations[i], truncations[i] = reward, terminated, truncated
            infos = self._add_info(infos, info, i)
        self._autoreset = terminations | truncations
        return tuple(self._observations), rewards, terminations, truncations, infos

    def close_extras(self, **kwargs: Any) -> None:
        """Give up every episode in play (their env sessions are closed) and stop the services."""
        self._pool.shutdown(wait=True)
        self._services.close()


class AgentVectorEnv(TaumeshVectorEnv):
    """Vectorised ``AgentEnv``: the caller plays the agent of ``num_envs`` episodes at once."""

    sub_env = _SubAgentEnv
    role = "agent"


class UserVectorEnv(TaumeshVectorEnv):
    """Vectorised ``UserEnv``: the caller plays the user of ``num_envs`` episodes at once."""

    sub_env = _SubUserEnv
    role = "user"
