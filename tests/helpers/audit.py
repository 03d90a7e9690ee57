"""v1 airline's audit stored in a cache of the test module's own, as ``taumesh domain audit --write`` stores it."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from taumesh.audit import AUDIT_VERSION, StoredAudit, stored_audit_path
from tests.helpers.cli import explain_result, invoke


def own_cache(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """A taumesh cache of the module's own (the stored audits go there), set for the module's processes.

    A module fixture's body: ``yield from own_cache(tmp_path_factory)``.
    """
    folder = tmp_path_factory.mktemp("cache")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("TAUMESH_CACHE_DIR", str(folder))
        yield folder


def write_airline_audit(data_dir: Path) -> tuple[StoredAudit, Path, str]:
    """v1 airline's test-split audit stored by ``taumesh domain audit --write`` (in this process, typer's runner: the
    same command without a process start of its own): the audit, its file, the output."""
    written = invoke("domain", "audit", "airline", "--data-dir", data_dir, "--write")
    assert written.exit_code == 0, explain_result(written)
    path = stored_audit_path("airline", "test", None, AUDIT_VERSION)
    return StoredAudit.model_validate_json(path.read_bytes()), path, written.stdout
