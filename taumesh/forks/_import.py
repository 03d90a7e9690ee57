"""``taumesh domain import-fork``: load every environment of a fork in a worker, record what loaded, say why not.

Importing a fork runs its Python (its ``tau_bench`` package, each environment's modules and Env class), in a
worker process, never in taumesh's own: that is what loading a τ-bench environment means.
"""

from __future__ import annotations

from pathlib import Path

from taumesh.domains import DataError
from taumesh.forks._pool import START_DEADLINE, Described, ForkError, ForkWorker, Salvaged, WorkerLost
from taumesh.forks._record import FORK_NAME, ForkEnv, ForkRecord, save_record, save_tasks
from taumesh.forks._semantics import differences, reward_variant

LAYOUTS = (Path("tau_bench"), Path("tau") / "tau_bench")
"""Where a fork keeps its ``tau_bench`` package, relative to the checkout."""


def fork_root(path: Path) -> Path:
    """The folder holding the fork's ``tau_bench`` package with an ``envs/`` folder; DataError when none."""
    for layout in LAYOUTS:
        if (path / layout / "envs").is_dir():
            return (path / layout).parent.resolve()
    raise DataError(f"{path} holds neither tau_bench/envs/ nor tau/tau_bench/envs/: not a τ-bench fork checkout")


def env_folders(root: Path) -> list[Path]:
    envs = root / "tau_bench" / "envs"
    return sorted(p for p in envs.iterdir() if p.is_dir() and not p.name.startswith((".", "__")))


def _copied(worker: ForkWorker, env: str, limit: float) -> str:
    """For an env that did not load: whether its tasks' gold actions name tools it does not have."""
    try:
        found: Salvaged = worker.request("salvage", limit=limit, env=env)
    except (ForkError, WorkerLost):
        return ""
    lacking = sorted(set(found.gold_tools) - set(found.tools) - {"respond"})
    if not found.tools or not lacking:
        return ""
    shown = ", ".join(lacking[:8]) + (", ..." if len(lacking) > 8 else "")
    copied = f"its {found.tasks} tasks are copied from another environment"
    return f"; {copied}: their gold actions name {shown}, tools it lacks"


def import_fork(path: Path, name: str | None = None, limit: float = START_DEADLINE) -> ForkRecord:
    """Load each environment of the fork at ``path`` in a worker and record the fork (registering its domains).

    An environment that does not load (not a package, no Env class, an import error, a split that fails, a
    hang past ``limit`` seconds) is recorded in ``failed`` with why; the others are registered.
    """
    path = Path(path).expanduser().resolve()
    if not path.is_dir():
        raise DataError(f"{path} is not a directory")
    root = fork_root(path)
    fork = name or path.name
    if not FORK_NAME.match(fork):
        raise DataError(f"fork name {fork!r} must be letters, digits, '.', '_' or '-' (pass --name)")
    record = ForkRecord(name=fork, path=str(path), root=str(root))
    worker = ForkWorker(fork, root)
    try:
        try:
            record.base = worker.request("base", limit=limit)
        except (ForkError, WorkerLost) as exc:
            record.differences.append(f"envs/base.py could not be read: {exc}")
        for folder in env_folders(root):
            env = folder.name
            if not env.isidentifier():
                record.failed[env] = "not an importable Python package name"
            elif not (folder / "__init__.py").is_file():
                record.failed[env] = "no __init__.py: not a Python package"
            else:
                try:
                    described: Described = worker.request("describe", limit=limit, env=env)
                    save_tasks(fork, env, described.splits)
                    splits = {split: len(tasks) for split, tasks in described.splits.items()}
                    record.envs[env] = ForkEnv(env=env, splits=splits, **described.model_dump(exclude={"splits"}))
                except ForkError as exc:
                    record.failed[env] = str(exc) + _copied(worker, env, limit)
                except WorkerLost as exc:
                    record.failed[env] = str(exc)
    finally:
        worker.close()
    record.reward = reward_variant(record.base)
    overrides = {env: found.overrides for env, found in record.envs.items() if found.overrides}
    record.differences += differences(record.base, overrides)
    save_record(record)
    return record
