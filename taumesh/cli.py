"""The ``taumesh`` command. Each sub-command lives in a module of ``taumesh.commands``, imported only when it runs.

``taumesh --help`` lists the sub-commands from :data:`COMMANDS` alone, so it answers without loading gRPC,
pydantic models or any domain (tests check both that and that every entry loads).
"""

from __future__ import annotations

import atexit
import gc
import importlib
import os
import sys
from typing import Any, NamedTuple, cast

import typer
from typer.core import TyperCommand, TyperGroup

os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")

from taumesh.commands import HELP_OPTIONS
from taumesh.commands._argv import expand_abbreviations, expand_list_flags  # τ-bench's argparse habits

__all__ = ["COMMANDS", "app", "expand_abbreviations", "expand_list_flags", "main"]


class Entry(NamedTuple):
    """Where a sub-command is defined, and the one line ``taumesh --help`` shows for it."""

    module: str
    attribute: str
    summary: str


COMMANDS: dict[str, Entry] = {
    "run": Entry("taumesh.commands.run", "app", "Run a benchmark: every task of a split, for each trial."),
    "serve": Entry("taumesh.commands.serve", "app", "Run one service alone (or the REST API: serve api)."),
    "worker": Entry("taumesh.commands.worker", "worker", "Join a run by its work store's URL and play its episodes."),
    "rescore": Entry("taumesh.commands.rescore", "app", "Replay each recorded trajectory and recompute its reward."),
    "analyze": Entry("taumesh.commands.analyze", "app", "Ask a model whose fault each failed episode was."),
    "view": Entry("taumesh.commands.view", "view", "Serve a local web viewer of results files."),
    "report": Entry("taumesh.commands.view", "report", "Write a leaderboard across runs with pass^k plots."),
    "compare": Entry("taumesh.commands.compare", "compare", "Compare runs paired on their tasks: is B better than A?"),
    "plan": Entry("taumesh.commands.plan", "plan", "How many trials a run needs for an interval or a difference."),
    "verify": Entry("taumesh.commands.verify", "verify", "Check a run's checksums and re-derive its rewards."),
    "data": Entry("taumesh.commands.data", "data_app", "Fetch, import and list the datasets taumesh runs on."),
    "domain": Entry("taumesh.commands.fork", "domain_app", "Check a domain's gold solutions, or start one."),
    "api-keys": Entry("taumesh.commands.api", "api_keys_app", "Create, list and revoke the REST API's keys."),
    "health": Entry("taumesh.commands.health", "health", "Exit 0 when a server's gRPC health says SERVING."),
    "tools": Entry(
        "taumesh.commands.tools", "tools_app", "Export a domain's agent tools for Dialogflow CX, MCP or OpenAI."
    ),
    "play": Entry("taumesh.commands.play", "play", "Play the agent yourself in the terminal, and get the reward."),
    "rollout": Entry("taumesh.commands.rollout", "rollout", "Play seeded group rollouts, episodes as JSON lines."),
}
"""Every sub-command, in the order ``taumesh --help`` lists them."""


def load_command(name: str) -> TyperCommand | TyperGroup:
    """The click command ``name``, its module imported now.

    The entry is a Typer app (its one command, or a group of sub-commands) or a plain function made a command.
    """
    entry = COMMANDS[name]
    target: Any = getattr(importlib.import_module(entry.module), entry.attribute)
    if not isinstance(target, typer.Typer):
        single = typer.Typer(context_settings=HELP_OPTIONS)
        single.command(name=name, help=target.__doc__ or entry.summary)(target)
        target = single
    command = typer.main.get_command(target)
    assert isinstance(command, TyperCommand | TyperGroup), f"{entry.module}.{entry.attribute} is no typer command"
    command.name = name
    command.help = command.help or entry.summary
    return command


class LazyGroup(TyperGroup):
    """The root: lists sub-commands from :data:`COMMANDS`, loads one only to run it or show its own help."""

    listing = False

    def list_commands(self, ctx: object) -> list[str]:
        return list(COMMANDS)

    def get_command(self, ctx: object, cmd_name: str) -> TyperCommand | TyperGroup | None:
        if cmd_name not in COMMANDS:
            return None
        if self.listing:  # the root's --help needs the summary alone
            return TyperCommand(cmd_name, help=COMMANDS[cmd_name].summary)
        return load_command(cmd_name)

    def format_help(self, ctx: object, formatter: Any) -> None:
        self.listing = True
        try:
            super().format_help(cast(typer.Context, ctx), formatter)
        finally:
            self.listing = False


app = typer.Typer(
    cls=LazyGroup,
    help="τ-bench as gRPC microservices: score conversational agents on stateful tool domains.",
    no_args_is_help=True,
    pretty_exceptions_show_locals=False,
    context_settings=HELP_OPTIONS,
    rich_markup_mode=None,  # click's plain layout: rich's help formatter alone takes ~0.15 s to import
)


@app.callback()
def _root() -> None:
    """τ-bench as gRPC microservices: score conversational agents on stateful tool domains."""


def main() -> None:
    """Entry point of the ``taumesh`` script (``taumesh serve api`` has options of its own: the REST API's)."""
    # At exit, no full collection of the heap litellm and the domains filled: it took 0.5-9 s after a run's results
    # were written (explicit atexit cleanups, registered before or after this, still run).
    atexit.register(gc.freeze)
    args = sys.argv[1:]
    if args[:2] == ["serve", "api"]:
        from taumesh.commands.api import serve_api

        serve_api_app = typer.Typer(context_settings=HELP_OPTIONS, pretty_exceptions_show_locals=False)
        serve_api_app.command(name="api")(serve_api)
        serve_api_app(args=args[2:], prog_name="taumesh serve api")
    elif args[:2] == ["serve", "a2a"]:  # taumesh as an A2A green agent: options of its own
        importlib.import_module("taumesh.commands.a2a").main(args[2:])
    elif args[:2] == ["serve", "mcp"]:  # the env's tools over MCP: options of its own
        importlib.import_module("taumesh.commands.mcp").main(args[2:])
    elif args[:2] == ["serve", "rollout"]:  # group rollouts over gRPC: options of its own
        importlib.import_module("taumesh.commands.rollout").main(args[2:])
    elif args[:2] == ["serve", "gateway"]:  # the model gateway (docs/gateway.md): options of its own
        importlib.import_module("taumesh.commands.gateway").main(args[2:])
    else:
        app(args=args)


if __name__ == "__main__":
    main()
