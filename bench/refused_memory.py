"""Memory of refused requests: does a service keep what it refused?

Each of the four services runs as its own ``taumesh serve`` process, the four probed at once. For each, two
phases, one request at a time:

* ``at size``: ``--count`` requests of ``--size-mb`` MB (60 of 20 MB by default). Larger than the service's
  ``grpc.max_receive_message_length``, gRPC refuses them (RESOURCE_EXHAUSTED) before Python sees them; smaller
  ones reach the servicer, which refuses them as below.
* ``under cap``: the same volume in requests just under the cap (16 MiB, the env 4 MiB) that decode but fail
  validation (an unknown strategy, task or session): the servicer refuses them with INVALID_ARGUMENT or NOT_FOUND.

It prints the resident memory (RSS) each phase added to the service, and writes them as JSON with ``--out``.
Run from the project root. ``--services-from DIR`` runs the services from another checkout (``git archive`` of an
older commit): the same probe before a change.

    .venv/bin/python bench/refused_memory.py                       # 60 x 20 MB, ~1.2 GB per phase and service
    .venv/bin/python bench/refused_memory.py --count 4 --size-mb 2 # smallest: what the bench's test runs
    mkdir /tmp/old && git archive b54a347 | tar -x -C /tmp/old
    .venv/bin/python bench/refused_memory.py --services-from /tmp/old  # before this change
"""

from __future__ import annotations

import argparse
import json
import math
import os
import re
import shutil
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import grpc
import psutil  # type: ignore[import-untyped]  # no types-psutil in the dev extras

from taumesh.agent.v1 import agent_pb2
from taumesh.common.v1 import common_pb2
from taumesh.env.v1 import env_pb2
from taumesh.rpc.server import CONVERSATION_REQUEST_BYTES, MAX_MESSAGE_BYTES, TOOL_CALL_REQUEST_BYTES
from taumesh.scorer.v1 import scorer_pb2
from taumesh.user_sim.v1 import user_sim_pb2

MB = 1_000_000
MARGIN = 64 * 1024
"""How far under its cap an ``under cap`` request stays (room for the fields around the payload)."""
CHUNK = 64 * 1024
"""The payload travels as messages of this many characters, as a long conversation would."""
SETTLE_SECONDS = 1.0
"""How long the service is left before its RSS is read (``--settle``)."""


def conversation(size: int) -> list[common_pb2.Message]:
    """About ``size`` bytes of user messages."""
    count = max(1, size // CHUNK)
    return [common_pb2.Message(role=common_pb2.ROLE_USER, content="x" * (size // count)) for _ in range(count)]


def env_request(size: int) -> bytes:
    arguments = json.dumps({"note": "x" * size})
    call = common_pb2.ToolCall(id="call-1", name="get_user_details", arguments_json=arguments)
    return env_pb2.CallToolRequest(session_id="no-such-session", tool_call=call).SerializeToString()


def agent_request(size: int) -> bytes:
    config = agent_pb2.AgentConfig(strategy="no-such-strategy")
    return agent_pb2.NextMessageRequest(config=config, conversation=conversation(size)).SerializeToString()


def user_sim_request(size: int) -> bytes:
    config = user_sim_pb2.UserConfig(strategy="no-such-strategy")
    request = user_sim_pb2.ReplyRequest(config=config, instruction="refuse me", conversation=conversation(size))
    return request.SerializeToString()


def scorer_request(size: int) -> bytes:
    task = common_pb2.TaskRef(domain="no-such-domain", split="test", task_id="0")
    return scorer_pb2.ScoreEpisodeRequest(task=task, conversation=conversation(size)).SerializeToString()


@dataclass(frozen=True)
class Target:
    """A service, the method it is probed with, a refused request of a given size, and its cap."""

    method: str
    request: Callable[[int], bytes]
    cap: int


TARGETS = {
    "env": Target("/taumesh.env.v1.EnvService/CallTool", env_request, TOOL_CALL_REQUEST_BYTES),
    "agent": Target("/taumesh.agent.v1.AgentService/NextMessage", agent_request, CONVERSATION_REQUEST_BYTES),
    "user-sim": Target("/taumesh.user_sim.v1.UserSimService/Reply", user_sim_request, CONVERSATION_REQUEST_BYTES),
    "scorer": Target("/taumesh.scorer.v1.ScorerService/ScoreEpisode", scorer_request, CONVERSATION_REQUEST_BYTES),
}


def taumesh_command() -> str:
    beside = Path(sys.executable).parent / "taumesh"
    return str(beside) if beside.is_file() else (shutil.which("taumesh") or "taumesh")


def start(name: str, data_dir: Path | None, code: Path | None = None) -> tuple[subprocess.Popen[str], str]:
    """``taumesh serve NAME`` on a free loopback port (importing taumesh from ``code`` when given); returns the
    process and its address."""
    argv = [taumesh_command(), "serve", name, "--port", "0"]
    if data_dir is not None:
        argv += ["--data-dir", str(data_dir)]
    env = {k: v for k, v in os.environ.items() if not k.startswith("OTEL_")} | {"OTEL_SDK_DISABLED": "true"}
    if code is not None:
        env["PYTHONPATH"] = str(code)
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, env=env)
    assert proc.stdout is not None
    for line in proc.stdout:
        found = re.search(r"serving \S+ on (\S+:\d+)", line)
        if found:
            threading.Thread(target=proc.stdout.read, daemon=True).start()  # never block the child on a full pipe
            return proc, found.group(1)
    proc.kill()
    raise RuntimeError(f"taumesh serve {name} exited with {proc.wait()} before serving")


def rss(pid: int, settle: float = SETTLE_SECONDS) -> int:
    time.sleep(settle)
    return int(psutil.Process(pid).memory_info().rss)


def send(call: grpc.UnaryUnaryMultiCallable[bytes, bytes], raw: bytes, count: int) -> dict[str, int]:
    """Send ``raw`` ``count`` times; how many calls ended with each status code (none may succeed)."""
    codes: dict[str, int] = {}
    for _ in range(count):
        try:
            call(raw, timeout=120)
        except grpc.RpcError as error:
            code = error.code().name
        else:
            raise AssertionError("a refused request was answered")
        codes[code] = codes.get(code, 0) + 1
    return codes


def probe(
    name: str,
    count: int,
    size: int,
    data_dir: Path | None = None,
    code: Path | None = None,
    settle: float = SETTLE_SECONDS,
) -> dict[str, object]:
    """Start the service, send both phases, and report the RSS each added (bytes) and the codes received."""
    target = TARGETS[name]
    proc, address = start(name, data_dir, code)
    options = [("grpc.max_send_message_length", MAX_MESSAGE_BYTES)]
    try:
        with grpc.insecure_channel(address, options=options) as channel:
            call = channel.unary_unary(target.method, None, None)
            under = target.request(target.cap - MARGIN)
            under_count = math.ceil(count * size / len(under))
            send(call, target.request(1000), 3)  # warm up: first-call allocations are not what is measured
            start_rss = rss(proc.pid, settle)
            at_size = target.request(size)
            size_bytes = len(at_size)
            size_codes = send(call, at_size, count)
            del at_size
            after_size = rss(proc.pid, settle)
            under_codes = send(call, under, under_count)
            after_under = rss(proc.pid, settle)
    finally:
        proc.kill()  # measured already: a graceful stop would drain for seconds (tested in test_services_standalone)
        proc.wait(timeout=30)
    return {
        "service": name,
        "cap_bytes": target.cap,
        "at_size": {
            "requests": count,
            "request_bytes": size_bytes,
            "codes": size_codes,
            "rss_growth_bytes": after_size - start_rss,
        },
        "under_cap": {
            "requests": under_count,
            "request_bytes": len(under),
            "codes": under_codes,
            "rss_growth_bytes": after_under - after_size,
        },
        "rss_start_bytes": start_rss,
        "rss_growth_bytes": after_under - start_rss,
    }


def main(argv: list[str] | None = None) -> None:
    """Probe the services named in ``argv`` (the command line when None)."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--count", type=int, default=60, help="requests over the cap per service (60)")
    parser.add_argument("--size-mb", type=float, default=20, help="size of each, in MB (20)")
    parser.add_argument("--services", nargs="+", choices=sorted(TARGETS), default=list(TARGETS))
    parser.add_argument("--data-dir", type=Path, default=None, help="the services' --data-dir (not needed)")
    parser.add_argument(
        "--services-from", type=Path, default=None, help="run the services from this checkout (an older one: before)"
    )
    parser.add_argument("--out", type=Path, default=None, help="write the figures as JSON here")
    parser.add_argument("--settle", type=float, default=SETTLE_SECONDS, help="seconds left before each RSS reading (1)")
    args = parser.parse_args(argv)
    results = []
    print(f"{'service':<9} {'cap':>9} {'at size: sent':>22} {'RSS +':>9} {'under cap: sent':>22} {'RSS +':>9}")
    # the services are probed at once, each in its own process and with its own requests one at a time: a
    # request's transfer over loopback waits on HTTP/2 flow control far more than it computes, so probing them
    # one after the other took four times as long for the same figures
    with ThreadPoolExecutor(max_workers=len(args.services)) as pool:
        probes = [
            pool.submit(probe, name, args.count, int(args.size_mb * MB), args.data_dir, args.services_from, args.settle)
            for name in args.services
        ]
    for name, pending in zip(args.services, probes, strict=True):
        found = pending.result()
        results.append(found)
        at_size, under = found["at_size"], found["under_cap"]
        assert isinstance(at_size, dict) and isinstance(under, dict)
        print(
            f"{name:<9} {target_mib(TARGETS[name].cap):>9} "
            f"{sent(at_size):>22} {mb(at_size['rss_growth_bytes']):>9} "
            f"{sent(under):>22} {mb(under['rss_growth_bytes']):>9}",
            flush=True,
        )
    if args.out is not None:
        args.out.write_text(json.dumps({"count": args.count, "size_mb": args.size_mb, "services": results}, indent=2))


def target_mib(cap: int) -> str:
    return f"{cap / 2**20:.0f} MiB"


def mb(value: object) -> str:
    assert isinstance(value, int)
    return f"{value / MB:.0f} MB"


def sent(phase: dict[str, object]) -> str:
    requests, size = phase["requests"], phase["request_bytes"]
    assert isinstance(requests, int) and isinstance(size, int)
    return f"{requests} x {size / MB:.1f} MB"


if __name__ == "__main__":
    main()
