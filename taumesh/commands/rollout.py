"""``taumesh rollout`` (a group of rollouts to a JSON Lines file) and ``taumesh serve rollout`` (the gRPC server).

``taumesh rollout`` plays through :func:`taumesh.rollout.stream_rollouts` in this process and writes each episode
as one JSON line as it ends; its request is checked as the REST API's ``POST /api/v1/rollouts`` body is, and a bad
one exits 2 before any episode plays. ``taumesh serve rollout`` serves ``taumesh.rollout.v1.RolloutService``.
"""

from __future__ import annotations

import asyncio
import contextlib
import sys
from pathlib import Path
from typing import IO, Annotated

import typer
from pydantic import ValidationError

from taumesh.commands import HELP_OPTIONS
from taumesh.commands._common import AgentAddr, DataDir, EnvAddr, ScorerAddr, UserAddr

Names = Annotated[list[str] | None, typer.Option(help="Comma-separated, or the flag repeated.", show_default=False)]


def _split(values: list[str] | None) -> list[str]:
    return [part.strip() for value in values or [] for part in value.split(",") if part.strip()]


def _fail(message: str) -> typer.Exit:
    typer.echo(f"error: {message}", err=True)
    return typer.Exit(2)


def rollout(
    env: Annotated[str, typer.Option("--env", help="Domain (hospitality, retail, tau2-airline…).")],
    task_ids: Annotated[list[str], typer.Option("--task-ids", help="Task ids of the split, comma-separated.")],
    out: Annotated[Path, typer.Option("--out", help="JSON Lines file of the episodes; - for stdout.")] = Path("-"),
    trials: Annotated[int, typer.Option("--trials", help="Rollouts of each task.")] = 1,
    seed: Annotated[int | None, typer.Option("--seed", help="The run's seed (SHA-256 per task and trial).")] = None,
    task_split: Annotated[str | None, typer.Option("--task-split", help="Split; default: the domain's first.")] = None,
    agent_strategy: Annotated[str, typer.Option("--agent-strategy")] = "tool-calling",
    user_strategy: Annotated[str, typer.Option("--user-strategy")] = "llm",
    model: Annotated[str, typer.Option("--model", help="The agent's model.")] = "gpt-4o",
    model_provider: Annotated[str, typer.Option("--model-provider")] = "openai",
    user_model: Annotated[str, typer.Option("--user-model", help="The simulated user's model.")] = "gpt-4o",
    user_model_provider: Annotated[str, typer.Option("--user-model-provider")] = "openai",
    max_concurrency: Annotated[int, typer.Option("--max-concurrency", help="Episodes in flight.")] = 8,
    *,
    data_dir: DataDir,
) -> None:
    """Play TRIALS seeded rollouts of each task and write each episode as a JSON line as it ends.

    Each line is a RolloutEpisode (docs/rollouts.md): trajectory, reward, reward vector, seed, error. Services run in
    this process. A request the REST API would refuse (an unknown strategy, trials < 1, a task the split lacks)
    exits 2 before any episode plays.
    """
    from taumesh.api.schemas import RolloutsRequest
    from taumesh.orchestrator.domain_info import ConfigError
    from taumesh.rollout.server import RolloutOperator, play_rollouts

    try:
        body = RolloutsRequest(
            env=env,
            task_ids=_split(task_ids),
            trials=trials,
            seed=seed,
            task_split=task_split,
            agent_strategy=agent_strategy,
            user_strategy=user_strategy,
            model=model,
            model_provider=model_provider,
            user_model=user_model,
            user_model_provider=user_model_provider,
            max_concurrency=max_concurrency,
        )
    except ValidationError as exc:
        problems = "; ".join(
            f"--{'-'.join(str(p) for p in e['loc']).replace('_', '-')}: {str(e['msg']).removeprefix('Value error, ')}"
            for e in exc.errors()
        )
        raise _fail(problems) from None

    async def write(sink: IO[str]) -> int:
        written = 0
        stream = play_rollouts(body, RolloutOperator(data_dir=data_dir, max_concurrency=max_concurrency))
        async with contextlib.aclosing(stream):
            async for episode in stream:
                sink.write(episode.model_dump_json() + "\n")
                sink.flush()
                written += 1
        return written

    try:
        if str(out) == "-":
            count = asyncio.run(write(sys.stdout))
        else:
            with out.open("w", encoding="utf-8") as sink:
                count = asyncio.run(write(sink))
    except ConfigError as exc:  # an unknown domain, split or task: raised before any episode plays
        if str(out) != "-":
            out.unlink(missing_ok=True)
        raise _fail(str(exc)) from None
    typer.echo(f"{count} episodes" + ("" if str(out) == "-" else f" written to {out}"), err=True)


def serve_rollout(
    host: Annotated[str, typer.Option("--host", help="Address to listen on (0.0.0.0 in a container).")] = "127.0.0.1",
    port: Annotated[int, typer.Option("--port", help="gRPC port (0: any free port).")] = 50061,
    env_addr: EnvAddr = None,
    user_addr: UserAddr = None,
    agent_addr: AgentAddr = None,
    scorer_addr: ScorerAddr = None,
    api_base: Annotated[str, typer.Option("--api-base", help="Endpoint of the agent's model (a trainer's).")] = "",
    user_api_base: Annotated[str, typer.Option("--user-api-base", help="Endpoint of the user's model.")] = "",
    allowed_models: Annotated[
        list[str] | None,
        typer.Option("--allowed-model", help="A model requests may name (repeatable); none: any the REST API allows."),
    ] = None,
    max_concurrency: Annotated[
        int, typer.Option("--max-concurrency", min=1, help="Upper bound of a request's max_concurrency.")
    ] = 16,
    log_dir: Annotated[
        Path | None, typer.Option("--log-dir", help="Keep each call's results file here; default: not kept.")
    ] = None,
    token_file: Annotated[
        Path | None, typer.Option("--token-file", help="A token every call but health checks must send (Bearer).")
    ] = None,
    *,
    data_dir: DataDir,
) -> None:
    """Serve taumesh.rollout.v1.RolloutService (group rollouts over gRPC) with health checking, until SIGTERM.

    Requests name what to play; the data, the services, the model endpoints and the allowed models are these
    options, never a request's. Services without an address are started once in this process.
    """
    import logging

    from taumesh.orchestrator.config import ServiceAddresses
    from taumesh.rollout.server import RolloutOperator, serve_rollouts
    from taumesh.rpc.loop import run as run_loop
    from taumesh.rpc.security import SecurityError, ServerSecurity, read_token

    try:
        security = ServerSecurity(token=read_token(token_file, None))
    except SecurityError as exc:
        raise _fail(str(exc)) from None
    operator = RolloutOperator(
        data_dir=data_dir,
        addresses=ServiceAddresses(env=env_addr, user=user_addr, agent=agent_addr, scorer=scorer_addr),
        api_base=api_base,
        user_api_base=user_api_base,
        allowed_models=allowed_models or [],
        max_concurrency=max_concurrency,
        log_dir=log_dir,
    )
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    run_loop(serve_rollouts(operator, host, port, security))


def main(args: list[str]) -> None:
    """``taumesh serve rollout ARGS``."""
    app = typer.Typer(context_settings=HELP_OPTIONS, pretty_exceptions_show_locals=False)
    app.command(name="rollout")(serve_rollout)
    app(args=args, prog_name="taumesh serve rollout")
