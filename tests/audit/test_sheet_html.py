"""``domain audit --sheet PATH.html``: one page with every task, its flags and the policy clauses it tests, escaped.

The suffix chooses the format (``.md`` or ``.html``); any other is refused before the audit runs.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from taumesh.domains import DOMAIN_PATH_ENV
from taumesh.domains._scaffold import write_minimal_skeleton as write_skeleton
from tests.helpers.cli import assert_ok, explain_result, invoke, taumesh

PLANTED = "<script>alert('sheet')</script>"
"""Markup planted in a task's instruction and gold arguments: the page must show it as text."""


def _sections(html: str) -> dict[str, str]:
    """Each task's section of the page, by task id (its heading's first word)."""
    found = re.findall(r'<section class="task[^"]*" id="task-\d+">\n<h2>Task (\S+).*?</section>', html, re.DOTALL)
    bodies = re.findall(r'<section class="task[^"]*" id="task-\d+">.*?</section>', html, re.DOTALL)
    return dict(zip(found, bodies, strict=True))


def test_html_sheet_of_healthcare_lists_the_clauses_each_task_tests(tmp_path: Path) -> None:
    sheet = tmp_path / "review" / "healthcare.html"
    done = invoke("domain", "audit", "healthcare", "--task-split", "test", "--sheet", sheet)
    assert done.exit_code == 0, explain_result(done)
    html = sheet.read_text(encoding="utf-8")
    assert html.startswith("<!DOCTYPE html>") and "<style>" in html and "<script" not in html
    assert "<h1>Review sheet: healthcare test</h1>" in html
    assert '<tr><td>gold_without_outputs</td><td class="count">48/60</td></tr>' in html
    tasks = json.loads((Path("taumesh/domains/healthcare/data/v2/tasks_test.json")).read_text(encoding="utf-8"))
    sections = _sections(html)
    assert sorted(sections) == sorted(task["id"] for task in tasks)
    for task in tasks:  # every clause a task cites, with the policy's words
        listed = re.findall(r"<li>(\d+\.\d+) ", sections[task["id"]].split("<dt>Policy clauses</dt>")[1])
        assert listed == task["clauses"], task["id"]
    reschedule = sections["reschedule_appointment-w3-11"]
    assert "<li>4.6 Cancelling an appointment that starts less than 24 hours from now costs a late fee" in reschedule
    assert "not declared" not in html
    assert f'<a href="#task-1">{next(iter(sections))}</a>' in html  # the table of contents links each section


def test_html_sheet_of_healthcare_v1_highlights_its_flags(tmp_path: Path) -> None:
    sheet = tmp_path / "healthcare-v1.html"
    done = invoke("domain", "audit", "healthcare:v1", "--sheet", sheet)  # release 1, whose flaws it lists
    assert done.exit_code == 0, explain_result(done)
    html = sheet.read_text(encoding="utf-8")
    sections = _sections(html)
    assert len(sections) == 165
    flagged = [task_id for task_id, body in sections.items() if '<ul class="flags">' in body]
    found = [task_id for task_id, body in sections.items() if body.startswith('<section class="task found"')]
    assert len(flagged) == 9 and set(flagged) <= set(found)
    assert list(sections)[: 9 + 21] == found  # first: 9 flagged, 21 passed by verify-then-refuse
    cancel = sections["cancel_appointment-10"]
    assert '<li><span class="kind">guessable_output</span>: output &#39;25&#39; has 2 characters or fewer (' in cancel
    row = re.search(
        r'<tr class="found"><td><a href="#task-\d+">cancel_appointment-10</a></td>\n<td>(.*?)</td>'
        r'<td class="count">(\d+)</td>',
        html,
    )
    assert row is not None and row.group(1) == "cancel_appointment" and int(row.group(2)) == cancel.count("<li><span")
    assert all('<dt>Policy clauses</dt>\n<dd><span class="muted">not declared</span>' in s for s in sections.values())


def test_markdown_sheet_lists_clauses_where_the_domain_declares_them(tmp_path: Path) -> None:
    sheet = tmp_path / "healthcare.md"
    done = invoke("domain", "audit", "healthcare", "--task-split", "test", "--sheet", sheet)
    assert done.exit_code == 0, explain_result(done)
    text = sheet.read_text(encoding="utf-8")
    book = next(s for s in text.split("\n## Task ")[1:] if s.startswith("book_appointment-w3-01 "))
    assert "Policy clauses:\n\n- 2.1 Before you disclose anything" in book and "\n- 4.1 Book only open slots." in book
    v1 = tmp_path / "healthcare-v1.md"
    done = invoke("domain", "audit", "healthcare:v1", "--sheet", v1)
    assert done.exit_code == 0, explain_result(done)
    assert v1.read_text(encoding="utf-8").count("Policy clauses: not declared\n") == 165


def test_html_sheet_escapes_the_tasks_text(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    write_skeleton("sheetdemo", tmp_path / "domains")
    tasks_file = tmp_path / "domains" / "sheetdemo" / "data" / "tasks_test.json"
    tasks = json.loads(tasks_file.read_text(encoding="utf-8"))
    tasks[0]["instruction"] = f"You want {PLANTED} & the 'visits' counter increased by 2."
    tasks[0]["outputs"] = [PLANTED]
    tasks_file.write_text(json.dumps(tasks), encoding="utf-8")
    monkeypatch.setenv(DOMAIN_PATH_ENV, str(tmp_path / "domains"))
    sheet = tmp_path / "sheetdemo.html"
    assert_ok(taumesh("domain", "audit", "sheetdemo", "--data-dir", tmp_path, "--sheet", sheet))
    html = sheet.read_text(encoding="utf-8")
    assert "<script" not in html
    assert "You want &lt;script&gt;alert(&#39;sheet&#39;)&lt;/script&gt; &amp; the &#39;visits&#39; counter" in html
    assert "<code>&lt;script&gt;alert(&#39;sheet&#39;)&lt;/script&gt;</code>" in html  # the output
    assert '<span class="muted">not declared</span>' in html  # the contract's default: the domain says nothing


@pytest.mark.parametrize("name", ["review.txt", "review"])
def test_a_sheet_of_another_suffix_is_refused_before_the_audit(tmp_path: Path, name: str) -> None:
    done = invoke("domain", "audit", "healthcare", "--sheet", tmp_path / name)
    assert done.exit_code == 2, explain_result(done)
    assert ".md or .html" in done.stderr.replace("\n", " ") and "floors" not in done.stdout
    assert not (tmp_path / name).exists()
