"""The ``--allowed-host`` and ``--allowed-origin`` flags of the commands that serve HTTP (``serve mcp``, ``view``)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

import typer

from taumesh.commands._common import refuse

if TYPE_CHECKING:  # the guard imports Starlette: only a command that serves loads it
    from taumesh.rpc.http_guard import HostPolicy

AllowedHosts = Annotated[
    list[str] | None,
    typer.Option(
        "--allowed-host",
        help="A Host name to answer besides localhost, 127.0.0.1 and [::1] (any port; repeatable): the name clients "
        "reach this server by, e.g. when it listens on 0.0.0.0. *.example.com matches subdomains; * answers any "
        "name (only behind a proxy that checks Host).",
    ),
]
AllowedOrigins = Annotated[
    list[str] | None,
    typer.Option(
        "--allowed-origin",
        help="A browser origin (scheme://host[:port]) whose pages may call this server, besides pages of an allowed "
        "host (repeatable).",
    ),
]


def host_policy(hosts: list[str] | None, origins: list[str] | None) -> HostPolicy:
    """The flags as a :class:`HostPolicy`, or exit 2 naming the value that is not a host or an origin."""
    from pydantic import ValidationError

    from taumesh.rpc.http_guard import HostPolicy

    try:
        return HostPolicy(allowed_hosts=hosts or [], allowed_origins=origins or [])
    except ValidationError as exc:
        refuse("; ".join(str(error["msg"]).removeprefix("Value error, ") for error in exc.errors()))
        raise AssertionError("unreachable") from exc
