"""``domain audit --sheet``: the review sheet lists each task's instruction, gold, outputs, floors and flags."""

from __future__ import annotations

from pathlib import Path

from tests.helpers.cli import assert_ok, taumesh


def test_review_sheet_puts_what_the_audit_found_first(tmp_path: Path) -> None:
    sheet = tmp_path / "review" / "healthcare.md"
    proc = taumesh("domain", "audit", "healthcare:v1", "--sheet", sheet)  # release 1, whose flaws the sheet lists
    assert_ok(proc)
    text = sheet.read_text(encoding="utf-8")
    assert text.startswith("# Review sheet: healthcare:v1 base\n")
    assert "| identity_then_refuse | 21/165 |" in text
    sections = text.split("\n## Task ")[1:]
    assert len(sections) == 165
    clean = [
        "Flags:\n\nnone" in section and ("pass it: none\n" in section or "pass it: gold_without_outputs\n" in section)
        for section in sections
    ]
    assert clean == [False] * (9 + 21) + [True] * (165 - 30)  # 9 flagged, 21 passed by verify-then-refuse, the rest
    refill = next(section for section in sections if section.startswith("refill-02 (refill)"))
    assert "Floors that pass it: identity_then_refuse, gold_without_outputs" in refill
    assert "1. `find_patient(" in refill and "Required outputs: none" in refill
    cancel = next(section for section in sections if section.startswith("cancel_appointment-10"))
    assert "- **guessable_output**: output '25' has 2 characters or fewer" in cancel
    assert "wrote " in proc.stdout and str(sheet) in proc.stdout.replace("\n", "")
