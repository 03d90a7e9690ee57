"""``tau-bench-server``: the REST fork's server command, serving the same app as ``taumesh serve api``.

The fork's flags and environment variables (``--host``/``HOST``, ``--port``/``PORT``, ``--log-dir``/
``TAU_BENCH_LOG_DIR``, ``--log-level``/``LOG_LEVEL``, ``--workers``/``WORKERS``) with the fork's defaults; the audit
log is named ``api_audit.log`` as the fork names it. Every other setting is taumesh's ``TAUMESH_API_*`` variable
(``TAUMESH_API_DATA_DIR``, ``TAUMESH_API_DATABASE_URL``, …).
"""

from __future__ import annotations

import argparse
import os
from collections.abc import Mapping, Sequence
from pathlib import Path

from pydantic import BaseModel, Field, ValidationError

from taumesh.api.settings import API_ENV_PREFIX

FORK_AUDIT_LOG = "api_audit.log"
"""The fork's audit log name (``TAUMESH_API_AUDIT_LOG_NAME`` still wins)."""


class ForkServerOptions(BaseModel):
    """The fork's server options (flags over the fork's variables over its defaults)."""

    host: str = Field(default="0.0.0.0", min_length=1)  # noqa: S104 - the fork's default; keys guard every route
    port: int = Field(default=8000, ge=0, le=65535)
    log_dir: Path = Path("api_results")
    log_level: str = "info"
    workers: int = Field(default=1, ge=1)


ENV_NAMES = {
    "host": "HOST",
    "port": "PORT",
    "log_dir": "TAU_BENCH_LOG_DIR",
    "log_level": "LOG_LEVEL",
    "workers": "WORKERS",
}
"""Each option's environment variable, as the fork names it."""


def parser() -> argparse.ArgumentParser:
    """The fork's command line."""
    cli = argparse.ArgumentParser(
        prog="tau-bench-server",
        description="Serve taumesh's REST API with the τ-bench API fork's command line (same app as "
        "`taumesh serve api`; API keys from `taumesh api-keys create`).",
    )
    cli.add_argument("--host", help="address to listen on (env HOST; default 0.0.0.0)")
    cli.add_argument("--port", help="port (env PORT; default 8000)")
    cli.add_argument("--log-dir", help="folder of the audit log api_audit.log (env TAU_BENCH_LOG_DIR; api_results)")
    cli.add_argument("--log-level", help="log level (env LOG_LEVEL; default info)")
    cli.add_argument("--workers", help="worker processes (env WORKERS; default 1)")
    return cli


def options(argv: Sequence[str] | None = None, environ: Mapping[str, str] | None = None) -> ForkServerOptions:
    """The options of a command line; exits with a clear message (status 2) when one is not valid."""
    cli = parser()
    given = vars(cli.parse_args(argv))
    env = os.environ if environ is None else environ
    values = {name: given[name] if given[name] is not None else env.get(var) for name, var in ENV_NAMES.items()}
    try:
        return ForkServerOptions.model_validate({k: v for k, v in values.items() if v not in (None, "")})
    except ValidationError as exc:
        problems = "; ".join(f"--{'-'.join(map(str, e['loc'])).replace('_', '-')}: {e['msg']}" for e in exc.errors())
        cli.error(problems)


def main(argv: Sequence[str] | None = None) -> None:
    """Entry point of the ``tau-bench-server`` console script."""
    chosen = options(argv)
    os.environ.setdefault(f"{API_ENV_PREFIX}AUDIT_LOG_NAME", FORK_AUDIT_LOG)
    from taumesh.commands.api import serve_api

    serve_api(
        host=chosen.host,
        port=chosen.port,
        workers=chosen.workers,
        log_level=chosen.log_level.lower(),
        log_dir=chosen.log_dir,
    )


if __name__ == "__main__":
    main()
