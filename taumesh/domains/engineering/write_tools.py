"""The desk's write tools: edit a branch's files, open, review and merge pull requests, triage issues, re-run CI.

The tools check what a record makes impossible (a protected branch's files, a wrong confirmation code, a closed
issue); whether the person asking may have the change is the policy's to decide, as at a real desk.
"""

from __future__ import annotations

import json
from typing import Any

from taumesh.domains import Data, Refusal, Tool
from taumesh.domains.engineering.lookup import STRING, branch_files, latest_run, record, schema

RESOLUTIONS = ("fixed", "duplicate", "wont_fix")


def _tag(record_id: str) -> str:
    return record_id.split("-")[1]


def _next_id(data: Data, table: str, kind: str, tag: str, width: int = 2) -> str:
    taken = sum(1 for key in data[table] if _tag(key) == tag)
    return f"{kind}-{tag}-{taken + 1:0{width}d}"


def _writable_branch(data: Data, branch_id: str) -> dict[str, Any]:
    branch = record(data, "branches", branch_id, "branch")
    if branch["protected"]:
        raise Refusal(f"branch {branch['name']} is protected: changes reach it only through a pull request")
    return branch


def _confirmed(data: Data, developer_id: str, confirmation_code: str) -> None:
    record(data, "developers", developer_id, "developer")
    if data["authenticators"][developer_id]["code"] != str(confirmation_code).strip():
        raise Refusal("the confirmation code does not match the developer's authenticator")


class ReplaceInFile(Tool):
    name = "replace_in_file"
    writes = True
    description = (
        "Edit a file of an unprotected branch: replace the one occurrence of `find` with `replace` "
        "(`find` must occur exactly once)."
    )
    parameters = schema(branch_id=STRING, path=STRING, find=STRING, replace=STRING)

    @staticmethod
    def invoke(data: Data, branch_id: str, path: str, find: str, replace: str) -> str:
        _writable_branch(data, branch_id)
        found = branch_files(data, branch_id).get(path)
        if found is None:
            raise Refusal(f"branch {branch_id} has no file {path}")
        count = found["content"].count(find) if find else 0
        if count != 1:
            raise Refusal(f"`find` occurs {count} times in {path}; it must occur exactly once")
        data["files"][found["file_id"]]["content"] = found["content"].replace(find, replace, 1)
        return f"edited {path} on {branch_id}"


class WriteFile(Tool):
    name = "write_file"
    writes = True
    description = "Write a file of an unprotected branch in full (it is created if the branch lacks it)."
    parameters = schema(branch_id=STRING, path=STRING, content=STRING)

    @staticmethod
    def invoke(data: Data, branch_id: str, path: str, content: str) -> str:
        _writable_branch(data, branch_id)
        clean = path.strip().lstrip("/")
        if not clean or ".." in clean.split("/"):
            raise Refusal(f"{path} is not a path inside the repository")
        found = branch_files(data, branch_id).get(clean)
        if found is not None:
            data["files"][found["file_id"]]["content"] = content
            return f"wrote {clean} on {branch_id}"
        file_id = _next_id(data, "files", "file", _tag(branch_id), width=3)
        data["files"][file_id] = {"file_id": file_id, "branch_id": branch_id, "path": clean, "content": content}
        return f"created {clean} on {branch_id}"


class OpenPullRequest(Tool):
    name = "open_pull_request"
    writes = True
    description = (
        "Open a pull request from a branch into its repository's default branch; its title is the branch's name."
    )
    parameters = schema(branch_id=STRING)

    @staticmethod
    def invoke(data: Data, branch_id: str) -> str:
        branch = _writable_branch(data, branch_id)
        if any(p["branch_id"] == branch_id and p["status"] == "open" for p in data["pull_requests"].values()):
            raise Refusal(f"branch {branch['name']} already has an open pull request")
        pr_id = _next_id(data, "pull_requests", "pr", _tag(branch_id))
        data["pull_requests"][pr_id] = {
            "pr_id": pr_id,
            "repository_id": branch["repository_id"],
            "branch_id": branch_id,
            "author_id": branch["author_id"],
            "title": branch["name"],
            "issue_id": None,
            "status": "open",
            "merged_by": None,
        }
        return json.dumps(data["pull_requests"][pr_id], sort_keys=True)


class RequestReview(Tool):
    name = "request_review"
    writes = True
    description = "Ask a developer to review an open pull request."
    parameters = schema(pr_id=STRING, reviewer_id=STRING)

    @staticmethod
    def invoke(data: Data, pr_id: str, reviewer_id: str) -> str:
        pull = record(data, "pull_requests", pr_id, "pull request")
        record(data, "developers", reviewer_id, "developer")
        if pull["status"] != "open":
            raise Refusal(f"pull request {pr_id} is {pull['status']}")
        if any(r["pr_id"] == pr_id and r["reviewer_id"] == reviewer_id for r in data["reviews"].values()):
            raise Refusal(f"{reviewer_id} is already a reviewer of {pr_id}")
        review_id = _next_id(data, "reviews", "rev", _tag(pr_id))
        data["reviews"][review_id] = {
            "review_id": review_id,
            "pr_id": pr_id,
            "reviewer_id": reviewer_id,
            "state": "requested",
        }
        return f"review {review_id} requested"


class MergePullRequest(Tool):
    name = "merge_pull_request"
    writes = True
    description = "Merge an open pull request, confirmed by the merging developer's authenticator code (six digits)."
    parameters = schema(pr_id=STRING, developer_id=STRING, confirmation_code=STRING)

    @staticmethod
    def invoke(data: Data, pr_id: str, developer_id: str, confirmation_code: str) -> str:
        pull = record(data, "pull_requests", pr_id, "pull request")
        if pull["status"] != "open":
            raise Refusal(f"pull request {pr_id} is {pull['status']}")
        _confirmed(data, developer_id, confirmation_code)
        row = data["pull_requests"][pr_id]
        row["status"] = "merged"
        row["merged_by"] = developer_id
        return f"merged {pr_id}"


class CloseIssue(Tool):
    name = "close_issue"
    writes = True
    description = "Close an open issue with a resolution: fixed, duplicate or wont_fix."
    parameters = schema(issue_id=STRING, resolution={"type": "string", "enum": list(RESOLUTIONS)})

    @staticmethod
    def invoke(data: Data, issue_id: str, resolution: str) -> str:
        issue = record(data, "issues", issue_id, "issue")
        if issue["status"] != "open":
            raise Refusal(f"issue {issue_id} is already closed")
        if resolution not in RESOLUTIONS:
            raise Refusal(f"resolution must be one of {', '.join(RESOLUTIONS)}")
        row = data["issues"][issue_id]
        row["status"], row["resolution"] = "closed", resolution
        return f"closed {issue_id} as {resolution}"


class AssignIssue(Tool):
    name = "assign_issue"
    writes = True
    description = "Assign an open issue to a developer."
    parameters = schema(issue_id=STRING, developer_id=STRING)

    @staticmethod
    def invoke(data: Data, issue_id: str, developer_id: str) -> str:
        issue = record(data, "issues", issue_id, "issue")
        record(data, "developers", developer_id, "developer")
        if issue["status"] != "open":
            raise Refusal(f"issue {issue_id} is closed")
        data["issues"][issue_id]["assignee_id"] = developer_id
        return f"assigned {issue_id} to {developer_id}"


class RerunCi(Tool):
    name = "rerun_ci"
    writes = True
    description = "Queue a new CI run of the branch of a run (the branch's latest run only)."
    parameters = schema(run_id=STRING)

    @staticmethod
    def invoke(data: Data, run_id: str) -> str:
        run = record(data, "ci_runs", run_id, "CI run")
        latest = latest_run(data, run["branch_id"])
        if latest is None or latest["run_id"] != run_id:
            raise Refusal(f"{run_id} is not the branch's latest run")
        new_id = _next_id(data, "ci_runs", "run", _tag(run_id))
        data["ci_runs"][new_id] = {
            "run_id": new_id,
            "branch_id": run["branch_id"],
            "number": run["number"] + 1,
            "status": "queued",
            "failure_kind": None,
            "failing_test": None,
            "log_tail": "",
        }
        return f"queued {new_id}"


class SetRequiredApprovals(Tool):
    name = "set_required_approvals"
    writes = True
    description = (
        "Change how many approvals a repository's pull requests need, confirmed by the requesting developer's "
        "authenticator code."
    )
    parameters = schema(repository_id=STRING, developer_id=STRING, count={"type": "integer"}, confirmation_code=STRING)

    @staticmethod
    def invoke(data: Data, repository_id: str, developer_id: str, count: int, confirmation_code: str) -> str:
        record(data, "repositories", repository_id, "repository")
        if not 1 <= count <= 3:
            raise Refusal("a repository needs from 1 to 3 approvals")
        _confirmed(data, developer_id, confirmation_code)
        data["repositories"][repository_id]["required_approvals"] = count
        return f"{repository_id} now needs {count} approval(s)"


class TransferToHumanAgents(Tool):
    name = "transfer_to_human_agents"
    description = "Hand the conversation to a human engineer of the desk, with a summary of the request."
    parameters = schema(summary=STRING)

    @staticmethod
    def invoke(data: Data, summary: str) -> str:
        return "Transfer successful"


WRITE_TOOLS: tuple[type[Tool], ...] = (
    ReplaceInFile,
    WriteFile,
    OpenPullRequest,
    RequestReview,
    MergePullRequest,
    CloseIssue,
    AssignIssue,
    RerunCi,
    SetRequiredApprovals,
    TransferToHumanAgents,
)
