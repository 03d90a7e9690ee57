"""Every reader that judges a reward a pass uses :func:`taumesh.stats.is_success`, so they agree at its edges.

The live progress, the console's summary and trace links, ``taumesh analyze``'s failures, the episode span's outcome
and the A2A green agent's ``solved`` each had a test of their own (``>= 1 - 1e-6``, ``< 1 - 1e-6``, ``== 1.0``); a
reward just inside the tolerance, or just past it on either side, is now judged alike by all of them.
"""

from __future__ import annotations

import math
from pathlib import Path

import pytest
from google.protobuf.json_format import MessageToDict
from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter
from rich.console import Console

from taumesh.commands.a2a_green import AssessmentRequest, results_parts
from taumesh.models import Usage
from taumesh.orchestrator.after.analyze import failed_episodes
from taumesh.orchestrator.config import RunConfig
from taumesh.orchestrator.results.records import RunResult
from taumesh.orchestrator.run.console import print_summary
from taumesh.orchestrator.run.progress import ProgressState
from taumesh.orchestrator.run.runner import RunSummary
from taumesh.orchestrator.tracing import EpisodeTrace
from taumesh.stats import SUCCESS_TOLERANCE, is_success
from taumesh.telemetry import attributes as A

REWARDS = {
    1: 1.0,
    2: 1 - SUCCESS_TOLERANCE,  # within: a success
    3: 1 + SUCCESS_TOLERANCE,
    4: math.nextafter(1 - SUCCESS_TOLERANCE, 0.0),  # just past: a failure
    5: math.nextafter(1 + SUCCESS_TOLERANCE, 2.0),
    6: 0.0,
}
PASSED = {task for task, reward in REWARDS.items() if is_success(reward)}


def results() -> list[RunResult]:
    return [
        RunResult(task_id=task, reward=reward, info={"trace_id": f"{task:032x}"}, traj=[], trial=0)
        for task, reward in REWARDS.items()
    ]


def test_the_edges_are_the_success_tests_own() -> None:
    assert {1, 2, 3} == PASSED


def test_the_live_progress_counts_the_same_successes() -> None:
    state = ProgressState(total=len(REWARDS))
    for result in results():
        state.episode_finished(result)
    assert {task for task, (successes, _) in state.trials.items() if successes} == PASSED
    assert state.pass_1 == pytest.approx(len(PASSED) / len(REWARDS))


def test_the_summary_counts_and_links_the_same_failures(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("TAUMESH_JAEGER_URL", "http://jaeger.example:16686/")
    summary = RunSummary(results_path=tmp_path / "r.json", results=results(), pass_hat_k={}, average_reward=0.5)
    console = Console(record=True, width=200)
    print_summary(summary, console)
    out = console.export_text()
    assert f"reward 1.0: {len(PASSED)}/{len(REWARDS)}" in out
    assert {task for task in REWARDS if f"/trace/{task:032x}" in out} == set(REWARDS) - PASSED


def test_analyze_takes_the_same_failures() -> None:
    assert {r.task_id for r in failed_episodes(results())} == set(REWARDS) - PASSED


def test_the_episode_span_records_the_same_outcome() -> None:
    exporter = InMemorySpanExporter()
    provider = TracerProvider()
    provider.add_span_processor(SimpleSpanProcessor(exporter))
    for task, reward in REWARDS.items():
        with provider.get_tracer(__name__).start_as_current_span(f"episode {task}") as span:
            EpisodeTrace(span, RunConfig()).scored(
                reward=reward, termination="user_stop", steps=1, episode_id=str(task), attempts=1,
                agent_usage=Usage(), user_usage=Usage(),
            )  # fmt: skip
    outcomes = {int(s.name.split()[1]): (s.attributes or {})[A.TAUMESH_OUTCOME] for s in exporter.get_finished_spans()}
    assert {task for task, outcome in outcomes.items() if outcome == "success"} == PASSED


def test_the_green_agent_calls_the_same_episodes_solved(tmp_path: Path) -> None:
    summary = RunSummary(results_path=tmp_path / "r.json", results=results(), pass_hat_k={1: 0.5}, average_reward=0.5)
    request = AssessmentRequest(participants={"agent": "http://127.0.0.1:9009"})
    text, data, _ = results_parts(summary, "http://127.0.0.1:9009", request)
    assert MessageToDict(data.data)["solved"] == len(PASSED)
    assert text.text.startswith(f"{len(PASSED)}/{len(REWARDS)} episodes solved")
