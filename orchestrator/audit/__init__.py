"""``taumesh domain audit``: the audit played through the env and scorer services (docs/validity.md)."""

from __future__ import annotations

from taumesh.orchestrator.audit.audit import AuditError, audit_domain

__all__ = ["AuditError", "audit_domain"]
