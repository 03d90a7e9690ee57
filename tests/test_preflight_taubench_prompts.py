"""τ-bench's command line on τ-bench's data without its imported user prompts (issue 40, must show): the run stops
before any episode, naming ``taumesh data import taubench PATH``, where every episode used to fail one by one."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.helpers.cli import invoke
from tests.helpers.paths import V1_DATA

TAU_BENCH_LINE = (
    "run", "--agent-strategy", "tool-calling", "--env", "retail", "--model", "gpt-4o", "--model-provider", "openai",
    "--user-model", "gpt-4o", "--user-model-provider", "openai", "--user-strategy", "llm", "--max-concurrency", "10",
)  # fmt: skip
"""README's first migration row: τ-bench's own `python run.py …` flags."""


@pytest.fixture
def v1_data_without_prompts() -> Path:
    """The shared τ-bench data (tasks and data, never the prompts, which only a τ-bench checkout has)."""
    if not (V1_DATA / "retail").is_dir():
        pytest.skip(f"reference data not found at {V1_DATA}")
    assert not (V1_DATA / "user_sim" / "prompts.json").exists()
    return V1_DATA


def test_the_run_stops_before_any_episode_naming_the_import(
    v1_data_without_prompts: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-not-used")  # the key is there: the prompts are what is missing
    result = invoke(*TAU_BENCH_LINE, "--data-dir", v1_data_without_prompts, "--log-dir", tmp_path)
    said = " ".join(result.output.split())
    assert result.exit_code == 2, said
    assert "--user-strategy llm plays τ-bench's user, whose prompts are not imported" in said, said
    assert "run `taumesh data import taubench PATH` with a τ-bench checkout" in said, said
    assert not list(tmp_path.iterdir()), "nothing may be written: no episode started"


def test_offline_users_and_tau2_domains_need_no_prompts(tau2_data: Path, tmp_path: Path) -> None:
    from taumesh.orchestrator.run.preflight import user_prompts_problem

    assert user_prompts_problem("scripted", "retail", V1_DATA) is None
    assert user_prompts_problem("llm", "tau2-retail", tau2_data) is None  # τ²'s user has its own prompt
    assert user_prompts_problem("llm", "healthcare", tmp_path) is None  # the user has tools: its own checks
    assert user_prompts_problem("llm-taumesh", "retail", V1_DATA) is None  # taumesh's own prompts
