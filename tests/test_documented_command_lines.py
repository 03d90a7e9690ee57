"""Every documented ``taumesh run`` command line parses to the run it parsed to when tests/golden/documented_runs.json
was written (issue 39: the same command lines as today parse to the same runs).

The lines are read from README.md and docs/**/*.md: a line of a code block that starts with the command (after
``$ `` and ``NAME=value`` assignments; backslash continuations joined; ``# comments`` dropped), a comment's
``used as: COMMAND``, and an inline code span that is a whole command. τ-bench's and τ²'s own forms that the docs
give as equivalents are read too: ``python run.py …`` and ``python -m taumesh.run …`` are ``taumesh run …`` under
run.py's name, ``tau2 run …`` is ``taumesh run …`` (README's "Coming from" table, docs/coming-from.md).

Each is parsed as ``taumesh run`` parses its argv (:func:`parse_run`: the command's own click parser, then the
settings), nothing is run, and each run's ``RunConfig`` (plus the few settings the run reads beside it) is compared
with the golden file's, paths of this machine written as ``<cache>``, ``<home>``, ``<cwd>``. A line not in the
golden file, a golden line no page documents any more, or a line that no longer parses fails. After a change that
is meant to alter a parse, rewrite the file (``TAUMESH_UPDATE_GOLDEN=1 pytest tests/test_documented_command_lines.py``)
and review its diff: every changed run is a command line that now means something else.

A standalone ``…``/``...`` stands for more options and is dropped; a line whose placeholder cannot be filled (an
elided value, ``<env>``, an option named without its value) is listed in :data:`SKIPPED` with the reason.
"""

from __future__ import annotations

import json
import os
import re
import shlex
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, cast

import pytest
import typer
from typer.exceptions import TyperException

from taumesh.cli import load_command
from taumesh.commands._options import typed_flags
from taumesh.settings import KnowledgeModels, RunSettings, SettingsError, load_run_settings
from tests.helpers.environment import Isolation
from tests.helpers.paths import PROJECT_ROOT

GOLDEN = PROJECT_ROOT / "tests" / "golden" / "documented_runs.json"
UPDATE_GOLDEN_ENV = "TAUMESH_UPDATE_GOLDEN"
PAGES = [PROJECT_ROOT / "README.md", *sorted((PROJECT_ROOT / "docs").rglob("*.md"))]

COMMANDS = ("taumesh run", "python -m taumesh.run", "python run.py", "tau2 run")
"""The first words of a run's command line, ours and τ-bench's/τ²'s that the docs map to it; the rest is argv."""
_COMMAND = "|".join(re.escape(command) for command in COMMANDS)
FENCED_LINE = re.compile(rf"^(?:\$ )?(?:[A-Za-z_][A-Za-z0-9_]*=\S*\s+)*(?:{_COMMAND})(?:\s|$)")
USED_AS = re.compile(rf"#.*?\bused as: ((?:{_COMMAND})(?:\s.*)?)$")
INLINE_SPAN = re.compile(r"`([^`\n]+)`")
ELLIPSES = ("…", "...")

DOCUMENTED_FILES = {
    "run.yaml": ("docs/configuration.md", "# run.yaml, used as:"),
    "config.yaml": ("docs/results.md", "dataset_name: tau_bench"),
}
"""The ``--config`` files the documented lines name: each the code block of its page that holds the marker."""

SKIPPED = {
    "taumesh run --env fork:my-fork/<env>": "<env>: any environment of the fork, no name to fill in",
    "taumesh run --task-ids": "names the option in prose, without a value",
    "taumesh run --workers": "names the option in prose, without a value",
    "taumesh run --data-dir": "names the option in prose, without a value",
    "taumesh run --env retail --work-store postgresql+psycopg://… --workers 0 --env-addr … --user-addr … "
    "--agent-addr … --scorer-addr …": "every address is elided (…); docs/deployment.md has the line in full",
    "taumesh run · REST API (taumesh/api) · taumesh play · Gym · A2A (the application layer drives a run)": "a "
    "label of docs/architecture.md's diagram",
    "tau2 run": "docs/performance.md names τ²'s own command, which the bench runs; no line of ours is said to match",
    "tau2 run --workers N": "τ²'s own command as bench/live_llm.py runs it (N: the bench's --tau2-workers); "
    "its --workers is τ²'s, not taumesh's",
}
"""Documented lines not parsed, each with why. A listed line that no page documents any more fails the test."""

BESIDE_RUN_CONFIG = ("resume", "retry_errors", *KnowledgeModels.model_fields)
"""Settings ``taumesh run`` reads that its ``RunConfig`` does not carry (continuing a file, the env's models)."""


@dataclass
class DocumentedLine:
    """One command line as documented (its comment dropped), and the pages that show it."""

    line: str
    pages: list[str] = field(default_factory=list)


class ElidedValue(ValueError):
    """An option's value is written as an ellipsis: the line has no value to parse there."""


def documented_lines() -> dict[str, DocumentedLine]:
    """Every run command line of README.md and docs/, keyed by the line (whitespace collapsed, comment dropped)."""
    found: dict[str, DocumentedLine] = {}
    for page in PAGES:
        name = str(page.relative_to(PROJECT_ROOT))
        for raw in _command_texts(page.read_text(encoding="utf-8")):
            line = " ".join(shlex.split(raw, comments=True))
            pages = found.setdefault(line, DocumentedLine(line)).pages
            if name not in pages:
                pages.append(name)
    return found


def _command_texts(text: str) -> Iterator[str]:
    """The command lines of one page: code blocks' lines (continuations joined) and whole inline code spans."""
    lines = text.splitlines()
    fenced = False
    index = 0
    while index < len(lines):
        line = lines[index]
        if line.lstrip().startswith("```"):
            fenced = not fenced
        elif fenced:
            stripped = line.strip()
            while stripped.endswith("\\") and index + 1 < len(lines):
                index += 1
                stripped = stripped[:-1].rstrip() + " " + lines[index].strip()
            if FENCED_LINE.match(stripped):
                yield stripped.removeprefix("$ ")
            elif used_as := USED_AS.search(stripped):
                yield used_as.group(1)
        else:
            yield from (span for span in INLINE_SPAN.findall(line) if re.match(rf"(?:{_COMMAND})(?:\s|$)", span))
        index += 1


def command_argv(line: str) -> tuple[dict[str, str], list[str]]:
    """The environment a line sets (its leading ``NAME=value``) and the argv ``taumesh run`` gets."""
    tokens = shlex.split(line)
    environment = {}
    while "=" in tokens[0] and not tokens[0].startswith("-"):
        name, _, value = tokens.pop(0).partition("=")
        environment[name] = value
    command = next(c for c in COMMANDS if tokens[: len(c.split())] == c.split())
    argv: list[str] = []
    for token in tokens[len(command.split()) :]:
        if token in ELLIPSES:
            if argv and argv[-1].startswith("-") and "=" not in argv[-1]:
                raise ElidedValue(f"{argv[-1]} …: the value is elided")  # dropped, the next option would be its value
            continue  # more options, whichever the reader likes
        if any(ellipsis in token for ellipsis in ELLIPSES):
            raise ElidedValue(f"{token}: part of the value is elided")
        argv.append(token)
    return environment, argv


def parse_run(argv: list[str]) -> list[RunSettings]:
    """The runs ``taumesh run ARGV`` would play, as taumesh/commands/run.py's ``run`` reads them, none played.

    The command's own click parser (τ-bench's prefixes, underscores and list values included), then the settings
    from the flags given, the environment and the ``--config`` file. When the run model changes, this function
    follows taumesh/commands/run.py; the golden file does not change.
    """
    command = load_command("run")
    with command.make_context("run", list(argv)) as ctx:
        flags = typed_flags(cast(typer.Context, ctx), RunSettings, ctx.params)  # typer's click context, as run's
        return load_run_settings(flags, ctx.params.get("config_file"))


def run_record(settings: RunSettings) -> dict[str, Any]:
    """What one run is: its ``RunConfig`` and the settings beside it, as JSON."""
    return {
        "run_config": settings.run_config().model_dump(mode="json"),
        "beside_run_config": {name: _jsonable(getattr(settings, name)) for name in BESIDE_RUN_CONFIG},
    }


def _jsonable(value: object) -> object:
    return str(value) if isinstance(value, Path) else value


def normalised(value: object, places: dict[str, str]) -> object:
    """``value`` with each path of this machine (``places``' keys) written as its name, the longest first."""
    if isinstance(value, str):
        for path, name in sorted(places.items(), key=lambda item: -len(item[0])):
            value = value.replace(path, name)
        return value
    if isinstance(value, dict):
        return {key: normalised(item, places) for key, item in value.items()}
    if isinstance(value, list):
        return [normalised(item, places) for item in value]
    return value


def parsed_runs(line: str, workdir: Path, isolation: Isolation) -> list[dict[str, Any]]:
    """The runs ``line`` parses to, in a clean environment: only the line's own assignments and the tests' cache."""
    environment, argv = command_argv(line)
    (workdir / "tests").symlink_to(PROJECT_ROOT / "tests")  # the docs' lines run in a checkout: domains.md's
    for name, (page, marker) in DOCUMENTED_FILES.items():  # TAUMESH_DOMAIN_PATH=tests/domains/contract/domains
        (workdir / name).write_text(documented_block(PROJECT_ROOT / page, marker), encoding="utf-8")
    with pytest.MonkeyPatch.context() as patch:
        patch.chdir(workdir)
        for name in list(os.environ):
            if name.startswith("TAUMESH_") and name not in ("TAUMESH_CACHE_DIR", "TAUMESH_TESTS_USER_CACHE"):
                patch.delenv(name)  # the developer's TAUMESH_* would change the parse; TAUMESH_CONFIG names a file
        for name, value in environment.items():
            patch.setenv(name, value)
        runs = [run_record(settings) for settings in parse_run(argv)]
    places = {str(isolation.cache): "<cache>", str(isolation.home): "<home>", str(workdir): "<cwd>"}
    return [normalised(run, places) for run in runs]  # type: ignore[misc]


def documented_block(page: Path, marker: str) -> str:
    """The code block of ``page`` that holds ``marker``: a file the docs show in full."""
    for block in re.findall(r"^```[^\n]*\n(.*?)^```", page.read_text(encoding="utf-8"), re.DOTALL | re.MULTILINE):
        if marker in block:
            return str(block)
    raise AssertionError(f"{page}: no code block holds {marker!r}")


DOCUMENTED = documented_lines()
PARSED = sorted(line for line in DOCUMENTED if line not in SKIPPED)


@pytest.fixture(scope="module")
def current_runs(isolation: Isolation, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """Each parsed line's runs now, or the error it fails with (a string); with TAUMESH_UPDATE_GOLDEN=1, rewritten."""
    runs: dict[str, Any] = {}
    for line in PARSED:
        try:
            runs[line] = parsed_runs(line, tmp_path_factory.mktemp("cwd"), isolation)
        except (TyperException, SettingsError, ElidedValue) as exc:  # the parser's, the settings': the test names it
            runs[line] = f"{type(exc).__name__}: {exc}"
    if os.environ.get(UPDATE_GOLDEN_ENV) == "1":
        GOLDEN.parent.mkdir(parents=True, exist_ok=True)
        parsed = {line: value for line, value in runs.items() if not isinstance(value, str)}
        GOLDEN.write_text(json.dumps(parsed, indent=1, ensure_ascii=False, sort_keys=True) + "\n", encoding="utf-8")
    return runs


@pytest.fixture(scope="module")
def recorded(current_runs: dict[str, Any]) -> dict[str, Any]:
    """The golden file's runs (read after ``current_runs``, which rewrites it when asked)."""
    return dict(json.loads(GOLDEN.read_text(encoding="utf-8")))


def test_the_docs_document_run_command_lines_in_every_form() -> None:
    assert len(PARSED) >= 60, PARSED
    for command in COMMANDS:  # τ-bench's and τ²'s forms too, from README's table and docs/running.md
        assert any(line.startswith(command) for line in PARSED), command
    stale = [line for line in SKIPPED if line not in DOCUMENTED]
    assert not stale, f"SKIPPED lists lines no page documents any more: {stale}"


def test_the_golden_file_holds_exactly_the_documented_lines(recorded: dict[str, Any]) -> None:
    missing = [f"{line}  (in {', '.join(DOCUMENTED[line].pages)})" for line in PARSED if line not in recorded]
    stale = [line for line in recorded if line not in PARSED]
    assert not missing and not stale, (
        f"documented lines not in {GOLDEN.name}: {missing}; lines there no page documents: {stale} "
        f"(review, then {UPDATE_GOLDEN_ENV}=1 rewrites it)"
    )


@pytest.mark.parametrize("line", PARSED)
def test_a_documented_line_parses_to_the_same_runs(
    line: str, current_runs: dict[str, Any], recorded: dict[str, Any]
) -> None:
    where = ", ".join(DOCUMENTED[line].pages)
    now = current_runs[line]
    assert not isinstance(now, str), f"{line!r} ({where}) no longer parses: {now}"
    before = recorded.get(line)
    assert before is not None, f"{line!r} ({where}) is not in {GOLDEN.name}"
    assert len(now) == len(before), f"{line!r} ({where}): {len(before)} runs before, {len(now)} now"
    differences = [
        f"run {number}: {path}: {old!r} → {new!r}"
        for number, (old_run, new_run) in enumerate(zip(before, now, strict=True), 1)
        for path, old, new in _differences(old_run, new_run)
    ]
    assert not differences, f"{line!r} ({where}) parses to another run (golden → now):\n" + "\n".join(differences)


def test_the_original_forms_parse_as_our_lines(current_runs: dict[str, Any]) -> None:
    """τ-bench's ``python run.py ARGS`` and τ²'s ``tau2 run ARGS`` are ``taumesh run ARGS`` (README's table)."""
    compared = 0
    for line in PARSED:
        for command in COMMANDS[1:]:
            ours = "taumesh run" + line.removeprefix(command)
            if line.startswith(command) and ours in current_runs:
                assert current_runs[line] == current_runs[ours], f"{line!r} and {ours!r} parse to different runs"
                compared += 1
    assert compared >= 5


def _differences(old: object, new: object, path: str = "") -> Iterator[tuple[str, object, object]]:
    """Each leaf where ``old`` and ``new`` differ, by its dotted path."""
    if isinstance(old, dict) and isinstance(new, dict):
        for key in sorted(old.keys() | new.keys()):
            yield from _differences(old.get(key, "<absent>"), new.get(key, "<absent>"), f"{path}.{key}".lstrip("."))
    elif old != new:
        yield path or "<run>", old, new
