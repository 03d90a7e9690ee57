"""Domains compared with each other: a renamed copy of a domain is found, a sentence of common practice is not.

Real subprocesses in a temporary directory (``./domains`` is searched by default): the scaffold ``demo`` as
``domain new`` writes it, and the same package copied under another name.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from taumesh.audit import DomainSurface, overlaps
from tests.domains.test_domain_commands import domain, explain

ESCALATE = "Transfer the user to a human agent when the request cannot be handled within the scope of your tools."


def _surface(name: str, policy: str, **fields: object) -> DomainSurface:
    values: dict[str, object] = {"instructions": {}, "tools": {}, "tables": {}, **fields}
    return DomainSurface.model_validate({"name": name, "policy": policy, **values})


def test_one_shared_sentence_of_common_practice_is_no_copy_but_a_run_of_them_is() -> None:
    one = _surface("one", f"1.1 {ESCALATE} 1.2 Refunds go back to the card that paid, within five business days.")
    two = _surface("two", f"4.2 {ESCALATE}")
    assert overlaps([one, two]) == []
    sentences = [f"Rule {word} applies to every booking made through the desk before the season." for word in "abc"]
    copied = _surface("three", " ".join(sentences))
    findings = overlaps([copied, _surface("four", " ".join(sentences))], of="four")
    assert [(f.kind, f.other) for f in findings] == [("copied_policy", "three")]
    assert "3 policy sentences" in findings[0].detail


def test_renamed_tools_tables_and_instructions_are_found() -> None:
    tools = {"get_order": ("order_id", "user_id"), "cancel_order": ("order_id", "reason")}
    renamed = {"fetch_booking": ("order_id", "user_id"), "void_booking": ("order_id", "reason")}
    table = {"orders": ("order_id", "status", "total", "user_id")}
    one = _surface("one", "", instructions={"test/0": "You want order 7 cancelled."}, tools=tools, tables=table)
    two = _surface("two", "", instructions={"test/3": "you want ORDER 7 cancelled"}, tools=renamed, tables=table)
    kinds = {(f.kind, f.subject) for f in overlaps([one, two], of="two")}
    assert kinds == {("duplicate", "test/3"), ("copied_tools", "-"), ("copied_table", "orders")}


def test_a_renamed_copy_of_a_domain_fails_distinct_and_strict(tmp_path: Path) -> None:
    assert domain(tmp_path, "new", "demo").returncode == 0
    alone = domain(tmp_path, "distinct", "demo")
    assert alone.returncode == 0 and "share no task" in alone.stdout, explain(alone)

    copy = tmp_path / "domains" / "copycat"
    shutil.copytree(tmp_path / "domains" / "demo", copy)
    for module in copy.glob("*.py"):
        module.write_text(module.read_text(encoding="utf-8").replace("demo", "copycat"), encoding="utf-8")
    compared = domain(tmp_path, "distinct", "demo", "copycat")
    assert compared.returncode == 1, explain(compared)
    for kind in ("duplicate", "copied_policy", "copied_tools", "copied_table"):
        assert f"copycat {kind}" in compared.stdout and f"demo {kind}" in compared.stdout, (kind, explain(compared))

    strict = domain(tmp_path, "check", "copycat", "--strict")
    assert strict.returncode == 1, explain(strict)
    assert "copied_tools" in strict.stdout and "demo:" in strict.stdout, explain(strict)

    unknown = domain(tmp_path, "distinct", "demo", "nosuchdomain")
    assert unknown.returncode == 2 and "nosuchdomain" in unknown.stderr, explain(unknown)
