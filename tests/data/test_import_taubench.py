"""``taumesh data import taubench``: a miniature τ-bench checkout, in τ-bench's own shape, into the v1 layout.

The checkout's Python files would leave a marker file if anything executed them: the import must parse, not run.
"""

from __future__ import annotations

import json
import subprocess
import textwrap
from pathlib import Path
from typing import Any

from taumesh.data import MANIFEST_NAME
from tests.data._commands import clean_env, data, explain

ADDRESS = {"address1": "1 Main St", "address2": "", "city": "Austin", "country": "USA", "state": "TX", "zip": "78701"}
USERS = {
    "ana_lee_1": {
        "name": {"first_name": "Ana", "last_name": "Lee"},
        "address": ADDRESS,
        "email": "ana@example.com",
        "payment_methods": {"gift_card_1": {"source": "gift_card", "id": "gift_card_1", "balance": 50.0}},
        "orders": ["#W1"],
    }
}
PRODUCTS = {
    "100": {
        "name": "Lamp",
        "product_id": "100",
        "variants": {"200": {"item_id": "200", "options": {"color": "red"}, "available": True, "price": 20.5}},
    }
}
ORDERS = {
    "#W1": {
        "order_id": "#W1",
        "user_id": "ana_lee_1",
        "address": ADDRESS,
        "items": [{"name": "Lamp", "product_id": "100", "item_id": "200", "price": 20.5, "options": {"color": "red"}}],
        "fulfillments": [],
        "status": "pending",
        "payment_history": [{"transaction_type": "payment", "amount": 20.5, "payment_method_id": "gift_card_1"}],
    }
}
TOOL_SCHEMAS: dict[str, dict[str, Any]] = {
    "FindUserIdByEmail": {
        "type": "function",
        "function": {
            "name": "find_user_id_by_email",
            "description": "Find user id by email.",
            "parameters": {
                "type": "object",
                "properties": {"email": {"type": "string", "description": "The email of the user."}},
                "required": ["email"],
            },
        },
    },
    "CancelPendingOrder": {
        "type": "function",
        "function": {
            "name": "cancel_pending_order",
            "description": "Cancel a pending order.",
            "parameters": {
                "type": "object",
                "properties": {
                    "order_id": {"type": "string", "description": "The order id, such as '#W0000000'."},
                    "reason": {"type": "string", "enum": ["no longer needed", "ordered by mistake"]},
                },
                "required": ["order_id", "reason"],
            },
        },
    },
}
TASKS_TEST = [
    {
        "user_id": "ana_lee_1",
        "instruction": "You are Ana Lee (ana@example.com). Cancel order #W1: you no longer need it.",
        "actions": [
            {"name": "find_user_id_by_email", "kwargs": {"email": "ana@example.com"}},
            {"name": "cancel_pending_order", "kwargs": {"order_id": "#W1", "reason": "no longer needed"}},
        ],
        "outputs": [],
        "annotator": "0",
    },
    {
        "user_id": "ana_lee_1",
        "instruction": 'You are Ana Lee. Ask for your user id; you say "it\'s ana".',
        "actions": [{"name": "find_user_id_by_email", "kwargs": {"email": "ana@example.com"}}],
        "outputs": ["ana_lee_1"],
    },
]
RULES = ["Confirm the user first.", "One tool call at a time."]
MARKER = "import pathlib\npathlib.Path(__file__).with_name('EXECUTED').touch()\n"
"""First lines of every Python file of the checkout: running any of them leaves EXECUTED beside it."""


def _task_source(task: dict[str, Any]) -> str:
    actions = ", ".join(f"Action(name={a['name']!r}, kwargs={a['kwargs']!r})" for a in task["actions"])
    annotator = f"annotator={task['annotator']!r}, " if "annotator" in task else ""
    return (
        f"Task({annotator}user_id={task['user_id']!r}, instruction={task['instruction']!r}, "
        f"actions=[{actions}], outputs={task['outputs']!r})"
    )


def _class_name(tool: str) -> str:
    return "".join(part.title() for part in tool.split("_"))


def _tool_source(class_name: str, schema: dict[str, Any]) -> str:
    return MARKER + textwrap.dedent(
        f"""
        from typing import Any, Dict
        from tau_bench.envs.tool import Tool


        class {class_name}(Tool):
            @staticmethod
            def invoke(data: Dict[str, Any], **kwargs: Any) -> str:
                return "ok"

            @staticmethod
            def get_info() -> Dict[str, Any]:
                return {schema!r}
        """
    )


def write_checkout(
    root: Path, tasks: list[dict[str, Any]] = TASKS_TEST, schemas: list[dict[str, Any]] | None = None
) -> Path:
    """A τ-bench checkout with a retail domain of one user, one product, one order, two tasks.

    Its tools: :data:`TOOL_SCHEMAS`, or one tool class per schema of ``schemas`` (in that order).
    """
    retail = root / "tau_bench" / "envs" / "retail"
    (retail / "data").mkdir(parents=True)
    (root / "tau_bench" / "__init__.py").write_text(MARKER, encoding="utf-8")
    (retail / "tools").mkdir()
    for table, rows in (("users", USERS), ("products", PRODUCTS), ("orders", ORDERS)):
        (retail / "data" / f"{table}.json").write_text(json.dumps(rows, indent=4), encoding="utf-8")
    (retail / "data" / "readme.md").write_text("# Mock data\n", encoding="utf-8")
    (retail / "data" / "__init__.py").write_text(MARKER, encoding="utf-8")
    (retail / "wiki.md").write_text("# Retail agent policy\n\nBe helpful.\n", encoding="utf-8")
    (retail / "rules.py").write_text(MARKER + f"RULES = {RULES!r}\n", encoding="utf-8")
    if schemas is None:
        classes: dict[str, dict[str, Any]] = {"FindUserIdByEmail": TOOL_SCHEMAS["FindUserIdByEmail"]}
        classes["CancelPendingOrder"] = TOOL_SCHEMAS["CancelPendingOrder"]  # not alphabetical: ALL_TOOLS decides
    else:
        classes = {_class_name(schema["function"]["name"]): schema for schema in schemas}
    modules = {name: schema["function"]["name"] for name, schema in classes.items()}
    imports = "".join(f"from .{module} import {name}\n" for name, module in sorted(modules.items()))
    order = list(classes)
    (retail / "tools" / "__init__.py").write_text(
        MARKER + imports + f"\nALL_TOOLS = [{', '.join(order)}]\n", encoding="utf-8"
    )
    for name, module in modules.items():
        (retail / "tools" / f"{module}.py").write_text(_tool_source(name, classes[name]), encoding="utf-8")
    body = ",\n    ".join(_task_source(task) for task in tasks)
    tasks_py = MARKER + f"from tau_bench.types import Action, Task\n\nTASKS_TEST = [\n    {body},\n]\n"
    (retail / "tasks_test.py").write_text(tasks_py, encoding="utf-8")
    (retail / "tasks.py").write_text(MARKER + "tasks = []\n", encoding="utf-8")  # legacy file: not exported
    (root / "few_shot_data").mkdir()
    (root / "few_shot_data" / "MockRetailDomainEnv-few_shot.jsonl").write_text('{"messages_display": "x"}\n')
    return root


def expected_files(root: Path) -> dict[str, bytes]:
    """What the import must write, file by file."""
    data_dir = root / "tau_bench" / "envs" / "retail" / "data"
    dumped = {
        "tasks_test.json": TASKS_TEST,
        "tools.json": [TOOL_SCHEMAS["FindUserIdByEmail"], TOOL_SCHEMAS["CancelPendingOrder"]],
        "rules.json": RULES,
    }
    files = {f"retail/{name}": json.dumps(value, indent=2).encode() for name, value in dumped.items()}
    for table in ("users", "products", "orders"):
        files[f"retail/{table}.json"] = (data_dir / f"{table}.json").read_bytes()
    files["retail/data_readme.md"] = b"# Mock data\n"
    files["retail/wiki.md"] = b"# Retail agent policy\n\nBe helpful.\n"
    files["few_shot_data/MockRetailDomainEnv-few_shot.jsonl"] = b'{"messages_display": "x"}\n'
    return files


def written(folder: Path) -> dict[str, bytes]:
    return {
        path.relative_to(folder).as_posix(): path.read_bytes()
        for path in folder.rglob("*")
        if path.is_file() and path.name != MANIFEST_NAME
    }


def import_(env: dict[str, str], *args: str | Path) -> subprocess.CompletedProcess[str]:
    return data(env, "import", "taubench", *args)


def test_import_writes_the_v1_layout_without_running_taubench(tmp_path: Path) -> None:
    checkout = write_checkout(tmp_path / "tau-bench")
    env = clean_env(tmp_path / "cache")
    proc = import_(env, checkout)
    assert proc.returncode == 0, explain(proc)
    target = tmp_path / "cache" / "taubench_v1"
    assert written(target) == expected_files(checkout)
    assert not list(checkout.rglob("EXECUTED")), "a τ-bench file was executed"
    manifest = json.loads((target / MANIFEST_NAME).read_text(encoding="utf-8"))
    assert manifest["dataset"] == "taubench_v1"
    assert manifest["source"] == str((checkout / "tau_bench" / "envs").resolve())
    assert set(manifest["files"]) == set(expected_files(checkout))

    again = import_(env, checkout)
    assert again.returncode == 0 and "nothing to do" in again.stdout, explain(again)
    listing = data(env, "list")
    assert listing.returncode == 0, explain(listing)
    assert "taubench_v1" in listing.stdout and "verified" in listing.stdout


def test_taumesh_data_dir_still_names_the_v1_folder(tmp_path: Path) -> None:
    checkout = write_checkout(tmp_path / "tau-bench")
    env = clean_env(tmp_path / "cache", TAUMESH_DATA_DIR=str(tmp_path / "v1"))
    proc = import_(env, checkout)
    assert proc.returncode == 0, explain(proc)
    assert written(tmp_path / "v1") == expected_files(checkout)
    assert not (tmp_path / "cache" / "taubench_v1").exists()


def test_without_a_path_the_installed_package_is_imported(tmp_path: Path) -> None:
    checkout = write_checkout(tmp_path / "tau-bench")
    env = clean_env(tmp_path / "cache", PYTHONPATH=str(checkout))  # tau_bench importable, as if installed
    proc = import_(env)
    assert proc.returncode == 0, explain(proc)
    assert written(tmp_path / "cache" / "taubench_v1") == expected_files(checkout)
    assert not list(checkout.rglob("EXECUTED")), "a τ-bench file was executed"


def test_other_data_is_replaced_only_with_force(tmp_path: Path) -> None:
    env = clean_env(tmp_path / "cache")
    assert import_(env, write_checkout(tmp_path / "one")).returncode == 0
    changed = [{**TASKS_TEST[0], "instruction": "Something else."}]
    other = write_checkout(tmp_path / "two", tasks=changed)
    refused = import_(env, other)
    assert refused.returncode == 1 and "--force" in refused.stderr, explain(refused)
    assert json.loads((tmp_path / "cache" / "taubench_v1" / "retail" / "tasks_test.json").read_text()) == TASKS_TEST
    forced = import_(env, other, "--force")
    assert forced.returncode == 0, explain(forced)
    assert json.loads((tmp_path / "cache" / "taubench_v1" / "retail" / "tasks_test.json").read_text()) == changed


def test_a_task_that_is_not_a_literal_is_refused_with_its_line(tmp_path: Path) -> None:
    checkout = write_checkout(tmp_path / "tau-bench")
    tasks_py = checkout / "tau_bench" / "envs" / "retail" / "tasks_test.py"
    tasks_py.write_text(tasks_py.read_text().replace("outputs=[]", "outputs=compute()"), encoding="utf-8")
    proc = import_(clean_env(tmp_path / "cache"), checkout, "--out", tmp_path / "out")
    assert proc.returncode == 1, explain(proc)
    assert "tasks_test.py:" in proc.stderr and "not a literal: compute()" in proc.stderr
    assert not (tmp_path / "out").exists()


def test_a_folder_that_is_not_taubench_is_refused(tmp_path: Path) -> None:
    proc = import_(clean_env(tmp_path / "cache"), tmp_path)
    assert proc.returncode == 1
    assert "is not a τ-bench checkout" in " ".join(proc.stderr.split())


def test_the_imported_data_passes_the_retail_domain_check(v1_data_dir: Path, tmp_path: Path) -> None:
    """With τ-bench's real retail tool schemas (read from the reference data), taumesh's retail plugin accepts the
    import and replays both tasks' gold actions without a problem."""
    schemas = json.loads((v1_data_dir / "retail" / "tools.json").read_text(encoding="utf-8"))
    checkout = write_checkout(tmp_path / "tau-bench", schemas=schemas)
    env = clean_env(tmp_path / "cache")
    proc = import_(env, checkout)
    assert proc.returncode == 0, explain(proc)
    imported = tmp_path / "cache" / "taubench_v1"
    assert (imported / "retail" / "tools.json").read_text(encoding="utf-8") == json.dumps(schemas, indent=2)
    from tests.domains.test_domain_commands import domain

    check = domain(tmp_path, "check", "retail", "--data-dir", imported, "--split", "test")
    assert check.returncode == 0, explain(check)
    assert "2 tasks, 2 replay cleanly, 0 with problems" in " ".join(check.stdout.split()), explain(check)
