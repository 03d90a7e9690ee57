"""The review sheet as one self-contained HTML page (``domain audit --sheet PATH.html``).

Jinja2 writes it with autoescaping on: instructions, gold arguments, outputs and flag details are the domain's data
and are never read as markup. The page needs nothing beside it (its CSS is inline): a table of contents with each
task's flag count, then each task's section, flagged ones highlighted.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from typing import TYPE_CHECKING

from taumesh.audit._report import AuditReport
from taumesh.audit._sheet_entries import ClauseTexts, gold_call, sheet_entries
from taumesh.domains import Task

if TYPE_CHECKING:
    import jinja2

_CSS = """
body { font: 15px/1.5 system-ui, sans-serif; max-width: 60rem; margin: 2rem auto; padding: 0 1rem; color: #1d2329; }
table { border-collapse: collapse; margin: 1rem 0; }
th, td { border: 1px solid #ccd3da; padding: .25rem .6rem; text-align: left; vertical-align: top; }
th { background: #eef1f4; }
td.count { text-align: right; }
tr.found td { background: #fff4e0; }
section.task { border: 1px solid #ccd3da; border-left: 6px solid #9aa5b1; border-radius: 4px; margin: 1.5rem 0;
  padding: .5rem 1rem; }
section.task.found { border-left-color: #d9822b; }
section.task h2 { font-size: 1.15rem; margin: .3rem 0; }
blockquote { white-space: pre-wrap; margin: .3rem 0; padding: .4rem .8rem; background: #f5f7f9;
  border-left: 3px solid #ccd3da; }
code { font: 13px/1.4 ui-monospace, monospace; white-space: pre-wrap; word-break: break-word; }
ul.flags li { background: #fde8e8; border-radius: 3px; padding: .15rem .4rem; margin: .2rem 0; list-style: none; }
.kind { font-weight: 600; color: #a61b1b; }
.muted { color: #6b7785; }
dt { font-weight: 600; margin-top: .5rem; }
dd { margin-left: 1rem; }
"""

_TEMPLATE = """<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Review sheet: {{ report.domain }} {{ report.split }}</title>
<style>{{ css | safe }}</style>
</head>
<body>
<h1>Review sheet: {{ report.domain }} {{ report.split }}</h1>
<p>Data release {{ report.data_release or "not recorded" }}, audit version {{ report.audit_version }},
{{ report.tasks | length }} tasks, {{ flagged }} flagged.</p>
<table class="floors">
<tr><th>floor</th><th>passes</th></tr>
{% for name, result in report.floors.items() %}
<tr><td>{{ name }}</td><td class="count">{{ result.passed | length }}/{{ result.of }}</td></tr>
{% endfor %}
</table>
<h2>Tasks</h2>
<p class="muted">Tasks the audit found something on (a flag, or a floor other than gold_without_outputs) come first.</p>
<table class="contents">
<tr><th>task</th><th>intent</th><th>flags</th><th>floors that pass it</th></tr>
{% for entry in entries %}
<tr{% if entry.found %} class="found"{% endif %}><td><a href="#task-{{ loop.index }}">{{ entry.audit.task_id }}</a></td>
<td>{{ entry.audit.intent or "" }}</td><td class="count">{{ entry.audit.flags | length }}</td>
<td>{{ entry.floors | join(", ") }}</td></tr>
{% endfor %}
</table>
{% for entry in entries %}
<section class="task{% if entry.found %} found{% endif %}" id="task-{{ loop.index }}">
<h2>Task {{ entry.audit.task_id }}{% if entry.audit.intent %} ({{ entry.audit.intent }}){% endif %}</h2>
<dl>
<dt>Instruction</dt>
<dd><blockquote>{{ entry.task.instruction.strip() }}</blockquote></dd>
<dt>Gold actions</dt>
<dd>{% if entry.task.actions %}<ol>
{% for action in entry.task.actions %}
<li><code>{{ gold_call(action) }}</code>
{%- if action.requestor == "user" %} <span class="muted">(the user's)</span>{% endif %}</li>
{% endfor %}
</ol>{% else %}<span class="muted">none</span>{% endif %}</dd>
<dt>Required outputs</dt>
<dd>{% for output in entry.task.outputs %}<code>{{ output }}</code>{% if not loop.last %}, {% endif %}
{%- else %}<span class="muted">none</span>{% endfor %}</dd>
<dt>Floors that pass it</dt>
<dd>{{ entry.floors | join(", ") or "none" }}</dd>
<dt>Flags</dt>
<dd>{% if entry.audit.flags %}<ul class="flags">
{% for flag in entry.audit.flags %}
<li><span class="kind">{{ flag.kind }}</span>: {{ flag.detail }}</li>
{% endfor %}
</ul>{% else %}<span class="muted">none</span>{% endif %}</dd>
<dt>Policy clauses</dt>
<dd>{% if entry.clauses is none %}<span class="muted">not declared</span>{% elif entry.clauses %}<ul class="clauses">
{% for clause in entry.clauses %}
<li>{{ clause }}</li>
{% endfor %}
</ul>{% else %}<span class="muted">none</span>{% endif %}</dd>
</dl>
</section>
{% endfor %}
</body>
</html>
"""


@cache
def _template() -> jinja2.Template:
    import jinja2  # here: every run imports the audit package, few write a sheet

    environment = jinja2.Environment(
        autoescape=True, undefined=jinja2.StrictUndefined, trim_blocks=True, lstrip_blocks=True
    )
    return environment.from_string(_TEMPLATE)


def review_sheet_html(report: AuditReport, tasks: Sequence[Task], clauses: ClauseTexts | None = None) -> str:
    """HTML: what the Markdown sheet shows (:func:`~taumesh.audit.review_sheet`), one page with a table of contents."""
    return _template().render(
        report=report,
        entries=sheet_entries(report, tasks, clauses),
        flagged=len(report.flagged()),
        gold_call=gold_call,
        css=_CSS,
    )
