"""The end-of-run report on the console: pass^k, intervals and cost, rewards, endings, usage, errors, trace links.

The live display while a run goes is :mod:`taumesh.orchestrator.run.progress`; each conversation as it ends,
:mod:`taumesh.orchestrator.results.transcript`.
"""

from __future__ import annotations

from collections import Counter

from rich.console import Console
from rich.table import Table

from taumesh.orchestrator.results.figures import cost_line, run_cost, run_usage, uncertainty_lines
from taumesh.orchestrator.results.names import errors_path
from taumesh.orchestrator.results.records import RunResult
from taumesh.orchestrator.results.validity import run_validity
from taumesh.orchestrator.run.runner import RunSummary
from taumesh.stats import is_success
from taumesh.telemetry import jaeger_url


def print_summary(summary: RunSummary, console: Console) -> None:
    """The end-of-run report: pass^k, rewards, errors, how episodes ended, usage."""
    scored, errors = summary.scored, summary.errors
    table = Table(title="pass^k", show_edge=False)
    table.add_column("k", justify="right")
    table.add_column("pass^k", justify="right")
    for k, value in summary.pass_hat_k.items():
        table.add_row(str(k), f"{value:.4f}")
    console.print(table)
    print_figures(summary.results, console)  # intervals, flipping tasks, full cost (docs/statistics.md)
    successes = sum(1 for r in scored if r.reward is not None and is_success(r.reward))
    average = f"{summary.average_reward:.4f}" if summary.average_reward is not None else "n/a"
    console.print(f"scored episodes: {len(scored)}   reward 1.0: {successes}/{len(scored)}   average reward: {average}")
    print_validity(summary, console)
    endings = Counter(str(r.info.get("termination")) for r in scored)
    console.print("episode endings: " + ", ".join(f"{k} {v}" for k, v in sorted(endings.items())))
    agent, user = run_usage(summary.results)
    interrupted = any(r.info.get("interrupted_attempts_usage") for r in summary.results)
    if agent.calls or user.calls:
        console.print(
            f"agent: {agent.prompt_tokens}+{agent.completion_tokens} tokens, ${agent.cost_usd:.4f}   "
            f"user: {user.prompt_tokens}+{user.completion_tokens} tokens, ${user.cost_usd:.4f}   "
            f"total: ${agent.cost_usd + user.cost_usd:.4f}"
            + (" (interrupted attempts included)" if interrupted else "")
        )
    if errors:
        kinds = Counter(str(r.info["error"].get("kind", "infrastructure")) for r in errors)
        counts = ", ".join(f"{kind.replace('_', ' ')} errors: {n}" for kind, n in sorted(kinds.items()))
        console.print(f"[red]not scored: {counts}[/red]")
        console.print(f"  rerun them with: taumesh run ... --retry-errors {summary.results_path}", soft_wrap=True)
        for r in errors[:10]:
            error = r.info["error"]
            console.print(f"  task {r.task_id} trial {r.trial} ({error.get('kind', 'error')}): {error['cause']}")
    print_trace_links(summary, console)
    if errors:
        console.print(f"errors: {errors_path(summary.results_path)}", soft_wrap=True)
    console.print(f"results: {summary.results_path}", soft_wrap=True)  # one line, for scripts reading the output


SHOWN_EXCLUDED = 20
"""Task ids the line of the strict grader's exclusions names."""


def print_validity(summary: RunSummary, console: Console) -> None:
    """Beside the score: the stored audit's validity line (or how to make one), and the strict grader's exclusions."""
    found = run_validity(summary.results)
    if found is not None:
        console.print(found.line(), markup=False, highlight=False, soft_wrap=True)
    if summary.excluded:
        ids = list(summary.excluded)
        shown = ", ".join(ids[:SHOWN_EXCLUDED]) + (", …" if len(ids) > SHOWN_EXCLUDED else "")
        console.print(
            f"strict grader: {len(ids)} selected tasks left out, their gold errors in replay: {shown}",
            markup=False,
            highlight=False,
            soft_wrap=True,
        )


def print_figures(results: list[RunResult], console: Console) -> None:
    """The summary's uncertainty and full-cost lines (:mod:`taumesh.orchestrator.results.figures`)."""
    for line in uncertainty_lines(results):
        console.print(line, markup=False, highlight=False)
    console.print(cost_line(run_cost(results)), markup=False, highlight=False)


def print_trace_links(summary: RunSummary, console: Console, limit: int = 10) -> None:
    """Where to open the traces of failed episodes (no success, or errors), when they were traced."""
    failed = [
        r
        for r in summary.results
        if r.info.get("trace_id") and (r.is_error or r.reward is None or not is_success(r.reward))
    ]
    if not failed:
        return
    console.print(f"traces of failed episodes ({len(failed)}; open in Jaeger):")
    for r in failed[:limit]:
        what = "error" if r.is_error else f"reward {r.reward:g}"
        console.print(f"  task {r.task_id} trial {r.trial} ({what}): {jaeger_url(r.info['trace_id'])}")
    if len(failed) > limit:
        console.print(f"  … and {len(failed) - limit} more (info.trace_id in the results file)")
