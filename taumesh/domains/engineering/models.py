"""The code host's database: one pydantic model per record, one field per table (``data/<table>.json``).

``files`` holds every file of every branch, its text in full: the repository a grader materialises and tests.
``authenticators`` is the developer's side (the app on their phone); the desk's tools never read it.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict


class Record(BaseModel):
    """A record: a misspelled field is an error, not silently ignored."""

    model_config = ConfigDict(extra="forbid")


class Developer(Record):
    """An account on the code host."""

    developer_id: str
    handle: str
    full_name: str
    email: str
    status: Literal["active", "suspended"]


class Repository(Record):
    """A repository, its owner (the maintainer), and the merge rules it sets."""

    repository_id: str
    name: str
    owner_id: str
    default_branch: str
    required_approvals: int
    forbidden_paths: list[str]
    """Files nobody edits by hand (generated or vendored): the policy keeps every change off them."""


class Branch(Record):
    """A branch of a repository; the default branch is protected."""

    branch_id: str
    repository_id: str
    name: str
    author_id: str
    protected: bool


class File(Record):
    """One file of one branch, its full text."""

    file_id: str
    branch_id: str
    path: str
    content: str


class PullRequest(Record):
    """A request to merge a branch into its repository's default branch, perhaps closing an issue."""

    pr_id: str
    repository_id: str
    branch_id: str
    author_id: str
    title: str
    issue_id: str | None
    status: Literal["open", "merged", "closed"]
    merged_by: str | None


class Review(Record):
    """A reviewer asked to look at a pull request, and what they said."""

    review_id: str
    pr_id: str
    reviewer_id: str
    state: Literal["requested", "approved", "changes_requested"]


class CiRun(Record):
    """A run of a branch's tests on the code host's CI: its result and, when red, why."""

    run_id: str
    branch_id: str
    number: int
    status: Literal["passed", "failed", "queued"]
    failure_kind: Literal["test", "infrastructure"] | None
    failing_test: str | None
    log_tail: str


class Issue(Record):
    """An issue of a repository."""

    issue_id: str
    repository_id: str
    title: str
    reporter_id: str
    assignee_id: str | None
    status: Literal["open", "closed"]
    resolution: Literal["fixed", "duplicate", "wont_fix"] | None


class Authenticator(Record):
    """The developer's authenticator app: the confirmation code it shows now (their side, not the desk's)."""

    developer_id: str
    code: str


class EngineeringDatabase(BaseModel):
    """Every table, by record id; validates the files when the domain loads."""

    developers: dict[str, Developer]
    repositories: dict[str, Repository]
    branches: dict[str, Branch]
    files: dict[str, File]
    pull_requests: dict[str, PullRequest]
    reviews: dict[str, Review]
    ci_runs: dict[str, CiRun]
    issues: dict[str, Issue]
    authenticators: dict[str, Authenticator]
