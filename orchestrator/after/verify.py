"""``taumesh verify``: check a run against its manifest and re-derive every reward from its trajectories.

Reads taumesh's layouts (τ-bench's file, τ²'s document, the MT folder, each with the run's ``X.json.manifest``),
τ²'s own results documents (no manifest: rewards only) and τ² leaderboard submission folders (``submission.json``
with ``trajectories/*.json``: rewards, then pass^k against the submitted figures). Every mismatch is a
:class:`Finding` naming its cause; the command exits 1 on any.
"""

from __future__ import annotations

import base64
import json
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel

from taumesh.data import taubench_v1_dir
from taumesh.domains import Registry
from taumesh.orchestrator.after.recorded_settings import recorded_settings
from taumesh.orchestrator.after.rescore import RescoreRow, rescore_file
from taumesh.orchestrator.config import ServiceAddresses
from taumesh.orchestrator.results.manifest import (
    MANIFEST_SUFFIX,
    RunManifest,
    data_release,
    file_sha256,
    json_sha256,
    read_manifest,
    signature_path,
    tau2_trajectories,
    taubench_trajectory,
)
from taumesh.orchestrator.results.mt_layout import MT_FOLDER
from taumesh.orchestrator.results.results_file import load_results
from taumesh.orchestrator.results.tau2_layout import TAU2_SUFFIX
from taumesh.stats import TrialOutcome, TrialTable

Cause = Literal["checksum", "reward", "trajectory", "data release", "metric", "signature", "rescore", "input"]
TOLERANCE = 1e-6


class Finding(BaseModel):
    """One mismatch, named by its cause."""

    cause: Cause
    message: str

    def text(self) -> str:
        return f"{self.cause}: {self.message}"


class Report(BaseModel):
    """What verification checked and found."""

    findings: list[Finding] = []
    checked: list[str] = []
    """What passed, in words (files, episodes, data release)."""

    @property
    def ok(self) -> bool:
        return not self.findings

    def add(self, cause: Cause, message: str) -> None:
        self.findings.append(Finding(cause=cause, message=message))


class Target(BaseModel):
    """What a path given to ``verify`` is."""

    kind: Literal["taumesh", "tau2", "submission"]
    path: Path
    manifest: Path | None = None


def locate(path: Path) -> Target:
    """Find what ``path`` is and the manifest that belongs to it; ValueError when it is nothing verify reads."""
    if path.is_dir():
        if (path / "submission.json").is_file():
            return Target(kind="submission", path=path)
        if path.parent.name == MT_FOLDER:
            # an MT folder: log_dir/data/<name> with its manifest in log_dir, or with --mt-fork-folder the fork's
            # ./data/<name> with its manifest in the log folder beside data/ (./results/ by default)
            base, folder = path.parent.parent, path.resolve()
            candidates = [*sorted(base.glob(f"*{MANIFEST_SUFFIX}")), *sorted(base.glob(f"*/*{MANIFEST_SUFFIX}"))]
            for candidate in candidates:
                outputs = read_manifest(candidate).outputs
                if any((candidate.parent / name).resolve().parent == folder for name in outputs):
                    return Target(kind="taumesh", path=path, manifest=candidate)
            raise ValueError(f"{path}: an MT folder, but no manifest in {base} or a folder beside it lists it")
        raise ValueError(f"{path}: a folder, but neither an MT folder nor a τ² submission (no submission.json)")
    if not path.is_file():
        raise ValueError(f"{path}: not found")
    if path.name.endswith(MANIFEST_SUFFIX):
        return Target(kind="taumesh", path=path, manifest=path)
    stem = path.name.removesuffix(TAU2_SUFFIX) if path.name.endswith(TAU2_SUFFIX) else path.name.removesuffix(".json")
    manifest = path.with_name(f"{stem}.json{MANIFEST_SUFFIX}")
    if manifest.is_file():
        return Target(kind="taumesh", path=path, manifest=manifest)
    return Target(kind="tau2", path=path)  # τ²'s own document, or a τ-bench file without a manifest


def check_signature(manifest: Path, public_key: Path, report: Report) -> None:
    """Check the Ed25519 signature beside ``manifest`` with the PEM public key ``public_key``."""
    from cryptography.exceptions import InvalidSignature
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey
    from cryptography.hazmat.primitives.serialization import load_pem_public_key

    signature = signature_path(manifest)
    if not signature.is_file():
        report.add("signature", f"no signature {signature.name} beside the manifest")
        return
    try:
        key = load_pem_public_key(public_key.read_bytes())
    except (OSError, ValueError) as exc:
        report.add("signature", f"{public_key}: not a PEM public key ({exc})")
        return
    if not isinstance(key, Ed25519PublicKey):
        report.add("signature", f"{public_key}: not an Ed25519 public key")
        return
    try:
        key.verify(base64.b64decode(signature.read_bytes().strip(), validate=True), manifest.read_bytes())
    except (InvalidSignature, ValueError):
        report.add("signature", f"bad signature: {signature.name} does not sign {manifest.name} with that key")
        return
    report.checked.append(f"signature {signature.name} verifies with {public_key.name}")


def sign(manifest: Path, private_key: Path) -> Path:
    """Sign ``manifest`` with the PEM Ed25519 private key ``private_key``; return the signature file."""
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
    from cryptography.hazmat.primitives.serialization import load_pem_private_key

    key = load_pem_private_key(private_key.read_bytes(), password=None)
    if not isinstance(key, Ed25519PrivateKey):
        raise ValueError(f"{private_key}: not an Ed25519 private key")
    out = signature_path(manifest)
    out.write_bytes(base64.b64encode(key.sign(manifest.read_bytes())) + b"\n")
    return out


def _key(task_id: Any, trial: Any) -> tuple[str, int]:
    return str(task_id), int(trial or 0)


def check_outputs(manifest: RunManifest, folder: Path, report: Report) -> None:
    """Every file the manifest lists is there with its checksum; ``ok`` counts only the files that match."""
    matching = 0
    for name, expected in sorted(manifest.outputs.items()):
        path = folder / name
        if not path.is_file():
            report.add("checksum", f"{name}: missing (the manifest lists it)")
        elif file_sha256(path) != expected:
            report.add("checksum", f"{name}: changed since the run (SHA-256 differs from the manifest's)")
        else:
            matching += 1
    total = len(manifest.outputs)
    if matching:  # never "ok" beside a MISMATCH of the same file
        of = "" if matching == total else f" of {total}"
        agree = "matches" if matching == 1 and total == 1 else "match"
        report.checked.append(f"{matching}{of} file checksum{'s' if total != 1 else ''} {agree} the manifest")


def broken_json(paths: Sequence[Path]) -> str | None:
    """Why the first of ``paths`` that is not valid JSON cannot be read, naming it; None when all parse."""
    for path in paths:
        if not path.is_file() or path.suffix != ".json":
            continue
        try:
            json.loads(path.read_text(encoding="utf-8"))
        except UnicodeDecodeError as exc:
            return f"{path}: not UTF-8 text ({exc.reason}): is it a results file?"
        except json.JSONDecodeError as exc:
            return (
                f"{path}: not valid JSON ({exc.msg}: line {exc.lineno} column {exc.colno}): "
                "cut short or edited since it was written"
            )
    return None


def check_episodes(manifest: RunManifest, folder: Path, report: Report) -> None:
    """Each layout's rewards and trajectories equal the manifest's, episode by episode."""
    recorded = {_key(e.task_id, e.trial): e for e in manifest.episodes}
    for name in manifest.outputs:
        path = folder / name
        if not path.is_file():
            continue
        found: dict[tuple[str, int], tuple[float | None, str]] = {}
        if name.endswith(TAU2_SUFFIX):
            layout = "tau2"
            trajectories = tau2_trajectories(path)
            document = json.loads(path.read_text(encoding="utf-8"))
            for sim in document.get("simulations") or []:
                key = _key(sim.get("task_id"), sim.get("trial"))
                found[key] = ((sim.get("reward_info") or {}).get("reward"), trajectories[key])
        elif name.endswith(".json") and "/" not in name and not name.endswith(".errors.json"):
            layout = "taubench"
            for result in load_results(path):
                if not result.is_error:
                    found[_key(result.task_id, result.trial)] = (result.reward, taubench_trajectory(result))
        else:
            continue
        for key, (reward, trajectory) in sorted(found.items()):
            episode = recorded.get(key)
            where = f"{name}, task {key[0]} trial {key[1]}"
            if episode is None:
                report.add("reward", f"{where}: not in the manifest")
                continue
            if reward is None or abs(reward - episode.reward) > TOLERANCE:
                report.add("reward", f"{where}: reward {reward} in the file, {episode.reward} in the manifest")
            if episode.trajectories.get(layout) not in (None, trajectory):
                report.add("trajectory", f"{where}: the trajectory changed since the run (a message or tool result)")
        missing = sorted(set(recorded) - set(found))
        for task, trial in missing[:10]:
            report.add("reward", f"{name}: task {task} trial {trial} of the manifest is missing")
    report.checked.append(f"{len(recorded)} episodes' rewards and trajectories against the manifest")


def check_data_release(manifest: RunManifest, data_dir: Path | None, report: Report) -> Path:
    """The data here is the release the run was scored against; return the data folder to rescore with."""
    folder = data_dir or Path(str(manifest.config.get("data_dir") or taubench_v1_dir()))
    env = str(manifest.config.get("env") or manifest.run.get("env") or "")
    current = data_release(env, folder)
    if current.release_id == manifest.data_release_id:
        report.checked.append(f"data release {manifest.data_release_id[:12]} ({len(current.files)} files)")
        return folder
    before, now = manifest.data_release.files, current.files
    changed = sorted(name for name in before.keys() & now.keys() if before[name] != now[name])
    gone, extra = sorted(before.keys() - now.keys()), sorted(now.keys() - before.keys())
    report.add(
        "data release",
        f"the run was scored against release {manifest.data_release_id[:12]}, the data here is "
        f"{current.release_id[:12]} ({len(changed)} changed, {len(gone)} missing, {len(extra)} new files)",
    )
    for name in changed[:10]:
        report.add("data release", f"{name}: differs from the file the run was scored against")
    for name in gone[:10]:
        report.add("data release", f"{name}: the run read it, it is not here")
    return folder


def recompute_metrics(rewards: Sequence[tuple[str, int, float]]) -> dict[int, float]:
    table = TrialTable(TrialOutcome(task, trial, reward) for task, trial, reward in rewards)
    return {k: float(table.all_k_succeed(k).mean()) for k in range(1, table.trials + 1)}


def check_metrics(manifest: RunManifest, rows: list[RescoreRow], report: Report) -> None:
    """pass^k and the average reward from the re-derived rewards equal what the run reported."""
    derived = [(str(r.task_id), r.trial, r.reward) for r in rows if r.reward is not None]
    if not derived or not manifest.metrics:
        return
    values = recompute_metrics(derived)
    for k, reported in (manifest.metrics.get("pass_hat_k") or {}).items():
        if abs(values.get(int(k), -1.0) - float(reported)) > TOLERANCE:
            report.add("metric", f"pass^{k} {reported} reported, {values.get(int(k))} from the trajectories")
    average = sum(r for _, _, r in derived) / len(derived)
    reported_average = manifest.metrics.get("average_reward")
    if reported_average is not None and abs(average - float(reported_average)) > TOLERANCE:
        report.add("metric", f"average reward {reported_average} reported, {average} from the trajectories")


def rescore_findings(rows: list[RescoreRow], source: str, report: Report) -> None:
    """A finding per reward that does not match its trajectory, and per trajectory that could not be replayed."""
    agree = 0
    for row in rows:
        where = f"{source}, task {row.task_id} trial {row.trial}"
        if row.failed:
            report.add("rescore", f"{where}: could not be replayed ({row.error})")
        elif row.reward is None or row.recorded_reward is None:
            continue
        elif abs(row.reward - row.recorded_reward) > TOLERANCE:
            report.add(
                "reward",
                f"{where}: recorded reward {row.recorded_reward} does not match its trajectory "
                f"(re-derived {row.reward})",
            )
        else:
            agree += 1
    report.checked.append(f"{agree} rewards re-derived from {source}'s trajectories")


def _mt_as_taubench(manifest: RunManifest, folder: Path, mt: str, out: Path) -> None:
    """An MT folder's trajectories as a τ-bench list (rewards from its scores), to rescore through the same path."""
    env = str(manifest.run.get("env") or manifest.config.get("env"))
    model = next(
        n.removesuffix("_scores.jsonl").rsplit("/", 1)[-1] for n in manifest.outputs if n.endswith("_scores.jsonl")
    )
    entries = []
    for episode in manifest.episodes:
        trial = f"_trial{episode.trial}" if episode.trial else ""
        path = folder / mt / f"{model}_task{episode.task_id}{trial}_trajectory.jsonl"
        if not path.is_file():
            continue
        traj = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
        info = {"termination": episode.termination, "run": {"env": env}}
        entries.append(
            {"task_id": episode.task_id, "reward": episode.reward, "info": info, "traj": traj, "trial": episode.trial}
        )
    out.write_text(json.dumps(entries), encoding="utf-8")


async def verify_run(target: Target, data_dir: Path | None, public_key: Path | None) -> Report:
    """Verify a taumesh run (any layout) against its manifest, or a τ² document by its rewards alone."""
    report = Report()
    given = [target.path] if target.path.is_file() else []
    listed = (
        [] if target.manifest is None else [target.manifest.parent / n for n in read_manifest(target.manifest).outputs]
    )
    if (problem := broken_json([*given, *listed])) is not None:
        raise ValueError(problem)  # unreadable input (exit 2), named, before any check reports a false reason
    if target.manifest is None:
        env = recorded_settings(target.path).env
        if env is None:
            report.add("input", f"{target.path}: no manifest beside it and no domain recorded: cannot re-derive")
            return report
        # the split the file records, else the domain's first (rescore_file); likewise its grader
        rows = await rescore_file(target.path, env, None, data_dir or taubench_v1_dir(), ServiceAddresses())
        rescore_findings(rows, target.path.name, report)
        report.checked.append("no manifest: rewards re-derived, no checksum to check")
        return report
    manifest = read_manifest(target.manifest)
    folder = target.manifest.parent
    if public_key is not None:
        check_signature(target.manifest, public_key, report)
    check_outputs(manifest, folder, report)
    check_episodes(manifest, folder, report)
    data = check_data_release(manifest, data_dir, report)
    env = str(manifest.run.get("env") or manifest.config.get("env"))
    recorded_split = manifest.run.get("task_split") or manifest.config.get("task_split")
    split = str(recorded_split) if recorded_split else None  # None: the domain's first (rescore_file)
    outputs = sorted(manifest.outputs)
    main = next(
        (n for n in outputs if n.endswith(".json") and "/" not in n and not n.endswith((".errors.json", TAU2_SUFFIX))),
        None,
    )
    main = main or next((n for n in outputs if n.endswith(TAU2_SUFFIX)), None)
    asked = target.path if target.path.is_file() and target.path != target.manifest else None
    if asked is not None:
        main = asked.name  # the layout asked for is the one re-derived
    elif target.path.is_dir() or main is None or not (folder / main).is_file():
        main = None  # an MT folder asked for, or no results file left: the MT trajectories
    with tempfile.TemporaryDirectory() as scratch:
        if main is None:
            mt = next((n.rsplit("/", 1)[0] for n in outputs if _in_mt_folder(n)), None)
            if mt is None:
                report.add("input", "the manifest lists no results file to re-derive rewards from")
                return report
            source = Path(scratch) / "mt.json"
            _mt_as_taubench(manifest, folder, mt, source)
        else:
            source = folder / main
        rows = await rescore_file(source, env, split, data, ServiceAddresses())
    rescore_findings(rows, main or "the MT folder", report)
    check_metrics(manifest, rows, report)
    return report


def _in_mt_folder(name: str) -> bool:
    """Whether a manifest's output ``name`` is a file of an MT folder.

    ``data/<name>/…`` under the log folder, or ``../data/<name>/…`` written by --mt-fork-folder beside it.
    """
    parts = name.split("/")
    return len(parts) >= 3 and parts[-3] == MT_FOLDER


async def verify_submission(folder: Path, data_dir: Path | None) -> Report:
    """A τ² leaderboard submission: each trajectory file's rewards re-derived, and pass^k against submission.json."""
    report = Report()
    try:
        submission = json.loads((folder / "submission.json").read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        report.add("input", f"submission.json does not read ({exc})")
        return report
    claimed: dict[str, Any] = submission.get("results") or {}
    files = sorted((folder / "trajectories").glob("*.json")) + sorted((folder / "trajectories").glob("*/results.json"))
    if not files:
        report.add("input", f"{folder}/trajectories holds no results file")
    seen: set[str] = set()
    for path in files:
        env = recorded_settings(path).env
        if env is None:
            report.add("input", f"{path.name}: not a τ² results document (no environment_info.domain_name)")
            continue
        domain = Registry.discover().foreign_name("tau2", env)  # the submission's key: τ²'s name
        seen.add(domain)
        # τ²'s documents record no split: the domain's first (base), as τ²'s leaderboard runs it
        rows = await rescore_file(path, env, None, data_dir or taubench_v1_dir(), ServiceAddresses())
        rescore_findings(rows, f"trajectories/{path.name}", report)
        derived = [(str(r.task_id), r.trial, r.reward) for r in rows if r.reward is not None]
        figures = claimed.get(domain) or {}
        if not derived:
            continue
        values = recompute_metrics(derived)
        for k in range(1, 5):
            stated = figures.get(f"pass_{k}")
            if stated is None:
                continue
            if k not in values:
                report.add("metric", f"{domain}: pass_{k} {stated} submitted, but the trajectories have fewer trials")
            elif abs(values[k] * 100 - float(stated)) > 1e-6:
                report.add(
                    "metric", f"{domain}: pass_{k} {stated} submitted, {values[k] * 100:.4f} from the trajectories"
                )
        report.checked.append(f"{domain}: pass^k of submission.json against its trajectories")
    for domain in sorted(set(claimed) - seen):
        report.add("input", f"submission.json reports {domain}, but no trajectory file of {domain} is there")
    return report


__all__ = [
    "Finding",
    "Report",
    "Target",
    "check_signature",
    "json_sha256",
    "locate",
    "sign",
    "verify_run",
    "verify_submission",
]
