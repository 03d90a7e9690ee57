"""The healthcare domain, found through ``TAUMESH_DOMAIN_PATH`` (its entry point is not declared yet)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from taumesh.domains import DOMAIN_PATH_ENV
from tests.helpers.healthcare import PLUGIN_PATH


@pytest.fixture(autouse=True)
def healthcare_registered(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Every service and command of the test finds ``healthcare`` (a no-op for it once the entry point exists)."""
    monkeypatch.setenv(DOMAIN_PATH_ENV, str(PLUGIN_PATH))
    yield
