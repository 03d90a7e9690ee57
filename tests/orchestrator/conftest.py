"""Fixtures of the end-to-end tests: one oracle run shared by the tests that read its results file."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.helpers.cli import oracle_invoke, results_path


@pytest.fixture(scope="session")
def retail_test_results(v1_data_dir: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One oracle run of retail test through the CLI (in this process: no interpreter to start and import), shared
    by the tests that read its results file."""
    log_dir = tmp_path_factory.mktemp("retail_test_oracle")
    oracle_invoke(log_dir, "retail", "test", "--max-concurrency", "8")
    return results_path(log_dir)
