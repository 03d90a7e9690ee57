"""Finding records the tools share: a developer by handle, a repository by name, a branch's files."""

from __future__ import annotations

from typing import Any

from taumesh.domains import Data, Refusal


def record(data: Data, table: str, key: str, what: str) -> dict[str, Any]:
    """The record ``key`` of ``table``, or a refusal naming ``what`` was not found."""
    found = data[table].get(key)
    if found is None:
        raise Refusal(f"{what} {key} not found")
    return dict(found)


def branch_files(data: Data, branch_id: str) -> dict[str, dict[str, Any]]:
    """The files of a branch by path (its records)."""
    return {f["path"]: f for f in data["files"].values() if f["branch_id"] == branch_id}


def branch_texts(data: Data, branch_id: str) -> dict[str, str]:
    """The files of a branch by path (their text)."""
    return {path: f["content"] for path, f in branch_files(data, branch_id).items()}


def default_branch(data: Data, repository_id: str) -> str:
    """The branch id of a repository's default branch."""
    repository = record(data, "repositories", repository_id, "repository")
    for branch in data["branches"].values():
        if branch["repository_id"] == repository_id and branch["name"] == repository["default_branch"]:
            return str(branch["branch_id"])
    raise Refusal(f"repository {repository_id} has no default branch")


def latest_run(data: Data, branch_id: str) -> dict[str, Any] | None:
    """The branch's CI run with the highest number."""
    runs = [r for r in data["ci_runs"].values() if r["branch_id"] == branch_id]
    return dict(max(runs, key=lambda r: r["number"])) if runs else None


def schema(required: tuple[str, ...] = (), **properties: dict[str, Any]) -> dict[str, Any]:
    """A JSON schema object of ``properties``; every one required unless ``required`` names a subset."""
    return {
        "type": "object",
        "properties": properties,
        "required": list(required or properties),
        "additionalProperties": False,
    }


STRING = {"type": "string"}
