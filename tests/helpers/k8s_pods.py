"""Kubernetes pod templates as ``docker run`` containers: the deploy tier starts what the manifests would start.

No Kubernetes API server can be had here, so the rendered manifests (``kubectl kustomize k8s/overlays/NAME``) are
played on the container engine instead, as a kubelet would for each pod: the same image, arguments, environment
(values, ``fieldRef``, ConfigMap and Secret references, ``$(VAR)`` expansion), volumes (``emptyDir`` per pod,
claims shared), user, read-only root and dropped capabilities; init containers in order, each to exit 0, then the
pod's containers; each Service's DNS names as network aliases of the pods it selects. Probes are asked by
``python -m taumesh.commands.health`` inside the container (``grpc:`` and ``httpGet:`` alike).

What is not played: scheduling, resources, NetworkPolicies (no CNI), HPAs and PDBs (no controllers).
"""

from __future__ import annotations

import re
import subprocess
import time
from dataclasses import dataclass, field
from typing import Any

CLUSTER_DOMAIN = "svc.cluster.local"
_REFERENCE = re.compile(r"\$\(([A-Za-z_][A-Za-z0-9_]*)\)")


@dataclass(frozen=True)
class Probe:
    """What to ask a container: a gRPC service (``grpc``) or an HTTP path."""

    port: int
    grpc_service: str | None = None
    http_path: str | None = None
    attempts: int = 60

    def command(self) -> list[str]:
        base = ["python", "-m", "taumesh.commands.health"]
        if self.http_path is not None:
            return [*base, "--http", f"http://127.0.0.1:{self.port}{self.http_path}"]
        return [*base, f"127.0.0.1:{self.port}", "--service", self.grpc_service or ""]


@dataclass
class Container:
    """One container of a pod, as ``docker run`` arguments."""

    name: str
    argv: list[str]
    """The image's entrypoint is ``taumesh``: ``args`` alone; a ``command`` replaces the entrypoint."""
    entrypoint: str | None
    env: dict[str, str]
    mounts: list[tuple[str, str, bool]]
    """(volume name in the pod, path, read-only)."""
    read_only_root: bool
    drop_all_capabilities: bool
    no_new_privileges: bool
    probe: Probe | None = None


@dataclass
class Pod:
    """One replica of a workload."""

    workload: str
    kind: str
    name: str
    labels: dict[str, str]
    user: str | None
    volumes: dict[str, dict[str, Any]]
    init_containers: list[Container]
    containers: list[Container]
    aliases: list[str] = field(default_factory=list)


class MissingReference(Exception):
    """A manifest names a ConfigMap, Secret or key that is not there (and not optional): the pod would not start."""


def _expand(text: str, env: dict[str, str]) -> str:
    """Kubernetes' ``$(VAR)``: replaced when VAR is defined before, left as written otherwise."""
    return _REFERENCE.sub(lambda m: env.get(m.group(1), m.group(0)), text)


def _config_maps(objects: list[dict[str, Any]]) -> dict[str, dict[str, str]]:
    return {o["metadata"]["name"]: dict(o.get("data") or {}) for o in objects if o["kind"] == "ConfigMap"}


def _environment(
    container: dict[str, Any],
    pod_name: str,
    namespace: str,
    config_maps: dict[str, dict[str, str]],
    secrets: dict[str, dict[str, str]],
) -> dict[str, str]:
    env: dict[str, str] = {}
    for source in container.get("envFrom", []):
        if "configMapRef" in source:
            ref, store = source["configMapRef"], config_maps
        else:
            ref, store = source["secretRef"], secrets
        if ref["name"] not in store:
            if ref.get("optional"):
                continue
            raise MissingReference(f"{container['name']}: envFrom names {ref['name']!r}, which does not exist")
        env.update(store[ref["name"]])
    for item in container.get("env", []):
        if "value" in item:
            env[item["name"]] = _expand(str(item["value"]), env)
            continue
        source = item["valueFrom"]
        if "fieldRef" in source:
            path = source["fieldRef"]["fieldPath"]
            env[item["name"]] = {"metadata.name": pod_name, "metadata.namespace": namespace}[path]
            continue
        kind = "configMapKeyRef" if "configMapKeyRef" in source else "secretKeyRef"
        ref = source[kind]
        store = config_maps if kind == "configMapKeyRef" else secrets
        value = store.get(ref["name"], {}).get(ref["key"])
        if value is None:
            if ref.get("optional"):
                continue
            raise MissingReference(f"{container['name']}: {item['name']} names {ref['name']}/{ref['key']}: not there")
        env[item["name"]] = value
    return env


def _probe(container: dict[str, Any]) -> Probe | None:
    spec = container.get("startupProbe") or container.get("readinessProbe")
    if spec is None:
        return None
    ports = {p.get("name"): p["containerPort"] for p in container.get("ports", [])}
    attempts = int(spec.get("failureThreshold", 3))
    if "grpc" in spec:
        return Probe(port=int(spec["grpc"]["port"]), grpc_service=spec["grpc"].get("service", ""), attempts=attempts)
    if "httpGet" in spec:
        port = spec["httpGet"]["port"]
        return Probe(port=int(ports.get(port, port)), http_path=spec["httpGet"]["path"], attempts=attempts)
    return None


def _container(
    spec: dict[str, Any], pod_name: str, namespace: str, config_maps: dict[str, Any], secrets: dict[str, Any]
) -> Container:
    env = _environment(spec, pod_name, namespace, config_maps, secrets)
    command = [_expand(str(a), env) for a in spec.get("command", [])]
    args = [_expand(str(a), env) for a in spec.get("args", [])]
    security = spec.get("securityContext", {})
    return Container(
        name=spec["name"],
        argv=[*command[1:], *args] if command else args,
        entrypoint=command[0] if command else None,
        env=env,
        mounts=[(m["name"], m["mountPath"], bool(m.get("readOnly"))) for m in spec.get("volumeMounts", [])],
        read_only_root=bool(security.get("readOnlyRootFilesystem")),
        drop_all_capabilities="ALL" in security.get("capabilities", {}).get("drop", []),
        no_new_privileges=security.get("allowPrivilegeEscalation") is False,
        probe=_probe(spec),
    )


def _image_name(image: str) -> str:
    """``registry.example/team/taumesh:1.2`` → ``taumesh``: the image a container runs, whatever registry holds it."""
    return image.rsplit("/", 1)[-1].split("@")[0].split(":")[0]


def pods(objects: list[dict[str, Any]], secrets: dict[str, dict[str, str]], images: set[str]) -> list[Pod]:
    """Every pod the Deployments and Jobs of ``objects`` would start whose image is named one of ``images``.

    A Deployment gives ``replicas`` pods; an Indexed Job ``parallelism`` pods, each with its completion index.
    """
    config_maps = _config_maps(objects)
    services = [o for o in objects if o["kind"] == "Service"]
    out: list[Pod] = []
    for obj in objects:
        if obj["kind"] not in ("Deployment", "Job"):
            continue
        template = obj["spec"]["template"]
        spec = template["spec"]
        if not all(_image_name(c["image"]) in images for c in spec["containers"]):
            continue
        namespace = obj["metadata"].get("namespace", "default")
        count = obj["spec"].get("replicas", 1) if obj["kind"] == "Deployment" else obj["spec"].get("parallelism", 1)
        labels = dict(template["metadata"].get("labels", {}))
        security = spec.get("securityContext", {})
        user = f"{security['runAsUser']}:{security.get('runAsGroup', security['runAsUser'])}" if security else None
        for index in range(count):
            name = f"{obj['metadata']['name']}-{index}"
            containers = [_container(c, name, namespace, config_maps, secrets) for c in spec["containers"]]
            if obj["spec"].get("completionMode") == "Indexed":
                for container in containers:
                    container.env["JOB_COMPLETION_INDEX"] = str(index)
            pod = Pod(
                workload=obj["metadata"]["name"],
                kind=obj["kind"],
                name=name,
                labels=labels,
                user=user,
                volumes={v["name"]: v for v in spec.get("volumes", [])},
                init_containers=[
                    _container(c, name, namespace, config_maps, secrets) for c in spec.get("initContainers", [])
                ],
                containers=containers,
            )
            for service in services:
                selector = service["spec"].get("selector") or {}
                if selector and all(labels.get(k) == v for k, v in selector.items()):
                    svc = service["metadata"]["name"]
                    ns = service["metadata"].get("namespace", "default")
                    pod.aliases += [svc, f"{svc}.{ns}", f"{svc}.{ns}.svc", f"{svc}.{ns}.{CLUSTER_DOMAIN}"]
            out.append(pod)
    return out


@dataclass
class Kubelet:
    """Starts pods as containers on one Docker network, under a prefix, and removes all it made."""

    prefix: str
    image: str
    docker: str = "docker"
    started: list[str] = field(default_factory=list)
    volumes: set[str] = field(default_factory=set)

    @property
    def network(self) -> str:
        return f"{self.prefix}-net"

    def _docker(self, *args: str, timeout: float = 300, check: bool = True) -> subprocess.CompletedProcess[str]:
        done = subprocess.run([self.docker, *args], capture_output=True, text=True, timeout=timeout, check=False)
        if check and done.returncode != 0:
            raise AssertionError(f"docker {' '.join(args[:3])} … exited {done.returncode}: {done.stderr[-2000:]}")
        return done

    def create_network(self) -> None:
        self._docker("network", "create", self.network)

    def _volume(self, pod: Pod, name: str) -> str:
        source = pod.volumes[name]
        if "persistentVolumeClaim" in source:
            return f"{self.prefix}-pvc-{source['persistentVolumeClaim']['claimName']}"
        if "emptyDir" in source:
            return f"{self.prefix}-{pod.name}-{name}"
        raise AssertionError(f"{pod.name}: volume {name} is neither a claim nor an emptyDir: {source}")

    def _run_arguments(self, pod: Pod, container: Container) -> list[str]:
        args = ["--network", self.network, "--hostname", pod.name]
        if pod.user:
            args += ["--user", pod.user]
        if container.read_only_root:
            args.append("--read-only")
        if container.drop_all_capabilities:
            args += ["--cap-drop", "ALL"]
        if container.no_new_privileges:
            args += ["--security-opt", "no-new-privileges:true"]
        for key, value in container.env.items():
            args += ["--env", f"{key}={value}"]
        for volume, path, read_only in container.mounts:
            docker_volume = self._volume(pod, volume)
            self.volumes.add(docker_volume)
            args += [
                "--mount",
                f"type=volume,source={docker_volume},target={path}" + (",readonly" if read_only else ""),
            ]
        if container.entrypoint is not None:
            args += ["--entrypoint", container.entrypoint]
        args += ["--no-healthcheck"]  # the manifests' probes are asked instead, as the kubelet would
        return args

    def prepare_volumes(self, pods: list[Pod]) -> None:
        """Each volume owned by the pods' user, as ``fsGroup`` makes a pod's volumes writable by it."""
        for pod in pods:
            for name in pod.volumes:
                volume = self._volume(pod, name)
                if volume in self.volumes:
                    continue
                self.volumes.add(volume)
                self._docker("volume", "create", volume)
                uid = (pod.user or "0:0").split(":")
                self._docker(
                    "run", "--rm", "--user", "0:0", "--entrypoint", "chown", "--mount",
                    f"type=volume,source={volume},target=/v", self.image, f"{uid[0]}:{uid[1]}", "/v",
                )  # fmt: skip

    def run_init(self, pod: Pod, timeout: float = 600) -> None:
        for container in pod.init_containers:
            args = self._run_arguments(pod, container)
            done = self._docker("run", "--rm", *args, self.image, *container.argv, timeout=timeout, check=False)
            if done.returncode != 0:
                raise AssertionError(f"{pod.name}/{container.name} exited {done.returncode}: {done.stderr[-2000:]}")

    def start(self, pod: Pod) -> list[str]:
        """The pod's containers started in the background (its init containers must have run); their names."""
        names = []
        for container in pod.containers:
            name = f"{self.prefix}-{pod.name}-{container.name}"
            aliases = [arg for alias in pod.aliases for arg in ("--network-alias", alias)]
            args = self._run_arguments(pod, container)
            self._docker("run", "--detach", "--name", name, *aliases, *args, self.image, *container.argv)
            self.started.append(name)
            names.append(name)
        return names

    def wait_ready(self, pod: Pod, every: float = 2.0) -> None:
        """Until each container's startup (or readiness) probe answers healthy, at most its failure threshold."""
        for container in pod.containers:
            if container.probe is None:
                continue
            name = f"{self.prefix}-{pod.name}-{container.name}"
            for _ in range(container.probe.attempts):
                done = self._docker("exec", name, *container.probe.command(), check=False, timeout=30)
                if done.returncode == 0:
                    break
                time.sleep(every)
            else:
                logs = self._docker("logs", "--tail", "30", name, check=False)
                raise AssertionError(f"{name} never passed its probe: {done.stdout}{done.stderr}\n{logs.stderr}")

    def serve(self, pods: list[Pod]) -> None:
        """``pods`` running and ready: each one's init containers, then its containers, then every probe passed."""
        for pod in pods:
            self.run_init(pod)
            self.start(pod)
        for pod in pods:
            self.wait_ready(pod)

    def wait_exit(self, name: str, timeout: float = 900) -> int:
        done = self._docker("wait", name, timeout=timeout)
        return int(done.stdout.strip())

    def logs(self, name: str) -> str:
        done = self._docker("logs", name, check=False)
        return done.stdout + done.stderr

    def run_sink(self, spans: str, tests: str, aliases: list[str]) -> None:
        """The OTLP receiver (tests/deploy/otlp_sink.py) under the collectors' DNS names, writing to ``spans``."""
        name = f"{self.prefix}-otlp-sink"
        args = [arg for alias in aliases for arg in ("--network-alias", alias)]
        self._docker(
            "run", "--detach", "--name", name, "--network", self.network, *args, "--user", "10001:10001",
            "--env", "PYTHONPATH=/src", "--workdir", "/src", "--no-healthcheck",
            "--mount", f"type=bind,source={tests},target=/src/tests,readonly",
            "--mount", f"type=bind,source={spans},target=/spans",
            "--entrypoint", "python", self.image, "-m", "tests.deploy.otlp_sink", "/spans/spans.jsonl", "4317",
        )  # fmt: skip
        self.started.append(name)

    def run_postgres(self, image: str, alias: str) -> None:
        """A PostgreSQL server (tests/deploy/postgres.Dockerfile) on the network as ``alias``, accepting connections."""
        name = f"{self.prefix}-postgres"
        self._docker("run", "--detach", "--name", name, "--network", self.network, "--network-alias", alias, image)
        self.started.append(name)
        for _ in range(60):
            if self._docker("exec", name, "pg_isready", "-h", "127.0.0.1", check=False).returncode == 0:
                return
            time.sleep(1)
        raise AssertionError(f"PostgreSQL never accepted connections: {self.logs(name)[-2000:]}")

    def remove_all(self) -> None:
        if self.started:
            self._docker("rm", "--force", *self.started, check=False, timeout=120)
        for volume in self.volumes:
            self._docker("volume", "rm", "--force", volume, check=False)
        self._docker("network", "rm", self.network, check=False)
