"""τ² domains over the fetched data, loaded once per process, and where the expected values live (read only)."""

from __future__ import annotations

import importlib
from pathlib import Path

from taumesh.domains import Domain
from taumesh.domains.tau2 import Tau2Plugin
from tests.helpers.paths import SHARED

TAU2_EXPECTED = SHARED / "tau2"


def tau2_plugin(source_name: str) -> Tau2Plugin:
    plugin = importlib.import_module(f"taumesh.domains.tau2_{source_name}").plugin
    assert isinstance(plugin, Tau2Plugin)
    return plugin


_DOMAINS: dict[str, Domain] = {}


def tau2_domain(source_name: str) -> Domain:
    """The domain over the fetched data, loaded once per test run."""
    if source_name not in _DOMAINS:
        plugin = tau2_plugin(source_name)
        _DOMAINS[source_name] = Domain(plugin, plugin.data_dir(Path()))
    return _DOMAINS[source_name]
