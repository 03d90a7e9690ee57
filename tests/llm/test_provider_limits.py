"""``taumesh run --provider-limit``: the model server counts the calls in flight; 429s cost no episode.

The model server is the scripted OpenAI-compatible one, playing the retail tasks' gold actions as the agent and
the instruction then a stop as the LLM user, both models at provider ``openai``. It refuses 30 % of the
requests with 429 and a Retry-After, and counts how many requests it holds at once.

The runs capped at 20 play the four tasks of fewest model calls (two to four requests an episode) many times over:
what loads the provider is how many episodes are in flight, not how long each is. They are ``taumesh run`` in
this process (typer's runner: the same command without a process start of its own); ``--workers 2`` still starts
its workers as processes, whose shared cap is what that case shows.
"""

from __future__ import annotations

import re
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.helpers.cli import explain, explain_result, finish, invoke, load_json, results_path, start_taumesh
from tests.helpers.fake_model import FakeOpenAI, Reply, rate_limited
from tests.llm.scripts import AGENT_MODEL, USER_MODEL, CountingScript, GoldAgent, Router, ScriptedLlmUser, TaskIndex


class ProviderAllowing:
    """A provider that allows ``allowed`` requests at once and answers 429 (Retry-After) to any beyond them."""

    def __init__(self, inner: Callable[[dict[str, Any], int], Reply], allowed: int, latency: float) -> None:
        self.inner, self.allowed, self.latency = inner, allowed, latency
        self.lock = threading.Lock()
        self.in_flight = self.refused = 0

    def __call__(self, request: dict[str, Any], ordinal: int) -> Reply:
        with self.lock:
            if self.in_flight >= self.allowed:
                self.refused += 1
                return rate_limited("0.05")
            self.in_flight += 1
        try:
            time.sleep(self.latency)
            return self.inner(request, ordinal)
        finally:
            with self.lock:
                self.in_flight -= 1


def _short_tasks(index: TaskIndex, count: int) -> list[int]:
    """The ``count`` tasks with the fewest gold actions (a quick run), in split order.

    Not those whose instruction has spaces around it: the user's message is stripped, and the script's agent finds
    its task by the exact text.
    """
    usable = [i for i, task in enumerate(index.tasks) if task.instruction == task.instruction.strip()]
    by_length = sorted(usable, key=lambda i: (len(index.tasks[i].actions), i))
    return sorted(by_length[:count])


def _run(
    fake: FakeOpenAI, data_dir: Path, log_dir: Path, task_ids: list[int], *extra: str, trials: int, in_process: bool
) -> tuple[str, list[dict[str, Any]]]:
    ids = [arg for task_id in task_ids for arg in ("--task-ids", str(task_id))]
    args = (
        "run", "--env", "retail", "--task-split", "test", *ids, "--num-trials", str(trials),
        "--data-dir", str(data_dir),
        "--agent-strategy", "tool-calling", "--model", AGENT_MODEL, "--model-provider", "openai",
        "--api-base", fake.url, "--user-strategy", "llm-taumesh", "--user-model", USER_MODEL,
        "--user-model-provider", "openai", "--user-api-base", fake.url, "--log-dir", str(log_dir), *extra,
    )  # fmt: skip
    if in_process:
        result = invoke(*args)
        assert result.exit_code == 0, explain_result(result)
        return result.output, load_json(results_path(log_dir))
    proc = finish(start_taumesh(*args), timeout=600)
    assert proc.returncode == 0, explain(proc)
    return proc.stderr + proc.stdout, load_json(results_path(log_dir))


@pytest.mark.slow  # 200 episodes of the 4 shortest tasks (two to four model calls each), about 850 model requests
# with workers, half as many episodes: what is new there is that the cap holds across processes, and 100 episodes
# of about 3 requests each still put far more than 20 calls in flight
# a call takes 20 ms; with workers 50 ms, so that each worker's share of the cap (10) still overlaps: at 20 ms the two
# workers' peak was once 4 (the window halves at each 429, and their calls came in fewer, shorter bursts)
@pytest.mark.parametrize(
    ("workers", "episodes", "latency"), [(1, 200, 0.02), (2, 100, 0.05)], ids=["one-process", "two-workers"]
)
def test_429s_at_concurrency_200_with_20_calls_allowed(
    fake: FakeOpenAI,
    task_index: TaskIndex,
    v1_data_dir: Path,
    tmp_path: Path,
    workers: int,
    episodes: int,
    latency: float,
) -> None:
    # a refused call holds every new one back for its Retry-After: 10 ms, as many times as the 30 % refused
    script = CountingScript(
        Router(GoldAgent(task_index), ScriptedLlmUser(task_index)), refusals=0.3, latency=latency, retry_after="0.01"
    )
    fake.reset(script)
    tasks = _short_tasks(task_index, 4)  # the episodes' count, not their length, is what loads the provider
    output, results = _run(
        fake,
        v1_data_dir,
        tmp_path,
        tasks,
        "--max-concurrency",
        "200",
        "--provider-limit",
        "openai=20",
        "--workers",
        str(workers),
        trials=episodes // len(tasks),
        in_process=True,
    )
    assert len(results) == episodes and all(r["reward"] == 1.0 for r in results)  # every one scored
    assert not list(tmp_path.glob("*.errors.json")), "no episode is an infrastructure error"
    assert script.refused > episodes * 2 // 5  # the provider did refuse, often
    assert script.peak <= 20, f"{script.peak} calls were in flight at once"
    assert script.peak >= 5  # the limit, not the run, held the calls back
    if workers == 1:  # the display's last line: the provider's calls in flight (none now) and its 429s
        shown = re.findall(r"openai calls in flight 0/\d+, 429s (\d+)", output)
        assert shown and int(shown[-1]) == script.refused, output[-2000:]


@pytest.mark.slow  # 100 episodes (10 short tasks × 10 trials), all started at once against a provider allowing 40
def test_a_run_at_concurrency_1000_adapts_to_a_provider_allowing_40(
    fake: FakeOpenAI, task_index: TaskIndex, v1_data_dir: Path, tmp_path: Path
) -> None:
    provider = ProviderAllowing(Router(GoldAgent(task_index), ScriptedLlmUser(task_index)), allowed=40, latency=1.0)
    fake.reset(provider)
    # a process of its own, and episodes of 3-4 calls: the window comes down below 100 by halvings, each one a new
    # burst past the 40 allowed, and those need calls reaching the server faster than it answers them (with the
    # run in this process, or 4 tasks of 2-4 calls, the window once stayed at 125, or came down only to 65)
    output, results = _run(
        fake, v1_data_dir, tmp_path, _short_tasks(task_index, 10), "--max-concurrency", "1000", trials=10,
        in_process=False,
    )  # fmt: skip
    assert len(results) == 100 and all(r["reward"] == 1.0 for r in results)
    assert not list(tmp_path.glob("*.errors.json")), "no episode is an infrastructure error"
    assert provider.refused > 0  # the first burst went past what the provider allows; the run backed off
    shown = re.findall(r"openai calls in flight 0/(\d+), 429s (\d+)", output)
    assert shown and int(shown[-1][1]) == provider.refused, output[-2000:]
    assert int(shown[-1][0]) < 100  # the window came down from the run's 1,000


@pytest.mark.slow  # two worker processes, each starting the four services
def test_workers_serving_their_own_services_allow_the_runs_own_endpoints(
    fake: FakeOpenAI, task_index: TaskIndex, v1_data_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """No operator allow-list: the endpoints the run's own flags name are granted to the services each worker
    serves, as to the services of a single ``taumesh run`` (without that, every model call was refused)."""
    from taumesh.llm.access import ALLOWED_API_BASES_ENV

    monkeypatch.delenv(ALLOWED_API_BASES_ENV)
    fake.reset(Router(GoldAgent(task_index), ScriptedLlmUser(task_index)))
    tasks = _short_tasks(task_index, 4)
    _, results = _run(
        fake, v1_data_dir, tmp_path, tasks, "--max-concurrency", "4", "--workers", "2", trials=2, in_process=False
    )
    assert len(results) == 8 and all(r["reward"] == 1.0 for r in results)
    assert not list(tmp_path.glob("*.errors.json")), "no episode is an infrastructure error"
