"""The ``taumesh`` command: run a benchmark, serve one service, rescore a results file."""

from __future__ import annotations

import asyncio
import logging
import os
import sys
from collections.abc import Callable
from enum import StrEnum
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")

from taumesh.domains import DataError
from taumesh.models import AgentSettings, ModelSettings, UserSettings
from taumesh.orchestrator.config import DEFAULT_DATA_DIR, RunConfig, ServiceAddresses

app = typer.Typer(
    help="τ-bench as gRPC microservices: score conversational agents on stateful tool domains.",
    no_args_is_help=True,
    pretty_exceptions_show_locals=False,
)
console = Console(stderr=True)


DataDir = Annotated[
    Path,
    typer.Option("--data-dir", "--data_dir", help="τ-bench data: a folder per domain (env TAUMESH_DATA_DIR)."),
]


@app.command()
def run(
    env: Annotated[str, typer.Option("--env", help="Domain.")] = "retail",
    task_split: Annotated[str, typer.Option("--task-split", "--task_split", help="Task split.")] = "test",
    task_ids: Annotated[
        list[int] | None, typer.Option("--task-ids", "--task_ids", help="Run only these task ids (repeatable).")
    ] = None,
    start_index: Annotated[int, typer.Option("--start-index", "--start_index")] = 0,
    end_index: Annotated[int, typer.Option("--end-index", "--end_index", help="-1: to the end.")] = -1,
    num_trials: Annotated[int, typer.Option("--num-trials", "--num_trials", min=1)] = 1,
    agent_strategy: Annotated[
        str, typer.Option("--agent-strategy", "--agent_strategy", help="oracle, tool-calling, act, react, few-shot.")
    ] = "tool-calling",
    model: Annotated[str, typer.Option("--model", help="The agent's model.")] = "",
    model_provider: Annotated[str, typer.Option("--model-provider", "--model_provider")] = "",
    user_strategy: Annotated[
        str, typer.Option("--user-strategy", "--user_strategy", help="scripted, llm, react, verify, reflection, human.")
    ] = "llm",
    user_model: Annotated[str, typer.Option("--user-model", "--user_model")] = "gpt-4o",
    user_model_provider: Annotated[str, typer.Option("--user-model-provider", "--user_model_provider")] = "",
    temperature: Annotated[float, typer.Option("--temperature")] = 0.0,
    max_concurrency: Annotated[int, typer.Option("--max-concurrency", "--max_concurrency", min=1)] = 1,
    seed: Annotated[int, typer.Option("--seed")] = 10,
    shuffle: Annotated[int, typer.Option("--shuffle", help="1: shuffle task order within each trial.")] = 0,
    log_dir: Annotated[Path, typer.Option("--log-dir", "--log_dir")] = Path("results"),
    few_shot_displays_path: Annotated[str, typer.Option("--few-shot-displays-path", "--few_shot_displays_path")] = "",
    data_dir: DataDir = DEFAULT_DATA_DIR,
    env_addr: Annotated[str | None, typer.Option("--env-addr", "--env_addr", help="host:port of EnvService.")] = None,
    user_addr: Annotated[str | None, typer.Option("--user-addr", "--user_addr")] = None,
    agent_addr: Annotated[
        str | None, typer.Option("--agent-addr", "--agent_addr", help="host:port of any AgentService (external).")
    ] = None,
    scorer_addr: Annotated[str | None, typer.Option("--scorer-addr", "--scorer_addr")] = None,
    api_base: Annotated[
        str, typer.Option("--api-base", "--api_base", help="OpenAI-compatible base URL of the agent's model.")
    ] = "",
    user_api_base: Annotated[
        str, typer.Option("--user-api-base", "--user_api_base", help="OpenAI-compatible base URL of the user model.")
    ] = "",
    otlp_endpoint: Annotated[
        str | None,
        typer.Option(
            "--otlp-endpoint", help="OTLP/gRPC endpoint for traces and metrics (or OTEL_EXPORTER_OTLP_ENDPOINT)."
        ),
    ] = None,
    retry_errors: Annotated[
        Path | None,
        typer.Option(
            "--retry-errors", "--retry_errors", help="Rerun only the episodes this results file records as errors."
        ),
    ] = None,
    resume: Annotated[
        Path | None, typer.Option("--resume", help="Continue this results file: rerun what it lacks or errored.")
    ] = None,
    max_steps: Annotated[int, typer.Option("--max-steps", "--max_steps", min=1)] = 30,
    quiet: Annotated[bool, typer.Option("--quiet", help="No progress bar.")] = False,
) -> None:
    """Run tasks × trials of a domain and write τ-bench's results file."""
    from taumesh.orchestrator.runner import ConfigError, print_summary, run_benchmark

    config = RunConfig(
        env=env,
        task_split=task_split,
        task_ids=task_ids or None,
        start_index=start_index,
        end_index=end_index,
        num_trials=num_trials,
        agent=AgentSettings(
            strategy=agent_strategy,
            model=ModelSettings(
                model=model, provider=model_provider, temperature=temperature, seed=seed, api_base=api_base
            ),
            few_shot_displays_path=few_shot_displays_path,
        ),
        user=UserSettings(
            strategy=user_strategy,
            model=ModelSettings(
                model=user_model, provider=user_model_provider, temperature=0.0, seed=seed, api_base=user_api_base
            ),
        ),
        max_concurrency=max_concurrency,
        seed=seed,
        shuffle=bool(shuffle),
        log_dir=log_dir,
        data_dir=data_dir,
        addresses=ServiceAddresses(env=env_addr, user=user_addr, agent=agent_addr, scorer=scorer_addr),
        max_steps=max_steps,
        show_progress=not quiet and user_strategy != "human",  # a live bar would garble what the person types
        otlp_endpoint=otlp_endpoint,
    )
    if resume and retry_errors:
        console.print("[red]error:[/red] --resume and --retry-errors are two ways to continue one file; pick one")
        raise typer.Exit(2)
    if user_strategy == "human" and (user_addr is not None or max_concurrency > 1):
        console.print(
            "[red]error:[/red] --user-strategy human reads this terminal: it needs the embedded user service "
            "(no --user-addr) and one episode at a time (--max-concurrency 1)"
        )
        raise typer.Exit(2)
    problem = _strategy_problem(config)
    if problem:
        console.print(f"[red]error:[/red] {problem}")
        raise typer.Exit(2)
    from taumesh.telemetry import setup_telemetry, shutdown_telemetry

    setup_telemetry("orchestrator", config.otlp_endpoint)
    try:
        summary = asyncio.run(
            run_benchmark(config, resume=resume or retry_errors, only_errors=retry_errors is not None, console=console)
        )
    except (ConfigError, DataError) as exc:
        console.print(f"[red]error:[/red] {exc}")
        raise typer.Exit(2) from exc
    finally:
        shutdown_telemetry()  # flush the last spans and metrics
    print_summary(summary, Console())


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


class ServiceName(StrEnum):
    """The services ``taumesh serve`` can run."""

    env = "env"
    user_sim = "user-sim"
    agent = "agent"
    scorer = "scorer"


@app.command()
def serve(
    service: Annotated[ServiceName, typer.Argument(help="Which service to run.")],
    port: Annotated[int, typer.Option("--port", help="Port to listen on (0: any free port).")] = 50051,
    host: Annotated[str, typer.Option("--host")] = "0.0.0.0",  # noqa: S104 - a service is meant to be reached
    data_dir: DataDir = DEFAULT_DATA_DIR,
    otlp_endpoint: Annotated[
        str | None,
        typer.Option("--otlp-endpoint", help="OTLP/gRPC endpoint for traces and metrics (or OTEL_EXPORTER_OTLP_*)."),
    ] = None,
) -> None:
    """Run one service alone, with health checking and reflection, until SIGTERM."""
    from taumesh.domains import Catalog
    from taumesh.rpc.server import Service, serve_forever
    from taumesh.services.agent import agent_service
    from taumesh.services.env import env_service
    from taumesh.services.scorer import scorer_service
    from taumesh.services.user_sim import user_sim_service

    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    catalog = Catalog(data_dir)
    builders: dict[ServiceName, Callable[[], Service]] = {
        ServiceName.env: lambda: env_service(catalog),
        ServiceName.user_sim: user_sim_service,
        ServiceName.agent: lambda: agent_service(catalog),
        ServiceName.scorer: lambda: scorer_service(catalog),
    }
    from taumesh.telemetry import setup_telemetry, shutdown_telemetry

    telemetry = setup_telemetry(service.value, otlp_endpoint)
    built = builders[service]()
    try:
        asyncio.run(serve_forever([built], host, port, interceptors=telemetry.primary.server_interceptors()))
    finally:
        shutdown_telemetry()  # after the graceful stop: flush what the last calls recorded


@app.command()
def rescore(
    results: Annotated[Path, typer.Argument(help="A results file from taumesh or τ-bench's run.py.")],
    env: Annotated[str, typer.Option("--env", help="Domain the results are from.")],
    data_dir: DataDir = DEFAULT_DATA_DIR,
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
    data_dir: DataDir = DEFAULT_DATA_DIR,
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
