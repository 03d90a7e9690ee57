"""Healthcare's tasks and task labels behind a gate: the domain runs only while ``TAUMESH_TEST_CLINIC_GATE`` is set.

A labelled domain that cannot always run, as ``tau2-banking-knowledge`` (alltools) runs only with an embedding
model: the viewer must show its labels where it cannot run. Found through ``TAUMESH_DOMAIN_PATH``.
"""

from __future__ import annotations

import dataclasses
import os

from taumesh.domains.healthcare import HealthcarePlugin
from taumesh.domains.healthcare import plugin as clinic

GATE = "TAUMESH_TEST_CLINIC_GATE"


class GatedClinic(HealthcarePlugin):
    def run_problem(self) -> str | None:
        return None if os.environ.get(GATE) else f"the gated clinic runs only with {GATE} set"


fields = {field.name: getattr(clinic, field.name) for field in dataclasses.fields(clinic)}
plugin = GatedClinic(**{**fields, "name": "gated_clinic"})
