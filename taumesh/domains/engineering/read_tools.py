"""The desk's read tools: developers, repositories, branches and their files, CI runs, pull requests and issues."""

from __future__ import annotations

import hashlib
import json
from typing import Any

from taumesh.domains import Data, Refusal, Tool
from taumesh.domains.engineering import checkout
from taumesh.domains.engineering.lookup import (
    STRING,
    branch_files,
    branch_texts,
    default_branch,
    record,
    schema,
)


def _dump(value: Any) -> str:
    return json.dumps(value, sort_keys=True)


class FindDeveloper(Tool):
    name = "find_developer"
    description = "Find a developer account by its handle: id, full name and status (not the email)."
    parameters = schema(handle=STRING)

    @staticmethod
    def invoke(data: Data, handle: str) -> str:
        for developer in data["developers"].values():
            if developer["handle"] == handle.strip().lower().lstrip("@"):
                return _dump({k: developer[k] for k in ("developer_id", "handle", "full_name", "status")})
        raise Refusal(f"no developer with handle {handle}")


class VerifyDeveloper(Tool):
    name = "verify_developer"
    description = "Verify the person you are talking to owns a developer account: the account's email must match."
    parameters = schema(developer_id=STRING, email=STRING)

    @staticmethod
    def invoke(data: Data, developer_id: str, email: str) -> str:
        developer = record(data, "developers", developer_id, "developer")
        if developer["email"].lower() != email.strip().lower():
            raise Refusal("the email does not match the account")
        return "verified"


class FindRepository(Tool):
    name = "find_repository"
    description = "Find a repository by its full name (organisation/name): owner, merge rules and forbidden paths."
    parameters = schema(name=STRING)

    @staticmethod
    def invoke(data: Data, name: str) -> str:
        for repository in data["repositories"].values():
            if repository["name"] == name.strip().lower():
                return _dump(repository)
        raise Refusal(f"no repository named {name}")


class ListBranches(Tool):
    name = "list_branches"
    description = "List a repository's branches: id, name, author and whether it is protected."
    parameters = schema(repository_id=STRING)

    @staticmethod
    def invoke(data: Data, repository_id: str) -> str:
        record(data, "repositories", repository_id, "repository")
        return _dump([b for b in data["branches"].values() if b["repository_id"] == repository_id])


class ListFiles(Tool):
    name = "list_files"
    description = "List the files of a branch: path and a digest of each file's text."
    parameters = schema(branch_id=STRING)

    @staticmethod
    def invoke(data: Data, branch_id: str) -> str:
        record(data, "branches", branch_id, "branch")
        texts = branch_texts(data, branch_id)
        return _dump({path: hashlib.sha256(text.encode()).hexdigest()[:12] for path, text in sorted(texts.items())})


class ReadFile(Tool):
    name = "read_file"
    description = "Read one file of a branch in full."
    parameters = schema(branch_id=STRING, path=STRING)

    @staticmethod
    def invoke(data: Data, branch_id: str, path: str) -> str:
        found = branch_files(data, branch_id).get(path)
        if found is None:
            raise Refusal(f"branch {branch_id} has no file {path}")
        return str(found["content"])


class CompareBranch(Tool):
    name = "compare_branch"
    description = "The paths a branch changes, adds or removes compared with its repository's default branch."
    parameters = schema(branch_id=STRING)

    @staticmethod
    def invoke(data: Data, branch_id: str) -> str:
        branch = record(data, "branches", branch_id, "branch")
        mine = branch_texts(data, branch_id)
        base = branch_texts(data, default_branch(data, branch["repository_id"]))
        changed = sorted(p for p in mine.keys() | base.keys() if mine.get(p) != base.get(p))
        return _dump({"changed_paths": changed})


class GetCiRuns(Tool):
    name = "get_ci_runs"
    description = "The CI runs of a branch, newest last: status, failure kind, failing test and the log's tail."
    parameters = schema(branch_id=STRING)

    @staticmethod
    def invoke(data: Data, branch_id: str) -> str:
        record(data, "branches", branch_id, "branch")
        runs = [r for r in data["ci_runs"].values() if r["branch_id"] == branch_id]
        return _dump(sorted(runs, key=lambda r: r["number"]))


class RunTests(Tool):
    """Runs the branch's tests in the sandbox now; reads only (the CI runs are what the record keeps)."""

    name = "run_tests"
    blocking = True
    description = "Run a branch's unit tests now, in an isolated sandbox, and show the runner's last lines."
    parameters = schema(branch_id=STRING)

    @staticmethod
    def invoke(data: Data, branch_id: str) -> str:
        record(data, "branches", branch_id, "branch")
        problem = checkout.sandbox_problem()
        if problem is not None:
            raise Refusal(f"tests cannot run on this host: it {problem}")
        result = checkout.run_tests(branch_texts(data, branch_id))
        return _dump({"passed": result.passed, "output": result.summary})


class GetPullRequest(Tool):
    name = "get_pull_request"
    description = "A pull request: repository, source branch, author, title, linked issue and status."
    parameters = schema(pr_id=STRING)

    @staticmethod
    def invoke(data: Data, pr_id: str) -> str:
        return _dump(record(data, "pull_requests", pr_id, "pull request"))


class ListPullRequests(Tool):
    name = "list_pull_requests"
    description = "List a repository's pull requests."
    parameters = schema(repository_id=STRING)

    @staticmethod
    def invoke(data: Data, repository_id: str) -> str:
        record(data, "repositories", repository_id, "repository")
        return _dump([p for p in data["pull_requests"].values() if p["repository_id"] == repository_id])


class ListReviews(Tool):
    name = "list_reviews"
    description = "List the reviews of a pull request: reviewer and state (requested, approved, changes_requested)."
    parameters = schema(pr_id=STRING)

    @staticmethod
    def invoke(data: Data, pr_id: str) -> str:
        record(data, "pull_requests", pr_id, "pull request")
        return _dump([r for r in data["reviews"].values() if r["pr_id"] == pr_id])


class GetIssue(Tool):
    name = "get_issue"
    description = "An issue: repository, title, reporter, assignee, status and resolution."
    parameters = schema(issue_id=STRING)

    @staticmethod
    def invoke(data: Data, issue_id: str) -> str:
        return _dump(record(data, "issues", issue_id, "issue"))


class ListIssues(Tool):
    name = "list_issues"
    description = "List the issues assigned to a developer, open and closed."
    parameters = schema(developer_id=STRING)

    @staticmethod
    def invoke(data: Data, developer_id: str) -> str:
        record(data, "developers", developer_id, "developer")
        return _dump([i for i in data["issues"].values() if i["assignee_id"] == developer_id])


READ_TOOLS: tuple[type[Tool], ...] = (
    FindDeveloper,
    VerifyDeveloper,
    FindRepository,
    ListBranches,
    ListFiles,
    ReadFile,
    CompareBranch,
    GetCiRuns,
    RunTests,
    GetPullRequest,
    ListPullRequests,
    ListReviews,
    GetIssue,
    ListIssues,
)
