"""``taumesh report``: the leaderboard's numbers equal those computed from the results files; plots are written."""

from __future__ import annotations

import json
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

from taumesh.commands.view import report
from tests.viewer.test_api import expected_pass_hat_k, recorded_simulator


def _report_app() -> typer.Typer:
    """The ``report`` command as ``taumesh`` registers it (``app.command()(report)``)."""
    app = typer.Typer()
    app.command()(report)
    app.command("noop", hidden=True)(lambda: None)  # two commands: typer keeps ``report`` as a sub-command
    return app


def expected_row(path: Path) -> dict[str, str]:
    """The leaderboard cells for ``path``, computed from the file itself."""
    entries = json.loads(path.read_text(encoding="utf-8"))
    rewards = [e["reward"] for e in entries]
    cost = sum(e["info"]["agent_usage"]["cost_usd"] + e["info"]["user_usage"]["cost_usd"] for e in entries)
    solved = sum(reward == 1.0 for reward in rewards)
    row = {f"pass^{k}": f"{v:.4f}" for k, v in expected_pass_hat_k(path).items()}
    row["avg reward"] = f"{sum(rewards) / len(rewards):.4f}"
    row["cost per task ($)"] = f"{cost / len(entries):.6f}"
    row["cost per solved task ($)"] = f"{cost / solved:.6f}" if solved else "–"
    row["user simulator"] = recorded_simulator(path)
    return row


def markdown_rows(text: str) -> list[dict[str, str]]:
    lines = [line for line in text.splitlines() if line.startswith("|")]
    header = [cell.strip() for cell in lines[0].strip("|").split("|")]
    return [dict(zip(header, (c.strip() for c in line.strip("|").split("|")), strict=True)) for line in lines[2:]]


class _Cells(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.rows: list[list[str]] = []
        self.in_cell = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "tr":
            self.rows.append([])
        elif tag in ("td", "th"):
            self.rows[-1].append("")
            self.in_cell = True

    def handle_endtag(self, tag: str) -> None:
        if tag in ("td", "th"):
            self.in_cell = False

    def handle_data(self, data: str) -> None:
        if self.in_cell:
            self.rows[-1][-1] += data


@pytest.mark.parametrize("suffix", [".md", ".html"])
def test_report_numbers_equal_the_files(tmp_path: Path, oracle_run: Path, failing_run: Path, suffix: str) -> None:
    out = tmp_path / f"report{suffix}"
    result = CliRunner().invoke(_report_app(), ["report", str(oracle_run), str(failing_run), "--out", str(out)])
    assert result.exit_code == 0, result.output
    text = out.read_text(encoding="utf-8")
    if suffix == ".md":
        rows = markdown_rows(text)
        assert re.findall(r"!\[[^]]*\]\(([^)]+)\)", text) == ["report_pass_hat_k.png", "report_rewards.png"]
    else:
        parser = _Cells()
        parser.feed(text)
        header, *cells = parser.rows
        rows = [dict(zip(header, row, strict=True)) for row in cells]
    by_run = {row["run"]: row for row in rows}
    assert list(by_run) == [oracle_run.name, failing_run.name]  # best pass^1 first
    for path in (oracle_run, failing_run):
        expected = expected_row(path)
        assert {key: by_run[path.name][key] for key in expected} == expected
        assert (by_run[path.name]["strategy"], by_run[path.name]["domain"]) == ("oracle", "retail")
    for plot in ("report_pass_hat_k.png", "report_rewards.png"):
        assert (tmp_path / plot).read_bytes().startswith(b"\x89PNG")
    assert "different user simulators" not in text + result.output  # both runs played the scripted user


@pytest.mark.parametrize("suffix", [".md", ".html"])
def test_report_mixing_simulators_says_so_under_the_table(tmp_path: Path, oracle_run: Path, suffix: str) -> None:
    """A leaderboard of runs played against different simulators names each version and its runs, and warns."""
    entries = json.loads(oracle_run.read_text(encoding="utf-8"))
    for entry in entries:
        entry["info"]["user_sim_version"] = "tau-bench-v1"
    other = tmp_path / "tau-bench-user.json"
    other.write_text(json.dumps(entries), encoding="utf-8")
    out = tmp_path / f"report{suffix}"
    result = CliRunner().invoke(_report_app(), ["report", str(oracle_run), str(other), "--out", str(out)])
    assert result.exit_code == 0, result.output
    text = out.read_text(encoding="utf-8")
    scripted = recorded_simulator(oracle_run)
    if suffix == ".md":
        rows = markdown_rows(text)
        (warning,) = [line for line in text.splitlines() if line.startswith("> **Warning:")]
        assert text.index("| ") < text.index(warning) < text.index("Intervals:")  # under the table, before the notes
    else:
        parser = _Cells()
        parser.feed(text)
        header, *cells = parser.rows
        rows = [dict(zip(header, row, strict=True)) for row in cells]
        found = re.search(r'<p id="simulators" class="warning"><strong>([^<]*)</strong></p>', text)
        assert found is not None and text.index("</table>") < found.start()
        warning = found.group(1)
    shown = {row["run"]: row["user simulator"] for row in rows}
    assert shown == {oracle_run.name: scripted, other.name: "tau-bench-v1"}
    assert f"({scripted}: {oracle_run.name}; tau-bench-v1: {other.name})" in warning
    assert "not comparable" in warning
    assert "different user simulators" in " ".join(result.output.split())  # the command says it too


def test_report_writes_svg_plots_and_refuses_other_suffixes(tmp_path: Path, oracle_run: Path) -> None:
    app = _report_app()
    out = tmp_path / "r.md"
    assert (
        CliRunner().invoke(app, ["report", str(oracle_run), "--out", str(out), "--plot-format", "svg"]).exit_code == 0
    )
    assert (tmp_path / "r_pass_hat_k.svg").read_text(encoding="utf-8").lstrip().startswith("<?xml")
    refused = CliRunner().invoke(app, ["report", str(oracle_run), "--out", str(tmp_path / "r.txt")])
    assert refused.exit_code == 2
    assert not (tmp_path / "r.txt").exists()


def test_report_of_a_folder_glob_skips_the_side_files(tmp_path: Path, oracle_run: Path, failing_run: Path) -> None:
    """``taumesh report DIR/*.json`` also names errors files and fault reports: each is skipped with a note."""
    faults = failing_run.with_name(f"{failing_run.stem}_faults.json")
    faults.write_text('{"reports": []}', encoding="utf-8")
    errors = oracle_run.with_name(f"{oracle_run.stem}.errors.json")
    errors.write_text("[]", encoding="utf-8")
    out = tmp_path / "report.md"
    paths = [str(p) for p in (oracle_run, failing_run, faults, errors)]
    result = CliRunner().invoke(_report_app(), ["report", *paths, "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert f"skipped {faults}" in result.output and f"skipped {errors}" in result.output
    rows = markdown_rows(out.read_text(encoding="utf-8"))
    assert len(rows) == 2
