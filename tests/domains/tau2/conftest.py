"""τ² fixtures: the fetched data (skips when absent) and the expected values in ../shared/tau2 (read only)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.helpers.tau2 import TAU2_EXPECTED


@pytest.fixture(scope="session")
def expected() -> Path:
    if not TAU2_EXPECTED.is_dir():
        pytest.skip(f"τ² expected values not found at {TAU2_EXPECTED}")
    return TAU2_EXPECTED
