"""Why a test skips, and a pytest plugin that fails under CI every skip for something CI provides.

Each reason a test may skip with is classified here (docs/testing.md lists them). Under CI (``CI=true``, as
``.ci/run`` runs) a skip whose reason is data CI provides, a tool CI installs, or a reason not listed here fails
instead: CI's run would otherwise go green with a whole family of tests silently left out (a fetch that failed,
``../shared`` missing beside the clone, a Debian package apt-get could not install). Opt-in tiers and what CI cannot
have keep skipping, and the terminal summary counts them by kind.
"""

from __future__ import annotations

import os
import re
from collections import Counter
from collections.abc import Generator
from enum import StrEnum

import pytest


class SkipKind(StrEnum):
    DATA = "data CI provides"
    TOOL = "a tool CI installs"
    OPT_IN = "an opt-in tier"
    UNAVAILABLE = "unavailable to CI"

    @property
    def provided(self) -> bool:
        """Whether CI provides what is missing (then the skip fails under CI)."""
        return self in (SkipKind.DATA, SkipKind.TOOL)


SKIP_REASONS: tuple[tuple[str, SkipKind], ...] = (
    # data: ../shared beside the clone (CI copies shared/ there), and τ² fetched by scripts/test.sh
    (r"^reference data not found at ", SkipKind.DATA),
    (r"^τ-bench v1 data is not there", SkipKind.DATA),
    (r"^τ-bench's recorded user requests not found", SkipKind.DATA),
    (r"^τ² data not fetched", SkipKind.DATA),
    (r"^τ²'s data is not fetched", SkipKind.DATA),
    (r"^τ² expected values not found at ", SkipKind.DATA),
    (r"^τ² vectors not found at ", SkipKind.DATA),
    (r"^HEAD data not found at ", SkipKind.DATA),
    (r"/shared/tau2/head_banking_knowledge(/data)? is not there$", SkipKind.DATA),
    (r"^not a git checkout$", SkipKind.DATA),
    # tools: scripts/system-deps.sh (Debian packages) and the dev extras scripts/bootstrap.sh installs
    (r"not installed \(bash scripts/system-deps\.sh installs them\)$", SkipKind.TOOL),
    (r"^PostgreSQL binaries \(initdb, pg_ctl\) not found", SkipKind.TOOL),
    (r"^Chromium is not installed at ", SkipKind.TOOL),
    (r"^the playwright package is not installed", SkipKind.TOOL),
    (r"^schemathesis is not installed$", SkipKind.TOOL),
    (r"^hadolint not found", SkipKind.TOOL),
    (r"^Docker Compose v2 not found", SkipKind.TOOL),
    (r"^kubectl not found", SkipKind.TOOL),
    (r"^needs bubblewrap: ", SkipKind.TOOL),
    (r"^no sandbox here: ", SkipKind.TOOL),
    (r"^the taumesh script is not installed", SkipKind.TOOL),
    (r"^the tau2-banking-knowledge plugin is not installed$", SkipKind.TOOL),
    (r"^could not import 'taumesh\.", SkipKind.TOOL),
    # opt-in tiers: their own scripts or variables run them
    (r"^the deploy tier \(real containers\) runs by `bash scripts/test-deploy\.sh`", SkipKind.OPT_IN),
    (r"^opt in: ", SkipKind.OPT_IN),
    (r"^the bench's τ² venv is not installed at ", SkipKind.OPT_IN),
    # upstream checkouts: CI reaches package registries only, never a source repository
    (r"^TAUMESH_TAU2_CHECKOUT \(an upstream checkout with its sources\) not set$", SkipKind.UNAVAILABLE),
    (r"^set TAUMESH_TAUBENCH_CHECKOUT to a tau-bench checkout$", SkipKind.UNAVAILABLE),
    (r"^set TAUMESH_APOLLO_CHECKOUT to an apollo-tau-bench checkout$", SkipKind.UNAVAILABLE),
    (r"^no τ-bench v1 checkout: set ", SkipKind.UNAVAILABLE),
)
"""(pattern searched in the skip's reason, its kind), first match wins."""
_COMPILED = tuple((re.compile(pattern), kind) for pattern, kind in SKIP_REASONS)


def skip_kind(reason: str) -> SkipKind | None:
    """The kind of a skip's reason; None when no pattern knows it."""
    return next((kind for pattern, kind in _COMPILED if pattern.search(reason)), None)


def on_ci() -> bool:
    return os.environ.get("CI", "").lower() == "true"


def skip_reason(report: pytest.TestReport) -> str:
    """The reason a skipped report gives (``Skipped: `` stripped)."""
    longrepr = report.longrepr
    reason = longrepr[2] if isinstance(longrepr, tuple) else str(longrepr)
    return reason.removeprefix("Skipped: ")


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(
    item: pytest.Item, call: pytest.CallInfo[None]
) -> Generator[None, pytest.TestReport, pytest.TestReport]:
    report: pytest.TestReport = yield
    if report.skipped and not hasattr(report, "wasxfail") and on_ci():
        reason = skip_reason(report)
        kind = skip_kind(reason)
        if kind is None or kind.provided:
            why = kind or "a reason tests/helpers/skips.py does not classify"
            report.outcome = "failed"
            report.longrepr = (
                f"skipped under CI, which must provide what it lacks ({why}): {reason}\n"
                "docs/testing.md: make it available to CI, or classify the reason."
            )
    return report


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    """Under CI, how many tests skipped by design, by kind (what CI provides never skips there)."""
    if not on_ci():
        return
    kinds = Counter(
        str(skip_kind(skip_reason(report)) or "unclassified") for report in terminalreporter.stats.get("skipped", [])
    )
    for kind, count in sorted(kinds.items()):
        terminalreporter.write_line(f"skipped under CI, {kind}: {count} (docs/testing.md)")
