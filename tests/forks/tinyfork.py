"""Tiny τ-bench-shaped forks, written by the tests: a ``tau_bench`` package with its own base code and envs.

The base code follows τ-bench v1's documented behaviour (an ``Env`` whose ``step`` turns a tool's exception into
``Error: <message>``, answers ``Unknown action <name>`` and hashes its data as a sorted tuple); it is written
here, not copied. The ``counter`` env has tools that raise, sleep, leak and call ``os._exit``.
"""

from __future__ import annotations

import json
import textwrap
from pathlib import Path
from typing import Any

TYPES = """
from typing import Any, Dict, List
from pydantic import BaseModel

RESPOND_ACTION_NAME = "respond"

class Action(BaseModel):
    name: str
    kwargs: Dict[str, Any]

class Task(BaseModel):
    user_id: str
    actions: List[Action]
    instruction: str
    outputs: List[str]

class EnvResponse(BaseModel):
    observation: str
    reward: float
    done: bool
"""

BASE = """
import hashlib
from tau_bench.types import Action, EnvResponse, RESPOND_ACTION_NAME
from tau_bench.envs.user import load_user


def to_hashable(item):
    if isinstance(item, dict):
        return tuple((key, to_hashable(value)) for key, value in sorted(item.items()))
    if isinstance(item, list):
        return tuple(to_hashable(element) for element in item)
    return item


class Env:
    def __init__(self, data_load_func, tools, tasks, wiki, rules, user_strategy, user_model, task_index=None):
        self.data_load_func = data_load_func
        self.data = data_load_func()
        self.tools_map = {tool.get_info()["function"]["name"]: tool for tool in tools}
        self.tools_info = [tool.get_info() for tool in tools]
        self.terminate_tools = []
        self.tasks = tasks
        self.task = tasks[task_index or 0]
        self.wiki = wiki
        self.rules = rules
        self.user = load_user(user_strategy)
        self.actions = []

    def step(self, action):
        self.actions.append(action)
        done = False
        if action.name == RESPOND_ACTION_NAME:
            raise RuntimeError("no user here")
        if action.name in self.tools_map:
            try:
                observation = self.tools_map[action.name].invoke(data=self.data, **action.kwargs)
            except Exception as e:
                observation = "Error: " + str(e)
            done = action.name in self.terminate_tools
        else:
            observation = "Unknown action " + action.name
        return EnvResponse(observation=observation, reward=0.0, done=done)

    def get_data_hash(self):
        return hashlib.sha256(str(to_hashable(self.data)).encode("utf-8")).hexdigest()
"""

TOOL = """
class Tool:
    @staticmethod
    def invoke(*args, **kwargs):
        raise NotImplementedError

    @staticmethod
    def get_info():
        raise NotImplementedError
"""

USER = """
def load_user(user_strategy, **kwargs):
    if user_strategy != "human":
        raise ValueError("this fork only has a human user")
    return object()
"""

ENV_TEMPLATE = """
import json
import os
from tau_bench.envs.base import Env
from tau_bench.envs.{env}.tools import ALL_TOOLS
from tau_bench.types import Task

HERE = os.path.dirname(__file__)


def load_data():
    with open(os.path.join(HERE, "data.json")) as f:
        return json.load(f)


class {cls}(Env):
    def __init__(
        self, user_strategy="llm", user_model="gpt-4o", user_provider=None, task_split="test", task_index=None
    ):
        match task_split:
            case "test":
                with open(os.path.join(HERE, "tasks_test.json")) as f:
                    tasks = [Task(**t) for t in json.load(f)]
            case _:
                raise ValueError("Unknown task split: " + task_split)
        with open(os.path.join(HERE, "wiki.md")) as f:
            wiki = f.read()
        super().__init__(load_data, ALL_TOOLS, tasks, wiki, ["be nice"], user_strategy, user_model, task_index)
        self.terminate_tools = ["transfer_to_human_agents"]
"""


def _tool(cls: str, name: str, params: dict[str, str], body: str) -> str:
    args = "".join(f", {p}" for p in params)
    properties = {p: {"type": t} for p, t in params.items()}
    info = {
        "type": "function",
        "function": {
            "name": name,
            "description": f"The {name} tool.",
            "parameters": {"type": "object", "properties": properties, "required": list(params)},
        },
    }
    return (
        f"class {cls}(Tool):\n"
        f"    @staticmethod\n    def invoke(data{args}):\n{textwrap.indent(textwrap.dedent(body), ' ' * 8)}\n"
        f"    @staticmethod\n    def get_info():\n        return {info!r}\n\n"
    )


COUNTER_TOOLS = [
    (
        "GetCounter",
        "get_counter",
        {"counter_id": "string"},
        """
        if counter_id not in data["counters"]:
            raise ValueError("counter not found")
        return json.dumps(data["counters"][counter_id])
    """,
    ),
    (
        "Increment",
        "increment",
        {"counter_id": "string", "amount": "integer"},
        """
        counter = data["counters"].get(counter_id)
        if counter is None:
            return "Error: counter not found"
        counter["value"] += amount
        return json.dumps(counter)
    """,
    ),
    (
        "Boom",
        "boom",
        {},
        """
        raise ValueError("the boom tool always raises")
    """,
    ),
    (
        "Sleepy",
        "sleepy",
        {},
        """
        time.sleep(3600)
        return "woke up"
    """,
    ),
    (
        "Die",
        "die",
        {},
        """
        os._exit(3)
    """,
    ),
    (
        "Leak",
        "leak",
        {},
        """
        LEAKED.append(bytearray(50 * 1024 * 1024))
        return "leaked " + str(len(LEAKED))
    """,
    ),
    (
        "Transfer",
        "transfer_to_human_agents",
        {"summary": "string"},
        """
        return "Transfer successful"
    """,
    ),
]

COUNTER_TASKS = [
    {
        "user_id": "u1",
        "instruction": "Raise counter a by 2.",
        "outputs": [],
        "actions": [{"name": "increment", "kwargs": {"counter_id": "a", "amount": 2}}],
    },
    {
        "user_id": "u2",
        "instruction": "Tell me counter b's value.",
        "outputs": ["7"],
        "actions": [{"name": "get_counter", "kwargs": {"counter_id": "b"}}],
    },
    {
        "user_id": "u3",
        "instruction": "Raise counter b by 1, then talk to a human.",
        "outputs": [],
        "actions": [
            {"name": "increment", "kwargs": {"counter_id": "b", "amount": 1}},
            {"name": "transfer_to_human_agents", "kwargs": {"summary": "done"}},
        ],
    },
    {
        "user_id": "u4",
        "instruction": "Look at counter zz.",
        "outputs": [],
        "actions": [{"name": "get_counter", "kwargs": {"counter_id": "zz"}}],
    },
    *(
        {
            "user_id": f"u{index}",
            "instruction": f"Raise counter a, then use {tool}.",
            "outputs": [],
            "actions": [
                {"name": "increment", "kwargs": {"counter_id": "a", "amount": 1}},
                {"name": tool, "kwargs": {}},
            ],
        }
        for index, tool in ((5, "boom"), (6, "sleepy"), (7, "die"))
    ),
]
RAISES, HANGS, EXITS = "4", "5", "6"
"""The counter tasks whose gold actions end with the raising, sleeping and exiting tools."""

COPIED_TASKS = [
    {
        "user_id": "u1",
        "instruction": "Use book_reservation to fly me to Paris.",
        "outputs": [],
        "actions": [{"name": "book_reservation", "kwargs": {"to": "CDG"}}],
    },
    {
        "user_id": "u2",
        "instruction": "Please call transfer_to_human_agents for me.",
        "outputs": [],
        "actions": [{"name": "get_counter", "kwargs": {"counter_id": "a"}}],
    },
]


def _data(records: int) -> dict[str, Any]:
    counters: dict[str, Any] = {"a": {"value": 1}, "b": {"value": 7}}
    for index in range(records):  # filler records of about 1 KB, for measuring what a session costs
        counters[f"filler_{index}"] = {"value": index, "notes": [f"note {index}-{n}" for n in range(40)], "ok": True}
    return {"counters": counters}


def _env(
    envs: Path,
    env: str,
    cls: str,
    tools: list[tuple[str, str, dict[str, str], str]],
    tasks: list[dict[str, Any]],
    records: int = 0,
) -> None:
    folder = envs / env
    (folder / "tools").mkdir(parents=True)
    (folder / "__init__.py").write_text(f"from tau_bench.envs.{env}.env import {cls} as {cls}\n")
    (folder / "env.py").write_text(ENV_TEMPLATE.format(env=env, cls=cls))
    header = "import json\nimport os\nimport time\nfrom tau_bench.envs.tool import Tool\n\nLEAKED = []\n\n"
    body = "".join(_tool(c, n, p, b) for c, n, p, b in tools)
    names = ", ".join(c for c, _, _, _ in tools)
    (folder / "tools" / "__init__.py").write_text(header + body + f"ALL_TOOLS = [{names}]\n")
    (folder / "data.json").write_text(json.dumps(_data(records)))
    (folder / "tasks_test.json").write_text(json.dumps(tasks))
    (folder / "wiki.md").write_text(f"# The {env} policy\nBe exact.\n")


def write_fork(path: Path, records: int = 0) -> Path:
    """A fork at ``path``: ``counter`` and ``copycat`` load, ``broken`` raises on import, ``my-env`` is no package."""
    package = path / "tau_bench"
    envs = package / "envs"
    envs.mkdir(parents=True)
    (package / "__init__.py").write_text("")
    (package / "types.py").write_text(TYPES)
    (envs / "__init__.py").write_text("")
    (envs / "base.py").write_text(BASE)
    (envs / "tool.py").write_text(TOOL)
    (envs / "user.py").write_text(USER)
    _env(envs, "counter", "CounterEnv", COUNTER_TOOLS, COUNTER_TASKS, records)
    _env(envs, "copycat", "CopycatEnv", COUNTER_TOOLS[:2], COPIED_TASKS)
    _env(envs, "clinic", "ClinicEnv", COUNTER_TOOLS[:1], COPIED_TASKS)  # then broken as big-tau's healthcare is:
    (envs / "clinic" / "tasks_test.py").write_text(
        "from tau_bench.types import Task\n\nTASKS = [Task(**t) for t in " + repr(COPIED_TASKS) + "]\n"
    )
    env_py = (envs / "clinic" / "env.py").read_text()
    loading = 'with open(os.path.join(HERE, "tasks_test.json")) as f:'
    env_py = env_py.replace(
        loading, "from tau_bench.envs.clinic.tasks_test import TASKS_TEST as tasks\n                if 0:"
    )
    (envs / "clinic" / "env.py").write_text(env_py)
    (envs / "broken").mkdir()
    (envs / "broken" / "__init__.py").write_text("raise ImportError('this environment is broken on purpose')\n")
    (envs / "my-env").mkdir()
    (envs / "my-env" / "wiki.md").write_text("nothing here")
    return path
