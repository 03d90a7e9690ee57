"""The deploy tier plays the Kubernetes overlays' pods on the container engine: their commands start and serve.

No API server can be had here, so each overlay is rendered (``kubectl kustomize``) and every pod of its Deployments
and Jobs is started as containers by :mod:`tests.helpers.k8s_pods`, as a kubelet would: same image, arguments,
environment, volumes, user and security settings, Services' DNS names. Every container must pass its own startup
probe, and the orchestrator Job must run its init container (waiting for the services) and score every episode,
through the shared token the manifests wire, with traces reaching the collector's address the settings name.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml

from tests.helpers.containers import CANARY_KEY, DEPLOY_TIER, IMAGE_ENV, docker, wait_for
from tests.helpers.deploy import ROOT
from tests.helpers.k8s_pods import Kubelet, Pod, pods

pytestmark = DEPLOY_TIER

TASKS = 114
"""τ² retail's base split: the manifests' default run (oracle agent, scripted user)."""
SECRETS = {
    "taumesh-token": {"token": "deploy-tier-shared-token-0123456789abcdef"},
    "taumesh-model-keys": {"OPENAI_API_KEY": CANARY_KEY},
    # the API's database: SQLite on its claim (prod names PostgreSQL; the claim is shared by its replicas here)
    "taumesh-api": {"database-url": "sqlite:////var/lib/taumesh-api/api.sqlite3"},
}
COLLECTORS = [
    f"{name}{suffix}"
    for name in ("jaeger.taumesh", "otel-collector.observability")
    for suffix in ("", ".svc", ".svc.cluster.local")
]
"""Where the overlays send traces (dev: its Jaeger; base and prod: an OpenTelemetry Collector)."""


POSTGRES_IMAGE_ENV = "TAUMESH_DEPLOY_POSTGRES_IMAGE"
"""The PostgreSQL image scripts/test-deploy.sh builds (tests/deploy/postgres.Dockerfile): the scale-out work store."""


def rendered(overlay: str) -> list[dict[str, Any]]:
    kubectl = shutil.which("kubectl")
    if kubectl is None:
        pytest.skip("kubectl not found (it renders the kustomizations): apt-get install kubectl")
    done = subprocess.run(
        [kubectl, "kustomize", str(ROOT / "k8s" / "overlays" / overlay)], capture_output=True, text=True, check=True
    )
    return [doc for doc in yaml.safe_load_all(done.stdout) if doc]


@pytest.fixture(params=["dev", "prod"])
def cluster(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[tuple[str, Kubelet, list[Pod], Path]]:
    overlay = str(request.param)
    kubelet = Kubelet(prefix=f"taumesh-k8s-{overlay}-{os.getpid()}", image=os.environ[IMAGE_ENV], docker=docker())
    spans = tmp_path / "spans"
    spans.mkdir()
    spans.chmod(0o777)
    tmp_path.chmod(0o755)
    planned = pods(rendered(overlay), SECRETS, images={"taumesh"})
    try:
        kubelet.create_network()
        kubelet.run_sink(str(spans), str(ROOT / "tests"), COLLECTORS)
        yield overlay, kubelet, planned, spans
    finally:
        kubelet.remove_all()


def test_every_pod_starts_and_serves_and_the_job_scores_every_episode(
    cluster: tuple[str, Kubelet, list[Pod], Path], tmp_path: Path
) -> None:
    overlay, kubelet, planned, spans = cluster
    services = [pod for pod in planned if pod.kind == "Deployment"]
    (job,) = [pod for pod in planned if pod.workload == "orchestrator"]
    assert {pod.workload for pod in services} >= {"env", "user-sim", "agent", "scorer", "api", "viewer"}
    kubelet.prepare_volumes(planned)
    kubelet.serve(services)
    print(f"\nk8s {overlay}: {len(services)} pods of {len({p.workload for p in services})} Deployments serving")

    kubelet.run_init(job)  # waits for every service's health, over the Services' DNS names
    (orchestrator,) = kubelet.start(job)
    status = kubelet.wait_exit(orchestrator)
    log = kubelet.logs(orchestrator)
    assert status == 0, log[-3000:]
    assert f"scored episodes: {TASKS}" in log and f"reward 1.0: {TASKS}/{TASKS}" in log, log[-3000:]

    copied = tmp_path / "results"
    subprocess.run([docker(), "cp", f"{orchestrator}:/results/.", str(copied)], check=True, capture_output=True)
    (results_file,) = [p for p in copied.glob("*.json") if "errors" not in p.name]
    episodes = json.loads(results_file.read_text(encoding="utf-8"))
    assert len(episodes) == TASKS and all(e["reward"] == 1.0 for e in episodes)
    print(f"k8s {overlay}: the orchestrator Job scored {len(episodes)}/{TASKS} through the shared token")

    def traced() -> set[str]:
        spans_file = spans / "spans.jsonl"
        lines = spans_file.read_text(encoding="utf-8").splitlines() if spans_file.is_file() else []
        return {json.loads(line)["service"] for line in lines}

    wait_for(lambda: {"taumesh-orchestrator", "taumesh-env", "taumesh-scorer"} <= traced(), "traces from the pods", 60)


def shrunk_to_this_machine(objects: list[dict[str, Any]], workers: int, tasks: int, trials: int) -> None:
    """scale-out's run is 100 tasks x 100 trials over 20 worker pods: the same objects, with a run this machine plays
    in a minute (the settings ConfigMap's size of run, the Indexed Job's parallelism and completions)."""
    for obj in objects:
        if obj["kind"] == "ConfigMap" and obj["metadata"]["name"].startswith("taumesh-settings-"):
            obj["data"].update(
                TAUMESH_END_INDEX=str(tasks), TAUMESH_NUM_TRIALS=str(trials), TAUMESH_MAX_CONCURRENCY="16"
            )
        if obj["kind"] == "Job" and obj["metadata"]["name"] == "workers":
            obj["spec"]["parallelism"] = obj["spec"]["completions"] = workers


def test_scale_out_plays_one_run_across_worker_pods_sharing_a_postgresql_work_store(tmp_path: Path) -> None:
    postgres_image = os.environ.get(POSTGRES_IMAGE_ENV)
    if not postgres_image:
        pytest.skip(f"{POSTGRES_IMAGE_ENV} not set (scripts/test-deploy.sh builds the work store's PostgreSQL)")
    objects = rendered("scale-out")
    workers, tasks, trials = 2, 30, 2
    shrunk_to_this_machine(objects, workers, tasks, trials)
    secrets = {**SECRETS, "taumesh-work-store": {"url": "postgresql+psycopg://taumesh@postgres:5432/postgres"}}
    planned = pods(objects, secrets, images={"taumesh"})
    kubelet = Kubelet(prefix=f"taumesh-k8s-scale-out-{os.getpid()}", image=os.environ[IMAGE_ENV], docker=docker())
    try:
        kubelet.create_network()
        kubelet.run_postgres(postgres_image, "postgres")
        services = [pod for pod in planned if pod.kind == "Deployment"]
        (coordinator,) = [pod for pod in planned if pod.workload == "orchestrator"]
        worker_pods = [pod for pod in planned if pod.workload == "workers"]
        assert len(worker_pods) == workers
        kubelet.prepare_volumes(planned)
        kubelet.serve(services)
        kubelet.run_init(coordinator)
        (coordinator_container,) = kubelet.start(coordinator)
        worker_containers = [name for pod in worker_pods for name in kubelet.start(pod)]
        statuses = {name: kubelet.wait_exit(name) for name in [*worker_containers, coordinator_container]}
        logs = {name: kubelet.logs(name) for name in statuses}
        assert all(status == 0 for status in statuses.values()), {n: logs[n][-1500:] for n in statuses}
        episodes = tasks * trials
        log = logs[coordinator_container]
        assert f"scored episodes: {episodes}" in log and f"reward 1.0: {episodes}/{episodes}" in log, log[-3000:]
        print(f"\nk8s scale-out: {episodes} episodes over {workers} worker pods and a PostgreSQL work store")
    finally:
        kubelet.remove_all()
