"""Embedded services in child processes of their own, so an embedded run uses more than one core.

:attr:`ServiceAddresses.processes <taumesh.orchestrator.config.ServiceAddresses.processes>` names the embedded
services to start this way (``taumesh run --embedded-processes agent,user``, or ``TAUMESH_EMBEDDED_PROCESSES``).
Each one is a ``multiprocessing`` child (spawned: nothing of
the parent's event loop or gRPC state is inherited) that serves on 127.0.0.1 and sends its address back. It
allows the model endpoints the run allowed (the parent's :func:`~taumesh.llm.access.current_grants`), ignores
SIGINT (the run handles Ctrl-C and then stops it), and exits when the parent closes the pipe or dies.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import multiprocessing
import signal
import threading
from collections.abc import Callable
from dataclasses import dataclass
from multiprocessing.connection import Connection
from multiprocessing.process import BaseProcess
from pathlib import Path

from taumesh.llm.access import OperatorGrants, current_grants, granted

START_TIMEOUT = 60.0


def _build(name: str, data_dir: Path) -> Callable[[], object]:
    """``name``'s builder; only its own service is imported (a child serving the env loads no scorer's numpy)."""
    from taumesh.domains import Catalog

    def env() -> object:
        from taumesh.services.env import env_service

        return env_service(Catalog(data_dir))

    def user() -> object:
        from taumesh.services.user_sim import user_sim_service

        return user_sim_service(data_dir=data_dir)

    def agent() -> object:
        from taumesh.services.agent import agent_service

        return agent_service(Catalog(data_dir))

    def scorer() -> object:
        from taumesh.services.scorer import scorer_service

        return scorer_service(Catalog(data_dir))

    builders: dict[str, Callable[[], object]] = {"env": env, "user": user, "agent": agent, "scorer": scorer}
    return builders[name]


def _child(name: str, data_dir: str, grants: OperatorGrants, conn: Connection) -> None:
    """The child's body: serve ``name`` until the parent closes ``conn`` (or dies)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    from taumesh.rpc.server import Service, start_server

    async def serve() -> None:
        loop = asyncio.get_running_loop()
        closed = asyncio.Event()
        with granted(grants):
            service = _build(name, Path(data_dir))()
            assert isinstance(service, Service)
            running = await start_server([service])
            conn.send(running.address)

            def wait_for_parent() -> None:
                with contextlib.suppress(EOFError, OSError):
                    conn.recv()
                loop.call_soon_threadsafe(closed.set)

            threading.Thread(target=wait_for_parent, daemon=True).start()
            await closed.wait()
            await running.stop(grace=1.0)

    asyncio.run(serve())
    gc.freeze()  # exit without the interpreter's final full collection (seconds over this heap)


@dataclass
class ServiceProcess:
    """One embedded service in a child process, and where it serves."""

    name: str
    process: BaseProcess
    conn: Connection
    address: str

    def stop(self, timeout: float = 5.0) -> None:
        """Close the pipe (the child stops serving and exits); SIGTERM, then SIGKILL, if it lingers."""
        self.conn.close()
        self.process.join(timeout)
        if self.process.is_alive():
            self.process.terminate()
            self.process.join(timeout)
        if self.process.is_alive():
            self.process.kill()
            self.process.join()


def _start(name: str, data_dir: Path, grants: OperatorGrants) -> ServiceProcess:
    context = multiprocessing.get_context("spawn")
    parent, child = context.Pipe()
    process = context.Process(target=_child, args=(name, str(data_dir), grants, child), name=f"taumesh-{name}")
    process.daemon = True
    process.start()
    child.close()
    if not parent.poll(START_TIMEOUT):
        process.kill()
        raise RuntimeError(f"the embedded {name} service did not start within {START_TIMEOUT:.0f} s")
    try:
        address = str(parent.recv())
    except EOFError as exc:
        process.join(5)
        raise RuntimeError(f"the embedded {name} service exited while starting (code {process.exitcode})") from exc
    return ServiceProcess(name, process, parent, address)


async def start_processes(names: frozenset[str], data_dir: Path) -> dict[str, ServiceProcess]:
    """Start ``names`` side by side, each in a child process; the started ones are stopped if one fails."""
    grants = current_grants()
    started = await asyncio.gather(
        *(asyncio.to_thread(_start, name, data_dir, grants) for name in sorted(names)), return_exceptions=True
    )
    ready = {s.name: s for s in started if isinstance(s, ServiceProcess)}
    failure = next((s for s in started if isinstance(s, BaseException)), None)
    if failure is not None:
        await stop_processes(ready)
        raise failure
    return ready


async def stop_processes(processes: dict[str, ServiceProcess]) -> None:
    """Stop every child service, in parallel."""
    await asyncio.gather(*(asyncio.to_thread(p.stop) for p in processes.values()))
