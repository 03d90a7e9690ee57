"""The REST API as a real uvicorn process on loopback, and a throwaway PostgreSQL server."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

import httpx
import pytest

from taumesh.api.database import make_engine, migrate
from taumesh.api.store import Store
from tests.helpers.processes import free_port

APP_FACTORY = "taumesh.api.app:create_app"
FAKE_PROVIDER_KEY = "sk-test-provider-key-never-shown"
"""A provider key in the server's environment: /health may say it is configured, never show it."""
PG_BIN_DIRS = [Path("/usr/local/bin"), *sorted(Path("/usr/lib/postgresql").glob("*/bin"), reverse=True)]


@dataclass
class ApiServer:
    """One uvicorn process with the API; stop and start it again over the same database."""

    database_url: str
    root: Path
    data_dir: Path
    extra_env: dict[str, str] = field(default_factory=dict)
    port: int = field(default_factory=free_port)
    process: subprocess.Popen[bytes] | None = None
    token: str = ""
    key_id: str = ""

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def audit_path(self) -> Path:
        return self.root / "logs" / "audit.jsonl"

    @property
    def headers(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.token}"}

    def store(self) -> Store:
        engine = make_engine(self.database_url)
        migrate(engine)
        return Store(engine)

    def variables(self) -> dict[str, str]:
        """The server's settings as its environment: the test database and folders, test-sized limits, extras."""
        return {
            "TAUMESH_API_DATABASE_URL": self.database_url,
            "TAUMESH_API_DATA_ROOT": str(self.root),
            "TAUMESH_API_LOG_DIR": str(self.root / "logs"),
            "TAUMESH_API_DATA_DIR": str(self.data_dir),
            "TAUMESH_API_RATE_LIMIT": "1000/minute",
            "TAUMESH_API_LEASE_SECONDS": "3",
            "TAUMESH_API_POLL_SECONDS": "0.5",
            "TAUMESH_API_ALLOWED_AGENT_ADDRESSES": "127.0.0.1:1",
            **self.extra_env,
        }

    def start(self) -> None:
        env = {**os.environ, **self.variables()}
        log = (self.root / "uvicorn.log").open("ab")
        self.process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "uvicorn",
                "--factory",
                APP_FACTORY,
                "--host",
                "127.0.0.1",
                "--port",
                str(self.port),
            ],
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
        )
        # uvicorn listens once the lifespan has started; its root document answers without the first /health's import
        # of litellm (~3 s CPU), which a server that never validates a model would pay only for this wait
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"uvicorn exited: {(self.root / 'uvicorn.log').read_text()[-3000:]}")
            try:
                if httpx.get(f"{self.base_url}/", timeout=1).status_code == 200:
                    return
            except httpx.TransportError:
                pass
            time.sleep(0.05)
        raise RuntimeError("uvicorn did not answer / within 60 s")

    def stop(self, kill: bool = False) -> None:
        """SIGKILL (a crash: leases stay until they expire) or SIGTERM (graceful: leases released)."""
        if self.process is None:
            return
        self.process.send_signal(signal.SIGKILL if kill else signal.SIGTERM)
        self.process.wait(timeout=30)
        self.process = None


def pg_binary(name: str) -> Path | None:
    for folder in PG_BIN_DIRS:
        if (folder / name).is_file():
            return folder / name
    found = shutil.which(name)
    return Path(found) if found else None


@dataclass
class Postgres:
    url_base: str
    stop: list[str]


def as_postgres_user(command: list[str]) -> list[str]:
    """initdb and postgres refuse to run as root: run them as the ``postgres`` account then."""
    if os.geteuid() != 0:
        return command
    return ["runuser", "-u", "postgres", "--", *command]


def create_database(postgres: Postgres, name: str) -> str:
    import psycopg

    with psycopg.connect(postgres.url_base.replace("+psycopg", "") + "/postgres", autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    return f"{postgres.url_base}/{name}"


def start_server(
    database_url: str, root: Path, data_dir: Path, kind: type[ApiServer] = ApiServer, **extra_env: str
) -> ApiServer:
    """An API server of ``kind`` (a process; :class:`tests.helpers.api_thread.ThreadApi`: a thread) with a test key."""
    server = kind(database_url=database_url, root=root, data_dir=data_dir, extra_env=extra_env)
    row, server.token = server.store().create_key("tests")
    server.key_id = row.id
    server.start()
    return server


@contextmanager
def running_postgres() -> Iterator[Postgres]:
    """A PostgreSQL server started from the machine's binaries, stopped and removed on the way out."""
    initdb, pg_ctl = pg_binary("initdb"), pg_binary("pg_ctl")
    if initdb is None or pg_ctl is None:
        reason = "PostgreSQL binaries (initdb, pg_ctl) not found; install PostgreSQL (apt-get install postgresql)"
        print(reason)
        pytest.skip(reason)
    # not under pytest's temporary folder: as root that one is closed to the postgres account
    root = Path(tempfile.mkdtemp(prefix="taumesh-pg-"))
    data = root / "data"
    if os.geteuid() == 0:
        shutil.chown(root, "postgres")
    port = free_port()
    subprocess.run(
        as_postgres_user([str(initdb), "-D", str(data), "-U", "taumesh", "--auth=trust"]),
        check=True,
        capture_output=True,
    )
    options = f"-p {port} -k {root} -c listen_addresses=127.0.0.1 -c fsync=off"
    subprocess.run(
        as_postgres_user([str(pg_ctl), "-D", str(data), "-o", options, "-l", str(root / "pg.log"), "-w", "start"]),
        check=True,
        capture_output=True,
    )
    stop = as_postgres_user([str(pg_ctl), "-D", str(data), "-m", "fast", "-w", "stop"])
    try:
        yield Postgres(url_base=f"postgresql+psycopg://taumesh@127.0.0.1:{port}", stop=stop)
    finally:
        subprocess.run(stop, check=False, capture_output=True)
        shutil.rmtree(root, ignore_errors=True)
