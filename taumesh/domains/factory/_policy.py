"""A policy with numbered clauses, rendered as the agent's system prompt, and which clauses the tasks test.

Each clause has an id (``"3.2"``: section 3, clause 2) that tasks cite in their metadata; the coverage report
says which clauses no task tests and which tasks cite a clause the policy does not have.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from pydantic import BaseModel, ConfigDict, Field


class Clause(BaseModel):
    """One rule of the policy."""

    model_config = ConfigDict(frozen=True)

    id: str
    text: str


class Section(BaseModel):
    """A titled group of clauses (numbered ``<section>.<n>`` in order)."""

    model_config = ConfigDict(frozen=True)

    title: str
    clauses: list[Clause]


class Policy(BaseModel):
    """The policy: a preamble, then numbered sections of numbered clauses."""

    model_config = ConfigDict(frozen=True)

    title: str
    preamble: str
    sections: list[Section]

    @classmethod
    def build(cls, title: str, preamble: str, sections: Sequence[tuple[str, Sequence[str]]]) -> Policy:
        """Number ``(section title, [clause text, …])`` pairs: section n's k-th clause is ``"n.k"``."""
        return cls(
            title=title,
            preamble=preamble,
            sections=[
                Section(title=name, clauses=[Clause(id=f"{n}.{k}", text=text) for k, text in enumerate(texts, 1)])
                for n, (name, texts) in enumerate(sections, 1)
            ],
        )

    def clause_ids(self) -> list[str]:
        return [clause.id for section in self.sections for clause in section.clauses]

    def markdown(self) -> str:
        """The policy as the agent reads it: ``## n. Title`` and ``n.k`` before each clause."""
        lines = [f"# {self.title}", "", self.preamble.strip()]
        for n, section in enumerate(self.sections, 1):
            lines += ["", f"## {n}. {section.title}", ""]
            lines += [f"- {clause.id} {clause.text}" for clause in section.clauses]
        return "\n".join(lines) + "\n"


_CLAUSE_LINE = re.compile(r"^- (?P<id>\d+\.\d+) (?P<text>.+)$", re.MULTILINE)


def clause_texts(policy: str) -> dict[str, str]:
    """Each clause's text by id, read back from the policy as the agent reads it (:meth:`Policy.markdown`'s lines).

    The domain's policy file is what the agent was given, so a reviewer's sheet quotes that, not the builder's copy.
    """
    return {match["id"]: match["text"].strip() for match in _CLAUSE_LINE.finditer(policy)}


class Coverage(BaseModel):
    """Which tasks test each clause; the clauses none tests; citations of clauses the policy lacks."""

    tested_by: dict[str, list[str]] = Field(default_factory=dict)
    untested: list[str] = Field(default_factory=list)
    unknown: dict[str, list[str]] = Field(default_factory=dict)
    """Task id -> the clause ids it cites that the policy does not have."""

    def markdown(self) -> str:
        lines = ["| clause | tasks |", "|---|---:|"]
        lines += [f"| {clause} | {len(tasks)} |" for clause, tasks in self.tested_by.items()]
        if self.untested:
            lines += ["", f"Untested: {', '.join(self.untested)}."]
        return "\n".join(lines)


def coverage(policy: Policy, cited: Iterable[tuple[str, Sequence[str]]]) -> Coverage:
    """The coverage of ``policy`` by tasks given as ``(task id, clause ids it tests)``."""
    known = policy.clause_ids()
    report = Coverage(tested_by={clause: [] for clause in known})
    for task_id, clauses in cited:
        for clause in clauses:
            if clause in report.tested_by:
                report.tested_by[clause].append(task_id)
            else:
                report.unknown.setdefault(task_id, []).append(clause)
    report.untested = [clause for clause, tasks in report.tested_by.items() if not tasks]
    return report
