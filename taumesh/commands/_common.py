"""What the commands that drive the services share: the error console, refusing, the choices their help lists."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.markup import escape

from taumesh.data import taubench_v1_dir

console = Console(stderr=True)
"""Errors, warnings and progress go to stderr; reports to stdout."""


def refuse(problem: str | None) -> None:
    """Print ``problem`` as one error line and exit 2; nothing when there is none."""
    if problem:
        console.print(f"[red]error:[/red] {escape(problem)}", soft_wrap=True)
        raise typer.Exit(2)


def domain_choices() -> str:
    """The installed domain plugins, by name (entry points only: no plugin is imported to list them)."""
    from importlib.metadata import entry_points

    return ", ".join(sorted({point.name for point in entry_points(group="taumesh.domains")}))


def strategy_choices(side: str) -> str:
    """The built-in strategies of the agent or the user, from their registries."""
    if side == "agent":
        from taumesh.services.agent.strategies import STRATEGIES as AGENTS

        return ", ".join(AGENTS)
    from taumesh.services.user_sim.strategies import STRATEGIES as USERS

    return ", ".join(USERS)


def domain_help() -> str:
    """The help of a domain option: the installed ones, and how to add one."""
    return f"Domain: {domain_choices()}, or one added as a folder plugin (see docs/adding-a-domain.md)."


def _address(service: str, name: str) -> Any:
    flag = f"--{service}-addr"
    return typer.Option(flag, f"--{service}_addr", help=f"host:port of {name}; default: one started here.")


EnvAddr = Annotated[str | None, _address("env", "an EnvService")]
UserAddr = Annotated[str | None, _address("user", "a UserSimService")]
AgentAddr = Annotated[str | None, _address("agent", "an AgentService (any external agent)")]
ScorerAddr = Annotated[str | None, _address("scorer", "a ScorerService")]
"""The services' address flags of the commands that are not a settings model (``run`` and ``serve`` declare theirs in
:mod:`taumesh.settings`), declared once."""

ProviderLimit = Annotated[
    list[str] | None,
    typer.Option(
        "--provider-limit",
        help="PROVIDER=N (repeatable): at most N model calls in flight to that provider; its 429s narrow it.",
    ),
]
"""``--provider-limit`` of the commands that are not a settings model (``analyze``, ``rescore``; ``run`` declares
its own in :mod:`taumesh.settings`), declared once."""

DataDir = Annotated[
    Path,
    typer.Option(
        "--data-dir",
        "--data_dir",
        envvar="TAUMESH_DATA_DIR",
        default_factory=taubench_v1_dir,
        show_default="<cache>/taubench_v1 (cache: $TAUMESH_CACHE_DIR, else ~/.cache/taumesh)",
        help="Domain data: a folder per domain.",
    ),
]
"""``--data-dir`` of every command that is not a settings model, declared once with its default, which is resolved
when the command runs (:func:`taumesh.data.taubench_v1_dir`), never at import. A parameter of this type takes no
``=`` default (typer refuses both), so it follows a ``*``."""
