"""The ``taumesh`` command: run a benchmark, serve one service, rescore a results file."""

from __future__ import annotations

import asyncio
import logging
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.console import Console
from rich.markup import escape
from typer._click.core import ParameterSource  # typer vendors click: its contexts report this enum
from typer.core import TyperArgument, TyperCommand, TyperOption

os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")

from taumesh.commands.domain import domain_app
from taumesh.domains import DataError
from taumesh.models import ModelSettings
from taumesh.orchestrator.config import DEFAULT_DATA_DIR, RunConfig, ServiceAddresses
from taumesh.settings import (
    RunSettings,
    ServeSettings,
    ServiceName,
    Settings,
    SettingsError,
    TaumeshSettings,
    load_settings,
)

if TYPE_CHECKING:
    from taumesh.llm.access import OperatorGrants

app = typer.Typer(
    help="τ-bench as gRPC microservices: score conversational agents on stateful tool domains.",
    no_args_is_help=True,
    pretty_exceptions_show_locals=False,
)
console = Console(stderr=True)
app.add_typer(domain_app, name="domain", help="Check a domain's gold solutions, or start a new domain.")


RUN = RunSettings.model_construct()
"""The defaults ``taumesh run --help`` shows (read from the model; no source is consulted)."""
SERVE = ServeSettings.model_construct()
"""The defaults ``taumesh serve --help`` shows."""

DataDir = Annotated[Path, typer.Option("--data-dir", "--data_dir", help="τ-bench data: a folder per domain.")]
DataDirOrEnv = Annotated[
    Path,
    typer.Option("--data-dir", "--data_dir", help="τ-bench data: a folder per domain (env TAUMESH_DATA_DIR)."),
]
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


def listing_env_vars(settings_cls: type[TaumeshSettings]) -> type[TyperCommand]:
    """A command class whose ``--help`` names the environment variable of each parameter that is a setting.

    The variables are read by pydantic-settings, not by click (click would parse a list differently), so the
    name is added to the help text instead of being declared as the parameter's ``envvar``.
    """

    class SettingsCommand(TyperCommand):
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            for param in self.params:
                if isinstance(param, TyperOption | TyperArgument) and param.name in settings_cls.model_fields:
                    env_var = escape(f"[env var: {settings_cls.env_name(param.name)}]")
                    param.help = f"{param.help or ''} {env_var}".strip()

    return SettingsCommand


def load_from_command_line(ctx: typer.Context, settings_cls: type[Settings], config_file: Path | None) -> Settings:
    """The command's settings; on bad ones, print one line per problem and exit with status 2.

    Only the parameters typed on the command line are passed on: a flag left at its default must not hide what
    the environment or the file says.
    """
    flags = {
        name: value
        for name, value in ctx.params.items()
        if name in settings_cls.model_fields and ctx.get_parameter_source(name) is ParameterSource.COMMANDLINE
    }
    try:
        return load_settings(settings_cls, flags, config_file)
    except SettingsError as exc:
        for line in str(exc).splitlines():
            console.print(f"[red]error:[/red] {escape(line)}", soft_wrap=True)
        raise typer.Exit(2) from exc


@app.command(cls=listing_env_vars(RunSettings))
def run(
    ctx: typer.Context,
    config_file: ConfigFile = None,
    env: Annotated[str, typer.Option("--env", help="Domain.")] = RUN.env,
    task_split: Annotated[str, typer.Option("--task-split", "--task_split", help="Task split.")] = RUN.task_split,
    task_ids: Annotated[
        list[int] | None, typer.Option("--task-ids", "--task_ids", help="Run only these task ids (repeatable).")
    ] = RUN.task_ids,
    start_index: Annotated[int, typer.Option("--start-index", "--start_index")] = RUN.start_index,
    end_index: Annotated[int, typer.Option("--end-index", "--end_index", help="-1: to the end.")] = RUN.end_index,
    num_trials: Annotated[int, typer.Option("--num-trials", "--num_trials")] = RUN.num_trials,
    agent_strategy: Annotated[
        str, typer.Option("--agent-strategy", "--agent_strategy", help="oracle, tool-calling, act, react, few-shot.")
    ] = RUN.agent_strategy,
    model: Annotated[str, typer.Option("--model", help="The agent's model.")] = RUN.model,
    model_provider: Annotated[str, typer.Option("--model-provider", "--model_provider")] = RUN.model_provider,
    user_strategy: Annotated[
        str, typer.Option("--user-strategy", "--user_strategy", help="scripted, llm, react, verify, reflection, human.")
    ] = RUN.user_strategy,
    user_model: Annotated[str, typer.Option("--user-model", "--user_model")] = RUN.user_model,
    user_model_provider: Annotated[
        str, typer.Option("--user-model-provider", "--user_model_provider")
    ] = RUN.user_model_provider,
    temperature: Annotated[float, typer.Option("--temperature")] = RUN.temperature,
    max_concurrency: Annotated[int, typer.Option("--max-concurrency", "--max_concurrency")] = RUN.max_concurrency,
    seed: Annotated[int, typer.Option("--seed")] = RUN.seed,
    shuffle: Annotated[int, typer.Option("--shuffle", help="1: shuffle task order within each trial.")] = int(
        RUN.shuffle
    ),
    log_dir: Annotated[Path, typer.Option("--log-dir", "--log_dir")] = RUN.log_dir,
    few_shot_displays_path: Annotated[
        str, typer.Option("--few-shot-displays-path", "--few_shot_displays_path")
    ] = RUN.few_shot_displays_path,
    data_dir: DataDir = RUN.data_dir,
    env_addr: Annotated[
        str | None, typer.Option("--env-addr", "--env_addr", help="host:port of EnvService.")
    ] = RUN.env_addr,
    user_addr: Annotated[str | None, typer.Option("--user-addr", "--user_addr")] = RUN.user_addr,
    agent_addr: Annotated[
        str | None, typer.Option("--agent-addr", "--agent_addr", help="host:port of any AgentService (external).")
    ] = RUN.agent_addr,
    scorer_addr: Annotated[str | None, typer.Option("--scorer-addr", "--scorer_addr")] = RUN.scorer_addr,
    api_base: Annotated[
        str, typer.Option("--api-base", "--api_base", help="OpenAI-compatible base URL of the agent's model.")
    ] = RUN.api_base,
    user_api_base: Annotated[
        str, typer.Option("--user-api-base", "--user_api_base", help="OpenAI-compatible base URL of the user model.")
    ] = RUN.user_api_base,
    otlp_endpoint: Annotated[
        str | None,
        typer.Option(
            "--otlp-endpoint", help="OTLP/gRPC endpoint for traces and metrics (or OTEL_EXPORTER_OTLP_ENDPOINT)."
        ),
    ] = RUN.otlp_endpoint,
    retry_errors: Annotated[
        Path | None,
        typer.Option(
            "--retry-errors", "--retry_errors", help="Rerun only the episodes this results file records as errors."
        ),
    ] = RUN.retry_errors,
    resume: Annotated[
        Path | None, typer.Option("--resume", help="Continue this results file: rerun what it lacks or errored.")
    ] = RUN.resume,
    max_steps: Annotated[int, typer.Option("--max-steps", "--max_steps")] = RUN.max_steps,
    quiet: Annotated[bool, typer.Option("--quiet", help="No progress bar.")] = RUN.quiet,
) -> None:
    """Run tasks × trials of a domain and write τ-bench's results file.

    Every option can also be set by its environment variable or in the --config file.
    """
    from taumesh.orchestrator.runner import ConfigError, print_summary, run_benchmark

    settings = load_from_command_line(ctx, RunSettings, config_file)
    config = settings.run_config()
    if settings.resume and settings.retry_errors:
        console.print("[red]error:[/red] --resume and --retry-errors are two ways to continue one file; pick one")
        raise typer.Exit(2)
    if settings.user_strategy == "human" and (settings.user_addr is not None or settings.max_concurrency > 1):
        console.print(
            "[red]error:[/red] --user-strategy human reads this terminal: it needs the embedded user service "
            "(no --user-addr) and one episode at a time (--max-concurrency 1)"
        )
        raise typer.Exit(2)
    problem = _strategy_problem(config) or _model_problem(config)
    if problem:
        console.print(f"[red]error:[/red] {escape(problem)}", soft_wrap=True)
        raise typer.Exit(2)
    from taumesh.llm.access import granted
    from taumesh.telemetry import setup_telemetry, shutdown_telemetry

    setup_telemetry("orchestrator", config.otlp_endpoint)
    resume_from = settings.resume or settings.retry_errors
    try:
        with granted(_run_grants(config)):
            only_errors = settings.retry_errors is not None
            summary = asyncio.run(run_benchmark(config, resume=resume_from, only_errors=only_errors, console=console))
    except (ConfigError, DataError) as exc:
        console.print(f"[red]error:[/red] {exc}")
        raise typer.Exit(2) from exc
    finally:
        shutdown_telemetry()  # flush the last spans and metrics
    print_summary(summary, Console())
    if summary.results and not summary.scored:
        console.print(
            f"[red]error:[/red] no episode was scored: all {len(summary.results)} ended in errors "
            "(see info.error in the results file; --retry-errors reruns them)",
            soft_wrap=True,
        )
        raise typer.Exit(1)


def _strategy_problem(config: RunConfig) -> str | None:
    """Why the built-in services cannot run the chosen strategies, or None.

    Only checked for services started in-process: a remote service knows its own strategies.
    """
    from taumesh.services.agent.strategies import STRATEGIES as AGENTS
    from taumesh.services.user_sim.strategies import STRATEGIES as USERS

    agent, user = config.agent.strategy, config.user.strategy
    if config.addresses.agent is None:
        if agent not in AGENTS:
            return f"unknown agent strategy {agent!r}; built-in: {', '.join(sorted(AGENTS))}"
        if agent != "oracle" and not config.agent.model.model:
            return f"--agent-strategy {agent} needs --model"
    if config.addresses.user is None and user not in USERS:
        return f"unknown user strategy {user!r}; built-in: {', '.join(sorted(USERS))}"
    return None


USER_STRATEGIES_WITHOUT_MODEL = frozenset({"scripted", "human"})
"""User strategies that call no model (every other built-in one does)."""


def _model_problem(config: RunConfig) -> str | None:
    """Why the models of this run cannot be called, found before any episode starts, or None.

    A provider litellm does not know, few-shot without its file, missing credentials. Credentials and files are
    checked only for services started here: a remote service uses its own environment.
    """
    from taumesh.llm.preflight import credentials_problem, provider_problem

    agent, user = config.agent, config.user
    checks: list[tuple[ModelSettings, str, str, bool]] = []
    if agent.strategy != "oracle":
        checks.append((agent.model, "--model", "--model-provider", config.addresses.agent is None))
    if user.strategy not in USER_STRATEGIES_WITHOUT_MODEL:
        checks.append((user.model, "--user-model", "--user-model-provider", config.addresses.user is None))
    for settings, _, provider_flag, _ in checks:
        problem = provider_problem(settings.provider, provider_flag)
        if problem:
            return problem
    if agent.strategy == "few-shot":
        path = agent.few_shot_displays_path
        if not path:
            return '--agent-strategy few-shot needs --few-shot-displays-path (a JSONL of {"messages_display": ...})'
        if config.addresses.agent is None and not Path(path).is_file():
            return f"--few-shot-displays-path {path}: no such file"
    for settings, model_flag, _, embedded in checks:
        problem = credentials_problem(settings, model_flag) if embedded else None
        if problem:
            return problem
    return None


def _run_grants(config: RunConfig) -> OperatorGrants:
    """What this run's own flags allow its in-process services: its model endpoints, few-shot file, a human user."""
    from taumesh.llm.access import OperatorGrants

    few_shot = [config.agent.few_shot_displays_path] if config.agent.few_shot_displays_path else []
    return OperatorGrants.of(
        api_bases=[config.agent.model.api_base, config.user.model.api_base], few_shot_paths=few_shot, human_user=True
    )


@app.command(cls=listing_env_vars(ServeSettings))
def serve(
    ctx: typer.Context,
    service: Annotated[ServiceName | None, typer.Argument(help="Which service to run.", show_default=False)] = None,
    config_file: ConfigFile = None,
    port: Annotated[int, typer.Option("--port", help="Port to listen on (0: any free port).")] = SERVE.port,
    host: Annotated[str, typer.Option("--host")] = SERVE.host,
    data_dir: DataDir = SERVE.data_dir,
    otlp_endpoint: Annotated[
        str | None,
        typer.Option("--otlp-endpoint", help="OTLP/gRPC endpoint for traces and metrics (or OTEL_EXPORTER_OTLP_*)."),
    ] = SERVE.otlp_endpoint,
) -> None:
    """Run one service alone, with health checking and reflection, until SIGTERM.

    Every option, SERVICE included, can also be set by its environment variable or in the --config file, so a
    container needs no command-line arguments.
    """
    from taumesh.domains import Catalog
    from taumesh.rpc.server import Service, serve_forever
    from taumesh.services.agent import agent_service
    from taumesh.services.env import env_service
    from taumesh.services.scorer import scorer_service
    from taumesh.services.user_sim import user_sim_service

    settings = load_from_command_line(ctx, ServeSettings, config_file)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    catalog = Catalog(settings.data_dir)
    builders: dict[ServiceName, Callable[[], Service]] = {
        ServiceName.env: lambda: env_service(catalog),
        ServiceName.user_sim: user_sim_service,
        ServiceName.agent: lambda: agent_service(catalog),
        ServiceName.scorer: lambda: scorer_service(catalog),
    }
    from taumesh.telemetry import setup_telemetry, shutdown_telemetry

    telemetry = setup_telemetry(settings.service.value, settings.otlp_endpoint)
    built = builders[settings.service]()
    try:
        asyncio.run(
            serve_forever([built], settings.host, settings.port, interceptors=telemetry.primary.server_interceptors())
        )
    finally:
        shutdown_telemetry()  # after the graceful stop: flush what the last calls recorded


@app.command()
def rescore(
    results: Annotated[Path, typer.Argument(help="A results file from taumesh or τ-bench's run.py.")],
    env: Annotated[str, typer.Option("--env", help="Domain the results are from.")],
    data_dir: DataDirOrEnv = DEFAULT_DATA_DIR,
    task_split: Annotated[str, typer.Option("--task-split", "--task_split")] = "test",
    out: Annotated[Path | None, typer.Option("--out", help="Where to write the per-trajectory comparison.")] = None,
    env_addr: Annotated[str | None, typer.Option("--env-addr", "--env_addr")] = None,
    scorer_addr: Annotated[str | None, typer.Option("--scorer-addr", "--scorer_addr")] = None,
) -> None:
    """Replay each recorded trajectory in a fresh session and recompute its reward."""
    from taumesh.orchestrator.rescore import print_rescore, rescore_file

    try:
        rows = asyncio.run(
            rescore_file(results, env, task_split, data_dir, ServiceAddresses(env=env_addr, scorer=scorer_addr), out)
        )
    except (FileNotFoundError, ValueError, DataError) as exc:  # ValueError: not a results file
        console.print(f"[red]error:[/red] {exc}")
        raise typer.Exit(2) from exc
    agree = print_rescore(rows, Console())
    raise typer.Exit(0 if agree else 1)


@app.command()
def analyze(
    results: Annotated[Path, typer.Argument(help="A results file from taumesh or τ-bench's run.py.")],
    model: Annotated[str, typer.Option("--model", help="The model that judges.")],
    model_provider: Annotated[str, typer.Option("--model-provider", "--model_provider")] = "",
    api_base: Annotated[str, typer.Option("--api-base", "--api_base", help="OpenAI-compatible base URL.")] = "",
    temperature: Annotated[float, typer.Option("--temperature")] = 0.0,
    out: Annotated[
        Path | None, typer.Option("--out", help="Where to write the report (default: RESULTS_faults.json).")
    ] = None,
    env: Annotated[
        str | None,
        typer.Option("--env", help="Domain of the results: tasks come from the data; else from the results file."),
    ] = None,
    task_split: Annotated[str, typer.Option("--task-split", "--task_split")] = "test",
    data_dir: DataDirOrEnv = DEFAULT_DATA_DIR,
    scorer_addr: Annotated[
        str | None, typer.Option("--scorer-addr", "--scorer_addr", help="host:port of a ScorerService.")
    ] = None,
    max_concurrency: Annotated[int, typer.Option("--max-concurrency", "--max_concurrency", min=1)] = 4,
) -> None:
    """Ask a model who is at fault (user, agent, environment) in each failed episode, and how."""
    from taumesh.orchestrator.analyze import AnalyzeError, analyze_results, print_fault_summary

    target = out or results.with_name(f"{results.stem}_faults.json")
    settings = ModelSettings(model=model, provider=model_provider, api_base=api_base, temperature=temperature)
    try:
        report = asyncio.run(
            analyze_results(
                results,
                settings,
                target,
                env=env,
                task_split=task_split,
                data_dir=data_dir,
                scorer_addr=scorer_addr,
                max_concurrency=max_concurrency,
            )
        )
    except (AnalyzeError, OSError, ValueError) as exc:
        console.print(f"[red]error:[/red] {exc}")
        raise typer.Exit(2) from exc
    print_fault_summary(report, Console(), target)


_LIST_FLAGS = ("--task-ids", "--task_ids")


def expand_list_flags(argv: list[str]) -> list[str]:
    """Accept τ-bench's ``--task-ids 1 2 3`` (argparse ``nargs="+"``) as well as ``--task-ids 1 --task-ids 2``."""
    out: list[str] = []
    i = 0
    while i < len(argv):
        flag = argv[i]
        values = []
        if flag in _LIST_FLAGS:
            j = i + 1
            while j < len(argv) and argv[j].lstrip("-").isdigit() and not argv[j].startswith("--"):
                values.append(argv[j])
                j += 1
        if values:
            out += [part for value in values for part in (flag, value)]
            i += 1 + len(values)
        else:
            out.append(flag)
            i += 1
    return out


def main() -> None:
    """Entry point of the ``taumesh`` script."""
    app(args=expand_list_flags(sys.argv[1:]))
