"""The mock domain's tools, behaving as τ²'s ``MockTools`` (their descriptions come from the fetched texts)."""

from __future__ import annotations

from taumesh.domains import Data, Tool
from taumesh.domains.tau2 import ModelDump, dump_json, tau2_tool, to_json_str
from taumesh.domains.tau2._common_tools import transfer_tool
from taumesh.domains.tau2_mock.models import Task, TaskStatus

_TOOLKIT = "MockTools"


@tau2_tool(_TOOLKIT)
class CreateTask(Tool):
    name = "create_task"
    writes = True

    @staticmethod
    def invoke(
        data: Data,
        user_id: str,
        title: str,
        description: str = None,  # type: ignore[assignment]  # noqa: RUF013 - τ²'s annotation, shown in the schema
    ) -> str:
        if user_id not in data["users"]:
            raise ValueError(f"User {user_id} not found")
        task_id = f"task_{len(data['tasks']) + 1}"
        fields = {"task_id": task_id, "title": title, "description": description, "status": "pending"}
        task = Task.model_validate(fields)
        record = dump_json(task)
        data["tasks"][task_id] = record
        data["users"][user_id]["tasks"].append(task_id)
        return to_json_str(ModelDump(record))


@tau2_tool(_TOOLKIT)
class GetUsers(Tool):
    name = "get_users"

    @staticmethod
    def invoke(data: Data) -> str:
        return to_json_str([ModelDump(user) for user in data["users"].values()])


@tau2_tool(_TOOLKIT)
class UpdateTaskStatus(Tool):
    name = "update_task_status"
    writes = True

    @staticmethod
    def invoke(data: Data, task_id: str, status: TaskStatus) -> str:
        if task_id not in data["tasks"]:
            raise ValueError(f"Task {task_id} not found")
        task = data["tasks"][task_id]
        task["status"] = status
        return to_json_str(ModelDump(task))


@tau2_tool(_TOOLKIT)
class AssertNumberOfTasks(Tool):
    name = "assert_number_of_tasks"

    @staticmethod
    def invoke(data: Data, user_id: str, expected_number: int) -> bool:
        if user_id not in data["users"]:
            raise ValueError(f"User {user_id} not found")
        return len(data["users"][user_id]["tasks"]) == expected_number


@tau2_tool(_TOOLKIT)
class AssertTaskStatus(Tool):
    name = "assert_task_status"

    @staticmethod
    def invoke(data: Data, task_id: str, expected_status: TaskStatus) -> bool:
        if task_id not in data["tasks"]:
            raise ValueError(f"Task {task_id} not found")
        return bool(data["tasks"][task_id]["status"] == expected_status)


TransferToHumanAgents = transfer_tool(_TOOLKIT)

TOOLS: tuple[type[Tool], ...] = (CreateTask, GetUsers, UpdateTaskStatus, TransferToHumanAgents)
ENV_FUNCTIONS: tuple[type[Tool], ...] = (AssertNumberOfTasks, AssertTaskStatus)
