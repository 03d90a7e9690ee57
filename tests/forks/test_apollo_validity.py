"""apollo-tau-bench's 122 environments, audited through the fork path: the figures docs/validity.md publishes.

Opt-in, like the τ-bench fork test: ``TAUMESH_APOLLO_CHECKOUT`` names a checkout of jmoreno-labelbox/apollo-tau-bench
(its ``tau_bench`` package inside; CI reaches package registries only, never a source repository). The test runs
``scripts/fork_validity.py`` over it, which imports the checkout as a fork into a cache of its own and audits every
environment and split through the real env and scorer services, then compares the table's totals with the totals row
docs/validity.md publishes. The whole audit takes about an hour and a half on 2 cores;
``TAUMESH_APOLLO_AUDIT_DIR`` keeps the audits' JSON there between attempts (the script resumes from it).
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.helpers.cli import child_env
from tests.helpers.paths import PROJECT_ROOT

pytestmark = pytest.mark.slow

CHECKOUT = os.environ.get("TAUMESH_APOLLO_CHECKOUT")
ENVIRONMENTS = 122
"""apollo-tau-bench's environments that import (its README counts them)."""


def totals(markdown: str) -> list[str]:
    """The cells of a fork table's totals row (``| **all N** | …``), after its name."""
    row = next(line for line in markdown.splitlines() if re.match(r"^\| \*\*all \d+\*\* \|", line))
    return [cell.strip() for cell in row.strip("|").split("|")][1:]


def published() -> str:
    """docs/validity.md's apollo-tau-bench table: from its heading to the next blank line after the table."""
    text = (PROJECT_ROOT / "docs" / "validity.md").read_text(encoding="utf-8")
    section = text[text.index("**jmoreno-labelbox/apollo-tau-bench**") :]
    return section[: section.index("\n\n", section.index("| **all "))]


@pytest.mark.skipif(CHECKOUT is None, reason="set TAUMESH_APOLLO_CHECKOUT to an apollo-tau-bench checkout")
def test_the_audit_of_every_environment_matches_the_published_table(tmp_path: Path) -> None:
    assert CHECKOUT is not None
    out = Path(os.environ.get("TAUMESH_APOLLO_AUDIT_DIR") or tmp_path / "audits")
    table = out / "table.md"
    out.mkdir(parents=True, exist_ok=True)
    done = subprocess.run(
        [sys.executable, str(PROJECT_ROOT / "scripts" / "fork_validity.py"), CHECKOUT, "--name", "apollo-tau-bench",
         "--out", str(out), "--markdown", str(table)],
        capture_output=True, text=True, env=child_env(), timeout=4 * 3600,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-3000:]
    made = table.read_text(encoding="utf-8")
    assert f"| **all {ENVIRONMENTS}** |" in made
    assert totals(made) == totals(published())
