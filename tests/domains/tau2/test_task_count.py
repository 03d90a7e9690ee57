"""Listing domains counts each split's tasks from τ²'s split file, and the count is the number of tasks served."""

from __future__ import annotations

from pathlib import Path

import pytest

from taumesh.domains import Domain
from tests.helpers.tau2 import tau2_plugin


@pytest.mark.parametrize("source_name", ["airline", "retail", "telecom", "mock"])
def test_the_cheap_count_equals_the_parsed_tasks(tau2_data: Path, source_name: str) -> None:
    plugin = tau2_plugin(source_name)
    domain = Domain(plugin, plugin.data_dir(Path()))  # a fresh one: nothing parsed yet
    for split in domain.spec.splits:
        if domain.has_split_file(split):
            counted = domain.task_count(split)  # before any parse: from the split file
            assert counted == len(domain.tasks(split)), split
            assert domain.task_count(split) == counted  # after the parse: from the parsed tasks
