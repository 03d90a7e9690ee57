"""τ-bench forks through taumesh (issue 27): import, ``domain check`` and the oracle run per environment; memory.

For each fork checkout given, the import (environments loaded of those found, tasks, what did not load and why,
how its base code differs), ``domain check`` of every loaded environment (problems per environment: gold actions
that error, unknown tools, copied tasks; warnings: gold state equal to the initial one), and with ``--oracle`` an
oracle run (``taumesh run``, scripted user) over every loaded environment's test split, whose rewards below 1.0
must all be on tasks the check flags. ``--sessions N`` measures N concurrent episodes of a generated fork over a
real EnvService: the worker's memory per live session as a multiple of the data's JSON size.

    .venv/bin/python bench/forks.py --fork /tmp/forks/apollo --fork /tmp/forks/bigtau:big-tau --oracle
    .venv/bin/python bench/forks.py --sessions 200
    .venv/bin/python bench/forks.py --sessions 10        # what tests/test_bench_forks.py runs

Get a checkout: ``fetch github:jmoreno-labelbox/apollo-tau-bench``, then ``git -C <mirror> archive HEAD | tar -x``.
Nothing is asserted about time.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
SUBPROCESS = False
"""Run each oracle as a ``taumesh run`` process (``--subprocess``) rather than in this process."""


def taumesh_command() -> list[str]:
    script = Path(sys.executable).with_name("taumesh")
    return [str(script)] if script.exists() else [sys.executable, "-m", "taumesh.cli"]


def oracle(domain: str, log_dir: Path, concurrency: int) -> dict[str, float]:
    """Rewards by task id of an oracle run of ``domain``'s test split (empty when the run failed).

    The run is ``taumesh run``'s, in this process (its embedded services over loopback gRPC), so the fork's worker
    started by ``domain check`` serves it too; ``--subprocess`` runs the ``taumesh`` command instead.
    """
    if SUBPROCESS:
        command = [*taumesh_command(), "run", "--env", domain, "--agent-strategy", "oracle", "--user-strategy",
                   "scripted", "--quiet", "--max-concurrency", str(concurrency), "--log-dir", str(log_dir)]  # fmt: skip
        done = subprocess.run(command, capture_output=True, text=True, check=False)
        files = [p for p in log_dir.glob("*.json") if not p.name.endswith(".manifest")]
        if done.returncode != 0 or not files:
            print(f"  oracle run of {domain} failed: {done.stderr.strip().splitlines()[-1:]}")
            return {}
        return {str(row["task_id"]): float(row["reward"]) for row in json.loads(files[0].read_text())}
    import asyncio

    from taumesh.models import AgentSettings, UserSettings
    from taumesh.orchestrator.benchmark import run_benchmark
    from taumesh.orchestrator.config import RunConfig

    config = RunConfig(
        env=domain, task_split="test", agent=AgentSettings(strategy="oracle"), user=UserSettings(strategy="scripted"),
        log_dir=log_dir, data_dir=log_dir / "no-v1-data", max_concurrency=concurrency, show_progress=False,
    )  # fmt: skip
    summary = asyncio.run(run_benchmark(config))
    if summary.errors:
        print(f"  oracle run of {domain}: {len(summary.errors)} episodes failed")
    return {str(result.task_id): float(result.reward) for result in summary.results}


def bench_fork(path: Path, name: str | None, run_oracle: bool, concurrency: int, work: Path) -> dict[str, Any]:
    from taumesh.domains import Catalog
    from taumesh.forks._check import check_fork
    from taumesh.forks._import import env_folders, fork_root, import_fork
    from taumesh.stats import is_success

    started = time.perf_counter()
    record = import_fork(path, name)
    found = len(env_folders(fork_root(path)))
    tasks = sum(sum(env.splits.values()) for env in record.envs.values())
    print(f"fork {record.name}: {len(record.envs)} of {found} environments loaded, {tasks} tasks "
          f"({time.perf_counter() - started:.0f} s); reward: {record.reward}")  # fmt: skip
    for env, why in record.failed.items():
        print(f"  not loaded: {env}: {why}")
    for difference in record.differences:
        print(f"  differs: {difference}")
    catalog = Catalog(work / "no-v1-data")
    summary: dict[str, Any] = {"fork": record.name, "found": found, "loaded": len(record.envs), "tasks": tasks,
                               "failed": record.failed, "differences": record.differences, "envs": {}}  # fmt: skip
    for env in record.envs:
        domain = record.domain(env)
        report = check_fork(catalog.get(domain))
        flagged = {(t.split, t.task_id) for t in report.failed}
        row: dict[str, Any] = {
            "tasks": len(report.tasks),
            "problems": len(report.failed),
            "unchanged": len(report.unchanged),
            "copied": sum(1 for t in report.failed if any("copied from another" in p for p in t.problems)),
            "errors": sum(1 for t in report.failed if any(not e.startswith("copied from") for e in t.errors)),
            "unknown_tools": sum(1 for t in report.failed if t.unknown_tools),
            "argument_mismatches": sum(1 for t in report.failed if t.argument_mismatches),
        }
        if run_oracle and "test" in record.envs[env].splits:
            rewards = oracle(domain, work / "runs" / record.name / env, concurrency)
            below = sorted((task for task, reward in rewards.items() if not is_success(reward)), key=int)
            row.update(oracle_tasks=len(rewards), oracle_below_1=len(below),
                       oracle_below_1_unflagged=[t for t in below if ("test", t) not in flagged])  # fmt: skip
        summary["envs"][env] = row
        print(f"  {env}: {json.dumps(row)}")
    return summary


def bench_sessions(count: int, work: Path) -> dict[str, Any]:
    """``count`` concurrent episodes of a generated fork (about 1.3 MB of data) over a real EnvService."""
    import asyncio
    import threading

    import grpc

    sys.path.insert(0, str(ROOT))
    from taumesh.common.v1 import common_pb2
    from taumesh.domains import Catalog
    from taumesh.env.v1 import env_pb2, env_pb2_grpc
    from taumesh.forks._import import import_fork
    from taumesh.forks._plugin import ForkPlugin
    from taumesh.rpc.server import CHANNEL_OPTIONS, start_server
    from taumesh.services.env import env_service
    from tests.forks.tinyfork import write_fork

    record = import_fork(write_fork(work / "generated", records=2000))
    data_bytes = record.envs["counter"].data_bytes
    catalog = Catalog(work / "no-v1-data")
    plugin = catalog.get("fork:generated/counter").spec
    assert isinstance(plugin, ForkPlugin) and plugin.worker is not None
    loop = asyncio.new_event_loop()
    threading.Thread(target=loop.run_forever, daemon=True).start()
    server = asyncio.run_coroutine_threadsafe(start_server([env_service(catalog)]), loop).result()
    channel = grpc.insecure_channel(server.address, options=CHANNEL_OPTIONS)
    stub = env_pb2_grpc.EnvServiceStub(channel)
    ref = common_pb2.TaskRef(domain="fork:generated/counter", split="test", task_id="0")

    def call(session_id: str, name: str, arguments: dict[str, Any]) -> str:
        tool = common_pb2.ToolCall(id="c", name=name, arguments_json=json.dumps(arguments))
        return str(stub.CallTool(env_pb2.CallToolRequest(session_id=session_id, tool_call=tool)).observation)

    first = stub.OpenSession(env_pb2.OpenSessionRequest(task=ref)).session_id
    call(first, "get_counter", {"counter_id": "a"})
    before = plugin.worker.memory_bytes()

    def episode(amount: int) -> tuple[str, int]:
        session_id = stub.OpenSession(env_pb2.OpenSessionRequest(task=ref), timeout=600).session_id
        call(session_id, "increment", {"counter_id": "a", "amount": amount})
        return session_id, amount

    started = time.perf_counter()
    with ThreadPoolExecutor(max_workers=min(count, 64)) as pool:
        sessions = list(pool.map(episode, range(count)))
    elapsed = time.perf_counter() - started
    per_session = (plugin.worker.memory_bytes() - before) / count
    isolated = all(call(sid, "get_counter", {"counter_id": "a"}) == json.dumps({"value": 1 + n}) for sid, n in sessions)
    for sid, _ in sessions:
        stub.GetFinalState(env_pb2.GetFinalStateRequest(session_id=sid, close_session=True))
    result = {"sessions": count, "data_bytes": data_bytes, "worker_rss_before": before,
              "per_session_bytes": per_session, "multiple_of_data": per_session / data_bytes,
              "open_and_call_s": elapsed, "isolated": isolated}  # fmt: skip
    channel.close()
    asyncio.run_coroutine_threadsafe(server.stop(grace=1.0), loop).result()
    loop.call_soon_threadsafe(loop.stop)
    print(f"{count} concurrent sessions: {per_session / 1e6:.1f} MB each in the worker = "
          f"{per_session / data_bytes:.1f}x the data's {data_bytes / 1e6:.2f} MB of JSON; opened and called in "
          f"{elapsed:.1f} s; each kept its own data: {isolated}")  # fmt: skip
    assert isolated
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--fork", action="append", default=[], help="PATH or PATH:NAME of a fork checkout")
    parser.add_argument("--oracle", action="store_true", help="also run the oracle over each test split")
    parser.add_argument("--concurrency", type=int, default=8, help="--max-concurrency of each oracle run")
    parser.add_argument("--sessions", type=int, default=0, help="measure this many concurrent sessions")
    parser.add_argument("--json", type=Path, help="write the figures here")
    parser.add_argument("--subprocess", action="store_true", help="run each oracle as a taumesh run process")
    args = parser.parse_args()
    global SUBPROCESS
    SUBPROCESS = args.subprocess
    figures: dict[str, Any] = {"forks": []}
    with tempfile.TemporaryDirectory(prefix="bench-forks-") as temporary:
        work = Path(temporary)
        os.environ["TAUMESH_CACHE_DIR"] = str(work / "cache")  # the bench's imports stay out of the user's cache
        for spec in args.fork:
            path, _, name = spec.partition(":")
            figures["forks"].append(bench_fork(Path(path), name or None, args.oracle, args.concurrency, work))
        if args.sessions:
            figures["sessions"] = bench_sessions(args.sessions, work)
    if args.json:
        args.json.write_text(json.dumps(figures, indent=1))


if __name__ == "__main__":
    main()
