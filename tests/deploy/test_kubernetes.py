"""k8s/: every overlay renders with kustomize, validates strictly against Kubernetes' schemas, and agrees with the
code on ports, health service names, settings and addresses."""

from __future__ import annotations

import inspect
import os
import re
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import kubernetes_validate  # type: ignore[import-untyped]
import pytest
import yaml

from taumesh.commands.health import SERVICE_NAMES
from taumesh.rpc.server import DRAIN_SECONDS, serve_forever
from taumesh.settings import ServeSettings, ServiceName

from .conftest import KUBERNETES_VERSION, ROOT, RUN_AND_SERVE_ENV

K8S = ROOT / "k8s"
OVERLAYS = ("dev", "prod")
PORT = ServeSettings.model_fields["port"].default
NAMESPACE = "taumesh"
SERVERS = tuple(name.value for name in ServiceName)
PRE_STOP_SLEEP = 5


def kustomize(kubectl: str, directory: Path) -> list[dict[str, Any]]:
    done = subprocess.run(
        [kubectl, "kustomize", str(directory)], capture_output=True, text=True, timeout=120, check=False
    )
    assert done.returncode == 0, done.stderr
    return [doc for doc in yaml.safe_load_all(done.stdout) if doc]


@pytest.fixture(scope="module", params=OVERLAYS)
def overlay(request: pytest.FixtureRequest, kubectl: str) -> tuple[str, list[dict[str, Any]]]:
    return request.param, kustomize(kubectl, K8S / "overlays" / request.param)


@pytest.fixture(scope="module")
def prod_with_tls(kubectl: str, tmp_path_factory: pytest.TempPathFactory) -> list[dict[str, Any]]:
    """prod plus the TLS component, as an overlay that adds it would render."""
    folder = tmp_path_factory.mktemp("prod-tls")
    relative = os.path.relpath(K8S, folder)  # kustomize refuses absolute paths
    (folder / "kustomization.yaml").write_text(
        yaml.safe_dump(
            {
                "apiVersion": "kustomize.config.k8s.io/v1beta1",
                "kind": "Kustomization",
                "resources": [f"{relative}/overlays/prod"],
                "components": [f"{relative}/components/tls"],
            }
        )
    )
    return kustomize(kubectl, folder)


def by_kind(objects: list[dict[str, Any]], kind: str) -> dict[str, dict[str, Any]]:
    return {o["metadata"]["name"]: o for o in objects if o["kind"] == kind}


def pod_specs(objects: list[dict[str, Any]]) -> Iterator[tuple[str, dict[str, Any]]]:
    for obj in objects:
        if obj["kind"] in ("Deployment", "Job"):
            yield obj["metadata"]["name"], obj["spec"]["template"]["spec"]


def server(deployment: dict[str, Any]) -> dict[str, Any]:
    containers = deployment["spec"]["template"]["spec"]["containers"]
    return next(c for c in containers if c["name"] == "server")


def settings(objects: list[dict[str, Any]]) -> dict[str, str]:
    (config,) = [o for o in objects if o["kind"] == "ConfigMap" and o["metadata"]["name"].startswith("taumesh-")]
    data: dict[str, str] = config["data"]
    return data


def test_every_object_validates_strictly(overlay: tuple[str, list[dict[str, Any]]]) -> None:
    for obj in overlay[1]:
        kubernetes_validate.validate(obj, KUBERNETES_VERSION, strict=True)


def test_tls_component_validates_and_switches_probes_to_the_tls_probe(prod_with_tls: list[dict[str, Any]]) -> None:
    for obj in prod_with_tls:
        kubernetes_validate.validate(obj, KUBERNETES_VERSION, strict=True)
    for name, deployment in by_kind(prod_with_tls, "Deployment").items():
        container = server(deployment)
        env = {e["name"]: e.get("value") for e in container["env"]}
        assert {"TAUMESH_TLS_CERT", "TAUMESH_TLS_KEY", "TAUMESH_TLS_CA", "TAUMESH_TLS_SERVER_NAME"} <= set(env), name
        for probe in ("startupProbe", "readinessProbe", "livenessProbe"):
            assert "grpc" not in container[probe], (name, probe)  # kubelet's grpc probe speaks no TLS
            assert "taumesh.commands.health" in " ".join(container[probe]["exec"]["command"])
    job = by_kind(prod_with_tls, "Job")["orchestrator"]["spec"]["template"]["spec"]
    for container in [*job["initContainers"], *job["containers"]]:
        assert {"TAUMESH_TLS_CA", "TAUMESH_TLS_SERVER_NAME"} <= {e["name"] for e in container["env"]}


def test_every_pod_is_unprivileged(overlay: tuple[str, list[dict[str, Any]]]) -> None:
    for name, spec in pod_specs(overlay[1]):
        pod = spec["securityContext"]
        assert pod["runAsNonRoot"] is True, name
        assert pod["seccompProfile"]["type"] == "RuntimeDefault", name
        assert spec["automountServiceAccountToken"] is False, name
        for container in [*spec.get("initContainers", []), *spec["containers"]]:
            context = container["securityContext"]
            assert context["allowPrivilegeEscalation"] is False, (name, container["name"])
            assert context["readOnlyRootFilesystem"] is True, (name, container["name"])
            assert context["capabilities"]["drop"] == ["ALL"], (name, container["name"])


def test_probes_ports_and_names_agree_with_the_code(overlay: tuple[str, list[dict[str, Any]]]) -> None:
    deployments = by_kind(overlay[1], "Deployment")
    for name in SERVERS:
        container = server(deployments[name])
        env = {e["name"]: e.get("value") for e in container["env"]}
        assert env["TAUMESH_SERVICE"] == name
        assert env["TAUMESH_PORT"] == str(PORT)
        assert [p["containerPort"] for p in container["ports"]] == [PORT]
        assert container["args"] == ["serve"]
        for probe in ("startupProbe", "readinessProbe"):
            assert container[probe]["grpc"] == {"port": PORT, "service": SERVICE_NAMES[name]}, (name, probe)
        assert container["livenessProbe"]["grpc"]["port"] == PORT


def test_grace_period_covers_prestop_drain_and_grace(overlay: tuple[str, list[dict[str, Any]]]) -> None:
    grace = inspect.signature(serve_forever).parameters["grace"].default
    for name, deployment in by_kind(overlay[1], "Deployment").items():
        if name not in SERVERS:
            continue
        spec = deployment["spec"]["template"]["spec"]
        assert server(deployment)["lifecycle"]["preStop"]["exec"]["command"] == ["sleep", str(PRE_STOP_SLEEP)]
        assert spec["terminationGracePeriodSeconds"] >= PRE_STOP_SLEEP + DRAIN_SECONDS + grace, name


def test_services_are_headless_where_clients_balance(overlay: tuple[str, list[dict[str, Any]]]) -> None:
    services = by_kind(overlay[1], "Service")
    for name in SERVERS:
        assert services[name]["spec"]["clusterIP"] == "None", name
        assert [p["port"] for p in services[name]["spec"]["ports"]] == [PORT]
        assert services[name]["spec"]["selector"] == {"app.kubernetes.io/name": name}


def test_settings_are_real_and_addresses_reach_the_services(overlay: tuple[str, list[dict[str, Any]]]) -> None:
    objects = overlay[1]
    data = settings(objects)
    assert {k for k in data if k.startswith("TAUMESH_")} <= RUN_AND_SERVE_ENV
    services = by_kind(objects, "Service")
    for setting, target in (("ENV", "env"), ("USER", "user-sim"), ("AGENT", "agent"), ("SCORER", "scorer")):
        match = re.fullmatch(r"dns:///([\w-]+)\.([\w-]+)\.svc\.cluster\.local:(\d+)", data[f"TAUMESH_{setting}_ADDR"])
        assert match, data[f"TAUMESH_{setting}_ADDR"]
        assert match.groups() == (target, NAMESPACE, str(PORT))
        assert services[target]["metadata"]["namespace"] == NAMESPACE
    assert all(o["metadata"].get("namespace", NAMESPACE) == NAMESPACE for o in objects if o["kind"] != "Namespace")
    assert data["OTEL_EXPORTER_OTLP_ENDPOINT"].endswith(":4317")


def test_orchestrator_job_writes_results_to_a_claim(overlay: tuple[str, list[dict[str, Any]]]) -> None:
    objects = overlay[1]
    job = by_kind(objects, "Job")["orchestrator"]["spec"]["template"]["spec"]
    (container,) = job["containers"]
    assert container["args"] == ["run"]
    env = {e["name"]: e.get("value") for e in container["env"]}
    mounts = {m["name"]: m["mountPath"] for m in container["volumeMounts"]}
    assert mounts["results"] == env["TAUMESH_LOG_DIR"] == "/results"
    claim = next(v for v in job["volumes"] if v["name"] == "results")["persistentVolumeClaim"]["claimName"]
    assert claim in by_kind(objects, "PersistentVolumeClaim")


def test_secrets_are_referenced_never_included(overlay: tuple[str, list[dict[str, Any]]]) -> None:
    objects = overlay[1]
    assert not by_kind(objects, "Secret")
    deployments = by_kind(objects, "Deployment")
    for name in ("user-sim", "agent"):  # the ones that call models
        refs = [s["secretRef"] for s in server(deployments[name])["envFrom"] if "secretRef" in s]
        assert refs == [{"name": "taumesh-model-keys", "optional": True}]
    for name in SERVERS:
        token = next(e for e in server(deployments[name])["env"] if e["name"] == "TAUMESH_TOKEN")
        assert token["valueFrom"]["secretKeyRef"]["name"] == "taumesh-token"


def test_only_the_orchestrator_reaches_the_services(overlay: tuple[str, list[dict[str, Any]]]) -> None:
    policies = by_kind(overlay[1], "NetworkPolicy")
    assert policies["default-deny"]["spec"] == {"podSelector": {}, "policyTypes": ["Ingress", "Egress"]}
    ingress = policies["services-from-orchestrator"]["spec"]
    assert ingress["podSelector"]["matchLabels"] == {"app.kubernetes.io/component": "service"}
    (rule,) = ingress["ingress"]
    assert rule["from"] == [{"podSelector": {"matchLabels": {"app.kubernetes.io/component": "orchestrator"}}}]
    assert rule["ports"] == [{"protocol": "TCP", "port": PORT}]
    https = policies["https-egress"]["spec"]["egress"]
    assert [p["port"] for rule in https for p in rule["ports"]] == [443]
    allowed_in = {
        "services-from-orchestrator",
        "jaeger-ingress",  # dev: spans from the namespace's pods
    }
    assert {name for name, p in policies.items() if "Ingress" in p["spec"]["policyTypes"]} - {"default-deny"} <= (
        allowed_in
    )


def test_dev_is_one_replica_each_with_jaeger(kubectl: str) -> None:
    objects = kustomize(kubectl, K8S / "overlays" / "dev")
    deployments = by_kind(objects, "Deployment")
    assert {name: deployments[name]["spec"]["replicas"] for name in SERVERS} == dict.fromkeys(SERVERS, 1)
    jaeger = deployments["jaeger"]["spec"]["template"]["spec"]["containers"][0]
    assert jaeger["image"].startswith("jaegertracing/jaeger:2.")
    assert {p["containerPort"] for p in jaeger["ports"]} == {4317, 16686}
    assert settings(objects)["OTEL_EXPORTER_OTLP_ENDPOINT"] == "http://jaeger.taumesh.svc.cluster.local:4317"
    assert not by_kind(objects, "HorizontalPodAutoscaler") and not by_kind(objects, "PodDisruptionBudget")


def test_prod_scales_user_sim_and_budgets_disruptions(kubectl: str) -> None:
    objects = kustomize(kubectl, K8S / "overlays" / "prod")
    deployments = by_kind(objects, "Deployment")
    (hpa,) = by_kind(objects, "HorizontalPodAutoscaler").values()
    assert hpa["spec"]["scaleTargetRef"] == {"apiVersion": "apps/v1", "kind": "Deployment", "name": "user-sim"}
    assert hpa["spec"]["minReplicas"] >= 2 and hpa["spec"]["maxReplicas"] > hpa["spec"]["minReplicas"]
    budgets = by_kind(objects, "PodDisruptionBudget")
    assert set(budgets) == set(SERVERS)
    for name, budget in budgets.items():
        labels = deployments[name]["spec"]["template"]["metadata"]["labels"]
        assert budget["spec"]["selector"]["matchLabels"].items() <= labels.items()
        assert deployments[name]["spec"]["replicas"] >= 2, name  # a budget of one pod would block every drain
        resources = server(deployments[name])["resources"]
        assert {"cpu", "memory"} <= set(resources["requests"]) and {"cpu", "memory"} <= set(resources["limits"])
