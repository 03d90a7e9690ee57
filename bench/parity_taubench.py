"""Parity with the original: τ-bench's own ``run.py`` and ``taumesh run`` against the same real model (issue 47).

Both harnesses play the same τ-bench task with the tool-calling agent and τ-bench's LLM user, at temperature 0,
against one llama.cpp server (Qwen2.5-Coder-1.5B-Instruct, as the live tier runs it), each through a proxy of its own
(bench/_parity_proxy.py) that records every chat request:

1. τ-bench first, from a sierra-research/tau-bench checkout (``--taubench-v1 PATH``) in a venv of its own, with the
   same litellm as taumesh's; its requests go to the model, and the proxy records them with the answers;
2. then taumesh, over data imported from the same checkout (``taumesh data import taubench``); its proxy answers
   a request equal to τ-bench's at the same place (per role) with τ-bench's recorded answer, and forwards one that
   differs to the model. So taumesh meets exactly τ-bench's model for as long as it asks exactly what τ-bench
   asked, and the first request that differs is the finding: which role, which request, which field, both values.

It then compares the two trajectories message by message and the two rewards. Nothing is asserted but that both
harnesses ran: the report says where they agree and where they first part, and why as far as the field shows.

    .venv/bin/python bench/parity_taubench.py --taubench-v1 ../tau-bench               # retail test task 0
    .venv/bin/python bench/parity_taubench.py --taubench-v1 ../tau-bench --task-ids 0 1 --out parity.json
    .venv/bin/python bench/parity_taubench.py --taubench-v1 ../tau-bench --server-url http://127.0.0.1:8080/v1

The model: ``--server-url`` (a running OpenAI-compatible server), else llama-server started here from
``TAUMESH_LIVE_SERVER`` and ``TAUMESH_LIVE_MODEL`` (``bash scripts/test-live.sh --collect-only`` installs and names
them). A cold τ-bench prompt takes minutes on 2 cores: one task takes 10–40 minutes.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import venv
from contextlib import ExitStack, contextmanager
from dataclasses import asdict, dataclass, field
from importlib.metadata import version
from pathlib import Path
from typing import Any

from _parity_proxy import normalised  # bench/ is on sys.path: the bench runs as a script

from taumesh.testing.llama import llama_server
from taumesh.testing.processes import ServerProcess, taumesh_executable

HERE = Path(__file__).resolve().parent
PROXY = HERE / "_parity_proxy.py"
MODEL = "qwen2.5-coder-1.5b-instruct"
"""The name both harnesses send (litellm's ``openai`` provider to the proxy); the server serves what it loaded."""
CONSTRAINTS = "litellm!=1.82.7,!=1.82.8\n"
"""Never these litellm releases (compromised), whatever τ-bench's own requirement allows."""
RUN_SECONDS = 4 * 3600
SHOWN = 300
"""Characters of each differing value the report shows."""


# -- the harnesses ----------------------------------------------------------------------------------------------------


def taubench_python(cache: Path, checkout: Path) -> Path:
    """The Python of a venv holding the checkout's ``tau_bench`` with taumesh's own litellm: made once, then reused."""
    root = cache / "bench" / "taubench-venv"
    python = root / "bin" / "python"
    pins = [f"litellm=={version('litellm')}", f"mcp=={version('mcp')}"]  # litellm imports mcp for calls with tools
    wanted = "\n".join([str(checkout.resolve()), *pins, CONSTRAINTS])
    marker = root / "taumesh-installed.txt"
    if python.is_file() and marker.is_file() and marker.read_text() == wanted:
        return python
    print(f"installing τ-bench from {checkout} into {root} (once; a few minutes)", file=sys.stderr, flush=True)
    venv.EnvBuilder(with_pip=True, clear=True).create(root)
    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as constraints:
        constraints.write(CONSTRAINTS)
    try:
        argv = [str(python), "-m", "pip", "install", "-q", "-c", constraints.name, str(checkout)]
        done = subprocess.run([*argv, *pins], capture_output=True, text=True, check=False)
    finally:
        os.unlink(constraints.name)
    if done.returncode != 0:
        raise SystemExit(f"installing τ-bench failed ({done.returncode}):\n{done.stderr[-4000:]}")
    marker.write_text(wanted)
    return python


@contextmanager
def proxy(upstream: str, record: Path, replay: Path | None, log: Path) -> Any:
    """bench/_parity_proxy.py as a process; yields its base URL."""
    argv = [sys.executable, str(PROXY), "--upstream", upstream, "--record", str(record)]
    if replay is not None:
        argv += ["--replay", str(replay)]
    process = ServerProcess.spawn(argv, log)
    try:
        process.wait_ready(r"serving (?P<address>http://\S+)", timeout=60)
        yield process.address
    finally:
        process.stop(timeout=10)


def _environment(url: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "VIRTUAL_ENV", "OPENAI_"))}
    env.update(OPENAI_API_BASE=url, OPENAI_API_KEY="sk-parity-local", LITELLM_LOCAL_MODEL_COST_MAP="True")
    return env


def run_taubench(python: Path, checkout: Path, url: str, args: argparse.Namespace, out: Path) -> None:
    """τ-bench's own ``run.py``, unchanged, from the checkout."""
    argv = [
        str(python),
        "run.py",
        "--env",
        args.env,
        "--task-split",
        args.task_split,
        "--agent-strategy",
        "tool-calling",
    ]
    argv += ["--model", MODEL, "--model-provider", "openai", "--user-model", MODEL, "--user-model-provider", "openai"]
    argv += ["--user-strategy", "llm", "--temperature", "0", "--log-dir", str(out), "--task-ids", *args.task_ids]
    done = subprocess.run(
        argv, cwd=checkout, env=_environment(url), capture_output=True, text=True, timeout=RUN_SECONDS
    )
    (out / "run.log").write_text(done.stdout + done.stderr, encoding="utf-8")
    if done.returncode != 0:
        raise SystemExit(f"τ-bench's run.py failed ({done.returncode}):\n{(done.stdout + done.stderr)[-4000:]}")
    failed = [str(r.get("task_id")) for r in results(out) if "error" in (r.get("info") or {})]
    if failed:  # run.py catches an episode's exception and records it as reward 0: not a trajectory to compare
        raise TaubenchError(f"τ-bench's run.py recorded errors for tasks {failed}: see {out / 'run.log'}")


class TaubenchError(RuntimeError):
    """τ-bench's run.py recorded an episode's exception (a model's 500 on a malformed tool call, say)."""


def run_taumesh(data_dir: Path, url: str, args: argparse.Namespace, out: Path) -> None:
    """``taumesh run`` with τ-bench's flags, as τ-bench's run.py was given them."""
    argv = [
        taumesh_executable(),
        "run",
        "--env",
        args.env,
        "--task-split",
        args.task_split,
        "--data-dir",
        str(data_dir),
    ]
    argv += ["--agent-strategy", "tool-calling", "--model", MODEL, "--model-provider", "openai", "--api-base", url]
    argv += ["--user-model", MODEL, "--user-model-provider", "openai", "--user-api-base", url, "--user-strategy", "llm"]
    argv += ["--temperature", "0", "--log-dir", str(out), "--quiet", "--task-ids", *args.task_ids]
    env = {**_environment(url), "TAUMESH_LLM_TIMEOUT": "1800", "TAUMESH_LLM_MAX_ATTEMPTS": "1"}
    done = subprocess.run(argv, env=env, capture_output=True, text=True, timeout=RUN_SECONDS)
    (out / "run.log").write_text(done.stdout + done.stderr, encoding="utf-8")
    if done.returncode not in (0, 1):
        raise SystemExit(f"taumesh run failed ({done.returncode}):\n{(done.stdout + done.stderr)[-4000:]}")


def import_data(checkout: Path, data_dir: Path) -> None:
    argv = [taumesh_executable(), "data", "import", "taubench", str(checkout), "--out", str(data_dir), "--force"]
    subprocess.run(argv, check=True, capture_output=True, text=True)


# -- the comparison ---------------------------------------------------------------------------------------------------


def first_difference(a: Any, b: Any, path: str = "") -> tuple[str, Any, Any] | None:
    """The first place where ``a`` and ``b`` differ (depth first, keys in order), with both values; None if equal."""
    if isinstance(a, dict) and isinstance(b, dict):
        for key in [*a, *(k for k in b if k not in a)]:
            if key not in a or key not in b:
                return f"{path}.{key}", a.get(key, "(absent)"), b.get(key, "(absent)")
            found = first_difference(a[key], b[key], f"{path}.{key}")
            if found:
                return found
        return None
    if isinstance(a, list) and isinstance(b, list):
        for index, (left, right) in enumerate(zip(a, b, strict=False)):
            found = first_difference(left, right, f"{path}[{index}]")
            if found:
                return found
        if len(a) != len(b):
            return f"{path} (length)", len(a), len(b)
        return None
    return None if a == b else (path or ".", a, b)


def _shown(value: Any) -> str:
    text = value if isinstance(value, str) else json.dumps(value)
    return text if len(text) <= SHOWN else text[:SHOWN] + f"… ({len(text)} characters)"


def _why(where: str) -> str:
    """What the field that differs says about the cause."""
    if where.startswith(".messages[0]"):
        return "the system prompt differs (the policy, or the user's instruction prompt)"
    if where.startswith(".messages"):
        return "the conversation handed back differs: how an earlier message, tool call or result is passed on"
    if where.startswith(".tools"):
        return "the tool schemas differ"
    return "a request parameter differs (sampling, limits or provider options)"


@dataclass
class RoleParity:
    """One role's requests in both harnesses, aligned: those both sent, those only τ-bench sent, the first difference.

    Requests are aligned in order on equality (message fields providers ignore left aside, :func:`normalised`): a
    τ-bench request with no equal among taumesh's is τ-bench's alone (its user asks the model each time it is
    constructed, before it has an instruction, and drops the answer), and the first taumesh request with no equal
    among τ-bench's is the finding, compared with the next τ-bench request not yet matched.
    """

    role: str
    taubench_requests: int
    taumesh_requests: int
    matched: int
    only_taubench: int = 0
    ignored_fields: int = 0
    """Matched requests whose bodies differ only in message fields providers ignore."""
    first_difference: dict[str, str] | None = None


def _read(path: Path) -> dict[str, list[dict[str, Any]]]:
    found: dict[str, list[dict[str, Any]]] = {"agent": [], "user": []}
    for line in path.read_text(encoding="utf-8").splitlines():
        entry = json.loads(line)
        found[entry["role"]].append(entry)
    return found


def _role_parity(role: str, theirs: list[dict[str, Any]], ours: list[dict[str, Any]]) -> RoleParity:
    parity = RoleParity(role, len(theirs), len(ours), 0)
    position = 0  # the next τ-bench request not yet matched or passed over
    for index, entry in enumerate(ours):
        wanted = normalised(entry["request"])
        match = next((i for i in range(position, len(theirs)) if normalised(theirs[i]["request"]) == wanted), None)
        if match is None:
            other = theirs[position]["request"] if position < len(theirs) else {}
            where, value_a, value_b = first_difference(normalised(other), wanted) or (".", "(none)", "(equal)")
            parity.first_difference = {
                "request": str(index),
                "field": where,
                "taubench": _shown(value_a),
                "taumesh": _shown(value_b),
                "why": _why(where),
            }
            break
        parity.only_taubench += match - position
        parity.ignored_fields += theirs[match]["request"] != entry["request"]
        parity.matched += 1
        position = match + 1
    return parity


def compare_requests(taubench: Path, taumesh: Path) -> list[RoleParity]:
    """Per role, the requests of both harnesses aligned (:class:`RoleParity`)."""
    left, right = _read(taubench), _read(taumesh)
    return [_role_parity(role, left[role], right[role]) for role in ("agent", "user")]


def _messages(traj: list[dict[str, Any]]) -> list[tuple[str, str, str]]:
    """A trajectory as (role, text, tool calls) per message, ids left out (each harness names its calls)."""
    rows = []
    for message in traj:
        calls = [
            (call.get("function", {}).get("name"), call.get("function", {}).get("arguments"))
            for call in message.get("tool_calls") or []
        ]
        rows.append((str(message.get("role")), str(message.get("content") or ""), json.dumps(calls)))
    return rows


@dataclass
class Report:
    task_ids: list[str]
    rewards: dict[str, dict[str, float]] = field(default_factory=dict)
    """Task id -> each harness's reward."""
    trajectory_lengths: dict[str, dict[str, int]] = field(default_factory=dict)
    equal_messages: dict[str, int] = field(default_factory=dict)
    """Task id -> how many messages the trajectories share before they first differ."""
    roles: list[RoleParity] = field(default_factory=list)
    replayed: dict[str, int] = field(default_factory=dict)
    """Requests of taumesh answered with τ-bench's recorded answer, and those sent to the model."""


def results(folder: Path) -> list[dict[str, Any]]:
    files = sorted(p for p in folder.glob("*.json") if not p.name.endswith((".errors.json", ".manifest.json")))
    if not files:
        raise SystemExit(f"no results file in {folder}: see {folder / 'run.log'}")
    loaded: list[dict[str, Any]] = json.loads(files[-1].read_text(encoding="utf-8"))
    return loaded


def build_report(args: argparse.Namespace, scratch: Path) -> Report:
    report = Report(task_ids=list(args.task_ids))
    theirs = {str(r["task_id"]): r for r in results(scratch / "taubench")}
    ours = {str(r["task_id"]): r for r in results(scratch / "taumesh")}
    for task_id in args.task_ids:
        a, b = theirs.get(task_id, {}), ours.get(task_id, {})
        report.rewards[task_id] = {"taubench": a.get("reward", float("nan")), "taumesh": b.get("reward", float("nan"))}
        left, right = _messages(a.get("traj", [])), _messages(b.get("traj", []))
        report.trajectory_lengths[task_id] = {"taubench": len(left), "taumesh": len(right)}
        shared = 0
        for x, y in zip(left, right, strict=False):
            if x != y:
                break
            shared += 1
        report.equal_messages[task_id] = shared
    report.roles = compare_requests(scratch / "taubench.jsonl", scratch / "taumesh.jsonl")
    entries = [json.loads(line) for line in (scratch / "taumesh.jsonl").read_text(encoding="utf-8").splitlines()]
    report.replayed = {
        "replayed": sum(e["replayed"] for e in entries),
        "sent to the model": sum(not e["replayed"] for e in entries),
    }
    return report


def markdown(report: Report) -> str:
    lines = [
        "| task | reward τ-bench | reward taumesh | messages (τ-bench / taumesh) | equal before the first difference |"
    ]
    lines.append("|---|---|---|---|---|")
    for task_id in report.task_ids:
        rewards, lengths = report.rewards[task_id], report.trajectory_lengths[task_id]
        lines.append(
            f"| {task_id} | {rewards['taubench']:g} | {rewards['taumesh']:g} | "
            f"{lengths['taubench']} / {lengths['taumesh']} | {report.equal_messages[task_id]} |"
        )
    columns = ["role", "requests (τ-bench / taumesh)", "equal", "τ-bench's alone", "equal but for ignored fields"]
    lines += ["", "| " + " | ".join([*columns, "first difference"]) + " |", "|---|---|---|---|---|---|"]
    for role in report.roles:
        first = role.first_difference
        said = "none" if first is None else f"request {first['request']}, `{first['field']}`: {first['why']}"
        counts = f"{role.taubench_requests} / {role.taumesh_requests}"
        row = f"{counts} | {role.matched} | {role.only_taubench} | {role.ignored_fields} | {said}"
        lines.append(f"| {role.role} | {row} |")
    for role in report.roles:
        if role.first_difference:
            first = role.first_difference
            lines += ["", f"{role.role} request {first['request']}, `{first['field']}`:"]
            lines += [f"- τ-bench: `{first['taubench']}`", f"- taumesh: `{first['taumesh']}`"]
    return "\n".join(lines)


# -- main -------------------------------------------------------------------------------------------------------------


def parse(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--taubench-v1", type=Path, required=True, metavar="PATH", help="a τ-bench checkout")
    parser.add_argument("--env", default="retail", choices=["retail", "airline"])
    parser.add_argument("--task-split", default="test")
    parser.add_argument("--task-ids", nargs="+", default=["0"])
    parser.add_argument("--server-url", help="a running OpenAI-compatible model server (…/v1)")
    parser.add_argument("--cache", type=Path, default=Path(os.environ.get("TAUMESH_CACHE_DIR", "~/.cache/taumesh")))
    parser.add_argument("--scratch", type=Path, help="keep the runs' files here (default: a temporary folder)")
    parser.add_argument("--out", type=Path, help="also write the report as JSON")
    parser.add_argument(
        "--attempts", type=int, default=3, help="runs of run.py until one records no episode error (default 3)"
    )
    args = parser.parse_args(argv)
    if not (args.taubench_v1 / "run.py").is_file() or not (args.taubench_v1 / "tau_bench" / "envs").is_dir():
        parser.error(f"--taubench-v1 {args.taubench_v1}: not a τ-bench checkout (no run.py, tau_bench/envs)")
    if args.server_url is None and not (os.environ.get("TAUMESH_LIVE_SERVER") and os.environ.get("TAUMESH_LIVE_MODEL")):
        parser.error("no model: give --server-url, or set TAUMESH_LIVE_SERVER and TAUMESH_LIVE_MODEL")
    args.cache = args.cache.expanduser()
    return args


def main(argv: list[str] | None = None) -> int:
    args = parse(argv)
    checkout = args.taubench_v1.resolve()
    python = taubench_python(args.cache, checkout)
    with ExitStack() as stack:
        scratch = args.scratch or Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="parity-")))
        scratch.mkdir(parents=True, exist_ok=True)
        for folder in ("taubench", "taumesh", "data"):
            (scratch / folder).mkdir(exist_ok=True)
        import_data(checkout, scratch / "data")
        upstream = args.server_url or stack.enter_context(
            llama_server(
                Path(os.environ["TAUMESH_LIVE_SERVER"]), Path(os.environ["TAUMESH_LIVE_MODEL"]), scratch / "llama.log"
            )
        )
        for attempt in range(1, args.attempts + 1):  # τ-bench's user samples (no temperature sent): runs differ
            for stale in (scratch / "taubench").glob("*.json"):
                stale.unlink()
            with proxy(upstream, scratch / "taubench.jsonl", None, scratch / "proxy-taubench.log") as url:
                try:
                    run_taubench(python, checkout, url, args, scratch / "taubench")
                    break
                except TaubenchError as exc:
                    if attempt == args.attempts:
                        raise SystemExit(str(exc)) from None
                    print(f"attempt {attempt}: {exc}; again", file=sys.stderr, flush=True)
        with proxy(upstream, scratch / "taumesh.jsonl", scratch / "taubench.jsonl", scratch / "proxy.log") as url:
            run_taumesh(scratch / "data", url, args, scratch / "taumesh")
        report = build_report(args, scratch)
    print(markdown(report))
    if args.out:
        args.out.write_text(json.dumps(asdict(report), indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
