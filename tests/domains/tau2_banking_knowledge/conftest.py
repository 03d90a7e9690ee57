"""Fixtures of the banking_knowledge tests: the shared data as a ``--data-dir``, the checkout imported."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.domains.tau2_banking_knowledge.support import data_dir_with_fixtures, imported_cache


@pytest.fixture(scope="module")
def data_dir(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """A ``--data-dir`` holding the shared copy of upstream's data, with the checkout imported into a fresh cache."""
    with imported_cache(tmp_path_factory.mktemp("cache")):
        yield data_dir_with_fixtures(tmp_path_factory.mktemp("data"))
