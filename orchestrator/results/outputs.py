"""The layouts a finished run is written in (``--output-format``), beside τ-bench's results file, and its manifest.

What needs numpy (the MT layout's statistics and figures, the manifest's pass^k table) is imported when a run is
written: the runner imports this module, and so does every worker, which never writes one.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from taumesh.orchestrator.config import RunConfig
from taumesh.orchestrator.results.manifest import build_manifest, manifest_path, write_manifest
from taumesh.orchestrator.results.names import errors_path
from taumesh.orchestrator.results.records import RunResult
from taumesh.orchestrator.results.tau2_layout import Tau2Tasks, tau2_path, write_tau2_results
from taumesh.stats import TrialOutcome


def write_outputs(
    config: RunConfig, results_path: Path, results: list[RunResult], served: Tau2Tasks | None = None
) -> Path:
    """Write every layout ``config.output_format`` names from the run's results; return the run's main output.

    τ-bench's file ``results_path`` is always written while the run goes (it is what ``--resume`` reads). τ²'s
    document goes beside it (``X.tau2.json``), the MT layout under ``log_dir/data/``. Without ``taubench`` in the
    format, τ-bench's file is deleted once every episode is scored, and the main output is τ²'s document, else the
    MT folder; while errors remain it stays, with its errors file, for ``--retry-errors``. Last, the run's manifest
    (``X.json.manifest``: config, data release, code version, checksums of every file written) goes beside them.
    ``served`` is what the env served for τ²'s document
    (:func:`~taumesh.orchestrator.results.tau2_layout.fetch_tau2_tasks`).
    """
    layouts = config.layouts
    written: list[Path] = []
    if "tau2" in layouts:
        document = tau2_path(results_path)
        write_tau2_results(document, config, results, served)
        written.append(document)
    if "mt" in layouts:
        from taumesh.orchestrator.results.mt_layout import write_mt_results  # its statistics and figures: numpy

        written.append(write_mt_results(config, results))
    if "taubench" in layouts or any(result.is_error for result in results):
        main = results_path
    else:
        results_path.unlink(missing_ok=True)  # nothing left to retry: the other layouts are the run's files
        main = written[0]
    outputs = [results_path, errors_path(results_path), *written]
    manifest = build_manifest(config, results_path.parent, outputs, results, run_metrics(results))
    write_manifest(manifest_path(results_path), manifest)
    return main


def run_metrics(results: list[RunResult]) -> dict[str, Any]:
    """pass^k (k = 1..trials) and the average reward of the scored episodes, as the manifest records them."""
    scored = [
        TrialOutcome(str(r.task_id), r.trial, r.reward) for r in results if not r.is_error and r.reward is not None
    ]
    if not scored:
        return {}
    from taumesh.stats import TrialTable  # numpy: imported by a run once it is done, never by a worker

    table = TrialTable(scored)
    return {
        "pass_hat_k": {str(k): float(table.all_k_succeed(k).mean()) for k in range(1, table.trials + 1)},
        "average_reward": float(table.reward_sums.sum() / table.counts.sum()),
        "tasks": table.tasks,
        "trials": table.trials,
    }
