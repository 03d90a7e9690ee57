"""A command's options generated from its settings model: each setting is declared once, as a pydantic field.

The field's name gives the spellings (``--max-concurrency``, τ-bench's ``--max_concurrency``), its docstring the
help, its default the default; :class:`taumesh.flags.Flag` adds aliases, a short form or the parsed type. The
command line is read as τ-bench's argparse reads it: unique prefixes of long options (``--num-tr 3``) and several
values after a list option (``--task-ids 1 2 3``).
"""

from __future__ import annotations

import inspect
import types
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Annotated, Any, Literal, TypeVar, Union, cast, get_args, get_origin, get_type_hints

import typer
from pydantic.fields import FieldInfo
from rich.console import Console
from rich.markup import escape
from typer.core import TyperCommand

from taumesh.commands._argv import AmbiguousOption, expand_abbreviations, expand_list_flags
from taumesh.flags import flag_of
from taumesh.settings import Settings, SettingsError, TaumeshSettings, load_settings

Command = TypeVar("Command", bound=Callable[..., Any])

ConfigFile = Annotated[
    Path | None,
    typer.Option(
        "--config",
        help="YAML file of settings, keyed by the options' names with underscores. "
        "Flags override the environment, which overrides the file.",
        envvar="TAUMESH_CONFIG",
        show_envvar=True,
        exists=True,
        dir_okay=False,
    ),
]
"""The ``--config FILE.yaml`` option of the commands whose options are settings."""


class ArgparseCommand(TyperCommand):
    """A command that reads its command line as argparse would: unique prefixes, several values per list option.

    τ-bench's argparse spellings with underscores (``--max_concurrency``) are read as the dashed option they name
    without being options of their own, so ``--help`` lists each option once and no name is cut off.
    """

    def parse_args(self, ctx: Any, args: list[str]) -> list[str]:
        long_options: dict[str, str] = {}
        list_options: set[str] = set()
        dashed: dict[str, str] = {}
        for param in self.get_params(ctx):
            spellings = [s for s in (*param.opts, *param.secondary_opts) if s.startswith("--")]
            long_options |= dict.fromkeys(spellings, param.name or spellings[0])
            dashed |= {underscored(s): s for s in spellings if underscored(s) != s}
            if getattr(param, "multiple", False):
                list_options.update(param.opts)
        twins = {twin: long_options[spelling] for twin, spelling in dashed.items() if twin not in long_options}
        try:
            expanded = expand_abbreviations(args, long_options | twins)
        except AmbiguousOption as exc:
            ctx.fail(str(exc))
        expanded = as_dashed(expanded, {twin: dashed[twin] for twin in twins})
        return super().parse_args(ctx, expand_list_flags(expanded, list_options))


def underscored(spelling: str) -> str:
    """τ-bench's argparse spelling of a long option (``--max-concurrency``: ``--max_concurrency``)."""
    return "--" + spelling[2:].replace("-", "_")


def as_dashed(args: list[str], dashed: Mapping[str, str]) -> list[str]:
    """``args`` with each underscored spelling in ``dashed`` written as its option (``--a_b=1``: ``--a-b=1``)."""
    out: list[str] = []
    for index, arg in enumerate(args):
        if arg == "--":
            return out + args[index:]
        flag, equals, value = arg.partition("=")
        out.append(dashed.get(flag, flag) + equals + value if flag in dashed else arg)
    return out


def _cli_type(field: FieldInfo) -> Any:
    """The type the command line parses for ``field`` (pydantic validates the result as the field's own)."""
    flag = flag_of(field.metadata)
    if flag.parse_as is not None:
        return flag.parse_as
    annotation = field.annotation
    parts = get_args(annotation) if get_origin(annotation) in (Union, types.UnionType) else (annotation,)
    optional = type(None) in parts
    (base,) = [part for part in parts if part is not type(None)] or [str]
    if get_origin(base) is dict:  # entries as KEY=VALUE, the flag repeated
        return list[str] | None
    if get_origin(base) is Literal:  # typer has no Literal: the model refuses a value not listed
        base = str
    return base | None if optional else base


def _help(settings_cls: type[TaumeshSettings], name: str, field: FieldInfo, texts: Mapping[str, str]) -> str:
    """The option's help: the field's docstring, ``{placeholders}`` from ``texts``, and its environment variable."""
    text = " ".join((field.description or "").replace("``", "").split())
    for key, value in texts.items():
        text = text.replace(f"{{{key}}}", value)
    return escape(f"{text} [env var: {settings_cls.env_name(name)}]".strip())


def help_panel_order(settings_cls: type[TaumeshSettings]) -> dict[str, str | None]:
    """Each field's ``--help`` panel, in the order the options are listed (the fields' own when none declared).

    A model that declares panels must place every field in exactly one: an option left out of the help, or in two
    panels, is a mistake caught when the command is made.
    """
    if not settings_cls.help_panels:
        return dict.fromkeys(settings_cls.model_fields)
    order: dict[str, str | None] = {}
    for panel, names in settings_cls.help_panels.items():
        for name in names:
            if name in order:
                raise TypeError(f"{settings_cls.__name__}.help_panels: {name} is in {order[name]} and {panel}")
            order[name] = panel
    unplaced = set(settings_cls.model_fields) - set(order)
    unknown = set(order) - set(settings_cls.model_fields)
    if unplaced or unknown:
        raise TypeError(
            f"{settings_cls.__name__}.help_panels: not placed {sorted(unplaced)}, no such field {sorted(unknown)}"
        )
    return order


def _parameter(
    settings_cls: type[TaumeshSettings], name: str, field: FieldInfo, texts: Mapping[str, str], panel: str | None
) -> inspect.Parameter:
    """The typer parameter of one setting, its default the field's, listed in ``panel`` of ``--help``."""
    flag = flag_of(field.metadata)
    cli_type = _cli_type(field)
    help_text = _help(settings_cls, name, field, texts)
    default = None if field.is_required() or field.default_factory is not None else field.default
    if isinstance(default, bool) and flag.parse_as is int:
        default = int(default)  # τ-bench's --shuffle 0/1
    info: Any
    if flag.positional:
        info = typer.Argument(help=help_text, show_default=False, rich_help_panel=panel)
        cli_type = cli_type | None
    else:
        # the underscored spelling is read by ArgparseCommand, not listed: --help shows each option once
        spellings = [spelling for spelling in flag.spellings(name) if spelling != f"--{name}" or "_" not in name]
        info = typer.Option(*spellings, help=help_text, rich_help_panel=panel)
    annotation = cast(Any, Annotated)[cli_type, info]  # a type built at run time, for typer to read
    return inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, default=default, annotation=annotation)


def settings_options(
    settings_cls: type[TaumeshSettings], texts: Mapping[str, str] | None = None
) -> Callable[[Command], Command]:
    """Give a command one option per field of ``settings_cls``, in place of its ``**flags`` parameter.

    ``texts`` fills ``{placeholders}`` of the help (choices known only where the command runs). The command gets
    every option's value in ``flags``; :func:`load_from_command_line` keeps those typed on the command line.
    """

    def decorate(command: Command) -> Command:
        signature = inspect.signature(command)
        hints = get_type_hints(command, include_extras=True)
        fixed = [
            parameter.replace(annotation=hints.get(parameter.name, parameter.annotation))
            for parameter in signature.parameters.values()
            if parameter.kind is not inspect.Parameter.VAR_KEYWORD
        ]
        fields = settings_cls.model_fields
        generated = [
            _parameter(settings_cls, name, fields[name], texts or {}, panel)
            for name, panel in help_panel_order(settings_cls).items()
        ]
        command.__signature__ = signature.replace(parameters=[*fixed, *generated])  # type: ignore[attr-defined]
        command.__annotations__ = {**hints, **{parameter.name: parameter.annotation for parameter in generated}}
        return command

    return decorate


def typed_flags(ctx: typer.Context, settings_cls: type[TaumeshSettings], values: Mapping[str, Any]) -> dict[str, Any]:
    """The settings typed on the command line: a flag left at its default must not hide the environment or file."""
    typed = {}
    for name, value in values.items():
        source = ctx.get_parameter_source(name)
        if name in settings_cls.model_fields and source is not None and source.name == "COMMANDLINE":
            typed[name] = value
    return typed


def report_settings_error(console: Console, exc: SettingsError) -> typer.Exit:
    """Print one ``error:`` line per bad setting; the exit (status 2) to raise."""
    for line in str(exc).splitlines():
        console.print(f"[red]error:[/red] {escape(line)}", soft_wrap=True)
    return typer.Exit(2)


def load_from_command_line(
    ctx: typer.Context,
    settings_cls: type[Settings],
    values: Mapping[str, Any],
    config_file: Path | None,
    console: Console,
) -> Settings:
    """The command's settings from its flags, the environment and ``config_file``; exit 2 on bad ones."""
    try:
        return load_settings(settings_cls, typed_flags(ctx, settings_cls, values), config_file)
    except SettingsError as exc:
        raise report_settings_error(console, exc) from exc
