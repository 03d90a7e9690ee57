"""What a `taumesh` process imports before it serves or plays: only what its own job needs.

The test suite starts hundreds of these processes (``taumesh serve``, ``taumesh run``, workers, embedded service
children), so an import that one of them does not need costs CI its CPU hundreds of times: ``serve env`` once
imported the scorer's numpy, the agent's httpx and the orchestrator's run options (~0.4 s of CPU per process).
Each probe is a fresh interpreter importing the modules such a process imports before its first call.
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

import taumesh.settings
import taumesh.stats

SERVICES = (
    "taumesh.commands.serve",
    "taumesh.settings",
    "taumesh.services.env",
    "taumesh.services.user_sim",
    "taumesh.services.scorer",
    "taumesh.orchestrator.run.service_processes",
)
"""``taumesh serve env|user-sim|scorer`` and a spawned embedded service child (the agent is probed alone)."""

PROBES: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "services": (
        SERVICES,
        (
            "numpy",
            "sqlalchemy",
            "httpx",
            "uvicorn",
            "jinja2",
            "litellm",
            "taumesh.services.agent",
            "taumesh.orchestrator.options",
            "taumesh.orchestrator.run_spec",
        ),
    ),
    "agent": (("taumesh.services.agent",), ("numpy", "sqlalchemy", "httpx", "litellm", "taumesh.orchestrator.options")),
    "run": (
        ("taumesh.commands.run", "taumesh.settings._run", "taumesh.orchestrator.benchmark"),
        ("numpy", "sqlalchemy", "httpx", "uvicorn", "jinja2", "litellm", "taumesh.orchestrator.run_spec"),
    ),
    "worker": (
        ("taumesh.commands.worker", "taumesh.orchestrator.scale.worker"),
        ("numpy", "httpx", "uvicorn", "jinja2", "litellm"),
    ),
}
"""Per kind of process: what it imports, and what it must not have imported by then."""


@pytest.mark.parametrize("kind", sorted(PROBES))
def test_a_process_imports_only_what_its_job_needs(kind: str) -> None:
    imports, unneeded = PROBES[kind]
    probe = (
        f"import json, sys\nimport {', '.join(imports)}\n"
        f"print(json.dumps([name for name in {list(unneeded)!r} if name in sys.modules]))"
    )
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True).stdout
    assert json.loads(out) == [], f"{kind}: imported before its first call"


def test_the_names_imported_on_first_use_resolve_and_others_are_refused() -> None:
    assert taumesh.settings.RunSettings.__name__ == "RunSettings"
    assert taumesh.stats.TrialTable.__name__ == "TrialTable"
    for module in (taumesh.settings, taumesh.stats):
        with pytest.raises(AttributeError, match="no attribute 'NoSuchName'"):
            module.NoSuchName  # noqa: B018
