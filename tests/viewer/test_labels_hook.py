"""The viewer's task labels are the domain's ``labels()`` hook: a domain naming other fields is shown by them, and
the default reads the task model's ``LABELS`` (healthcare release 1's ``HealthcareTask``)."""

from __future__ import annotations

from pathlib import Path

import pytest

from taumesh.domains import DOMAIN_PATH_ENV
from taumesh.domains._scaffold import write_skeleton
from taumesh.viewer.labels import task_labels
from tests.helpers.healthcare import PLUGIN_PATH, V1

OWN_LABELS = """

class Labelled(FactoryPlugin):
    def labels(self) -> tuple[str, ...]:
        return ("solver", "tier")


plugin = Labelled(**{name: getattr(plugin, name) for name in plugin.__dataclass_fields__})
"""


def test_the_viewer_shows_the_fields_the_hook_names(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    write_skeleton("labelled", tmp_path / "domains")
    init = tmp_path / "domains" / "labelled" / "__init__.py"
    init.write_text(init.read_text(encoding="utf-8") + OWN_LABELS, encoding="utf-8")
    monkeypatch.setenv(DOMAIN_PATH_ENV, str(tmp_path / "domains"))
    found = task_labels("labelled", tmp_path)
    assert len(found) == 12  # both splits
    assert {tuple(sorted(labels)) for labels in found.values()} == {("solver", "tier")}
    assert {labels["solver"] for labels in found.values()} == {"increase_counter"}


def test_the_default_reads_the_task_models_labels(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(DOMAIN_PATH_ENV, str(PLUGIN_PATH))
    found = task_labels(V1)
    assert found and all(set(labels) == {"intent", "tier", "trap", "dual_control"} for labels in found.values())
    assert {labels["trap"] for labels in found.values()} == {"true", "false"}
