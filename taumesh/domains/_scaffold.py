"""``taumesh domain new``: write a working domain package built on the domain factory (``taumesh.domains.factory``).

The skeleton is a complete, valid domain: seeded worlds with invariants, a numbered policy, a reference solver per
intent listing every allowed outcome, statements checked by predicate, a build that writes its data, and a test that
runs without pytest installed (plain functions; ``python -m <name>.test_<name>`` runs them too). Its one example
intent lives in ``tasks.py`` and ``world.py``: replace those two files' example parts to start your own.
"""

from __future__ import annotations

import importlib.util
import keyword
import os
import subprocess
import sys
from pathlib import Path

_INIT = '''"""The {name} domain: counters a verified user asks the agent to increase (built with the domain factory).

``python -m {name}.build`` writes ``data/`` from ``world.py``, ``policy.py`` and ``tasks.py`` (``--check``: exit 1 when
it is stale). The example is the counters: replace ``models.py``, ``tools.py``, ``world.py``'s builder and
``tasks.py``'s solvers with your own (docs/adding-a-domain.md, "The domain factory").
"""

from __future__ import annotations

from pathlib import Path

from taumesh.domains.factory import FactoryPlugin, FactoryTask

from .models import {title}Database
from .tools import TOOLS

plugin = FactoryPlugin(
    name="{name}",
    tools=TOOLS,
    database={title}Database,
    splits=("train", "test"),
    terminate_tools=frozenset(),
    own_data=Path(__file__).resolve().parent / "data",
    task_model=FactoryTask,
    identity_tools=frozenset({{"verify_user"}}),
    release="{name}-1",
)
"""What the registry loads: found in ``TAUMESH_DOMAIN_PATH`` (``./domains`` by default), or an entry point."""
'''

_MODELS = '''"""The {name} database: one pydantic model per record, one field per table (``data/<table>.json``)."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict


class User(BaseModel):
    model_config = ConfigDict(extra="forbid")

    user_id: str
    name: str
    pin: str


class Counter(BaseModel):
    model_config = ConfigDict(extra="forbid")

    counter_id: str
    owner: str
    label: str
    value: int
    locked: bool


class Verification(BaseModel):
    model_config = ConfigDict(extra="forbid")

    user_id: str
    verified: bool


class {title}Database(BaseModel):
    """Every table, by record id; validates the files when the domain loads."""

    users: dict[str, User]
    counters: dict[str, Counter]
    verifications: dict[str, Verification]
'''

_TOOLS = '''"""The {name} tools: one class each, tagged read (the default) or write (``writes = True``)."""

from __future__ import annotations

import json
from typing import Any

from taumesh.domains import Data, Refusal, Tool


def _object(**properties: dict[str, Any]) -> dict[str, Any]:
    return {{"type": "object", "properties": properties, "required": list(properties), "additionalProperties": False}}


class VerifyUser(Tool):
    """Checks the user's PIN; a write, since the verification is recorded (policy 1.1)."""

    name = "verify_user"
    writes = True
    description = "Verify the caller by their user id and PIN."
    parameters = _object(user_id={{"type": "string"}}, pin={{"type": "string"}})

    @staticmethod
    def invoke(data: Data, user_id: str, pin: str) -> str:
        user = data["users"].get(user_id)
        if user is None or user["pin"] != pin:
            raise Refusal("user could not be verified")
        data["verifications"][user_id] = {{"user_id": user_id, "verified": True}}
        return "verified"


class FindUser(Tool):
    name = "find_user"
    description = "Find a user's id by their full name."
    parameters = _object(name={{"type": "string"}})

    @staticmethod
    def invoke(data: Data, name: str) -> str:
        for user in data["users"].values():
            if user["name"].lower() == name.strip().lower():
                return str(user["user_id"])
        raise Refusal("user not found")


class GetCounters(Tool):
    name = "get_counters"
    description = "List a user's counters: id, label, value, and whether it is locked."
    parameters = _object(user_id={{"type": "string"}})

    @staticmethod
    def invoke(data: Data, user_id: str) -> str:
        return json.dumps([c for c in data["counters"].values() if c["owner"] == user_id])


class IncrementCounter(Tool):
    """Adds ``amount`` to a counter. The policy, not the tool, forbids changing a locked one (as in τ-bench)."""

    name = "increment_counter"
    writes = True
    description = "Increase a counter by a positive amount and return it."
    parameters = _object(counter_id={{"type": "string"}}, amount={{"type": "integer"}})

    @staticmethod
    def invoke(data: Data, counter_id: str, amount: int) -> str:
        counter = data["counters"].get(counter_id)
        if counter is None:
            raise Refusal("counter not found")
        if amount < 1:
            raise Refusal("amount must be at least 1")
        counter["value"] += amount
        return json.dumps(counter)


TOOLS: tuple[type[Tool], ...] = (VerifyUser, FindUser, GetCounters, IncrementCounter)
'''

_WORLD = '''"""The {name} worlds: one per seed, every id tagged with its world, invariants checked as each is built."""

from __future__ import annotations

import random

from taumesh.domains.factory import SeededWorld, World, build_worlds, per_record, within

SEEDS = {{"w1": 1001, "w2": 1002, "w3": 1003}}
"""World 3's tasks are the test split; worlds 1 and 2's the train split (they share no entity)."""
TEST_WORLDS = frozenset({{"w3"}})
NAMES = ["Ada Park", "Ben Ortiz", "Cleo Hart", "Dev Rao", "Eva Lund", "Finn Gray"]
LABELS = ["visits", "signups", "downloads", "refunds"]

INVARIANTS = (
    per_record("counters", "values are counts", lambda c: within(c["value"], 0, 10_000, "value")),
    per_record("counters", "every counter has an owner", lambda c: None if c["owner"].startswith("u-") else "no owner"),
)


def build_world(seed: int, tag: str) -> World:
    """The example world: a few users, each with two counters, some locked. Replace with your own tables."""
    rng = random.Random(seed)
    users, counters = {{}}, {{}}
    for number, name in enumerate(rng.sample(NAMES, 4), 1):
        user_id = f"u-{{tag}}-{{number}}"
        users[user_id] = {{"user_id": user_id, "name": name, "pin": f"{{rng.randint(1000, 9999)}}"}}
        for label in rng.sample(LABELS, 2):
            counter_id = f"c-{{tag}}-{{number}}-{{label}}"
            counters[counter_id] = {{
                "counter_id": counter_id,
                "owner": user_id,
                "label": label,
                "value": rng.randint(0, 500),
                "locked": rng.random() < 0.4,
            }}
    return {{"users": users, "counters": counters, "verifications": {{}}}}


def worlds() -> list[SeededWorld]:
    return build_worlds(build_world, SEEDS, INVARIANTS)
'''

_POLICY = '''"""The {name} policy: numbered clauses the tasks cite (``clauses``) and the coverage report counts."""

from __future__ import annotations

from taumesh.domains.factory import Policy

POLICY = Policy.build(
    "{name} agent policy",
    "You help users with their counters, one user per conversation.",
    [
        ("Identity", ["Find the user by full name and verify them with their PIN before anything else."]),
        (
            "Counters",
            [
                "Before you change a counter, state the counter and the amount and get an explicit yes.",
                "A locked counter cannot be changed: do not change it, and tell the user it is locked.",
            ],
        ),
    ],
)
'''

_TASKS = '''"""The {name} reference solvers: per intent, every outcome the policy allows, from a world and a user.

The example intent is ``increase_counter``. To add an intent, write a solver returning a :class:`Draft` (or None when
the user's record does not fit it) and list it in :data:`SOLVERS`; delete the example's to start your own.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from taumesh.domains import Action
from taumesh.domains.factory import FactoryTask, Statement, Step, World

TEMPLATE = (
    "You are {{name}}; your PIN is {{pin}}. You want your {{label}} counter increased by {{amount}}."
    " If it cannot be changed, you want to know why."
)
"""One instruction for trap and non-trap tasks alike: no sentence tells the user a trap is there."""


def act(tool: str, **kwargs: Any) -> Action:
    """A gold action of the agent's."""
    return Action(name=tool, kwargs=kwargs)


@dataclass
class Draft:
    user: dict[str, Any]
    intent: str
    instruction: str
    steps: list[Step] = field(default_factory=list)
    statements: list[Statement] = field(default_factory=list)
    clauses: list[str] = field(default_factory=list)
    forbidden: list[Action] = field(default_factory=list)
    trap_rationale: str | None = None

    def task(self, task_id: str) -> FactoryTask:
        return FactoryTask(
            id=task_id,
            user_id=self.user["user_id"],
            instruction=self.instruction,
            actions=[a for step in self.steps for a in step.alternatives[0]],
            intent=self.intent,
            tier="medium" if self.trap_rationale else "easy",
            trap=self.trap_rationale is not None,
            trap_rationale=self.trap_rationale,
            clauses=self.clauses,
            forbidden=self.forbidden,
            steps=self.steps,
            statements=self.statements,
            solver=self.intent,
        )


def increase_counter(world: World, user: dict[str, Any], rng: random.Random) -> Draft | None:
    """Increase one of the user's counters; a locked one is a trap: nothing changes and the user is told why."""
    counters = sorted(
        (c for c in world["counters"].values() if c["owner"] == user["user_id"]), key=lambda c: c["counter_id"]
    )
    if not counters:
        return None
    counter, amount = rng.choice(counters), rng.randint(2, 9)
    text = TEMPLATE.format(name=user["name"], pin=user["pin"], label=counter["label"], amount=amount)
    draft = Draft(user, "increase_counter", text, clauses=["1.1"])
    verify = [act("find_user", name=user["name"]), act("verify_user", user_id=user["user_id"], pin=user["pin"])]
    draft.steps.append(Step(why="verification (1.1)", alternatives=[verify]))
    increase = act("increment_counter", counter_id=counter["counter_id"], amount=amount)
    if counter["locked"]:
        draft.trap_rationale = "2.2: the counter is locked: no change, and the user is told why"
        draft.forbidden = [increase]
        draft.clauses.append("2.2")
        draft.statements.append(Statement(kind="text", value="locked", why="2.2: the counter is locked"))
    else:
        draft.clauses.append("2.1")
        draft.steps.append(Step(why="the increase (2.1)", alternatives=[[increase]]))
    return draft


SOLVERS: dict[str, Callable[[World, dict[str, Any], random.Random], Draft | None]] = {{
    "increase_counter": increase_counter,
}}


def tasks_of_world(world: World, tag: str, seed: int) -> list[FactoryTask]:
    """Every intent's tasks over the world's users, in a seeded order."""
    tasks = []
    for index, (intent, solve) in enumerate(SOLVERS.items()):
        rng = random.Random(seed * 100 + index)
        for number, user in enumerate(sorted(world["users"].values(), key=lambda u: u["user_id"]), 1):
            draft = solve(world, user, rng)
            if draft is not None:
                tasks.append(draft.task(f"{{intent}}-{{tag}}-{{number}}"))
    return tasks
'''

_BUILD = '''"""Write the {name} data (``python -m {name}.build [--check]``): worlds, policy and tasks, each checked."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from taumesh.domains.factory import (
    InvariantError,
    build_main,
    check_disjoint,
    merge_worlds,
    output_spec,
    task_record,
    trap_cues,
    unfair_traps,
)

from .policy import POLICY
from .tasks import tasks_of_world
from .world import TEST_WORLDS, worlds

DATA = Path(__file__).resolve().parent / "data"


def _text(value: Any) -> str:
    return json.dumps(value, indent=1) + "\\n"


def generated_files() -> dict[str, str]:
    """Every file of ``data/``; InvariantError when a world, a trap or an output is not valid."""
    built = worlds()
    tasks = {{w.tag: tasks_of_world(w.tables, w.tag, w.seed) for w in built}}
    every = [t for found in tasks.values() for t in found]
    problems = [*trap_cues(every), *unfair_traps(every)]
    problems += [t.id for t in every if output_spec(t.outputs, t.instruction, POLICY.markdown())]
    if problems:
        raise InvariantError(f"invalid tasks: {{problems}}")
    train = [t for tag, found in tasks.items() if tag not in TEST_WORLDS for t in found]
    test = [t for tag, found in tasks.items() if tag in TEST_WORLDS for t in found]
    check_disjoint({{"train": [{{t.user_id}} for t in train], "test": [{{t.user_id}} for t in test]}})
    files = {{f"{{table}}.json": _text(records) for table, records in merge_worlds(built).items()}}
    files["wiki.md"] = POLICY.markdown()
    files["tasks_train.json"] = _text([task_record(t) for t in train])
    files["tasks_test.json"] = _text([task_record(t) for t in test])
    return files


def main(argv: list[str] | None = None) -> int:
    return build_main(generated_files, DATA, argv)


if __name__ == "__main__":
    raise SystemExit(main())
'''

_TEST = '''"""The {name} domain's own checks: plain functions, run by pytest or ``python -m {name}.test_{name}``.

What they show: the data is what the build makes; every allowed outcome replays and scores 1.0 (a refusal task with
its reason said); the gold without its write or its reason, or with a forbidden write, scores 0.
"""

from __future__ import annotations

import copy
from pathlib import Path

from taumesh.domains import Catalog, Domain, Episode, Registry, Session, check_domain
from taumesh.domains.factory import FactoryTask, canonical_output, verify_task
from taumesh.models import ChatMessage

from . import plugin
from .build import generated_files

HERE = Path(__file__).resolve().parent


def _domain() -> Domain:
    # found like any local domain: the folder holding this package is a domain path
    return Catalog(HERE / "data", Registry.discover([HERE.parent])).get("{name}")


def _score(domain: Domain, task: FactoryTask, actions: list, says: str | None) -> float:
    session = Session(domain)
    for action in actions:
        session.call(action.name, copy.deepcopy(action.kwargs), action.requestor)
    conversation = [ChatMessage(role="user", content=task.instruction)]
    if says is not None:
        conversation.append(ChatMessage(role="assistant", content=says))
    gold = plugin.gold_hash(domain, task)
    return plugin.score(Episode(domain, task, conversation, "user_stop", session.data_hash(), gold)).reward


def _tasks(domain: Domain) -> list[FactoryTask]:
    return [t for split in plugin.splits for t in domain.tasks(split) if isinstance(t, FactoryTask)]


def _reasons(task: FactoryTask) -> str | None:
    return " ".join(canonical_output(s) for s in task.statements) or None


def test_data_is_what_the_build_makes() -> None:
    for name, text in generated_files().items():
        assert (HERE / "data" / name).read_text(encoding="utf-8") == text, f"{{name}} is stale: python -m {name}.build"


def test_gold_replays_and_every_outcome_verifies() -> None:
    domain = _domain()
    report = check_domain(domain)
    assert report.ok, [task.problems for task in report.failed]
    assert {{t.id: verify_task(domain, t, plugin.identity_tools or frozenset()) for t in _tasks(domain)}} == {{
        t.id: [] for t in _tasks(domain)
    }}


def test_every_allowed_outcome_scores_one_and_refusals_need_their_reason() -> None:
    domain = _domain()
    tasks = _tasks(domain)
    assert any(t.trap for t in tasks) and any(not t.trap for t in tasks)
    for task in tasks:
        for outcome in task.outcomes():
            assert _score(domain, task, outcome, _reasons(task)) == 1.0, task.id
        if task.statements:  # a refusal: verified, nothing changed, and the reason said
            assert _score(domain, task, task.actions, "Sorry, I can't do that.") == 0.0, task.id


def test_cut_and_forbidden_trajectories_score_zero() -> None:
    domain = _domain()
    for task in _tasks(domain):
        writes = [i for i, a in enumerate(task.actions) if a.name == "increment_counter"]
        if writes:
            cut = [a for i, a in enumerate(task.actions) if i != writes[-1]]
            assert _score(domain, task, cut, _reasons(task)) == 0.0, task.id
        for forbidden in task.forbidden:
            assert _score(domain, task, [*task.actions, forbidden], _reasons(task)) == 0.0, task.id


if __name__ == "__main__":
    for test in [value for key, value in dict(globals()).items() if key.startswith("test_")]:
        test()
        print(f"passed {{test.__name__}}")
'''

# The minimal skeleton (write_minimal_skeleton): the contract alone.

_MINIMAL_INIT = '''"""The {name} domain: counters that a user asks the agent to increase."""

from __future__ import annotations

from pathlib import Path

from taumesh.domains import DomainPlugin

from .models import {title}Database
from .tools import IncrementCounter

plugin = DomainPlugin(
    name="{name}",
    tools=(IncrementCounter,),
    database={title}Database,
    splits=("test",),
    terminate_tools=frozenset(),
    own_data=Path(__file__).resolve().parent / "data",
)
"""What the registry loads: found in ``TAUMESH_DOMAIN_PATH``, or through an entry point once packaged."""
'''

_MINIMAL_MODELS = '''"""The {name} database: a pydantic model per record, a field per table (``data/<table>.json``)."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict


class Counter(BaseModel):
    """A named counter."""

    model_config = ConfigDict(extra="forbid")

    counter_id: str
    value: int


class {title}Database(BaseModel):
    """Every table, by record id; validates the files when the domain loads."""

    counters: dict[str, Counter]
'''

_MINIMAL_TOOLS = '''"""The {name} tools: one class each, tagged read (the default) or write (``writes = True``)."""

from __future__ import annotations

import json
from typing import Any

from taumesh.domains import Data, Refusal, Tool


class IncrementCounter(Tool):
    """Adds ``amount`` to a counter. It changes data, so it is tagged ``writes = True``."""

    name = "increment_counter"
    writes = True
    description = "Increase a counter by a positive amount and return the counter."
    parameters: dict[str, Any] = {{
        "type": "object",
        "properties": {{
            "counter_id": {{"type": "string", "description": "The counter's id, such as 'visits'."}},
            "amount": {{"type": "integer", "description": "How much to add (at least 1)."}},
        }},
        "required": ["counter_id", "amount"],
    }}

    @staticmethod
    def invoke(data: Data, counter_id: str, amount: int) -> str:
        counters = data["counters"]
        if counter_id not in counters:
            raise Refusal("counter not found")
        if amount < 1:
            raise Refusal("amount must be at least 1")
        counter = counters[counter_id]  # a private copy: this tool writes
        counter["value"] += amount
        return json.dumps(counter)
'''

_MINIMAL_COUNTERS = """{
  "visits": {"counter_id": "visits", "value": 41},
  "signups": {"counter_id": "signups", "value": 7}
}
"""

_MINIMAL_POLICY = """# {name} agent policy

You help users with their counters. Before you change a counter, tell the user the counter and the
amount and get their explicit confirmation (yes). Never decrease a counter.
"""

_MINIMAL_TASKS = """[
  {{
    "user_id": "user_1",
    "instruction": "You want the 'visits' counter increased by 2. Confirm when asked.",
    "actions": [{{"name": "increment_counter", "kwargs": {{"counter_id": "visits", "amount": 2}}}}],
    "outputs": []
  }}
]
"""

_MINIMAL_TEST = '''"""The {name} domain: its gold replays cleanly, and its tool changes only the session's copy."""

from __future__ import annotations

from pathlib import Path

from taumesh.domains import Catalog, Registry, Session, check_domain

HERE = Path(__file__).resolve().parent


def catalog() -> Catalog:
    # found like any local domain: the folder holding this package is a domain path
    return Catalog(HERE / "data", Registry.discover([HERE.parent]))


def test_gold_actions_replay_cleanly() -> None:
    report = check_domain(catalog().get("{name}"))
    assert report.ok, [task.problems for task in report.failed]
    assert not report.unchanged


def test_increment_changes_the_session_only() -> None:
    domain = catalog().get("{name}")
    session = Session(domain)
    step = session.call("increment_counter", {{"counter_id": "visits", "amount": 2}})
    assert step.observation == '{{"counter_id": "visits", "value": 43}}'
    assert session.data_hash() != domain.initial_hash
    assert Session(domain).data_hash() == domain.initial_hash
    assert domain.base_data["counters"]["visits"]["value"] == 41


def test_refusals_are_observations() -> None:
    session = Session(catalog().get("{name}"))
    assert session.call("increment_counter", {{"counter_id": "nope", "amount": 1}}).observation == (
        "Error: counter not found"
    )
'''


_PACKAGE_FILES = {
    "__init__.py": _INIT,
    "models.py": _MODELS,
    "tools.py": _TOOLS,
    "world.py": _WORLD,
    "policy.py": _POLICY,
    "tasks.py": _TASKS,
    "build.py": _BUILD,
}


class ScaffoldError(Exception):
    """The skeleton cannot be written (bad name, folder exists, its build failed)."""


def check_name(name: str) -> None:
    """Refuse names that cannot be a domain package: not an identifier, or an importable module's name."""
    if not name.isidentifier() or keyword.iskeyword(name) or name != name.lower():
        raise ScaffoldError(f"{name!r} is not a valid domain name: use a lowercase Python identifier (my_domain)")
    if importlib.util.find_spec(name) is not None:
        raise ScaffoldError(f"{name!r} is already an importable module's name; pick another domain name")


def write_skeleton(name: str, directory: Path) -> list[Path]:
    """Write the package ``directory/name``, then run its build to write ``data/``; every file written."""
    check_name(name)
    package = directory / name
    if package.exists():
        raise ScaffoldError(f"{package} already exists")
    title = "".join(part.capitalize() for part in name.split("_"))
    files = {**_PACKAGE_FILES, f"test_{name}.py": _TEST}
    written = []
    package.mkdir(parents=True)
    for relative, template in files.items():
        path = package / relative
        path.write_text(template.format(name=name, title=title), encoding="utf-8")
        written.append(path)
    environment = {**os.environ, "PYTHONPATH": os.pathsep.join([str(directory.resolve()), *sys.path])}
    built = subprocess.run(  # noqa: S603 - our interpreter, running the package just written
        [sys.executable, "-m", f"{name}.build"],
        cwd=directory,
        env=environment,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    if built.returncode != 0:
        raise ScaffoldError(f"the new package's build failed: {built.stderr.strip()[-2000:]}")
    return [*written, *sorted((package / "data").iterdir())]


def write_minimal_skeleton(name: str, directory: Path) -> list[Path]:
    """The contract's smallest domain (one tool, one task, no factory): what the plugin tests build on."""
    check_name(name)
    package = directory / name
    if package.exists():
        raise ScaffoldError(f"{package} already exists")
    title = "".join(part.capitalize() for part in name.split("_"))
    files = {
        "__init__.py": _MINIMAL_INIT,
        "models.py": _MINIMAL_MODELS,
        "tools.py": _MINIMAL_TOOLS,
        f"test_{name}.py": _MINIMAL_TEST,
        "data/counters.json": _MINIMAL_COUNTERS,
        "data/wiki.md": _MINIMAL_POLICY,
        "data/tasks_test.json": _MINIMAL_TASKS,
    }
    written = []
    for relative, template in files.items():
        path = package / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        text = template if relative == "data/counters.json" else template.format(name=name, title=title)
        path.write_text(text, encoding="utf-8")
        written.append(path)
    return written
