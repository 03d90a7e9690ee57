"""``taumesh rescore`` on a results file that is not valid JSON (issue 40, item 7): the file is named, with where
JSON stops, before anything runs; it said the JSON error alone, or that the file records no domain."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.helpers.cli import invoke


@pytest.mark.parametrize("env", [["--env", "tau2-mock"], []], ids=["with-env", "domain-from-the-file"])
def test_a_cut_results_file_is_named_with_why(env: list[str], tmp_path: Path) -> None:
    cut = tmp_path / "run.json"
    cut.write_text('[{"task_id": 0, "reward": 1.0, "info": {"run": {"env": "tau2-mo', encoding="utf-8")
    result = invoke("rescore", cut, *env)
    said = " ".join(result.output.split())
    assert result.exit_code == 2, said
    assert f"error: {cut}: not valid JSON (Unterminated string" in said, said
    assert "cut short or edited since it was written" in said and "does not record its domain" not in said, said
