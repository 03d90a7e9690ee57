"""The mock domain's tools, behaving as τ²'s ``MockTools`` (their descriptions come from the fetched texts)."""

from __future__ import annotations

from taumesh.domains import Tool
from taumesh.domains.tau2 import ModelDump, dump_json, to_json_str
from taumesh.domains.tau2._common_tools import Transfer
from taumesh.domains.tau2._toolkit import read, read_function, write
from taumesh.domains.tau2_mock.models import Task, TaskStatus


class MockTools(Transfer):
    """τ²'s ``MockTools``: users and their to-do tasks."""

    @write
    def create_task(
        self,
        user_id: str,
        title: str,
        description: str = None,  # type: ignore[assignment]  # noqa: RUF013 - τ²'s annotation, shown in the schema
    ) -> str:
        data = self.data
        if user_id not in data["users"]:
            raise ValueError(f"User {user_id} not found")
        task_id = f"task_{len(data['tasks']) + 1}"
        fields = {"task_id": task_id, "title": title, "description": description, "status": "pending"}
        task = Task.model_validate(fields)
        record = dump_json(task)
        data["tasks"][task_id] = record
        data["users"][user_id]["tasks"].append(task_id)
        return to_json_str(ModelDump(record))

    @read
    def get_users(self) -> str:
        data = self.data
        return to_json_str([ModelDump(user) for user in data["users"].values()])

    @write
    def update_task_status(self, task_id: str, status: TaskStatus) -> str:
        data = self.data
        if task_id not in data["tasks"]:
            raise ValueError(f"Task {task_id} not found")
        task = data["tasks"][task_id]
        task["status"] = status
        return to_json_str(ModelDump(task))

    @read_function
    def assert_number_of_tasks(self, user_id: str, expected_number: int) -> bool:
        data = self.data
        if user_id not in data["users"]:
            raise ValueError(f"User {user_id} not found")
        return len(data["users"][user_id]["tasks"]) == expected_number

    @read_function
    def assert_task_status(self, task_id: str, expected_status: TaskStatus) -> bool:
        data = self.data
        if task_id not in data["tasks"]:
            raise ValueError(f"Task {task_id} not found")
        return bool(data["tasks"][task_id]["status"] == expected_status)


TOOLS: tuple[type[Tool], ...] = MockTools.tools()
ENV_FUNCTIONS: tuple[type[Tool], ...] = MockTools.functions()
