"""The healthcare domain, found through ``TAUMESH_DOMAIN_PATH`` (its entry point is not declared yet)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from taumesh.domains import DOMAIN_PATH_ENV, Catalog, Domain, Registry

PLUGIN_PATH = Path(__file__).resolve().parent / "plugin_path"


@pytest.fixture(autouse=True)
def healthcare_registered(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Every service and command of the test finds ``healthcare`` (a no-op for it once the entry point exists)."""
    monkeypatch.setenv(DOMAIN_PATH_ENV, str(PLUGIN_PATH))
    yield


def healthcare() -> Domain:
    """The loaded domain (its data ships with the package)."""
    return Catalog(Path("unused"), Registry.discover([PLUGIN_PATH])).get("healthcare")
