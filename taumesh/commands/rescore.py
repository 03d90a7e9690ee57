"""``taumesh rescore``: replay each recorded trajectory in a fresh session and recompute its reward."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, get_args

import typer
from rich.console import Console
from rich.markup import escape

from taumesh.commands import HELP_OPTIONS
from taumesh.commands._common import DataDir, EnvAddr, ProviderLimit, ScorerAddr, console, domain_help, refuse
from taumesh.commands._options import ArgparseCommand
from taumesh.commands._paths import input_file_problem, overwrite_problem
from taumesh.domains import DataError
from taumesh.orchestrator.config import RunScope, ServiceAddresses
from taumesh.orchestrator.run.preflight import domain_problem, services_problem
from taumesh.rpc.loop import run as run_loop

app = typer.Typer(add_completion=False, pretty_exceptions_show_locals=False, context_settings=HELP_OPTIONS)
DOMAIN_HELP = domain_help()


@app.command(cls=ArgparseCommand)
def rescore(
    results: Annotated[Path, typer.Argument(help="A results file from taumesh or τ-bench's run.py.")],
    env: Annotated[
        str | None,
        typer.Option(
            "--env", help=f"The results' {DOMAIN_HELP[0].lower()}{DOMAIN_HELP[1:]} Default: the one the file records."
        ),
    ] = None,
    *,
    data_dir: DataDir,
    task_split: Annotated[
        str | None,
        typer.Option(
            "--task-split",
            "--task_split",
            "--task-split-name",
            help="Default: the split the file records, else the domain's first (τ-bench's test, τ²'s base).",
        ),
    ] = None,
    grader: Annotated[
        str | None,
        typer.Option(
            "--grader",
            help="Default: the grader the file records (faithful when it records none). "
            + str(RunScope.model_fields["grader"].description),
        ),
    ] = None,
    out: Annotated[Path | None, typer.Option("--out", help="Where to write the per-trajectory comparison.")] = None,
    env_addr: EnvAddr = None,
    scorer_addr: ScorerAddr = None,
    judge_model: Annotated[
        str | None, typer.Option("--judge-model", help="The model that judges τ²'s NL assertions (litellm name).")
    ] = None,
    judge_api_base: Annotated[
        str | None, typer.Option("--judge-api-base", help="The judge model's endpoint (OpenAI-compatible).")
    ] = None,
    fresh_tasks: Annotated[
        bool,
        typer.Option(
            "--fresh-tasks",
            help="Re-grade against the tasks of the data now imported and report each changed verdict and why "
            "(a changed gold action, outputs or reward basis).",
        ),
    ] = False,
    allow_release_change: Annotated[
        bool,
        typer.Option("--allow-release-change", help=RunScope.model_fields["allow_release_change"].description),
    ] = False,
    provider_limit: ProviderLimit = None,
) -> None:
    """Replay each recorded trajectory in a fresh session and recompute its reward.

    Reads τ-bench's results files (taumesh's, τ-bench's run.py's) and τ²'s Results documents (τ²'s own and
    taumesh's --output-format tau2). The domain, split, data release and grader are the file's: a flag overrides
    one only when given. taumesh's files and τ²'s record their domain; a file of τ-bench's run.py needs --env. A
    τ² domain's --env is its taumesh name (tau2-airline).
    """
    from taumesh.llm.limiter import parse_provider_limits
    from taumesh.orchestrator.after.recorded_settings import RecordedSettingsError, recorded_settings
    from taumesh.orchestrator.after.rescore import RescoreError, print_rescore, print_task_changes, rescore_file
    from taumesh.orchestrator.after.verify import broken_json

    refuse(input_file_problem(results, "a results file") or overwrite_problem(out, "--out", [results]))
    graders = get_args(RunScope.model_fields["grader"].annotation)
    if grader is not None and grader not in graders:
        refuse(f"--grader {grader!r}: use {' or '.join(graders)}")
    refuse(broken_json([results]))  # named, with where it stops, before any guess about its domain
    caps: dict[str, int] = {}
    try:
        caps = parse_provider_limits(provider_limit or [])
    except ValueError as exc:
        refuse(f"--provider-limit: {exc}")
    try:
        recorded = recorded_settings(results)
    except RecordedSettingsError as exc:  # several graders: its rewards mean different things
        console.print(f"[red]error:[/red] {escape(str(exc))}", soft_wrap=True)
        raise typer.Exit(2) from exc
    env = env or recorded.env
    if env is None:
        console.print(
            f"[red]error:[/red] {escape(str(results))} does not record its domain (τ-bench's run.py writes none); "
            "pass --env",
            soft_wrap=True,
        )
        raise typer.Exit(2)
    if env_addr is None:  # the embedded env: the domain and its data must be there
        refuse(domain_problem(env, data_dir))
    mismatch = _domain_mismatch(results, env, data_dir)
    if mismatch:
        console.print(f"[yellow]warning:[/yellow] {escape(mismatch)}", soft_wrap=True)

    from taumesh.llm.access import OperatorGrants, granted
    from taumesh.models import ModelSettings

    judge = ModelSettings(model=judge_model or "", api_base=judge_api_base or "")
    addresses = ServiceAddresses(env=env_addr, scorer=scorer_addr)
    problem = services_problem(addresses)
    if problem:
        console.print(f"[red]error:[/red] {escape(problem)}", soft_wrap=True)
        raise typer.Exit(2)
    try:
        with granted(OperatorGrants.of(api_bases=[judge.api_base])):  # the in-process scorer may call the judge
            rows = run_loop(
                rescore_file(
                    results, env, task_split, data_dir, addresses, out, judge=judge,
                    allow_release_change=allow_release_change or fresh_tasks, provider_limits=caps, grader=grader,
                )
            )  # fmt: skip
    except (FileNotFoundError, ValueError, DataError, RescoreError) as exc:  # ValueError: not a results file
        console.print(f"[red]error:[/red] {escape(str(exc))}", soft_wrap=True)
        raise typer.Exit(2) from exc
    agree = print_rescore(rows, Console())
    explained = print_task_changes(rows, Console(), fresh_tasks=fresh_tasks)
    raise typer.Exit(0 if agree or explained else 1)


def _recorded_action_names(results: Path) -> set[str]:
    """The tool names of the gold actions the results file records (``info.task.actions``); empty if unreadable."""
    try:
        entries = json.loads(results.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return set()
    names: set[str] = set()
    for entry in entries if isinstance(entries, list) else []:
        info = entry.get("info") if isinstance(entry, dict) else None
        task = info.get("task") if isinstance(info, dict) else None
        actions = task.get("actions") if isinstance(task, dict) else None
        for action in actions if isinstance(actions, list) else []:
            if isinstance(action, dict) and isinstance(action.get("name"), str):
                names.add(action["name"])
    return names


def _domain_mismatch(results: Path, env: str, data_dir: Path) -> str | None:
    """Why the tasks ``results`` records seem to belong to a domain other than ``env``, or None.

    Judged by the gold actions recorded with each task: tools that ``env`` lacks mean another domain's tasks.
    """
    from taumesh.domains import Catalog

    recorded = _recorded_action_names(results)
    catalog = Catalog(data_dir)
    try:
        tools = set(catalog.describe(env).tools_by_name)
    except (KeyError, DataError):
        return None  # an unknown domain is reported by the rescore itself
    foreign = sorted(recorded - tools)
    if not foreign:
        return None
    fitting = []
    for name in catalog.names():
        try:
            if name != env and recorded <= set(catalog.describe(name).tools_by_name):
                fitting.append(name)
        except (KeyError, DataError):
            continue
    guess = f"; they fit {' or '.join(fitting)}" if fitting else ""
    return (
        f"{results.name} records tasks whose gold actions call tools {env} does not have "
        f"({', '.join(foreign[:3])}{', ...' if len(foreign) > 3 else ''}){guess}: is --env {env} right?"
    )
