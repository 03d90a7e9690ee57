"""``taumesh verify``: check a run's checksums and re-derive its rewards; exit 1 on any mismatch."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.markup import escape

console = Console(stderr=True)
out = Console(soft_wrap=True, highlight=False)


def verify(
    path: Annotated[
        Path,
        typer.Argument(
            help="A results file (τ-bench's X.json, τ²'s X.tau2.json, or τ²'s own), its X.json.manifest, an MT "
            "folder, or a τ² leaderboard submission folder (submission.json + trajectories/)."
        ),
    ],
    data_dir: Annotated[
        Path | None,
        typer.Option("--data-dir", help="The data to re-derive with (default: the folder the run recorded)."),
    ] = None,
    verify_key: Annotated[
        Path | None,
        typer.Option("--verify-key", help="Ed25519 public key (PEM): the manifest's signature must verify with it."),
    ] = None,
    sign_key: Annotated[
        Path | None,
        typer.Option("--sign", help="Ed25519 private key (PEM): sign the manifest once everything verifies."),
    ] = None,
) -> None:
    """Verify a run: its manifest's checksums, its data release, and every reward re-derived.

    Rewards are re-derived from the recorded trajectories (the rescore path). Prints each mismatch with its
    cause; exits 1 on any, 2 on unreadable input.
    """
    from taumesh.orchestrator.after.rescore import RescoreError
    from taumesh.orchestrator.after.verify import locate, sign, verify_run, verify_submission

    try:
        target = locate(path)
    except ValueError as exc:
        console.print(f"[red]{exc}[/red]", markup=True)
        raise typer.Exit(2) from exc
    if (verify_key or sign_key) and target.kind != "submission" and target.manifest is None:
        console.print(f"[red]{path}: no manifest beside it to sign or check a signature of[/red]")
        raise typer.Exit(2)
    try:
        if target.kind == "submission":
            report = asyncio.run(verify_submission(target.path, data_dir))
        else:
            report = asyncio.run(verify_run(target, data_dir, verify_key))
    except (ValueError, RescoreError) as exc:  # unreadable input, or one the rescore cannot start on: named
        console.print(f"[red]{escape(str(exc))}[/red]")
        raise typer.Exit(2) from exc
    for line in report.checked:
        out.print(f"ok: {line}", markup=False)
    for finding in report.findings:
        out.print(f"MISMATCH {finding.text()}", markup=False)
    if not report.ok:
        out.print(f"verify FAILED: {len(report.findings)} mismatch(es) in {path}", markup=False)
        raise typer.Exit(1)
    out.print(f"verified: {path}", markup=False)
    if sign_key is not None and target.manifest is not None:
        try:
            signature = sign(target.manifest, sign_key)
        except (OSError, ValueError) as exc:
            console.print(f"[red]cannot sign with {sign_key}: {exc}[/red]")
            raise typer.Exit(2) from exc
        out.print(f"signed: {signature}", markup=False)
