"""``banking_knowledge``'s tasks: ``tasks/task_*.json`` in sorted order (the stale ``tasks.json`` is not read).

Beyond τ²'s fields a task names the documents its answer needs (``required_documents``: ids or titles, used by
``golden_retrieval``) and the user tools it allows (``user_tools``). Its reward's DB check depends on the
read-log allowlist: the discoverable agent tools its gold actions call (v1.0.1's grading). Like τ²'s, a task
gets the v1 fields (the user's instruction rendered from its scenario, the gold actions, the required outputs).
"""

from __future__ import annotations

import json
from pathlib import Path

from pydantic import ValidationError

from taumesh.domains import DataError, describe_validation_error
from taumesh.domains.tau2 import Tau2Task

TASKS_DIR = "tasks"
CALL_DISCOVERABLE = "call_discoverable_agent_tool"


class BankingTask(Tau2Task):
    """A τ² task plus the documents it needs and the user tools it allows."""

    required_documents: list[str] | None = None
    user_tools: list[str] | None = None

    def read_log_allowlist(self) -> frozenset[str]:
        """The discoverable agent tools the gold actions call: their reads are logged in the database (v1.0.1)."""
        criteria = self.evaluation_criteria
        actions = criteria.actions if criteria is not None and criteria.actions else []
        names = (action.arguments.get("agent_tool_name") for action in actions if action.name == CALL_DISCOVERABLE)
        return frozenset(name for name in names if isinstance(name, str))


def load_tasks(domain_dir: Path) -> list[BankingTask]:
    """Every ``tasks/task_*.json`` of the domain folder, in sorted file-name order; DataError naming a bad file."""
    folder = domain_dir / TASKS_DIR
    if not folder.is_dir():
        raise DataError(f"{folder} not found: banking_knowledge reads its tasks from tasks/, one file each")
    tasks = []
    for path in sorted(folder.glob("task_*.json"), key=lambda found: found.name):
        try:
            task = BankingTask.from_record(json.loads(path.read_text(encoding="utf-8")))
            tasks.append(task if isinstance(task, BankingTask) else BankingTask.model_validate(task.model_dump()))
        except json.JSONDecodeError as exc:
            raise DataError(f"{path} is not JSON: {exc}") from exc
        except ValidationError as exc:
            raise DataError(describe_validation_error(exc, str(path))) from exc
    return tasks
