"""The ``taumesh`` command as τ-bench's users expect it: ``-h``, abbreviated flags, choices, warnings, bounds."""

from __future__ import annotations

import json
import re
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from concurrent import futures
from pathlib import Path

import grpc
import pytest
from grpc_health.v1 import health_pb2_grpc
from grpc_health.v1.health import HealthServicer

from taumesh.cli import expand_abbreviations
from taumesh.scorer.v1 import scorer_pb2, scorer_pb2_grpc
from tests.helpers.cli import ORACLE, explain_result, invoke, load_json, results_path
from tests.helpers.paths import V1_DATA

OPTIONS = {"--num-trials": "num_trials", "--model": "model", "--model-provider": "model_provider", "--task-ids": "ids"}
OPTIONS["--task_ids"] = "ids"


@pytest.mark.parametrize(
    ("args", "expanded"),
    [
        (["--num-t", "3"], ["--num-trials", "3"]),
        (["--num=3"], ["--num-trials=3"]),
        (["--model", "m"], ["--model", "m"]),  # exact wins over the longer --model-provider
        (["--model-p", "openai"], ["--model-provider", "openai"]),
        (["--task", "1"], ["--task-ids", "1"]),  # two spellings of one option are one match
        (["--task_", "1"], ["--task_ids", "1"]),
        (["--unknown", "-x", "value"], ["--unknown", "-x", "value"]),  # left for the parser to refuse
        (["--", "--num"], ["--", "--num"]),
    ],
)
def test_unique_prefixes_are_written_out(args: list[str], expanded: list[str]) -> None:
    assert expand_abbreviations(args, OPTIONS) == expanded


def test_an_ambiguous_prefix_names_the_candidates() -> None:
    result = invoke("run", "--mod", "x")
    assert result.exit_code == 2
    assert "option --mod is ambiguous: it could be --model, --model-provider" in result.output
    assert "--end-index, --env, --env-addr" in invoke("run", "--en", "retail").output  # as argparse: ambiguous


@pytest.mark.slow  # a taumesh run: 6-8 s under load
def test_a_run_with_abbreviated_flags(v1_data_dir: Path, tmp_path: Path) -> None:
    result = invoke(
        "run", "--env", "retail", "--task-s", "test", "--task-i", "3", "--agent-strat", "oracle",
        "--user-strat", "scripted", "--data-d", V1_DATA, "--log-d", tmp_path, "--qui",
    )  # fmt: skip
    assert result.exit_code == 0, explain_result(result)
    assert [entry["task_id"] for entry in load_json(results_path(tmp_path))] == [3]


@pytest.mark.parametrize("command", [[], ["run"], ["serve"], ["rescore"], ["analyze"]])
def test_dash_h_is_help(command: list[str]) -> None:
    result = invoke(*command, "-h")
    assert result.exit_code == 0, result.output
    # the root's help is click's plain layout (-h, --help), the sub-commands' rich's (--help  -h)
    assert "Usage:" in result.output and re.search(r"--help\s+-h\s|-h, --help\s", result.output), result.output


def test_help_lists_the_choices() -> None:
    # the help's panel wraps long lines: read its words without the box's borders and line breaks
    run_help = " ".join(invoke("run", "-h").output.replace("│", " ").split())
    domains = re.compile(r"airline, ([\w-]+, )*retail")  # the installed domains, in order (healthcare among them)
    assert domains.search(run_help), run_help
    for choices in (
        "the domain's first",
        "oracle, tool-calling, act, react, few-shot",
        "scripted, llm, react, verify, reflection, llm-taumesh, react-taumesh, verify-taumesh, "
        "reflection-taumesh, human",
    ):
        assert choices in run_help, choices
    assert domains.search(" ".join(invoke("rescore", "-h").output.replace("│", " ").split()))


@pytest.mark.slow  # a taumesh run: 6-8 s under load
def test_rescore_warns_when_the_file_holds_another_domain_s_tasks(v1_data_dir: Path, tmp_path: Path) -> None:
    ran = invoke(
        "run", "--env", "retail", "--task-ids", "0", *ORACLE, "--data-dir", V1_DATA, "--log-dir", tmp_path / "run"
    )
    assert ran.exit_code == 0, explain_result(ran)
    retail_results = results_path(tmp_path / "run")
    wrong = invoke("rescore", retail_results, "--env", "airline", "--data-dir", V1_DATA)
    assert "warning:" in wrong.stderr
    assert "gold actions call tools airline does not have" in wrong.stderr
    assert "they fit retail" in wrong.stderr
    right = invoke("rescore", retail_results, "--env", "retail", "--data-dir", V1_DATA)
    assert right.exit_code == 0, explain_result(right)
    assert "warning:" not in right.stderr


@pytest.fixture
def silent_listener() -> Iterator[str]:
    """A TCP listener that accepts connections and never says a word."""
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen()
    held: list[socket.socket] = []
    stop = threading.Event()

    def accept() -> None:
        server.settimeout(0.2)
        while not stop.is_set():
            try:
                held.append(server.accept()[0])
            except TimeoutError:
                continue

    thread = threading.Thread(target=accept, daemon=True)
    thread.start()
    yield f"127.0.0.1:{server.getsockname()[1]}"
    stop.set()
    thread.join()
    for connection in held:
        connection.close()
    server.close()


def test_analyze_gives_up_on_a_scorer_that_never_answers(silent_listener: str, tmp_path: Path) -> None:
    results = tmp_path / "results.json"
    results.write_text("[]", encoding="utf-8")
    started = time.monotonic()
    result = invoke("analyze", results, "--model", "m", "--scorer-addr", silent_listener, "--timeout", "3")
    elapsed = time.monotonic() - started
    assert result.exit_code != 0
    assert f"the scorer at {silent_listener} did not answer within 1.5s" in result.stderr
    assert elapsed < 15, elapsed
    assert not (tmp_path / "results_faults.json").exists()


class StuckScorer(scorer_pb2_grpc.ScorerServiceServicer):
    """Healthy, but AnalyzeFaults never returns (until the test ends)."""

    def __init__(self, release: threading.Event) -> None:
        self.release = release

    def AnalyzeFaults(
        self, request: scorer_pb2.AnalyzeFaultsRequest, context: grpc.ServicerContext
    ) -> scorer_pb2.AnalyzeFaultsResponse:
        self.release.wait(60)
        return scorer_pb2.AnalyzeFaultsResponse()


def test_analyze_bounds_its_total_time(tmp_path: Path) -> None:
    results = tmp_path / "results.json"
    failed = {"task_id": 0, "reward": 0.0, "info": {}, "traj": [{"role": "user", "content": "hi"}], "trial": 0}
    results.write_text(json.dumps([failed]), encoding="utf-8")
    release = threading.Event()
    server = grpc.server(futures.ThreadPoolExecutor(max_workers=4))
    scorer_pb2_grpc.add_ScorerServiceServicer_to_server(StuckScorer(release), server)
    health = HealthServicer()
    health_pb2_grpc.add_HealthServicer_to_server(health, server)
    port = server.add_insecure_port("127.0.0.1:0")
    server.start()
    try:
        started = time.monotonic()
        args = ("--env", "retail", "--data-dir", V1_DATA, "--scorer-addr", f"127.0.0.1:{port}", "--timeout", "4")
        result = invoke("analyze", results, "--model", "m", *args)
        elapsed = time.monotonic() - started
    finally:
        release.set()
        server.stop(grace=None)
    assert result.exit_code == 1, result.output
    assert "the analysis did not finish within 4s (--timeout); nothing written" in result.stderr
    assert 4 <= elapsed < 15, elapsed
    assert not (tmp_path / "results_faults.json").exists()


def test_root_help_imports_no_sub_command() -> None:
    """``taumesh --help`` lists the sub-commands without importing them (issue 13: start-up off the import path)."""
    probe = (
        "import sys\n"
        "from taumesh.cli import main\n"
        "sys.argv = ['taumesh', '--help']\n"
        "try:\n    main()\nexcept SystemExit:\n    pass\n"
        "heavy = ('grpc', 'pydantic', 'taumesh.commands.run', 'taumesh.settings', 'taumesh.domains')\n"
        "heavy = sorted(m for m in heavy if m in sys.modules)\n"
        "print('HEAVY', heavy)\n"
    )
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=60, check=True).stdout
    assert "HEAVY []" in out, out
    from taumesh.cli import COMMANDS

    for name in COMMANDS:
        assert f" {name} " in out, name


def test_every_sub_command_loads_with_its_own_help() -> None:
    from taumesh.cli import COMMANDS, load_command

    for name in COMMANDS:
        command = load_command(name)
        assert command.name == name and (command.help or "").strip(), name


def test_no_module_imports_typer_s_private_click() -> None:
    """typer vendors click as ``typer._click``: the CLI uses only typer's public names (issue 23)."""
    package = Path(__file__).resolve().parents[1] / "taumesh"
    offenders = [str(path) for path in package.rglob("*.py") if "typer._click" in path.read_text(encoding="utf-8")]
    assert offenders == []
