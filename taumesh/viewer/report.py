"""``taumesh report``: a leaderboard across runs, in Markdown or HTML, with plots (matplotlib, headless)."""

from __future__ import annotations

import html
from collections.abc import Sequence
from pathlib import Path

from pydantic import BaseModel

from taumesh.orchestrator.results.validity import RunValidity
from taumesh.stats import Interval
from taumesh.viewer.metrics import RunSummary, summarize
from taumesh.viewer.runs import Run

METHOD_NOTE = (
    "Intervals: 95 %, scipy's bootstrap (BCa) over tasks with each task's trials kept together, 1999 resamples; "
    "flipping tasks: some trials succeeded and some failed; costs: agent, user simulator and judge, interrupted "
    "attempts included (docs/statistics.md)."
)
SIMULATORS_NOTE = (
    "Warning: these runs were played against different user simulators ({versions}). Scores from different "
    "simulators are not comparable: swapping the simulator moved one published result from 78 % to about 50 % "
    "(τ² #345), and τ² pins simulator versions for that reason (docs/results.md)."
)


class LeaderboardRow(BaseModel):
    """One run's line of the leaderboard."""

    run: str
    model: str
    strategy: str
    domain: str
    user_sim_versions: list[str]
    """The user-simulator versions the run's results record (``info.user_sim_version``)."""
    pass_hat_k: dict[int, float]
    pass_hat_k_intervals: dict[int, Interval] = {}
    average_reward: float | None
    average_reward_interval: Interval | None = None
    flipping: int = 0
    tasks: int = 0
    agent_cost: float = 0.0
    user_cost: float = 0.0
    judge_cost: float = 0.0
    total_cost: float = 0.0
    cost_per_task: float | None
    cost_per_solved_task: float | None
    validity: RunValidity | None = None


def leaderboard(runs: Sequence[Run]) -> tuple[list[LeaderboardRow], list[RunSummary]]:
    """One row per run, best pass^1 first."""
    summaries = [summarize(run) for run in runs]
    rows = [
        LeaderboardRow(
            run=s.name,
            model=s.model,
            strategy=s.strategy,
            domain=s.domain,
            user_sim_versions=run.user_sim_versions,
            pass_hat_k=s.pass_hat_k,
            pass_hat_k_intervals=s.pass_hat_k_intervals,
            average_reward=s.average_reward,
            average_reward_interval=s.average_reward_interval,
            flipping=len(s.flipping),
            tasks=s.tasks,
            agent_cost=s.agent_cost,
            user_cost=s.user_cost,
            judge_cost=s.judge_cost,
            total_cost=s.total_cost,
            cost_per_task=s.cost_per_task,
            cost_per_solved_task=s.cost_per_solved_task,
            validity=s.validity,
        )
        for run, s in zip(runs, summaries, strict=True)
    ]
    order = sorted(range(len(rows)), key=lambda i: -rows[i].pass_hat_k.get(1, 0.0))
    return [rows[i] for i in order], [summaries[i] for i in order]


def _number(value: float | None, digits: int = 4) -> str:
    return "–" if value is None else f"{value:.{digits}f}"


def _interval(interval: Interval | None) -> str:
    return "–" if interval is None else f"{interval.low:.4f}–{interval.high:.4f}"


def table_cells(rows: Sequence[LeaderboardRow]) -> tuple[list[str], list[list[str]]]:
    """The leaderboard's header and cells as text (k up to the most trials of any run).

    Each pass^k and the average reward are followed by their 95 % bootstrap interval over tasks; the costs are the
    full ones (agent, user simulator and judge, interrupted attempts included).
    """
    k_max = max((max(row.pass_hat_k, default=0) for row in rows), default=0)
    header = ["run", "model", "strategy", "domain", "user simulator"]
    for k in range(1, k_max + 1):
        header += [f"pass^{k}", f"pass^{k} 95 % CI"]
    header += ["avg reward", "avg reward 95 % CI", "flipping tasks"]
    header += ["agent ($)", "user ($)", "judge ($)", "total ($)", "cost per task ($)", "cost per solved task ($)"]
    header += ["certified score", "null floor", "flagged tasks", "bounds (flagged failed to passed)"]
    cells = []
    for row in rows:
        line = [row.run, row.model, row.strategy, row.domain, ", ".join(row.user_sim_versions)]
        for k in range(1, k_max + 1):
            line += [_number(row.pass_hat_k.get(k)), _interval(row.pass_hat_k_intervals.get(k))]
        line += [_number(row.average_reward), _interval(row.average_reward_interval), f"{row.flipping}/{row.tasks}"]
        line += [_number(cost, 6) for cost in (row.agent_cost, row.user_cost, row.judge_cost, row.total_cost)]
        line += [_number(row.cost_per_task, 6), _number(row.cost_per_solved_task, 6)]
        line += _validity_cells(row.validity)
        cells.append(line)
    return header, cells


def plot_pass_hat_k(summaries: Sequence[RunSummary], out: Path) -> None:
    """pass^k over k, one line per run, as PNG or SVG (by ``out``'s suffix)."""
    import matplotlib

    matplotlib.use("Agg")  # headless: no display is ever needed
    from matplotlib import pyplot

    figure, axes = pyplot.subplots(figsize=(6, 4))
    for summary in summaries:
        ks = sorted(summary.pass_hat_k)
        (line,) = axes.plot(ks, [summary.pass_hat_k[k] for k in ks], marker="o", label=summary.name[:60])
        bands = [k for k in ks if k in summary.pass_hat_k_intervals]
        if bands:  # the 95 % interval of each pass^k as a band
            low = [summary.pass_hat_k_intervals[k].low for k in bands]
            high = [summary.pass_hat_k_intervals[k].high for k in bands]
            axes.fill_between(bands, low, high, color=line.get_color(), alpha=0.15, linewidth=0)
    axes.set_xlabel("k")
    axes.set_ylabel("pass^k")
    axes.set_ylim(0, 1.05)
    axes.grid(alpha=0.3)
    axes.legend(fontsize=7)
    figure.tight_layout()
    figure.savefig(out)
    pyplot.close(figure)


def plot_rewards(summaries: Sequence[RunSummary], out: Path) -> None:
    """Each run's reward distribution (scored episodes per tenth of the reward range)."""
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib import pyplot

    figure, axes = pyplot.subplots(figsize=(6, 4))
    width = 0.8 / max(1, len(summaries))
    for i, summary in enumerate(summaries):
        bins = summary.reward_histogram
        axes.bar([b + i * width for b in range(len(bins))], bins, width=width, label=summary.name[:60])
    axes.set_xticks(range(len(summaries[0].reward_histogram) if summaries else 0))
    axes.set_xticklabels([f"{b / 10:.1f}" for b in range(len(summaries[0].reward_histogram) if summaries else 0)])
    axes.set_xlabel("reward (bin start)")
    axes.set_ylabel("episodes")
    axes.legend(fontsize=7)
    figure.tight_layout()
    figure.savefig(out)
    pyplot.close(figure)


def _validity_cells(found: RunValidity | None) -> list[str]:
    """The validity columns of one run: dashes without an audit (the lines under the table say why)."""
    v = found.validity if found is not None else None
    if v is None:
        return ["no stored audit" if found is not None else "–", "–", "–", "–"]
    certified = _number(v.certified_score)
    floor = f"{v.null_floor:.1%} ({v.null_floor_tasks}/{v.tasks_run})"
    return [certified, floor, f"{v.flagged_tasks}/{v.tasks_run}", f"{v.lower_bound:.4f} to {v.upper_bound:.4f}"]


def simulators_note(rows: Sequence[LeaderboardRow]) -> str:
    """The warning under a leaderboard whose runs were played against different user simulators ('' when one).

    It names each version with the runs played against it; ``unrecorded`` counts as a version of its own, as
    ``taumesh compare`` counts it: nothing says which simulator played.
    """
    runs: dict[str, list[str]] = {}
    for row in rows:
        for version in row.user_sim_versions:
            runs.setdefault(version, []).append(row.run)
    if len(runs) < 2:
        return ""
    versions = "; ".join(f"{version}: {', '.join(names)}" for version, names in sorted(runs.items()))
    return SIMULATORS_NOTE.format(versions=versions)


def validity_lines(rows: Sequence[LeaderboardRow]) -> list[str]:
    """Per run, its validity line (or the line saying no audit is stored and how to make one)."""
    return [f"{row.run}: {row.validity.line()}" for row in rows if row.validity is not None]


def markdown(
    header: list[str], cells: list[list[str]], plots: Sequence[Path], validity: Sequence[str] = (), warning: str = ""
) -> str:
    """The report as Markdown: the table, the simulators' warning (bold, quoted), the validity lines, then the plots."""
    lines = ["# taumesh report", "", "| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(cell.replace("|", "\\|") for cell in row) + " |" for row in cells]
    lines += ["", f"> **{warning}**"] if warning else []
    lines += ["", *(f"- {line}" for line in validity), ""] if validity else []
    lines += ["", METHOD_NOTE, "", *(f"![{plot.stem}]({plot.name})" for plot in plots), ""]
    return "\n".join(lines)


def html_page(
    header: list[str], cells: list[list[str]], plots: Sequence[Path], validity: Sequence[str] = (), warning: str = ""
) -> str:
    """The report as one HTML page: the table, the simulators' warning (in red), the validity lines, then the plots."""
    head = "".join(f"<th>{html.escape(cell)}</th>" for cell in header)
    body = "".join("<tr>" + "".join(f"<td>{html.escape(cell)}</td>" for cell in row) + "</tr>" for row in cells)
    images = "".join(f'<p><img src="{html.escape(plot.name)}" alt="{html.escape(plot.stem)}"></p>' for plot in plots)
    said = "".join(f"<li>{html.escape(line)}</li>" for line in validity)
    images = (f'<ul id="validity">{said}</ul>' if said else "") + images
    warned = f'<p id="simulators" class="warning"><strong>{html.escape(warning)}</strong></p>' if warning else ""
    return (
        '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>taumesh report</title>'
        "<style>table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:3px 8px}"
        ".warning{color:#b71c1c;border-left:4px solid #b71c1c;padding-left:8px}</style></head>"
        f'<body><h1>taumesh report</h1><table id="leaderboard"><thead><tr>{head}</tr></thead>'
        f"<tbody>{body}</tbody></table>{warned}<p>{html.escape(METHOD_NOTE)}</p>{images}</body></html>\n"
    )


class WrittenReport(BaseModel):
    """What ``taumesh report`` wrote, and the warning it printed under the table (the command repeats it)."""

    files: list[Path]
    simulators_warning: str = ""
    """Non-empty when the runs were played against different user simulators (:func:`simulators_note`)."""


def write_report(runs: Sequence[Run], out: Path, plot_format: str = "png") -> WrittenReport:
    """Write the report to ``out`` (``.md`` or ``.html``) and its plots beside it."""
    if out.suffix not in (".md", ".html"):
        raise ValueError(f"--out must end in .md or .html, got {out.name}")
    rows, summaries = leaderboard(runs)
    header, cells = table_cells(rows)
    out.parent.mkdir(parents=True, exist_ok=True)
    plots = [out.with_name(f"{out.stem}_pass_hat_k.{plot_format}"), out.with_name(f"{out.stem}_rewards.{plot_format}")]
    plot_pass_hat_k(summaries, plots[0])
    plot_rewards(summaries, plots[1])
    lines, warning = validity_lines(rows), simulators_note(rows)
    page = markdown if out.suffix == ".md" else html_page
    out.write_text(page(header, cells, plots, lines, warning), encoding="utf-8")
    return WrittenReport(files=[out, *plots], simulators_warning=warning)
