"""Sub-commands of the ``taumesh`` CLI, one module per command group."""

from typing import Annotated

import typer

HELP_OPTIONS = {"help_option_names": ["-h", "--help"]}
"""``-h`` as well as ``--help``, as τ-bench's argparse accepts (every command and group)."""

OtlpEndpoint = Annotated[
    str | None,
    typer.Option("--otlp-endpoint", help="OTLP/gRPC endpoint for traces and metrics (or OTEL_EXPORTER_OTLP_*)."),
]
"""The ``--otlp-endpoint`` option of every command that traces (``run``, ``serve``, ``serve api``)."""
