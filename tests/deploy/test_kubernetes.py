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

from taumesh.api.routes.health import router as health_router
from taumesh.api.settings import API_ENV_PREFIX, ApiSettings
from taumesh.commands.api import GRACEFUL_SHUTDOWN_SECONDS
from taumesh.commands.health import SERVICE_NAMES
from taumesh.rpc.server import DRAIN_SECONDS, serve_forever
from taumesh.settings import ServeSettings, ServiceName
from tests.helpers.deploy import KUBERNETES_VERSION, ROOT, RUN_AND_SERVE_ENV, view_parameters, viewer_status

K8S = ROOT / "k8s"
OVERLAYS = ("dev", "prod", "scale-out")
PORT = ServeSettings.model_fields["port"].default
NAMESPACE = "taumesh"
SERVERS = tuple(name.value for name in ServiceName)
PRE_STOP_SLEEP = 5
API_PORT = ApiSettings.model_fields["port"].default
API_ENV = {API_ENV_PREFIX + field.upper() for field in ApiSettings.model_fields}
"""Every TAUMESH_API_* variable the REST API reads."""
HEALTH_PATH: str = next(path for route in health_router.routes if (path := getattr(route, "path", "")) == "/health")


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


def settings(objects: list[dict[str, Any]], name: str = "taumesh-settings") -> dict[str, str]:
    """The generated ConfigMap ``name`` (with kustomize's hash suffix)."""
    (config,) = [o for o in objects if o["kind"] == "ConfigMap" and o["metadata"]["name"].rsplit("-", 1)[0] == name]
    data: dict[str, str] = config["data"]
    return data


def api_environment(objects: list[dict[str, Any]]) -> dict[str, str]:
    """What the API container's environment holds: its ConfigMap, then its literal ``env`` values."""
    container = server(by_kind(objects, "Deployment")["api"])
    literal = {e["name"]: e["value"] for e in container["env"] if "value" in e}
    return {**settings(objects, "taumesh-api-settings"), **literal}


def test_every_object_validates_strictly(overlay: tuple[str, list[dict[str, Any]]]) -> None:
    for obj in overlay[1]:
        kubernetes_validate.validate(obj, KUBERNETES_VERSION, strict=True)


def test_every_object_is_in_the_namespace_and_every_config_map_it_names_is_rendered(
    overlay: tuple[str, list[dict[str, Any]]],
) -> None:
    """A component's objects (scale-out's workers Job) once rendered without a namespace, naming ``taumesh-settings``
    without the generated hash: applied, the pods would have found no such ConfigMap."""
    _, objects = overlay
    cluster_wide = {"Namespace"}
    strays = [
        (o["kind"], o["metadata"]["name"])
        for o in objects
        if o["kind"] not in cluster_wide and o["metadata"].get("namespace") != NAMESPACE
    ]
    assert not strays, f"objects outside namespace {NAMESPACE}: {strays}"
    rendered = set(by_kind(objects, "ConfigMap"))
    for name, spec in pod_specs(objects):
        for container in [*spec.get("initContainers", []), *spec["containers"]]:
            named = [ref["configMapRef"]["name"] for ref in container.get("envFrom", []) if "configMapRef" in ref]
            named += [
                env["valueFrom"]["configMapKeyRef"]["name"]
                for env in container.get("env", [])
                if "configMapKeyRef" in env.get("valueFrom", {})
            ]
            missing = [config for config in named if config not in rendered]
            assert not missing, f"{name}/{container['name']} names ConfigMaps not rendered: {missing}"


def test_tls_component_validates_and_switches_probes_to_the_tls_probe(prod_with_tls: list[dict[str, Any]]) -> None:
    for obj in prod_with_tls:
        kubernetes_validate.validate(obj, KUBERNETES_VERSION, strict=True)
    for name, deployment in by_kind(prod_with_tls, "Deployment").items():
        if name not in SERVERS:
            continue
        container = server(deployment)
        env = {e["name"]: e.get("value") for e in container["env"]}
        assert {"TAUMESH_TLS_CERT", "TAUMESH_TLS_KEY", "TAUMESH_TLS_CA", "TAUMESH_TLS_SERVER_NAME"} <= set(env), name
        for probe in ("startupProbe", "readinessProbe", "livenessProbe"):
            assert "grpc" not in container[probe], (name, probe)  # kubelet's grpc probe speaks no TLS
            assert "taumesh.commands.health" in " ".join(container[probe]["exec"]["command"])
    job = by_kind(prod_with_tls, "Job")["orchestrator"]["spec"]["template"]["spec"]
    api = by_kind(prod_with_tls, "Deployment")["api"]["spec"]["template"]["spec"]
    for container in [*job["initContainers"], *job["containers"], *api["containers"]]:
        assert {"TAUMESH_TLS_CA", "TAUMESH_TLS_SERVER_NAME"} <= {e["name"] for e in container["env"]}
    assert "httpGet" in server(by_kind(prod_with_tls, "Deployment")["api"])["readinessProbe"]  # HTTP stays plain


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
    for name in ("user-sim", "agent", "api"):  # the ones that call models, and /health reporting them
        refs = [s["secretRef"] for s in server(deployments[name])["envFrom"] if "secretRef" in s]
        assert refs == [{"name": "taumesh-model-keys", "optional": True}]
    for name in (*SERVERS, "api"):
        token = next(e for e in server(deployments[name])["env"] if e["name"] == "TAUMESH_TOKEN")
        assert token["valueFrom"]["secretKeyRef"]["name"] == "taumesh-token"
    database = next(e for e in server(deployments["api"])["env"] if e["name"] == "TAUMESH_API_DATABASE_URL")
    assert database["valueFrom"]["secretKeyRef"]["name"] == "taumesh-api"
    assert "TAUMESH_API_DATABASE_URL" not in settings(objects, "taumesh-api-settings")


def test_only_the_orchestrator_and_the_api_reach_the_services(overlay: tuple[str, list[dict[str, Any]]]) -> None:
    policies = by_kind(overlay[1], "NetworkPolicy")
    assert policies["default-deny"]["spec"] == {"podSelector": {}, "policyTypes": ["Ingress", "Egress"]}
    ingress = policies["services-from-orchestrator"]["spec"]
    assert ingress["podSelector"]["matchLabels"] == {"app.kubernetes.io/component": "service"}
    (rule,) = ingress["ingress"]
    assert rule["from"] == [{"podSelector": {"matchLabels": {"app.kubernetes.io/component": "orchestrator"}}}]
    assert rule["ports"] == [{"protocol": "TCP", "port": PORT}]
    from_api = policies["services-from-api"]["spec"]
    assert from_api["podSelector"] == ingress["podSelector"]
    (rule,) = from_api["ingress"]
    assert rule["from"] == [{"podSelector": {"matchLabels": {"app.kubernetes.io/component": "api"}}}]
    assert rule["ports"] == [{"protocol": "TCP", "port": PORT}]
    api_out = policies["api-egress"]["spec"]
    assert api_out["egress"][0]["to"] == [{"podSelector": {"matchLabels": {"app.kubernetes.io/component": "service"}}}]
    assert api_out["egress"][0]["ports"] == [{"protocol": "TCP", "port": PORT}]
    api_in = policies["api-ingress"]["spec"]
    assert api_in["podSelector"]["matchLabels"] == {"app.kubernetes.io/component": "api"}
    assert api_in["ingress"] == [{"ports": [{"protocol": "TCP", "port": API_PORT}]}]
    https = policies["https-egress"]["spec"]["egress"]
    assert [p["port"] for rule in https for p in rule["ports"]] == [443]
    allowed_in = {
        "services-from-orchestrator",
        "services-from-api",
        "api-ingress",
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
    assert set(budgets) == {*SERVERS, "api"}
    for name, budget in budgets.items():
        labels = deployments[name]["spec"]["template"]["metadata"]["labels"]
        assert budget["spec"]["selector"]["matchLabels"].items() <= labels.items()
        assert deployments[name]["spec"]["replicas"] >= 2, name  # a budget of one pod would block every drain
        resources = server(deployments[name])["resources"]
        assert {"cpu", "memory"} <= set(resources["requests"]) and {"cpu", "memory"} <= set(resources["limits"])


def test_api_probes_port_and_service_agree_with_the_code(overlay: tuple[str, list[dict[str, Any]]]) -> None:
    objects = overlay[1]
    deployment = by_kind(objects, "Deployment")["api"]
    container = server(deployment)
    assert container["args"] == ["serve", "api"]
    env = api_environment(objects)
    assert env["TAUMESH_API_HOST"] == "0.0.0.0"
    assert int(env["TAUMESH_API_PORT"]) == API_PORT
    assert [(p["name"], p["containerPort"]) for p in container["ports"]] == [("http", API_PORT)]
    for probe in ("startupProbe", "readinessProbe", "livenessProbe"):
        assert container[probe]["httpGet"] == {"path": HEALTH_PATH, "port": "http"}, probe
    service = by_kind(objects, "Service")["api"]["spec"]
    assert service.get("type", "ClusterIP") == "ClusterIP" and "clusterIP" not in service
    assert service["ports"] == [
        {"name": "http", "port": API_PORT, "targetPort": "http", "protocol": "TCP", "appProtocol": "http"}
    ]
    assert service["selector"].items() <= deployment["spec"]["template"]["metadata"]["labels"].items()
    spec = deployment["spec"]["template"]["spec"]
    assert container["lifecycle"]["preStop"]["exec"]["command"] == ["sleep", str(PRE_STOP_SLEEP)]
    assert spec["terminationGracePeriodSeconds"] >= PRE_STOP_SLEEP + GRACEFUL_SHUTDOWN_SECONDS


def test_api_settings_are_real_and_reach_the_services(
    overlay: tuple[str, list[dict[str, Any]]], monkeypatch: pytest.MonkeyPatch
) -> None:
    objects = overlay[1]
    container = server(by_kind(objects, "Deployment")["api"])
    env = api_environment(objects)
    names = {k for k in env if k.startswith("TAUMESH_")} | {e["name"] for e in container["env"]}
    assert {n for n in names if n.startswith(API_ENV_PREFIX)} <= API_ENV
    assert {n for n in names if n.startswith("TAUMESH_") and not n.startswith(API_ENV_PREFIX)} <= RUN_AND_SERVE_ENV
    for setting, target in (("ENV", "env"), ("USER", "user-sim"), ("AGENT", "agent"), ("SCORER", "scorer")):
        address = env[f"TAUMESH_API_{setting}_ADDR"]
        match = re.fullmatch(r"dns:///([\w-]+)\.([\w-]+)\.svc\.cluster\.local:(\d+)", address)
        assert match and match.groups() == (target, NAMESPACE, str(PORT)), address
    # the settings load as the server loads them, and everything it writes is on the claim
    for name in [n for n in os.environ if n.startswith(API_ENV_PREFIX)]:
        monkeypatch.delenv(name)
    for name, value in env.items():
        monkeypatch.setenv(name, value.replace("$(POD_NAME)", "api-0"))
    loaded = ApiSettings()
    mounts = {m["name"]: Path(m["mountPath"]) for m in container["volumeMounts"]}
    claim = next(v for v in container_volumes(objects, "api") if v["name"] == "api-data")
    assert claim["persistentVolumeClaim"]["claimName"] in by_kind(objects, "PersistentVolumeClaim")
    for written in (loaded.data_root, loaded.audit_path, loaded.results_dir):
        assert written is not None and written.is_relative_to(mounts["api-data"]), written
    assert loaded.addresses.env == env["TAUMESH_API_ENV_ADDR"]


def container_volumes(objects: list[dict[str, Any]], deployment: str) -> list[dict[str, Any]]:
    volumes: list[dict[str, Any]] = by_kind(objects, "Deployment")[deployment]["spec"]["template"]["spec"]["volumes"]
    return volumes


def test_prod_api_shares_postgresql_and_a_read_write_many_claim(kubectl: str) -> None:
    objects = kustomize(kubectl, K8S / "overlays" / "prod")
    deployment = by_kind(objects, "Deployment")["api"]
    assert deployment["spec"]["replicas"] >= 2
    assert deployment["spec"]["strategy"]["type"] == "RollingUpdate"
    container = server(deployment)
    database = next(e for e in container["env"] if e["name"] == "TAUMESH_API_DATABASE_URL")
    assert database["valueFrom"]["secretKeyRef"]["optional"] is False  # no SQLite under several pods
    assert by_kind(objects, "PersistentVolumeClaim")["api-data"]["spec"]["accessModes"] == ["ReadWriteMany"]
    resources = container["resources"]
    assert {"cpu", "memory"} <= set(resources["requests"]) and {"cpu", "memory"} <= set(resources["limits"])
    audit = next(e for e in container["env"] if e["name"] == "TAUMESH_API_LOG_DIR")["value"]
    assert "$(POD_NAME)" in audit  # one audit file per pod on the shared claim


def test_dev_api_is_one_pod_on_sqlite(kubectl: str) -> None:
    objects = kustomize(kubectl, K8S / "overlays" / "dev")
    deployment = by_kind(objects, "Deployment")["api"]
    assert deployment["spec"]["replicas"] == 1 and deployment["spec"]["strategy"]["type"] == "Recreate"
    database = next(e for e in server(deployment)["env"] if e["name"] == "TAUMESH_API_DATABASE_URL")
    assert database["valueFrom"]["secretKeyRef"]["optional"] is True


def container_env(objects: list[dict[str, Any]], container: dict[str, Any]) -> dict[str, str]:
    """A container's ``env`` as the kubelet fills it: literal values, and keys of the generated ConfigMaps."""
    configs = {o["metadata"]["name"]: o.get("data", {}) for o in objects if o["kind"] == "ConfigMap"}
    values: dict[str, str] = {}
    for variable in container.get("env", []):
        reference = variable.get("valueFrom", {}).get("configMapKeyRef")
        if "value" in variable:
            values[variable["name"]] = variable["value"]
        elif reference is not None:
            values[variable["name"]] = configs[reference["name"]][reference["key"]]
    return values


def expand(arguments: list[str], env: dict[str, str]) -> list[str]:
    """``$(NAME)`` in container arguments replaced as the kubelet does."""
    return [re.sub(r"\$\((\w+)\)", lambda found: env[found.group(1)], argument) for argument in arguments]


def load_api_settings(env: dict[str, str], monkeypatch: pytest.MonkeyPatch) -> ApiSettings:
    for name in [n for n in os.environ if n.startswith(API_ENV_PREFIX)]:
        monkeypatch.delenv(name)
    for name, value in env.items():
        monkeypatch.setenv(name, value.replace("$(POD_NAME)", "api-0"))
    return ApiSettings()


def test_viewer_follows_the_jobs_and_the_apis_results_read_only(
    overlay: tuple[str, list[dict[str, Any]]], monkeypatch: pytest.MonkeyPatch
) -> None:
    objects = overlay[1]
    deployments = by_kind(objects, "Deployment")
    container = server(deployments["viewer"])
    assert container["image"] == server(deployments["api"])["image"]
    view = view_parameters(expand(container["args"], container_env(objects, container)))
    assert view["host"] == "0.0.0.0"
    assert [(p["name"], p["containerPort"]) for p in container["ports"]] == [("http", view["port"])]
    # the Job's results claim, and the API's claim where the API mounts it (a run's viewer id hashes its path)
    mounts = {m["name"]: m for m in container["volumeMounts"]}
    volumes = {v["name"]: v for v in container_volumes(objects, "viewer")}
    job = by_kind(objects, "Job")["orchestrator"]["spec"]["template"]["spec"]
    job_mount = next(m for m in job["containers"][0]["volumeMounts"] if m["name"] == "results")
    job_claim = next(v for v in job["volumes"] if v["name"] == "results")["persistentVolumeClaim"]["claimName"]
    api = server(deployments["api"])
    api_mount = next(m for m in api["volumeMounts"] if m["name"] == "api-data")
    api_settings = load_api_settings(api_environment(objects), monkeypatch)
    assert api_settings.results_dir is not None
    assert view["paths"] == [Path(job_mount["mountPath"]), api_settings.results_dir]
    assert mounts["results"]["mountPath"] == job_mount["mountPath"]
    assert volumes["results"]["persistentVolumeClaim"] == {"claimName": job_claim, "readOnly": True}
    assert mounts["api-data"]["mountPath"] == api_mount["mountPath"]
    assert volumes["api-data"]["persistentVolumeClaim"] == {"claimName": "api-data", "readOnly": True}
    assert mounts["results"]["readOnly"] is True and mounts["api-data"]["readOnly"] is True
    # probes on a route the viewer app serves
    for probe in ("startupProbe", "readinessProbe", "livenessProbe"):
        assert container[probe]["httpGet"]["port"] == "http", probe
        assert viewer_status(container[probe]["httpGet"]["path"]) == 200, probe
    resources = container["resources"]
    assert {"cpu", "memory"} <= set(resources["requests"]) and "memory" in resources["limits"]
    service = by_kind(objects, "Service")["viewer"]["spec"]
    assert service["selector"].items() <= deployments["viewer"]["spec"]["template"]["metadata"]["labels"].items()
    assert [(p["port"], p["targetPort"]) for p in service["ports"]] == [(view["port"], "http")]


def test_no_policy_lets_traffic_into_the_unauthenticated_viewer(overlay: tuple[str, list[dict[str, Any]]]) -> None:
    """The viewer has no login: only ``kubectl port-forward`` (which no NetworkPolicy filters) reaches it."""
    objects = overlay[1]
    labels = by_kind(objects, "Deployment")["viewer"]["spec"]["template"]["metadata"]["labels"]
    for name, policy in by_kind(objects, "NetworkPolicy").items():
        spec = policy["spec"]
        if "Ingress" not in spec["policyTypes"] or not spec.get("ingress"):
            continue  # a deny (default-deny) or an egress rule
        selected = spec["podSelector"].get("matchLabels", {})
        assert not selected.items() <= labels.items(), name


def test_dev_links_the_api_and_jaeger_to_the_viewer(kubectl: str) -> None:
    objects = kustomize(kubectl, K8S / "overlays" / "dev")
    container = server(by_kind(objects, "Deployment")["viewer"])
    port = view_parameters(expand(container["args"], container_env(objects, container)))["port"]
    assert api_environment(objects)["TAUMESH_API_VIEWER_URL"] == f"http://localhost:{port}"
    assert container_env(objects, container)["TAUMESH_JAEGER_URL"] == "http://localhost:16686"


def test_prod_results_claim_is_shared_across_nodes(kubectl: str) -> None:
    """The Job writes and the viewer reads `results` from any node, as the API's pods and the viewer share api-data."""
    claims = by_kind(kustomize(kubectl, K8S / "overlays" / "prod"), "PersistentVolumeClaim")
    assert claims["results"]["spec"]["accessModes"] == claims["api-data"]["spec"]["accessModes"] == ["ReadWriteMany"]


def test_user_sim_fetches_the_tau2_data_it_reads(overlay: tuple[str, list[dict[str, Any]]]) -> None:
    """τ²'s user guidelines must be in the user-sim pod: the same init step as env's fills a volume read at /data."""
    _, objects = overlay
    deployments = by_kind(objects, "Deployment")
    for name in ("env", "user-sim"):
        spec = deployments[name]["spec"]["template"]["spec"]
        (fetch,) = [c for c in spec.get("initContainers", []) if c["name"] == "fetch-data"]
        assert fetch["args"] == ["data", "fetch", "tau2"], name
        assert {m["name"]: m["mountPath"] for m in fetch["volumeMounts"]}["data"] == "/data", name
        mounts = {m["name"]: m for m in server(deployments[name])["volumeMounts"]}
        assert mounts["data"]["mountPath"] == "/data" and mounts["data"].get("readOnly") is True, name
        assert any(v["name"] == "data" and "emptyDir" in v for v in spec["volumes"]), name
    user_sim = deployments["user-sim"]["spec"]["template"]["metadata"]["labels"]
    assert user_sim.get("taumesh.io/egress-https") == "true"  # the init step downloads the wheel


def test_scale_out_runs_one_run_on_an_indexed_job_of_workers(kubectl: str) -> None:
    """The coordinator (the orchestrator Job, coordinating only) and 20 worker pods share one PostgreSQL store."""
    import typer.main

    from taumesh.commands.worker import worker
    from taumesh.settings import RunSettings

    objects = kustomize(kubectl, K8S / "overlays" / "scale-out")
    jobs = by_kind(objects, "Job")
    workers = jobs["workers"]["spec"]
    assert workers["completionMode"] == "Indexed"
    assert workers["parallelism"] == workers["completions"] == 20
    (container,) = workers["template"]["spec"]["containers"]
    assert container["args"] == ["worker"]
    assert workers["template"]["metadata"]["labels"]["app.kubernetes.io/component"] == "orchestrator"  # policies
    app = typer.Typer()
    app.command()(worker)
    variables = {p.envvar for p in typer.main.get_command(app).params if getattr(p, "envvar", None)}
    env = {e["name"]: e for e in container["env"]}
    assert {name for name in env if name.startswith("TAUMESH_WORK")} <= variables  # names the command reads
    (coordinator,) = jobs["orchestrator"]["spec"]["template"]["spec"]["containers"]
    coordinating = {e["name"]: e for e in coordinator["env"]}
    assert coordinating[RunSettings.env_name("workers")]["value"] == "0"
    for store in (env["TAUMESH_WORK_STORE"], coordinating[RunSettings.env_name("work_store")]):
        assert store["valueFrom"]["secretKeyRef"] == {"name": "taumesh-work-store", "key": "url"}
    data = settings(objects)
    assert int(data["TAUMESH_END_INDEX"]) * int(data["TAUMESH_NUM_TRIALS"]) == 10_000
    egress = by_kind(objects, "NetworkPolicy")["orchestrator-to-work-store"]["spec"]
    assert egress["podSelector"]["matchLabels"] == {"app.kubernetes.io/component": "orchestrator"}
    assert [p["port"] for rule in egress["egress"] for p in rule["ports"]] == [5432]
