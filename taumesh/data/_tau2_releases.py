"""Which upstream τ²/τ³ release a ``data/tau2`` tree is, by the SHA-256 of its files.

Each domain folder (``domains/<name>``) and ``user_simulator`` is recognised on its own: a release matches it
when every file the release records is there with the recorded hash (a ``None`` hash accepts any content) and,
for a release recorded completely, the folder holds no other file. The tree's release is the first release
matching every folder; a folder no release matches is reported with its differences from the closest release.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache

from pydantic import BaseModel, ConfigDict

from taumesh.data._tau2_release_hashes import RELEASE_HASHES

UNKNOWN = "unknown"
NO_RELEASE = "no release"
"""The release label of a tree no recorded release matches in every folder."""


class Release(BaseModel):
    """A recorded release: its name, what it is, and the hash of each file under ``data/tau2/``."""

    model_config = ConfigDict(frozen=True)

    name: str
    description: str
    complete: bool
    """Whether ``files`` lists every file of the release (else: files the tree lacks are not checked for)."""
    files: dict[str, str | None]


class FolderDifference(BaseModel):
    """How a folder differs from its closest release."""

    folder: str
    closest: str
    missing: list[str]
    changed: list[str]
    extra: list[str]

    def describe(self) -> str:
        if self.closest == NO_RELEASE:
            return f"{self.folder} is in no recorded release"
        parts = [
            f"{label} {', '.join(paths)}"
            for label, paths in (("changed", self.changed), ("missing", self.missing), ("extra", self.extra))
            if paths
        ]
        return f"{self.folder} differs from {self.closest}: {'; '.join(parts)}"


class Recognition(BaseModel):
    """What a tree is: its release (or ``unknown``), each folder's matching releases, and the differences."""

    release: str
    folders: dict[str, list[str]]
    """Folder (``domains/<name>``, ``user_simulator``) -> the releases whose files it equals, in recorded order."""
    differences: list[FolderDifference] = []

    @property
    def known(self) -> bool:
        return self.release != UNKNOWN

    def describe(self) -> str:
        """One sentence: the release, or which folders match which release and which differ."""
        if self.known:
            others = [name for name in _common(self.folders) if name != self.release]
            same = f" (identical in these folders: {', '.join(others)})" if others else ""
            return f"release {self.release}{same}"
        matched = [f"{folder} = {', '.join(names)}" for folder, names in self.folders.items() if names]
        shown = f"; {'; '.join(matched)}" if matched else ""
        return f"an unknown release{shown}"


@cache
def releases() -> tuple[Release, ...]:
    """The recorded releases, newest first, each with its full file list (a release kept as a diff is expanded)."""
    expanded: dict[str, Release] = {}
    for record in RELEASE_HASHES["releases"]:
        files: dict[str, str | None]
        if "base" in record:
            files = {**expanded[record["base"]].files, **record["changed"]}
            for path in record["removed"]:
                files.pop(path, None)
        else:
            files = dict(record["files"])
        expanded[record["name"]] = Release(
            name=record["name"], description=record["description"], complete=record["complete"], files=files
        )
    return tuple(expanded.values())


def folder_of(path: str) -> str:
    """The folder a data file is recognised with: ``domains/<name>`` or its first component."""
    parts = path.split("/")
    return "/".join(parts[:2]) if parts[0] == "domains" and len(parts) > 2 else parts[0]


def _by_folder(files: Mapping[str, str | None]) -> dict[str, dict[str, str | None]]:
    grouped: dict[str, dict[str, str | None]] = {}
    for path, sha in files.items():
        grouped.setdefault(folder_of(path), {})[path] = sha
    return grouped


def _difference(folder: str, found: Mapping[str, str | None], release: Release) -> FolderDifference:
    recorded = _by_folder(release.files).get(folder, {})
    missing = sorted(path for path in recorded if path not in found)
    changed = sorted(path for path, sha in recorded.items() if path in found and sha is not None and found[path] != sha)
    extra = sorted(path for path in found if path not in recorded) if release.complete else []
    return FolderDifference(folder=folder, closest=release.name, missing=missing, changed=changed, extra=extra)


def _size(difference: FolderDifference) -> int:
    return len(difference.missing) + len(difference.changed) + len(difference.extra)


def _common(folders: Mapping[str, list[str]]) -> list[str]:
    names = [release.name for release in releases()]
    return [name for name in names if all(name in matched for matched in folders.values())]


def recognise(files: Mapping[str, str]) -> Recognition:
    """The release of a tree, given the SHA-256 of each of its files by path relative to ``data/tau2/``."""
    folders: dict[str, list[str]] = {}
    differences: list[FolderDifference] = []
    for folder, found in sorted(_by_folder(files).items()):
        candidates = [
            (release, _difference(folder, found, release))
            for release in releases()
            if folder in _by_folder(release.files)
        ]
        folders[folder] = [release.name for release, difference in candidates if _size(difference) == 0]
        if not folders[folder] and candidates:
            differences.append(min((difference for _, difference in candidates), key=_size))
        elif not candidates:
            differences.append(FolderDifference(folder=folder, closest=NO_RELEASE, missing=[], changed=[], extra=[]))
    common = _common(folders) if folders else []
    release = common[0] if common and not differences else UNKNOWN
    return Recognition(release=release, folders=folders, differences=differences)
