"""The mock domain's database: users and their to-do tasks."""

from __future__ import annotations

from typing import Literal

from taumesh.domains.tau2._models import Database, Record

TaskStatus = Literal["pending", "completed"]


class Task(Record):
    task_id: str
    title: str
    description: str | None = None
    status: TaskStatus


class User(Record):
    user_id: str
    name: str
    tasks: list[str]


class MockDB(Database):
    tasks: dict[str, Task]
    users: dict[str, User]
