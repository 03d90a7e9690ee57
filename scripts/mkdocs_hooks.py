"""MkDocs hooks (mkdocs.yml ``hooks:``): what the docs site renders from the code at build time, never checked in.

* ``cli.md``: ``taumesh COMMAND --help`` for every command and sub-command, run in this process as a user runs it
  (``taumesh.cli.main``), so the reference is the app's own help and cannot go stale.
* ``openapi/openapi.json``: the REST API's OpenAPI document, from the app (``create_app().openapi()``), which
  ``openapi.md`` renders with Swagger UI (mkdocs-swagger-ui-tag; its assets ship in the package, no CDN).
* ``<!-- readme-section: TITLE -->``: that section of README.md, so the site shows the README's migration table
  without a second copy to drift.
* Links to files of the repository outside ``docs/`` (``../protos/…``, ``../bench/README.md``): right on GitHub,
  where the pages are read too, but not pages of the site. Each is checked to exist (a missing one fails the build)
  and rendered as its path in code.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import re
import sys
from pathlib import Path
from typing import Any

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import PluginError
from mkdocs.structure.files import File, Files
from mkdocs.structure.pages import Page

ROOT = Path(__file__).resolve().parent.parent
CLI_MARKER = "<!-- cli-reference -->"
HELP_COLUMNS = "100"
SPECIAL_SERVERS = ("api", "a2a", "mcp")
"""``taumesh serve`` servers with options of their own, dispatched by ``taumesh.cli.main`` before the group."""


def help_text(args: list[str]) -> str:
    """What ``taumesh ARGS --help`` prints, run in this process through the command's own entry point."""
    from taumesh import cli

    out = io.StringIO()
    saved_argv, saved_columns = sys.argv, os.environ.get("COLUMNS")
    sys.argv, os.environ["COLUMNS"] = ["taumesh", *args, "--help"], HELP_COLUMNS
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out), contextlib.suppress(SystemExit):
            cli.main()
    finally:
        sys.argv = saved_argv
        if saved_columns is None:
            os.environ.pop("COLUMNS", None)
        else:
            os.environ["COLUMNS"] = saved_columns
    text = re.sub(r"\x1b\[[0-9;]*m", "", out.getvalue()).rstrip()
    if not text:
        raise PluginError(f"taumesh {' '.join(args)} --help printed nothing")
    return text


def command_paths() -> list[list[str]]:
    """Every command and sub-command, in ``taumesh --help``'s order."""
    from taumesh.cli import COMMANDS, load_command

    paths: list[list[str]] = [[]]
    for name in COMMANDS:
        paths += with_subcommands([name], load_command(name))
        if name == "serve":
            paths += [["serve", server] for server in SPECIAL_SERVERS]
    return paths


def with_subcommands(path: list[str], command: Any) -> list[list[str]]:
    """``path`` and, for a group, each of its sub-commands' paths, depth first."""
    from typer.core import TyperGroup

    paths = [path]
    if isinstance(command, TyperGroup):
        with command.make_context(path[-1], ["--help"], resilient_parsing=True) as ctx:
            for sub in command.list_commands(ctx):
                paths += with_subcommands([*path, sub], command.get_command(ctx, sub))
    return paths


def cli_reference() -> str:
    """The CLI reference's Markdown: a section per command with its help as printed."""
    sections = []
    for path in command_paths():
        title = " ".join(["taumesh", *path])
        sections.append(f"## `{title}`\n\n```text\n{help_text(path)}\n```\n")
    return "\n".join(sections)


README_SECTION = re.compile(r"<!-- readme-section: (.+?) -->")


def readme_section(match: re.Match[str]) -> str:
    """The body of README.md's section ``## TITLE``, its links made relative to docs/."""
    title = match.group(1)
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    heading = f"\n## {title}\n"
    if heading not in text:
        raise PluginError(f"README.md has no section {title!r}")
    body = text.split(heading, 1)[1].split("\n## ", 1)[0]
    body = re.sub(r"\]\((?!https?:|#|\.\./|docs/)([^)\s]+)\)", r"](../\1)", body)
    return re.sub(r"\]\(docs/", "](", body).strip()


OUTSIDE_LINK = re.compile(r"\[([^\]]+)\]\((\.\./[^)\s#]+)(#[^)\s]*)?\)")


def unlink_outside(markdown: str, page: Page, docs_dir: Path) -> str:
    """Render each link to a repository file outside docs/ as its path; a link to no file fails the build."""
    page_dir = (docs_dir / page.file.src_path).parent

    def replace(match: re.Match[str]) -> str:
        text, target = match.group(1), match.group(2)
        resolved = (page_dir / target).resolve()
        if resolved.is_relative_to(docs_dir.resolve()):
            return match.group(0)  # a page of the site: mkdocs checks it
        if not resolved.exists():
            raise PluginError(f"{page.file.src_path} links to {target}, which is not in the repository")
        path = resolved.relative_to(ROOT).as_posix() + ("/" if resolved.is_dir() else "")
        return text if path in text else f"{text} (`{path}`)"

    return OUTSIDE_LINK.sub(replace, markdown)


def on_files(files: Files, config: MkDocsConfig) -> Files:
    """Add the REST API's OpenAPI document, exported from the app, as ``openapi/openapi.json``."""
    import tempfile

    from taumesh.api.app import create_app
    from taumesh.api.settings import ApiSettings

    with tempfile.TemporaryDirectory() as root:  # the app opens its audit log there, not in the user's data folder
        document = create_app(ApiSettings(data_root=Path(root))).openapi()
    files.append(File.generated(config, "openapi/openapi.json", content=json.dumps(document, indent=1)))
    return files


def on_page_markdown(markdown: str, page: Page, config: MkDocsConfig, **_: Any) -> str:
    """Render the CLI reference and README sections where their markers stand, and links outside docs/ as paths."""
    if CLI_MARKER in markdown:
        markdown = markdown.replace(CLI_MARKER, cli_reference())
    markdown = README_SECTION.sub(readme_section, markdown)
    return unlink_outside(markdown, page, Path(config.docs_dir))
