"""What a domain's tasks let through: the audit's report (its JSON) and the checks that need no service.

``taumesh domain audit`` (docs/validity.md) plays trajectories built from each task through the env and scorer
services (``taumesh.orchestrator.audit``); this package holds what it reports and the checks that read the task alone.
"""

from __future__ import annotations

from taumesh.audit._checks import REFUSAL, basis_lint, duplicates, guessable_outputs, normalised_instruction
from taumesh.audit._distinct import DomainSurface, Overlap, OverlapKind, overlaps, policy_sentences
from taumesh.audit._report import (
    AUDIT_VERSION,
    FLAG_KINDS,
    FLOOR_NAMES,
    AuditReport,
    Flag,
    FlagKind,
    FloorName,
    FloorResult,
    TaskAudit,
    TaskId,
)
from taumesh.audit._sheet import SHEET_FORMATS, SheetFormatError, review_sheet, sheet_renderer
from taumesh.audit._sheet_entries import ClauseTexts
from taumesh.audit._sheet_html import review_sheet_html
from taumesh.audit._store import (
    NoStoredAudit,
    StoredAudit,
    audit_command,
    read_audit,
    stored_audit_path,
    tasks_digest,
    write_audit,
)
from taumesh.audit._validity import Validity, missing_line, validity

__all__ = [
    "AUDIT_VERSION",
    "FLAG_KINDS",
    "FLOOR_NAMES",
    "REFUSAL",
    "SHEET_FORMATS",
    "AuditReport",
    "ClauseTexts",
    "DomainSurface",
    "Flag",
    "FlagKind",
    "FloorName",
    "FloorResult",
    "NoStoredAudit",
    "Overlap",
    "OverlapKind",
    "SheetFormatError",
    "StoredAudit",
    "TaskAudit",
    "TaskId",
    "Validity",
    "audit_command",
    "basis_lint",
    "duplicates",
    "guessable_outputs",
    "missing_line",
    "normalised_instruction",
    "overlaps",
    "policy_sentences",
    "read_audit",
    "review_sheet",
    "review_sheet_html",
    "sheet_renderer",
    "stored_audit_path",
    "tasks_digest",
    "validity",
    "write_audit",
]
