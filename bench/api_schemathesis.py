"""Schemathesis against the REST API for a time budget, every check on: the long form of tests/api/test_openapi_fuzz.py.

It starts ``uvicorn`` with the API over a fresh SQLite database in a temporary folder, creates a key, and runs
``schemathesis run --checks all --max-time SECONDS`` (examples, coverage, fuzzing and stateful phases) with it.
``POST /api/v1/validate-tasks`` and ``GET /scores`` are left out, as in the quick test: a valid random request
there plays a whole benchmark (with ``fresh=true`` for ``/scores``). The failed-key limit is lifted, since the
``ignored_auth`` check sends wrong keys on purpose. Run from the project root:

    .venv/bin/python bench/api_schemathesis.py --data-dir ../shared/taubench_v1 --max-time 300 --report-dir out/st

It exits with schemathesis's status; ``--report-dir`` keeps its JUnit report and the console output.
"""

from __future__ import annotations

import argparse
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx

from taumesh.api.database import make_engine, migrate
from taumesh.api.store import Store


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def start_api(root: Path, data_dir: Path, port: int) -> subprocess.Popen[bytes]:
    env = {
        **os.environ,
        "TAUMESH_API_DATABASE_URL": f"sqlite:///{root / 'api.db'}",
        "TAUMESH_API_DATA_ROOT": str(root),
        "TAUMESH_API_DATA_DIR": str(data_dir),
        "TAUMESH_API_RATE_LIMIT": "1000000/minute",
        "TAUMESH_API_AUTH_FAILURE_LIMIT": "1000000/minute",
    }
    log = (root / "uvicorn.log").open("ab")
    command = [sys.executable, "-m", "uvicorn", "--factory", "taumesh.api.app:create_app", "--port", str(port)]
    process = subprocess.Popen(command, env=env, stdout=log, stderr=subprocess.STDOUT)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise SystemExit(f"uvicorn exited: {(root / 'uvicorn.log').read_text()[-2000:]}")
        try:
            if httpx.get(f"http://127.0.0.1:{port}/health", timeout=1).status_code == 200:
                return process
        except httpx.TransportError:
            pass
        time.sleep(0.2)
    process.terminate()
    raise SystemExit("uvicorn did not answer /health within 60 s")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data-dir", type=Path, required=True, help="τ-bench v1 data (a folder per domain)")
    parser.add_argument("--max-time", type=int, default=300, help="schemathesis's time budget, seconds (300)")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--report-dir", type=Path, default=None, help="keep the JUnit report and the output here")
    args = parser.parse_args()
    cli = shutil.which("schemathesis", path=str(Path(sys.executable).parent)) or shutil.which("schemathesis")
    if cli is None:
        raise SystemExit("schemathesis is not installed (pip install -e '.[dev]')")
    root = Path(tempfile.mkdtemp(prefix="taumesh-st-"))
    engine = make_engine(f"sqlite:///{root / 'api.db'}")
    migrate(engine)
    token = Store(engine).create_key("schemathesis")[1]
    engine.dispose()
    port = free_port()
    process = start_api(root, args.data_dir, port)
    report = args.report_dir or root / "report"
    report.mkdir(parents=True, exist_ok=True)
    command = [
        cli, "run", f"http://127.0.0.1:{port}/openapi.json", "--checks", "all", "--max-time", str(args.max_time),
        "--seed", str(args.seed), "--header", f"Authorization: Bearer {token}",
        "--exclude-path", "/api/v1/validate-tasks", "--exclude-path", "/scores", "--exclude-path", "/api/v1/rollouts",
        "--request-timeout", "30",
        "--report", "junit", "--report-dir", str(report),
    ]  # fmt: skip
    try:
        completed = subprocess.run(command, capture_output=True, text=True, cwd=root)
    finally:
        process.terminate()
        process.wait(timeout=30)
    (report / "output.txt").write_text(completed.stdout + completed.stderr)
    print(completed.stdout + completed.stderr)
    print(f"report: {report}")
    return completed.returncode


if __name__ == "__main__":
    sys.exit(main())
