"""The layouts a finished run is written in (``--output-format``), beside τ-bench's results file."""

from __future__ import annotations

from pathlib import Path

from taumesh.orchestrator.config import RunConfig
from taumesh.orchestrator.mt_results import write_mt_results
from taumesh.orchestrator.results import RunResult
from taumesh.orchestrator.tau2_results import tau2_path, write_tau2_results


def write_outputs(config: RunConfig, results_path: Path, results: list[RunResult]) -> Path:
    """Write every layout ``config.output_format`` names from the run's results; return the run's main output.

    τ-bench's file ``results_path`` is always written while the run goes (it is what ``--resume`` reads). τ²'s
    document goes beside it (``X.tau2.json``), the MT layout under ``log_dir/data/``. Without ``taubench`` in the
    format, τ-bench's file is deleted once every episode is scored, and the main output is τ²'s document, else the
    MT folder; while errors remain it stays, with its errors file, for ``--retry-errors``.
    """
    layouts = config.layouts
    written: list[Path] = []
    if "tau2" in layouts:
        document = tau2_path(results_path)
        write_tau2_results(document, config, results)
        written.append(document)
    if "mt" in layouts:
        written.append(write_mt_results(config, results))
    if "taubench" in layouts or any(result.is_error for result in results):
        return results_path
    results_path.unlink(missing_ok=True)  # nothing left to retry: the other layouts are the run's files
    return written[0]
