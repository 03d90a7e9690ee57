"""``taumesh data import taubench``: a τ-bench v1 checkout, or its installed package, into taumesh's v1 layout.

τ-bench keeps its tasks and tool schemas in Python (``tasks_test.py`` building ``Task(...)`` objects, each tool's
``get_info()`` returning a dict). They are read with :mod:`ast`, evaluating only literals: nothing of τ-bench is
imported or run, so the import needs none of τ-bench's dependencies and a checkout cannot run code on this machine.
Output, per domain (``retail/``, ``airline/``): the data tables as they are (``<table>.json``), ``wiki.md``,
``rules.json``, ``tools.json`` (``get_info()`` of each tool, in ``ALL_TOOLS`` order), ``tasks_<split>.json``
and ``data_readme.md`` when the checkout has one; beside them ``few_shot_data/*.jsonl`` from a checkout's root, and
``user_sim/prompts.json``: the user simulators' prompts from ``tau_bench/envs/user.py`` (``_taubench_user``).
"""

from __future__ import annotations

import ast
import importlib.util
import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

from taumesh.data._cache import (
    DatasetError,
    Manifest,
    Progress,
    SilentProgress,
    hash_tree,
    replace_folder,
    staging_beside,
    taubench_v1_dir,
)
from taumesh.data._taubench_user import write_user_prompts

TASK_FIELDS = ("user_id", "instruction", "actions", "outputs", "annotator")
"""A task's keys in the files written, in this order (τ-bench's ``Task`` fields plus its dropped ``annotator``)."""
REQUIRED_TASK_FIELDS = ("user_id", "instruction", "actions", "outputs")


class TaubenchFormatError(DatasetError):
    """The τ-bench sources are not in the shape this importer reads (the message names file and line)."""


def _where(path: Path, node: ast.AST) -> str:
    return f"{path}:{getattr(node, 'lineno', '?')}"


def _literal(path: Path, node: ast.expr) -> Any:
    try:
        return ast.literal_eval(node)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError) as exc:
        raise TaubenchFormatError(f"{_where(path, node)}: not a literal: {ast.unparse(node)[:120]}") from exc


def _call_name(node: ast.expr) -> str | None:
    if isinstance(node, ast.Call):
        if isinstance(node.func, ast.Name):
            return node.func.id
        if isinstance(node.func, ast.Attribute):
            return node.func.attr
    return None


def _keywords(path: Path, call: ast.Call) -> dict[str, ast.expr]:
    if call.args or any(keyword.arg is None for keyword in call.keywords):
        raise TaubenchFormatError(f"{_where(path, call)}: {_call_name(call)}(...) must take keyword arguments only")
    return {keyword.arg: keyword.value for keyword in call.keywords if keyword.arg is not None}


def _parse(path: Path) -> ast.Module:
    try:
        return ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    except (OSError, SyntaxError, ValueError) as exc:
        raise TaubenchFormatError(f"{path}: cannot be parsed: {exc}") from exc


def _action(path: Path, node: ast.expr) -> dict[str, Any]:
    if _call_name(node) != "Action":
        raise TaubenchFormatError(f"{_where(path, node)}: expected Action(...), found {ast.unparse(node)[:80]}")
    assert isinstance(node, ast.Call)
    fields = _keywords(path, node)
    if set(fields) != {"name", "kwargs"}:
        raise TaubenchFormatError(f"{_where(path, node)}: Action(...) needs exactly name= and kwargs=")
    return {"name": _literal(path, fields["name"]), "kwargs": _literal(path, fields["kwargs"])}


def _task(path: Path, node: ast.Call) -> dict[str, Any]:
    fields = _keywords(path, node)
    missing = [name for name in REQUIRED_TASK_FIELDS if name not in fields]
    unknown = sorted(set(fields) - set(TASK_FIELDS))
    if missing or unknown:
        raise TaubenchFormatError(f"{_where(path, node)}: Task(...) lacks {missing} or has unknown fields {unknown}")
    actions = fields["actions"]
    if not isinstance(actions, ast.List):
        raise TaubenchFormatError(f"{_where(path, actions)}: actions must be a list of Action(...)")
    values = {name: _literal(path, value) for name, value in fields.items() if name != "actions"}
    values["actions"] = [_action(path, element) for element in actions.elts]
    return {name: values[name] for name in TASK_FIELDS if name in values}


def read_tasks(path: Path) -> list[dict[str, Any]]:
    """The tasks a ``tasks_<split>.py`` builds: its module-level list of ``Task(...)`` calls, literals only."""
    module = _parse(path)
    for statement in module.body:
        value = statement.value if isinstance(statement, ast.Assign | ast.AnnAssign) else None
        if isinstance(value, ast.List) and value.elts and all(_call_name(e) == "Task" for e in value.elts):
            return [_task(path, element) for element in value.elts if isinstance(element, ast.Call)]
    raise TaubenchFormatError(f"{path}: no module-level list of Task(...) found")


def _class_imports(module: ast.Module) -> dict[str, str]:
    """``{ClassName: module name}`` from the ``from .module import ClassName`` lines of a tools/__init__.py."""
    found: dict[str, str] = {}
    for statement in module.body:
        if isinstance(statement, ast.ImportFrom) and statement.level == 1 and statement.module:
            for alias in statement.names:
                found[alias.asname or alias.name] = statement.module
    return found


def _get_info(path: Path, class_name: str) -> Any:
    for statement in _parse(path).body:
        if isinstance(statement, ast.ClassDef) and statement.name == class_name:
            for method in statement.body:
                if isinstance(method, ast.FunctionDef) and method.name == "get_info":
                    returns = [node for node in method.body if isinstance(node, ast.Return) and node.value]
                    if len(returns) == 1 and returns[0].value is not None:
                        return _literal(path, returns[0].value)
                    raise TaubenchFormatError(f"{_where(path, method)}: get_info must be one return of a literal")
    raise TaubenchFormatError(f"{path}: no class {class_name} with a get_info method")


def read_tools(tools_dir: Path) -> list[Any]:
    """Each tool's ``get_info()`` literal, in the order of ``ALL_TOOLS`` in ``tools/__init__.py``."""
    init = tools_dir / "__init__.py"
    module = _parse(init)
    modules = _class_imports(module)
    for statement in module.body:
        if (
            isinstance(statement, ast.Assign)
            and any(isinstance(target, ast.Name) and target.id == "ALL_TOOLS" for target in statement.targets)
            and isinstance(statement.value, ast.List)
        ):
            schemas = []
            for element in statement.value.elts:
                if not isinstance(element, ast.Name) or element.id not in modules:
                    raise TaubenchFormatError(f"{_where(init, element)}: ALL_TOOLS entries must be imported classes")
                schemas.append(_get_info(tools_dir / f"{modules[element.id]}.py", element.id))
            return schemas
    raise TaubenchFormatError(f"{init}: no ALL_TOOLS = [...] list found")


def read_rules(path: Path) -> list[str]:
    """The ``RULES`` list of a ``rules.py`` (empty when the file is absent)."""
    if not path.is_file():
        return []
    for statement in _parse(path).body:
        if isinstance(statement, ast.Assign) and any(
            isinstance(target, ast.Name) and target.id.upper() == "RULES" for target in statement.targets
        ):
            rules = _literal(path, statement.value)
            if isinstance(rules, list) and all(isinstance(rule, str) for rule in rules):
                return rules
    raise TaubenchFormatError(f"{path}: no RULES = [...] list of strings found")


def find_envs(source: Path | None) -> Path:
    """The ``envs`` folder of a checkout (``PATH/tau_bench/envs``) or a package folder (``PATH/envs``).

    With no path: that of the installed ``tau_bench`` package (found, not imported).
    """
    if source is None:
        spec = importlib.util.find_spec("tau_bench")
        if spec is None or not spec.submodule_search_locations:
            raise DatasetError("no PATH given and no tau_bench package is installed")
        candidates = [Path(location) / "envs" for location in spec.submodule_search_locations]
    else:
        candidates = [source / "tau_bench" / "envs", source / "envs", source]
    for envs in candidates:
        if envs.is_dir() and any((envs / name / "tools" / "__init__.py").is_file() for name in ("retail", "airline")):
            return envs
    raise DatasetError(
        f"{source if source is not None else 'the installed tau_bench'} is not a τ-bench checkout: "
        "expected tau_bench/envs/retail/ or tau_bench/envs/airline/"
    )


def _git_version(envs: Path) -> str:
    """The checkout's commit (``git rev-parse HEAD`` at its root), or ``unknown`` when it is not a git checkout.

    Only the checkout's own root counts: an installed package inside some other repository has no version of its own.
    """
    checkout = envs.parent.parent
    git = shutil.which("git")
    if git is None or not (checkout / ".git").exists():
        return "unknown"
    done = subprocess.run(  # noqa: S603 (git, read only)
        [git, "-C", str(checkout), "rev-parse", "HEAD"], capture_output=True, text=True, check=False, timeout=30
    )
    return done.stdout.strip() if done.returncode == 0 and done.stdout.strip() else "unknown"


def _write_json(path: Path, value: Any) -> None:
    path.write_text(json.dumps(value, indent=2), encoding="utf-8")  # the layout's files: indent 2, no final newline


def convert_domain(domain_dir: Path, into: Path) -> None:
    """One τ-bench domain folder (``envs/retail``) converted into ``into``."""
    data = domain_dir / "data"
    tables = sorted(data.glob("*.json"))
    if not tables:
        raise TaubenchFormatError(f"{data} holds no data tables (*.json)")
    into.mkdir(parents=True)
    for table in tables:
        shutil.copyfile(table, into / table.name)
    if (data / "readme.md").is_file():
        shutil.copyfile(data / "readme.md", into / "data_readme.md")
    if not (domain_dir / "wiki.md").is_file():
        raise TaubenchFormatError(f"{domain_dir} has no wiki.md")
    shutil.copyfile(domain_dir / "wiki.md", into / "wiki.md")
    _write_json(into / "rules.json", read_rules(domain_dir / "rules.py"))
    _write_json(into / "tools.json", read_tools(domain_dir / "tools"))
    splits = sorted(domain_dir.glob("tasks_*.py"))
    if not splits:
        raise TaubenchFormatError(f"{domain_dir} has no tasks_<split>.py")
    for split in splits:
        _write_json(into / f"{split.stem}.json", read_tasks(split))


def copy_few_shot_data(envs: Path, into: Path) -> None:
    """A checkout's ``few_shot_data/*.jsonl`` (for ``--agent-strategy few-shot``), when it has them."""
    shots = sorted((envs.parent.parent / "few_shot_data").glob("*.jsonl"))
    if shots:
        (into / "few_shot_data").mkdir()
        for shot in shots:
            shutil.copyfile(shot, into / "few_shot_data" / shot.name)


def import_taubench(
    source: Path | None, *, target: Path | None = None, force: bool = False, progress: Progress | None = None
) -> tuple[Path, Manifest, bool]:
    """Convert τ-bench v1 at ``source`` (None: the installed package) into ``target`` (default: the v1 folder).

    Returns the folder, its manifest and whether it changed. DatasetError when the sources are not τ-bench's
    shape, or when ``target`` holds other data and ``force`` is not given.
    """
    report = progress or SilentProgress()
    envs = find_envs(source)
    destination = target or taubench_v1_dir()
    domains = [path for path in sorted(envs.iterdir()) if (path / "tools" / "__init__.py").is_file()]
    with staging_beside(destination) as staging:
        report.phase(f"converting {len(domains)} domains from {envs}", total=len(domains))
        for domain in domains:
            convert_domain(domain, staging / domain.name)
            report.advance()
        copy_few_shot_data(envs, staging)
        write_user_prompts(envs, staging)
        fresh = Manifest(
            dataset="taubench_v1", version=_git_version(envs), source=str(envs.resolve()), files=hash_tree(staging)
        )
        if destination.is_dir() and hash_tree(destination) == fresh.files:
            existing = Manifest.read(destination)
            if existing is None:
                fresh.write(destination)
            return destination, existing or fresh, False
        if destination.exists() and any(destination.iterdir()) and not force:
            raise DatasetError(f"{destination} already holds other data: pass --force to replace it")
        fresh.write(staging)
        replace_folder(staging, destination)
    return destination, fresh, True
