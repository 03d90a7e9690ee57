"""The commands that drive the services: run a benchmark, serve one service, rescore and analyze results.

``taumesh.cli`` imports this module only when one of them runs.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.console import Console
from rich.markup import escape
from typer._click.core import Context, ParameterSource  # typer vendors click: its contexts report this enum
from typer.core import TyperArgument, TyperCommand, TyperOption

os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")

from taumesh.commands import HELP_OPTIONS, OtlpEndpoint
from taumesh.commands._argv import expand_abbreviations
from taumesh.commands._paths import input_file_problem, overwrite_problem
from taumesh.commands._preflight import domain_problem, services_problem
from taumesh.domains import DataError
from taumesh.models import ModelSettings, is_tau2
from taumesh.orchestrator.config import DEFAULT_DATA_DIR, OutputFormat, RunConfig, ServiceAddresses
from taumesh.rpc.loop import run as run_loop
from taumesh.settings import (
    RunSettings,
    ServeSettings,
    ServiceName,
    Settings,
    SettingsError,
    TaumeshSettings,
    load_run_settings,
    load_settings,
)

if TYPE_CHECKING:
    from taumesh.llm.access import OperatorGrants
    from taumesh.orchestrator.runner import RunSummary


app = typer.Typer(no_args_is_help=True, pretty_exceptions_show_locals=False, context_settings=HELP_OPTIONS)
console = Console(stderr=True)


def _domain_choices() -> str:
    """The installed domain plugins, by name (entry points only: no plugin is imported to list them)."""
    from importlib.metadata import entry_points

    return ", ".join(sorted({point.name for point in entry_points(group="taumesh.domains")}))


def _strategy_choices(side: str) -> str:
    """The built-in strategies of the agent or the user, from their registries."""
    if side == "agent":
        from taumesh.services.agent.strategies import STRATEGIES as AGENTS

        return ", ".join(AGENTS)
    from taumesh.services.user_sim.strategies import STRATEGIES as USERS

    return ", ".join(USERS)


DOMAIN_HELP = f"Domain: {_domain_choices()}, or one added as a folder plugin (see docs/adding-a-domain.md)."
SPLIT_HELP = "Task split (default: the domain's first: test for τ-bench's, base for τ²'s)."
AGENT_STRATEGY_HELP = f"Built-in: {_strategy_choices('agent')} (any the agent knows with --agent-addr)."
USER_STRATEGY_HELP = f"Built-in: {_strategy_choices('user')}."

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


class AbbreviatingCommand(TyperCommand):
    """A command that accepts unique prefixes of its long options."""

    def parse_args(self, ctx: Context, args: list[str]) -> list[str]:
        options = {
            spelling: param.name or spelling
            for param in self.get_params(ctx)
            for spelling in (*param.opts, *param.secondary_opts)
            if spelling.startswith("--")
        }
        return super().parse_args(ctx, expand_abbreviations(args, options))


def listing_env_vars(settings_cls: type[TaumeshSettings]) -> type[TyperCommand]:
    """A command class whose ``--help`` names the environment variable of each parameter that is a setting.

    The variables are read by pydantic-settings, not by click (click would parse a list differently), so the
    name is added to the help text instead of being declared as the parameter's ``envvar``.
    """

    class SettingsCommand(AbbreviatingCommand):
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
    env: Annotated[str, typer.Option("--env", help=DOMAIN_HELP)] = RUN.env,
    domain: Annotated[
        str | None,
        typer.Option("--domain", help="τ²'s spelling of a τ² domain: airline, retail, telecom, mock (= --env tau2-…)."),
    ] = RUN.domain,
    task_split: Annotated[
        str | None, typer.Option("--task-split", "--task_split", "--task-split-name", help=SPLIT_HELP)
    ] = RUN.task_split,
    task_ids: Annotated[
        list[int] | None, typer.Option("--task-ids", "--task_ids", help="Run only these task ids (repeatable).")
    ] = RUN.task_ids,
    start_index: Annotated[int, typer.Option("--start-index", "--start_index")] = RUN.start_index,
    end_index: Annotated[int, typer.Option("--end-index", "--end_index", help="-1: to the end.")] = RUN.end_index,
    num_trials: Annotated[int, typer.Option("--num-trials", "--num_trials")] = RUN.num_trials,
    agent_strategy: Annotated[
        str, typer.Option("--agent-strategy", "--agent_strategy", help=AGENT_STRATEGY_HELP)
    ] = RUN.agent_strategy,
    model: Annotated[
        str, typer.Option("--model", "--agent-llm", help="The agent's model (litellm's provider/model form too).")
    ] = RUN.model,
    model_provider: Annotated[str, typer.Option("--model-provider", "--model_provider")] = RUN.model_provider,
    user_strategy: Annotated[
        str, typer.Option("--user-strategy", "--user_strategy", help=USER_STRATEGY_HELP)
    ] = RUN.user_strategy,
    user_model: Annotated[str, typer.Option("--user-model", "--user_model", "--user-llm")] = RUN.user_model,
    user_model_provider: Annotated[
        str, typer.Option("--user-model-provider", "--user_model_provider")
    ] = RUN.user_model_provider,
    temperature: Annotated[float, typer.Option("--temperature")] = RUN.temperature,
    max_concurrency: Annotated[int, typer.Option("--max-concurrency", "--max_concurrency")] = RUN.max_concurrency,
    provider_limit: Annotated[
        list[str] | None,
        typer.Option(
            "--provider-limit",
            "--provider_limit",
            help="PROVIDER=N (repeatable): at most N model calls in flight to that provider over the whole run, "
            "workers included; a provider's 429s narrow it for a while.",
        ),
    ] = None,
    workers: Annotated[
        int,
        typer.Option(
            "--workers",
            min=0,
            help="Orchestrator processes sharing the run (--max-concurrency split among them): for very wide runs "
            "whose orchestrator CPU is the bottleneck. 0, with --work-store: coordinate only.",
        ),
    ] = RUN.workers,
    work_store: Annotated[
        str | None,
        typer.Option(
            "--work-store",
            help="The run's work store, a SQLAlchemy URL (postgresql+psycopg://…): workers on other machines join "
            "the run with `taumesh worker --work-store URL`. Default: a SQLite file beside the results.",
        ),
    ] = RUN.work_store,
    seed: Annotated[
        int | None, typer.Option("--seed", help="Default: 300 for τ² (per-trial seeds as τ² derives them), else 10.")
    ] = RUN.seed,
    shuffle: Annotated[int, typer.Option("--shuffle", help="1: shuffle task order within each trial.")] = int(
        RUN.shuffle
    ),
    log_dir: Annotated[Path, typer.Option("--log-dir", "--log_dir")] = RUN.log_dir,
    few_shot_displays_path: Annotated[
        str, typer.Option("--few-shot-displays-path", "--few_shot_displays_path")
    ] = RUN.few_shot_displays_path,
    agent_id: Annotated[str, typer.Option("--agent-id", "--agent_id", help="dialogflow-cx: the CX agent's id.")] = "",
    project_id: Annotated[str, typer.Option("--project-id", "--project_id", help="dialogflow-cx: its project.")] = "",
    location: Annotated[str, typer.Option("--location", help="dialogflow-cx: its location.")] = RUN.location,
    agent_tools: Annotated[str, typer.Option("--agent-tools", help="inline, or mcp: tools over MCP.")] = "inline",
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
    otlp_endpoint: OtlpEndpoint = RUN.otlp_endpoint,
    retry_errors: Annotated[
        Path | None,
        typer.Option(
            "--retry-errors", "--retry_errors", help="Rerun only the episodes this results file records as errors."
        ),
    ] = RUN.retry_errors,
    resume: Annotated[
        Path | None, typer.Option("--resume", help="Continue this results file: rerun what it lacks or errored.")
    ] = RUN.resume,
    max_steps: Annotated[
        int | None, typer.Option("--max-steps", "--max_steps", help="Default: 200 for τ² domains, 30 for τ-bench.")
    ] = RUN.max_steps,
    max_errors: Annotated[
        int | None,
        typer.Option("--max-errors", help="End an episode at this many tool errors (default: 10 for τ², no limit)."),
    ] = RUN.max_errors,
    num_tasks: Annotated[int | None, typer.Option("--num-tasks", help="Only the first N selected tasks.")] = (
        RUN.num_tasks
    ),
    output_format: Annotated[
        OutputFormat,
        typer.Option(
            "--output-format",
            help="taubench: τ-bench's list; tau2: τ²'s Results document; mt: the MT-bench fork's data/ folder; "
            "several joined by commas (taubench,mt); both = taubench,tau2.",
        ),
    ] = RUN.output_format,
    dataset_name: Annotated[
        str, typer.Option("--dataset-name", help="The MT layout's folder: data/{dataset_name}_{env}_{timestamp}.")
    ] = RUN.dataset_name,
    mt_fork_folder: Annotated[
        bool,
        typer.Option(
            "--mt-fork-folder",
            help="The MT folder where the fork writes it: ./data/{dataset_name}_{timestamp} in the working "
            "directory (no env added, not under --log-dir).",
        ),
    ] = RUN.mt_fork_folder,
    judge_model: Annotated[
        str,
        typer.Option("--judge-model", help="Model judging τ²'s NL assertions (litellm's provider/model form)."),
    ] = RUN.judge_model,
    judge_api_base: Annotated[
        str, typer.Option("--judge-api-base", help="OpenAI-compatible base URL of the judge model.")
    ] = RUN.judge_api_base,
    quiet: Annotated[bool, typer.Option("--quiet", help="No live progress display.")] = RUN.quiet,
    verbose: Annotated[
        bool, typer.Option("--verbose", "-v", help="Print each episode's conversation as it ends.")
    ] = RUN.verbose,
) -> None:
    """Run tasks × trials of a domain and write τ-bench's results file.

    Every option can also be set by its environment variable or in the --config file. A --config file in the
    MT-bench fork's form (dataset_name, model_name, subsets) runs each subset in turn.
    """
    flags = {
        name: value
        for name, value in ctx.params.items()
        if name in RunSettings.model_fields and ctx.get_parameter_source(name) is ParameterSource.COMMANDLINE
    }
    try:
        runs = load_run_settings(flags, config_file)
    except SettingsError as exc:
        for line in str(exc).splitlines():
            console.print(f"[red]error:[/red] {escape(line)}", soft_wrap=True)
        raise typer.Exit(2) from exc
    summaries = []
    for number, settings in enumerate(runs, 1):
        if len(runs) > 1:
            console.rule(f"run {number}/{len(runs)}: {settings.env}")
        summaries.append(_run_one(settings))
    if len(runs) > 1:
        for settings, summary in zip(runs, summaries, strict=True):
            scored = f"{len(summary.scored)}/{len(summary.results)} scored"
            console.print(f"{settings.env}: {scored}, results: {summary.results_path}", soft_wrap=True)
    from taumesh.orchestrator.results_names import errors_path

    for summary in summaries:
        if summary.results and not summary.scored:
            console.print(
                f"[red]error:[/red] no episode was scored: all {len(summary.results)} ended in errors "
                f"(see info.error in {errors_path(summary.results_path)}; --retry-errors reruns them)",
                soft_wrap=True,
            )
    if any(summary.results and not summary.scored for summary in summaries):
        raise typer.Exit(1)


def _run_one(settings: RunSettings) -> RunSummary:
    """Play one run of ``taumesh run`` and print its report; exit 2 on settings that cannot run."""
    from taumesh.orchestrator.console import print_summary
    from taumesh.orchestrator.interrupt import RunInterrupted
    from taumesh.orchestrator.runner import ConfigError, WorkersFailed, run_benchmark

    config = settings.run_config()
    if settings.resume and settings.retry_errors:
        console.print("[red]error:[/red] --resume and --retry-errors are two ways to continue one file; pick one")
        raise typer.Exit(2)
    if settings.user_strategy == "human" and (
        settings.user_addr is not None or settings.max_concurrency > 1 or settings.workers > 1
    ):
        console.print(
            "[red]error:[/red] --user-strategy human reads this terminal: it needs the embedded user service "
            "(no --user-addr) and one episode at a time (--max-concurrency 1, --workers 1)"
        )
        raise typer.Exit(2)
    problem = _strategy_problem(config) or _model_problem(config)
    if problem is None and config.addresses.env is None:
        problem = domain_problem(config.env, config.data_dir)
    problem = problem or services_problem(config.addresses)  # last: it waits for remote services to answer
    if problem:
        console.print(f"[red]error:[/red] {escape(problem)}", soft_wrap=True)
        raise typer.Exit(2)
    from taumesh.llm.access import granted
    from taumesh.rpc.security import SecurityError
    from taumesh.telemetry import setup_telemetry, shutdown_telemetry

    setup_telemetry("orchestrator", config.otlp_endpoint)
    resume_from = settings.resume or settings.retry_errors
    try:
        with granted(_run_grants(config)):
            only_errors = settings.retry_errors is not None
            summary = run_loop(
                run_benchmark(
                    config,
                    resume=resume_from,
                    only_errors=only_errors,
                    console=console,
                    handle_signals=True,
                )
            )
    except (ConfigError, DataError, SecurityError) as exc:  # SecurityError: unusable TAUMESH_TLS_*/TOKEN settings
        console.print(f"[red]error:[/red] {escape(str(exc))}", soft_wrap=True)
        raise typer.Exit(2) from exc
    except WorkersFailed as exc:
        console.print(f"[red]error:[/red] {exc}", soft_wrap=True)
        raise typer.Exit(1) from exc
    except RunInterrupted as exc:
        console.print(f"[red]error:[/red] {exc}", soft_wrap=True)
        raise typer.Exit(exc.exit_code) from exc  # as a process the signal ended
    finally:
        shutdown_telemetry()  # flush the last spans and metrics
    print_summary(summary, Console())
    return summary


def _strategy_problem(config: RunConfig) -> str | None:
    """Why the built-in services cannot run the chosen strategies, or None.

    Only checked for services started in-process: a remote service knows its own strategies.
    """
    from taumesh.services.agent.strategies import STRATEGIES as AGENTS
    from taumesh.services.agent.strategies import WITHOUT_MODEL as AGENTS_WITHOUT_MODEL
    from taumesh.services.user_sim.strategies import STRATEGIES as USERS

    agent, user = config.agent.strategy, config.user.strategy
    if config.addresses.agent is None:
        if agent not in AGENTS:
            return f"unknown agent strategy {agent!r}; built-in: {', '.join(sorted(AGENTS))}"
        if agent not in AGENTS_WITHOUT_MODEL and not config.agent.model.model:
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
    agent, user = config.agent, config.user
    checks: list[tuple[ModelSettings, str, str, bool]] = []
    if agent.strategy not in ("oracle", "dialogflow-cx", "decibel"):
        checks.append((agent.model, "--model", "--model-provider", config.addresses.agent is None))
    if user.strategy not in USER_STRATEGIES_WITHOUT_MODEL:
        checks.append((user.model, "--user-model", "--user-model-provider", config.addresses.user is None))
    if not checks:
        return None  # no model to check: litellm (seconds to import) stays off the start path
    from taumesh.llm.preflight import credentials_problem, provider_problem

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
        api_bases=[config.agent.model.api_base, config.user.model.api_base, config.judge.api_base],
        few_shot_paths=few_shot,
        human_user=True,
    )


@app.command(cls=listing_env_vars(ServeSettings))
def serve(
    ctx: typer.Context,
    service: Annotated[ServiceName | None, typer.Argument(help="Which service to run.", show_default=False)] = None,
    config_file: ConfigFile = None,
    port: Annotated[int, typer.Option("--port", help="Port to listen on (0: any free port).")] = SERVE.port,
    host: Annotated[
        str,
        typer.Option("--host", help="Address to listen on: loopback by default, 0.0.0.0 in a container."),
    ] = SERVE.host,
    data_dir: DataDir = SERVE.data_dir,
    otlp_endpoint: OtlpEndpoint = SERVE.otlp_endpoint,
    session_idle_timeout: Annotated[
        float, typer.Option("--session-idle-timeout", help="env: seconds an unused session lives before it is reaped.")
    ] = SERVE.session_idle_timeout,
    max_sessions: Annotated[
        int, typer.Option("--max-sessions", help="env: open sessions at most (more: RESOURCE_EXHAUSTED).")
    ] = SERVE.max_sessions,
    user_reply_cpu_ms: Annotated[
        float,
        typer.Option(
            "--user-reply-cpu-ms", help="user-sim: CPU ms each reply burns (load simulation for capacity planning)."
        ),
    ] = SERVE.user_reply_cpu_ms,
    user_reply_latency_ms: Annotated[
        float,
        typer.Option("--user-reply-latency-ms", help="user-sim: ms each reply waits (simulated model latency)."),
    ] = SERVE.user_reply_latency_ms,
    agent_reply_latency_ms: Annotated[
        float,
        typer.Option("--agent-reply-latency-ms", help="agent: ms each NextMessage waits (simulated model latency)."),
    ] = SERVE.agent_reply_latency_ms,
    tls_cert: Annotated[
        Path | None, typer.Option("--tls-cert", help="PEM certificate chain; with --tls-key the service speaks TLS.")
    ] = None,
    tls_key: Annotated[Path | None, typer.Option("--tls-key", help="PEM private key of --tls-cert.")] = None,
    tls_client_ca: Annotated[
        Path | None, typer.Option("--tls-client-ca", help="PEM CA that clients' certificates must chain to (mTLS).")
    ] = None,
    token_file: Annotated[
        Path | None,
        typer.Option(
            "--token-file",
            help="File holding a shared token that every call but health checks must send as "
            "'authorization: Bearer <token>'.",
        ),
    ] = None,
    token: Annotated[
        str | None,
        typer.Option(
            "--token",
            help="The shared token; prefer --token-file or the environment (a flag shows in the process list).",
        ),
    ] = None,
) -> None:
    """Run one service alone, with health checking and reflection, until SIGTERM.

    Every option, SERVICE included, can also be set by its environment variable or in the --config file, so a
    container needs no command-line arguments. Loopback is the default address. Clients of a TLS or
    token-protected service set its CA and the token in their own environment (README: Running the services apart).
    `taumesh serve api` runs the REST API instead, with options of its own (`taumesh serve api --help`).
    """
    from taumesh.domains import Catalog
    from taumesh.rpc.security import SecurityError
    from taumesh.rpc.server import Service, serve_forever
    from taumesh.services.agent import agent_service
    from taumesh.services.env import env_service
    from taumesh.services.scorer import scorer_service
    from taumesh.services.user_sim import user_sim_service

    settings = load_from_command_line(ctx, ServeSettings, config_file)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    try:
        security = settings.security()
        security.credentials()  # a missing or unreadable file is reported now, not at the first call
    except SecurityError as exc:
        console.print(f"[red]error:[/red] {escape(str(exc))}", soft_wrap=True)
        raise typer.Exit(2) from exc
    catalog = Catalog(settings.data_dir)
    builders: dict[ServiceName, Callable[[], Service]] = {
        ServiceName.env: lambda: env_service(catalog, settings.session_idle_timeout, settings.max_sessions),
        ServiceName.user_sim: lambda: user_sim_service(
            settings.user_reply_cpu_ms, settings.user_reply_latency_ms, settings.data_dir
        ),
        ServiceName.agent: lambda: agent_service(catalog, settings.agent_reply_latency_ms),
        ServiceName.scorer: lambda: scorer_service(catalog),
    }
    from taumesh.telemetry import setup_telemetry, shutdown_telemetry

    telemetry = setup_telemetry(settings.service.value, settings.otlp_endpoint)
    built = builders[settings.service]()
    try:
        run_loop(
            serve_forever(
                [built],
                settings.host,
                settings.port,
                interceptors=telemetry.primary.server_interceptors(),
                security=security,
            )
        )
    finally:
        shutdown_telemetry()  # after the graceful stop: flush what the last calls recorded


@app.command(cls=AbbreviatingCommand)
def rescore(
    results: Annotated[Path, typer.Argument(help="A results file from taumesh or τ-bench's run.py.")],
    env: Annotated[
        str | None,
        typer.Option(
            "--env", help=f"The results' {DOMAIN_HELP[0].lower()}{DOMAIN_HELP[1:]} Default: the one the file records."
        ),
    ] = None,
    data_dir: DataDirOrEnv = DEFAULT_DATA_DIR,
    task_split: Annotated[
        str | None,
        typer.Option(
            "--task-split", "--task_split", "--task-split-name", help="Default: base for τ² domains, else test."
        ),
    ] = None,
    out: Annotated[Path | None, typer.Option("--out", help="Where to write the per-trajectory comparison.")] = None,
    env_addr: Annotated[str | None, typer.Option("--env-addr", "--env_addr")] = None,
    scorer_addr: Annotated[str | None, typer.Option("--scorer-addr", "--scorer_addr")] = None,
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
) -> None:
    """Replay each recorded trajectory in a fresh session and recompute its reward.

    Reads τ-bench's results files (taumesh's, τ-bench's run.py's) and τ²'s Results documents (τ²'s own and
    taumesh's --output-format tau2). taumesh's files and τ²'s record their domain; a file of τ-bench's run.py
    needs --env. A τ² domain's --env is its taumesh name (tau2-airline).
    """
    from taumesh.orchestrator.rescore import (
        RescoreError,
        print_rescore,
        print_task_changes,
        recorded_domain,
        rescore_file,
    )

    _refuse(input_file_problem(results, "a results file") or overwrite_problem(out, "--out", [results]))
    env = env or recorded_domain(results)
    if env is None:
        console.print(
            f"[red]error:[/red] {escape(str(results))} does not record its domain (τ-bench's run.py writes none); "
            "pass --env",
            soft_wrap=True,
        )
        raise typer.Exit(2)
    if task_split is None:
        task_split = "base" if is_tau2(env) else "test"
    if env_addr is None:  # the embedded env: the domain and its data must be there
        _refuse(domain_problem(env, data_dir))
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
            rows = run_loop(rescore_file(results, env, task_split, data_dir, addresses, out, judge=judge))
    except (FileNotFoundError, ValueError, DataError, RescoreError) as exc:  # ValueError: not a results file
        console.print(f"[red]error:[/red] {escape(str(exc))}", soft_wrap=True)
        raise typer.Exit(2) from exc
    agree = print_rescore(rows, Console())
    explained = print_task_changes(rows, Console(), fresh_tasks=fresh_tasks)
    raise typer.Exit(0 if agree or explained else 1)


def _refuse(problem: str | None) -> None:
    """Print ``problem`` as one error line and exit 2; nothing when there is none."""
    if problem:
        console.print(f"[red]error:[/red] {escape(problem)}", soft_wrap=True)
        raise typer.Exit(2)


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
        tools = set(catalog.get(env).tools_by_name)
    except (KeyError, DataError):
        return None  # an unknown domain is reported by the rescore itself
    foreign = sorted(recorded - tools)
    if not foreign:
        return None
    fitting = []
    for name in catalog.names():
        try:
            if name != env and recorded <= set(catalog.get(name).tools_by_name):
                fitting.append(name)
        except (KeyError, DataError):
            continue
    guess = f"; they fit {' or '.join(fitting)}" if fitting else ""
    return (
        f"{results.name} records tasks whose gold actions call tools {env} does not have "
        f"({', '.join(foreign[:3])}{', ...' if len(foreign) > 3 else ''}){guess}: is --env {env} right?"
    )


ANALYZE_CONNECT_TIMEOUT = 10.0
"""Seconds a given --scorer-addr has to answer a health check before analyze gives up."""


async def _scorer_problem(address: str, timeout: float) -> str | None:
    """Why the scorer at ``address`` cannot be used (it does not answer in ``timeout`` seconds), or None."""
    import grpc
    from grpc_health.v1 import health_pb2, health_pb2_grpc

    from taumesh.orchestrator.clients import remote_channel

    async with remote_channel(address) as channel:
        try:
            await health_pb2_grpc.HealthStub(channel).Check(health_pb2.HealthCheckRequest(), timeout=timeout)
        except grpc.aio.AioRpcError as exc:
            if exc.code() == grpc.StatusCode.UNIMPLEMENTED:  # answers, without the health service
                return None
            return f"the scorer at {address} did not answer within {timeout:g}s ({exc.code().name})"
    return None


@app.command(cls=AbbreviatingCommand)
def analyze(
    results: Annotated[
        Path | None, typer.Argument(help="A results file from taumesh or τ-bench's run.py (or --results-path).")
    ] = None,
    results_path: Annotated[
        Path | None, typer.Option("--results-path", "--results_path", help="The results file (τ-bench's spelling).")
    ] = None,
    model: Annotated[str, typer.Option("--model", help="The model that judges.")] = "",
    model_provider: Annotated[
        str,
        typer.Option(
            "--model-provider", "--model_provider", "--platform", help="litellm provider (τ-bench: --platform)."
        ),
    ] = "",
    api_base: Annotated[
        str, typer.Option("--api-base", "--api_base", "--base-url", help="OpenAI-compatible base URL.")
    ] = "",
    temperature: Annotated[float, typer.Option("--temperature")] = 0.0,
    out: Annotated[
        Path | None,
        typer.Option("--out", "--output-path", help="Where to write the report (default: RESULTS_faults.json)."),
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
    max_num_failed_results: Annotated[
        int | None,
        typer.Option(
            "--max-num-failed-results", "--max_num_failed_results", "-n", min=0, help="Analyze the first N failures."
        ),
    ] = None,
    timeout: Annotated[
        float, typer.Option("--timeout", min=1.0, help="Give up after this many seconds in all (nothing is written).")
    ] = 3600.0,
) -> None:
    """Ask a model who is at fault (user, agent, environment) in each failed episode, and how."""
    from taumesh.llm.access import OperatorGrants, granted
    from taumesh.orchestrator.analyze import AnalyzeError, analyze_results, print_fault_summary, provider_of_platform
    from taumesh.orchestrator.results_names import faults_path

    problem = _analyze_problem(results, results_path, model)
    source = results or results_path
    if problem is None and source is not None:
        problem = input_file_problem(source, "a results file")
        problem = problem or overwrite_problem(out, "--out/--output-path", [source])
    provider = provider_of_platform(model_provider)
    if problem is None and provider:
        from taumesh.llm.preflight import provider_problem

        problem = provider_problem(provider, "--platform/--model-provider")
    if problem:
        console.print(f"[red]error:[/red] {escape(problem)}", soft_wrap=True)
        raise typer.Exit(2)
    results = results or results_path
    assert results is not None  # _analyze_problem saw to it
    target = out or faults_path(results)
    settings = ModelSettings(model=model, provider=provider, api_base=api_base, temperature=temperature)

    async def bounded() -> Any:
        if scorer_addr:
            problem = await _scorer_problem(scorer_addr, min(timeout / 2, ANALYZE_CONNECT_TIMEOUT))
            if problem:
                raise AnalyzeError(problem)
        return await analyze_results(
            results,
            settings,
            target,
            env=env,
            task_split=task_split,
            data_dir=data_dir,
            scorer_addr=scorer_addr,
            max_concurrency=max_concurrency,
            max_failed=max_num_failed_results,
        )

    try:
        with granted(OperatorGrants.of(api_bases=[api_base])):  # the in-process scorer may call the given endpoint
            report = run_loop(asyncio.wait_for(bounded(), timeout))
    except TimeoutError as exc:
        console.print(f"[red]error:[/red] the analysis did not finish within {timeout:g}s (--timeout); nothing written")
        raise typer.Exit(1) from exc
    except (AnalyzeError, OSError, ValueError) as exc:
        console.print(f"[red]error:[/red] {exc}")
        raise typer.Exit(2) from exc
    print_fault_summary(report, Console(), target)


def _analyze_problem(results: Path | None, results_path: Path | None, model: str) -> str | None:
    """Why ``taumesh analyze``'s arguments name no single results file or no judge, or None."""
    if results is not None and results_path is not None and results != results_path:
        return f"two results files: {results} and --results-path {results_path}; give one"
    if results is None and results_path is None:
        return "which results file? Give it as the argument or as --results-path"
    if not model:
        return "--model names the model that judges (for example gpt-4o)"
    return None
