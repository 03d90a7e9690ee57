"""The code host's seeded worlds: an organisation per world, its developers, four repositories and their history.

Each repository is one of :data:`~.projects.PROJECTS` and holds six branches: the protected default branch, a
``fix/`` branch whose defect makes one test fail (its pull request open, its CI red), a ``feature/`` branch ready
to merge, a ``docs/`` branch already merged (its issue still open), a ``ready/`` branch with no pull request whose
CI run was lost by a runner, and a ``chore/`` branch that edited the generated file. Every id carries the world's
tag; names are drawn so that no handle or repository name repeats across worlds.
"""

from __future__ import annotations

import hashlib
import random
from typing import Any

from taumesh.domains.engineering.projects import GENERATED, PROJECTS, Project
from taumesh.domains.factory import Invariant, SeededWorld, World, build_worlds, per_record, within

SEEDS = {"w1": 4601, "w2": 4602, "w3": 4603}
TEST_WORLDS = frozenset({"w3"})
"""World 3's tasks are the test split; worlds 1 and 2's the train split (they share no entity)."""
ORGANISATIONS = {"w1": "fernwood", "w2": "saltmarsh", "w3": "quarrybank"}
FIRST = [
    "Amara",
    "Bastian",
    "Chiara",
    "Dmitri",
    "Esme",
    "Farid",
    "Greta",
    "Hiro",
    "Ines",
    "Joaquin",
    "Keziah",
    "Lior",
    "Maren",
    "Nikhil",
    "Oona",
    "Pavel",
    "Quilla",
    "Rafferty",
    "Saoirse",
    "Tobias",
    "Ulla",
    "Vikram",
    "Wren",
    "Xiomara",
    "Yusuf",
    "Zofia",
    "Anselm",
    "Brigid",
    "Casimir",
    "Delphine",
    "Emeka",
    "Fenna",
    "Gideon",
    "Hanne",
    "Ilias",
    "Jolene",
    "Kwame",
    "Linnea",
    "Matthias",
    "Noor",
    "Osric",
    "Petra",
    "Radu",
    "Sunniva",
    "Teodor",
    "Ysolde",
    "Zain",
    "Mireille",
]
LAST = [
    "Achterberg",
    "Bellweather",
    "Castellanos",
    "Dunmore",
    "Eriksen",
    "Fairbairn",
    "Galloway",
    "Halvorsen",
    "Ibarra",
    "Jankowski",
    "Kavanagh",
    "Lindqvist",
    "Moreau",
    "Nakashima",
    "Oyelaran",
    "Pellegrini",
    "Quist",
    "Rasmussen",
    "Szabo",
    "Thorne",
    "Umeh",
    "Vasquez",
    "Whitlock",
    "Yamamoto",
]
DEVELOPERS = 16
TOPICS = {
    "thermo": ("celsius", "kelvin-check", "readme", "sensor-feed", "bump-schema"),
    "tally": ("odd-cents", "receipts", "usage", "group-bills", "regen-info"),
    "versions": ("minor-order", "prerelease", "changelog", "calver", "tooling"),
    "slugs": ("dash-runs", "unicode", "examples", "max-length", "build-meta"),
}


def authenticator_code(developer_id: str) -> str:
    """The six digits a developer's authenticator app shows now: fixed per developer (the world's clock is)."""
    return str(int(hashlib.sha256(f"totp:{developer_id}".encode()).hexdigest(), 16) % 900_000 + 100_000)


def _developers(tag: str) -> dict[str, dict[str, Any]]:
    offset = (int(tag[1:]) - 1) * DEVELOPERS
    people = {}
    for n in range(DEVELOPERS):
        first, last = FIRST[offset + n], LAST[(offset + n * 7) % len(LAST)]
        developer_id = f"dev-{tag}-{n + 1:02d}"
        people[developer_id] = {
            "developer_id": developer_id,
            "handle": f"{first.lower()}-{last.lower()}",
            "full_name": f"{first} {last}",
            "email": f"{first.lower()}.{last.lower()}@{ORGANISATIONS[tag]}.dev",
            "status": "suspended" if n in (14, 15) else "active",
        }
    return people


class _Builder:
    """One world's tables, filled repository by repository."""

    def __init__(self, tag: str) -> None:
        self.tag = tag
        self.tables: World = {
            "developers": _developers(tag),
            "repositories": {},
            "branches": {},
            "files": {},
            "pull_requests": {},
            "reviews": {},
            "ci_runs": {},
            "issues": {},
            "authenticators": {},
        }
        for developer_id in self.tables["developers"]:
            self.tables["authenticators"][developer_id] = {
                "developer_id": developer_id,
                "code": authenticator_code(developer_id),
            }

    def _id(self, kind: str, table: str) -> str:
        return f"{kind}-{self.tag}-{len(self.tables[table]) + 1:02d}"

    def branch(self, repository_id: str, name: str, author: str, files: dict[str, str], protected: bool) -> str:
        branch_id = self._id("br", "branches")
        self.tables["branches"][branch_id] = {
            "branch_id": branch_id,
            "repository_id": repository_id,
            "name": name,
            "author_id": author,
            "protected": protected,
        }
        for path in sorted(files):
            file_id = f"file-{self.tag}-{len(self.tables['files']) + 1:03d}"
            self.tables["files"][file_id] = {
                "file_id": file_id,
                "branch_id": branch_id,
                "path": path,
                "content": files[path],
            }
        return branch_id

    def run(self, branch_id: str, status: str, kind: str | None, test: str | None, log: str) -> None:
        run_id = self._id("run", "ci_runs")
        self.tables["ci_runs"][run_id] = {
            "run_id": run_id,
            "branch_id": branch_id,
            "number": 1,
            "status": status,
            "failure_kind": kind,
            "failing_test": test,
            "log_tail": log,
        }

    def pull_request(self, repository_id: str, branch_id: str, title: str, issue_id: str | None, status: str) -> str:
        pr_id = self._id("pr", "pull_requests")
        self.tables["pull_requests"][pr_id] = {
            "pr_id": pr_id,
            "repository_id": repository_id,
            "branch_id": branch_id,
            "author_id": self.tables["branches"][branch_id]["author_id"],
            "title": title,
            "issue_id": issue_id,
            "status": status,
            "merged_by": self.tables["repositories"][repository_id]["owner_id"] if status == "merged" else None,
        }
        return pr_id

    def review(self, pr_id: str, reviewer: str, state: str) -> None:
        review_id = self._id("rev", "reviews")
        self.tables["reviews"][review_id] = {
            "review_id": review_id,
            "pr_id": pr_id,
            "reviewer_id": reviewer,
            "state": state,
        }

    def issue(self, repository_id: str, title: str, reporter: str, assignee: str | None) -> str:
        issue_id = self._id("iss", "issues")
        self.tables["issues"][issue_id] = {
            "issue_id": issue_id,
            "repository_id": repository_id,
            "title": title,
            "reporter_id": reporter,
            "assignee_id": assignee,
            "status": "open",
            "resolution": None,
        }
        return issue_id

    def repository(self, number: int, project: Project, owner: str, crew: list[str], busy: str) -> None:
        """One repository with its six branches, three pull requests, CI runs and issues."""
        repository_id = f"repo-{self.tag}-{number}"
        fix, feature, docs, ready, chore = TOPICS[project.name]
        self.tables["repositories"][repository_id] = {
            "repository_id": repository_id,
            "name": f"{ORGANISATIONS[self.tag]}/{project.name}",
            "owner_id": owner,
            "default_branch": "main",
            "required_approvals": 1 + number % 2,
            "forbidden_paths": [GENERATED],
        }
        self.branch(repository_id, "main", owner, project.files, protected=True)
        fixing = self.branch(repository_id, f"fix/{fix}", crew[0], project.with_bug(), protected=False)
        featured = self.branch(repository_id, f"feature/{feature}", crew[1], project.files, protected=False)
        documented = self.branch(repository_id, f"docs/{docs}", crew[2], project.files, protected=False)
        readied = self.branch(repository_id, f"ready/{ready}", crew[3], project.files, protected=False)
        edited = dict(project.files)
        edited[GENERATED] = edited[GENERATED].replace("SCHEMA = 3", "SCHEMA = 4")
        chored = self.branch(repository_id, f"chore/{chore}", crew[3], edited, protected=False)
        bug = project.bug
        self.run(fixing, "failed", "test", bug.test, f"FAIL: {bug.test}\n{bug.message}\nFAILED (failures=1)")
        for passing in (featured, documented, chored):
            self.run(passing, "passed", None, None, "Ran the tests\nOK")
        self.run(readied, "failed", "infrastructure", None, "runner lost its connection before the tests started")
        fix_issue = self.issue(repository_id, f"{project.name}: {bug.test} fails", crew[4], crew[0])
        docs_issue = self.issue(repository_id, f"{project.name}: document {docs}", crew[5], crew[2])
        for title in (f"{project.name}: {feature} follow-up", f"{project.name}: tidy {ready}"):
            self.issue(repository_id, title, crew[4 + len(title) % 2], None)
        self.issue(repository_id, f"{project.name}: triage {chore}", crew[5], busy)
        required = 1 + number % 2
        fixing_pr = self.pull_request(repository_id, fixing, f"Fix {bug.test}", fix_issue, "open")
        featured_pr = self.pull_request(repository_id, featured, f"Add {feature}", None, "open")
        documented_pr = self.pull_request(repository_id, documented, f"Document {docs}", docs_issue, "merged")
        reviewers = [d for d in crew[4:] if d != busy]
        for pr_id in (fixing_pr, featured_pr, documented_pr):
            for reviewer in reviewers[:required]:
                self.review(pr_id, reviewer, "approved")
        self.review(featured_pr, reviewers[required], "requested")


def build_world(seed: int, tag: str) -> World:
    """An organisation: sixteen developers (two suspended), four repositories each owned by a maintainer."""
    rng = random.Random(seed)
    builder = _Builder(tag)
    active = [d for d, record in sorted(builder.tables["developers"].items()) if record["status"] == "active"]
    owners = active[:4]
    busy = active[4]
    others = active[5:]
    for number, project in enumerate(PROJECTS, 1):
        crew = rng.sample(others, 7)
        builder.repository(number, project, owners[number - 1], crew, busy)
    return builder.tables


def _files_of_branch(world: World) -> list[str]:
    """Each branch holds the generated file and at least one test file."""
    problems = []
    for branch_id in world["branches"]:
        paths = {f["path"] for f in world["files"].values() if f["branch_id"] == branch_id}
        if GENERATED not in paths or not any(p.startswith("tests/") for p in paths):
            problems.append(f"branch {branch_id} lacks the generated file or tests")
    return problems


def _owners_active(world: World) -> list[str]:
    developers = world["developers"]
    return [
        f"{r['repository_id']} is owned by a suspended account"
        for r in world["repositories"].values()
        if developers[r["owner_id"]]["status"] != "active"
    ]


def _authors_match(world: World) -> list[str]:
    branches = world["branches"]
    return [
        f"{p['pr_id']} is by {p['author_id']}, its branch by {branches[p['branch_id']]['author_id']}"
        for p in world["pull_requests"].values()
        if branches[p["branch_id"]]["author_id"] != p["author_id"]
    ]


INVARIANTS = (
    per_record("repositories", "approvals are 1 to 3", lambda r: within(r["required_approvals"], 1, 3, "approvals")),
    Invariant("a pull request's author wrote its branch", _authors_match),
    Invariant("every branch holds the generated file and tests", _files_of_branch),
    Invariant("every repository's owner is active", _owners_active),
)


def worlds() -> list[SeededWorld]:
    """The three worlds, each checked against the invariants."""
    return build_worlds(build_world, SEEDS, INVARIANTS)
