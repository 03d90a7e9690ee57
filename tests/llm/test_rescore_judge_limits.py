"""``taumesh rescore --provider-limit``: the judge's calls of a rescore keep to the cap, as a run's do.

A run of τ² HEAD retail's two judged tasks (oracle agent, scripted user: the judge is the only model) is rescored;
each ScoreEpisode asks the judge again, eight at once without a cap. The scripted server counts its peak.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.helpers.cli import invoke
from tests.helpers.fake_model import FakeOpenAI
from tests.llm.scripts import CountingScript
from tests.llm.test_judge import HEAD_DATA, judge, run


@pytest.fixture(scope="module")
def head_data(tau2_data: Path) -> Path:
    if not HEAD_DATA.is_dir():
        pytest.skip(f"HEAD data not found at {HEAD_DATA}")
    return HEAD_DATA


@pytest.mark.slow  # a run of 8 judged episodes, then their rescore: about 5 s
def test_rescore_keeps_the_judges_calls_to_the_provider_limit(
    fake: FakeOpenAI, head_data: Path, tmp_path: Path
) -> None:
    fake.reset(judge)
    made = run(head_data, tmp_path, "--judge-model", "openai/x", "--judge-api-base", fake.url, "--num-trials", "4")
    assert made.exit_code == 0, made.output
    (tau2_path,) = tmp_path.glob("*.tau2.json")
    script = CountingScript(judge, refusals=0.0, latency=0.1)
    fake.reset(script)
    rescored = invoke(
        "rescore", tau2_path, "--env", "tau2-retail", "--data-dir", head_data, "--judge-model", "openai/x",
        "--judge-api-base", fake.url, "--provider-limit", "openai=2",
    )  # fmt: skip
    assert rescored.exit_code == 0, rescored.output
    assert "8 agree, 0 differ" in rescored.output
    assert len(fake.requests) == 8 and script.peak <= 2, f"{script.peak} judge calls were in flight at once"

    refused = invoke("rescore", tau2_path, "--env", "tau2-retail", "--provider-limit", "openai")
    assert refused.exit_code == 2 and "is not PROVIDER=N" in refused.stderr
