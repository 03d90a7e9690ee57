"""``taumesh analyze``: whose fault each failed episode was (τ-bench's auto error identification, checks first)."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.markup import escape

from taumesh.commands import HELP_OPTIONS
from taumesh.commands._common import DataDir, ProviderLimit, ScorerAddr, console
from taumesh.commands._options import ArgparseCommand
from taumesh.commands._paths import input_file_problem, overwrite_problem
from taumesh.models import ModelSettings
from taumesh.rpc.loop import run as run_loop

app = typer.Typer(add_completion=False, pretty_exceptions_show_locals=False, context_settings=HELP_OPTIONS)


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


@app.command(cls=ArgparseCommand)
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
        typer.Option(
            "--env",
            help="Domain of the results: tasks come from the data; else as the results file records them (from its "
            "domain's data when it records none).",
        ),
    ] = None,
    task_split: Annotated[
        str | None,
        typer.Option(
            "--task-split",
            "--task_split",
            help="Default: the split the file records, else the domain's first (τ-bench's test, τ²'s base).",
        ),
    ] = None,
    *,
    data_dir: DataDir,
    scorer_addr: ScorerAddr = None,
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
    provider_limit: ProviderLimit = None,
) -> None:
    """Who is at fault in each failed episode (agent, user simulator, task, environment), and each simulator's rate."""
    from taumesh.llm.access import OperatorGrants, granted
    from taumesh.orchestrator.after.analyze import (
        AnalyzeError,
        analyze_results,
        print_fault_summary,
        provider_of_platform,
    )
    from taumesh.orchestrator.results.names import faults_path

    problem = _analyze_problem(results, results_path, model)
    source = results or results_path
    if problem is None and source is not None:
        problem = input_file_problem(source, "a results file")
        problem = problem or overwrite_problem(out, "--out/--output-path", [source])
    caps: dict[str, int] = {}
    if problem is None:
        from taumesh.llm.limiter import parse_provider_limits

        try:
            caps = parse_provider_limits(provider_limit or [])
        except ValueError as exc:
            problem = f"--provider-limit: {exc}"
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
            provider_limits=caps,
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
