"""The mock domain's tools, behaving as τ²'s ``MockTools`` (their schemas come from τ²'s sources)."""

from __future__ import annotations

from typing import Any

from taumesh.domains._tool import Data, Tool
from taumesh.domains.tau2 import ModelDump, dump_json, record_model, tau2_tool, to_json_str
from taumesh.domains.tau2._common_tools import transfer_tool

_TOOLKIT = "MockTools"


@tau2_tool(_TOOLKIT)
class CreateTask(Tool):
    name = "create_task"
    writes = True

    @staticmethod
    def invoke(data: Data, user_id: str, title: str, description: str | None = None) -> str:
        if user_id not in data["users"]:
            raise ValueError(f"User {user_id} not found")
        task_id = f"task_{len(data['tasks']) + 1}"
        task = record_model("mock", "Task").model_validate(
            {"task_id": task_id, "title": title, "description": description, "status": "pending"}
        )
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
    def invoke(data: Data, task_id: str, status: Any) -> str:
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
    def invoke(data: Data, task_id: str, expected_status: Any) -> bool:
        if task_id not in data["tasks"]:
            raise ValueError(f"Task {task_id} not found")
        return bool(data["tasks"][task_id]["status"] == expected_status)


TransferToHumanAgents = transfer_tool(_TOOLKIT)

TOOLS: tuple[type[Tool], ...] = (CreateTask, GetUsers, UpdateTaskStatus, TransferToHumanAgents)
ENV_FUNCTIONS: tuple[type[Tool], ...] = (AssertNumberOfTasks, AssertTaskStatus)
