"""``taumesh tools export``: a domain's agent tools in another system's format (Dialogflow CX, OpenAI, MCP)."""

from __future__ import annotations

import json
import sys
from enum import StrEnum
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.markup import escape

from taumesh.commands._common import DataDir
from taumesh.domains import Catalog, DataError

tools_app = typer.Typer(help="Export a domain's agent tools.", no_args_is_help=True)
err = Console(stderr=True)

CX_OUTPUT_SCHEMA: dict[str, Any] = {"type": "object", "properties": {"result": {"type": "string"}}}
"""What every exported CX tool returns: the tool's observation as text (how the dialogflow-cx strategy sends it)."""


class ExportFormat(StrEnum):
    dialogflow_cx = "dialogflow-cx"
    openai = "openai"
    mcp = "mcp"


def dialogflow_cx_tools(schemas: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Each OpenAI function schema as a Dialogflow CX (v3beta1) function tool, the body of ``tools.create``.

    Built with the CX package's own ``Tool`` type, so what it cannot hold is refused here, not at import.
    """
    from google.cloud.dialogflowcx_v3beta1 import types as cx
    from google.protobuf import json_format, struct_pb2

    tools = []
    for schema in schemas:
        function = schema["function"]
        inputs, outputs = struct_pb2.Struct(), struct_pb2.Struct()
        inputs.update(function.get("parameters") or {"type": "object", "properties": {}})
        outputs.update(CX_OUTPUT_SCHEMA)
        tool = cx.Tool(
            display_name=function["name"],
            description=function.get("description", ""),
            function_spec=cx.Tool.FunctionTool(input_schema=inputs, output_schema=outputs),
        )
        tools.append(json_format.MessageToDict(cx.Tool.pb(tool)))
    return tools


def mcp_tools(schemas: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Each OpenAI function schema as an MCP tool (``name``, ``description``, ``inputSchema``)."""
    return [
        {
            "name": s["function"]["name"],
            "description": s["function"].get("description", ""),
            "inputSchema": s["function"].get("parameters") or {"type": "object", "properties": {}},
        }
        for s in schemas
    ]


@tools_app.callback()
def _group() -> None:
    """Export a domain's agent tools."""


@tools_app.command("export")
def export(
    env: Annotated[str, typer.Option("--env", "--domain", help="The domain whose agent tools to export.")] = "retail",
    export_format: Annotated[
        ExportFormat, typer.Option("--format", help="dialogflow-cx (CX tools.create bodies), openai or mcp.")
    ] = ExportFormat.dialogflow_cx,
    *,
    data_dir: DataDir,
    output: Annotated[Path | None, typer.Option("--output", "-o", help="Write here instead of stdout.")] = None,
) -> None:
    """Write the domain's agent tools as a JSON array, for import into another agent platform.

    With --format dialogflow-cx each element is a CX function tool (displayName, description, functionSpec); create
    them in your CX agent (``POST .../agents/AGENT/tools`` per element) and run it with --agent-strategy dialogflow-cx.
    """
    try:
        schemas = Catalog(data_dir).describe(env).tool_schemas  # a listing: whether it runs here is not asked
    except (KeyError, DataError) as exc:
        err.print(f"[red]error:[/red] {escape(str(exc.args[0]) if exc.args else str(exc))}", soft_wrap=True)
        raise typer.Exit(2) from None
    if export_format is ExportFormat.dialogflow_cx:
        exported = dialogflow_cx_tools(schemas)
    elif export_format is ExportFormat.mcp:
        exported = mcp_tools(schemas)
    else:
        exported = schemas
    text = json.dumps(exported, indent=2, ensure_ascii=False) + "\n"
    if output is None:
        sys.stdout.write(text)
    else:
        output.write_text(text, encoding="utf-8")
        err.print(f"{len(exported)} {env} tools written to {output}", soft_wrap=True)
