"""A service's process starts without the heavy imports only a model call needs (litellm: seconds of CPU)."""

from __future__ import annotations

import subprocess
import sys

import pytest


@pytest.mark.parametrize(
    "module",
    [
        "taumesh.commands.serve",
        "taumesh.services.env.servicer",
        "taumesh.services.user_sim.servicer",
        "taumesh.services.agent.servicer",
        "taumesh.services.scorer.servicer",
    ],
)
def test_a_service_starts_without_importing_litellm(module: str) -> None:
    probe = f"import sys, {module}; print('litellm' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "False"
