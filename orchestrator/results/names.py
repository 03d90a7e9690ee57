"""Results file names: τ-bench's name of a run's file, and the files kept beside it (errors, faults)."""

from __future__ import annotations

import re
from pathlib import Path

from taumesh.orchestrator.config import RunConfig
from taumesh.orchestrator.results.records import AgentIdentity


def safe_name(text: str, limit: int = 64) -> str:
    """``text`` with every character other than letters, digits, '.', '_' and '-' made '_' (at most ``limit``)."""
    return re.sub(r"[^A-Za-z0-9._-]", "_", text)[:limit].lstrip(".")


def agent_label(agent: AgentIdentity) -> str:
    """An external agent's name for file names: its reported name, else its address, reduced to safe characters."""
    return safe_name(agent.name) or safe_name(agent.address) or "external"


def results_filename(config: RunConfig, agent: AgentIdentity | None, time_str: str) -> str:
    """τ-bench v1's checkpoint file name, with ``--end-index`` as given (``-1`` included, as τ-bench writes it).

    ``{agent}-{model}-{temperature}_range_{start}-{end}_user-{user model}-{user strategy}_{time}.json``.
    An external agent is named by what it reports (or its address), never by the ``--agent-strategy`` default.
    """
    model = config.agent.model.model.split("/")[-1]
    if agent is None:
        who, model = config.agent.strategy, model or config.agent.strategy
    else:
        who, model = agent_label(agent), model or safe_name(agent.version) or "external"
    user_model = config.user.model.model.split("/")[-1] or "none"
    run = safe_name(
        f"{who}-{model}-{config.agent.model.temperature}_range_{config.start_index}-{config.end_index}"
        f"_user-{user_model}-{config.user.strategy}",
        limit=200,
    )
    return f"{run}_{safe_name(time_str)}.json"


ERRORS_SUFFIX = ".errors.json"
"""A results file ``X.json`` keeps its infrastructure errors beside it, in ``X.errors.json`` (docs/results.md)."""


def errors_path(results_path: Path) -> Path:
    """Where the errors of the results file ``results_path`` live."""
    return results_path.with_name(results_path.name.removesuffix(".json") + ERRORS_SUFFIX)


def faults_path(results_path: Path) -> Path:
    """Where ``taumesh analyze`` writes the fault report of ``results_path`` (``X_faults.json`` beside ``X.json``)."""
    return results_path.with_name(f"{results_path.stem}_faults.json")
