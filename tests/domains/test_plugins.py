"""Domains as plugins: entry points and local folders, broken plugins, typed data, task ids, user tools, check."""

from __future__ import annotations

import json
import sys
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from taumesh.domains import (
    Catalog,
    DataError,
    Domain,
    DomainPlugin,
    PluginError,
    Registry,
    Session,
    check_domain,
    load_domain,
)
from taumesh.domains._scaffold import write_minimal_skeleton as write_skeleton  # the contract alone


@pytest.fixture(autouse=True)
def isolated_imports(monkeypatch: pytest.MonkeyPatch, tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """Whatever a test imports from its temporary folders is forgotten after it.

    Only those: the registry imports a plugin when first asked for, so a test may be the first to import a built-in
    domain, and a module with a C extension cannot be imported twice in one process.
    """
    monkeypatch.setattr(sys, "path", list(sys.path))
    before = set(sys.modules)
    temporary = tmp_path_factory.getbasetemp().resolve()
    yield
    for name in set(sys.modules) - before:
        origin = getattr(sys.modules[name], "__file__", None)
        if origin is None or Path(origin).resolve().is_relative_to(temporary):
            del sys.modules[name]


def fresh_name() -> str:
    return f"dom_{uuid.uuid4().hex[:8]}"


def scaffold(directory: Path, name: str | None = None) -> tuple[str, Path]:
    name = name or fresh_name()
    write_skeleton(name, directory)
    return name, directory / name


def write_tasks(package: Path, tasks: list[dict[str, object]]) -> None:
    (package / "data" / "tasks_test.json").write_text(json.dumps(tasks), encoding="utf-8")


def local_domain(tmp_path: Path, name: str) -> Domain:
    return Catalog(tmp_path / "no-data", Registry.discover([tmp_path])).get(name)


# --- discovery -------------------------------------------------------------------------------------------------


def test_builtins_are_found_through_their_entry_points() -> None:
    from taumesh.domains.v1 import airline, retail

    registry = Registry.discover([])
    assert registry.plugins["retail"] is retail.plugin
    assert registry.plugins["airline"] is airline.plugin
    assert not registry.broken


def make_distribution(site: Path, name: str, entry_points: dict[str, str], group: str = "taumesh.domains") -> None:
    """An installed distribution (its metadata only) declaring ``entry_points`` in ``group``."""
    info = site / f"{name}-0.1.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: 0.1\n", encoding="utf-8")
    lines = "".join(f"{key} = {value}\n" for key, value in entry_points.items())
    (info / "entry_points.txt").write_text(f"[{group}]\n{lines}", encoding="utf-8")


def test_a_domain_source_registers_many_domains_and_its_failures_are_named(tmp_path: Path) -> None:
    site = tmp_path / "site"
    make_distribution(
        site,
        "many_domains",
        {"many": "many_domains:domains", "bad": "many_domains:unreadable"},
        "taumesh.domain_sources",
    )
    (site / "many_domains.py").write_text(
        "from taumesh.domains.v1 import retail\n"
        "def domains():\n"
        "    return {'retail': lambda: retail.plugin, 'renamed': lambda: retail.plugin, 'crashing': lambda: 1 / 0}\n"
        "def unreadable():\n"
        "    raise OSError('index unreadable')\n",
        encoding="utf-8",
    )
    sys.path.insert(0, str(site))

    registry = Registry.discover([])
    assert {"retail", "airline"} <= set(registry.names())  # the same plugin object from two sources is one domain
    assert set(registry.broken) == {"renamed", "crashing", "bad (domain source)"}
    with pytest.raises(PluginError, match=r"domain 'renamed' of domain source many .* is named 'retail'"):
        registry.get("renamed")
    with pytest.raises(PluginError, match=r"domain 'crashing' of domain source many .*ZeroDivisionError"):
        registry.get("crashing")
    assert "OSError: index unreadable" in str(registry.broken["bad (domain source)"])


def test_broken_third_party_plugins_are_named_and_do_not_break_the_others(tmp_path: Path) -> None:
    site = tmp_path / "site"
    make_distribution(
        site,
        "broken_domains",
        {
            "crashing": "broken_domains_crash:plugin",
            "wrongtype": "json:dumps",
            "misnamed": "taumesh.domains.v1.retail:plugin",
        },
    )
    (site / "broken_domains_crash.py").write_text("raise RuntimeError('no database driver')\n", encoding="utf-8")
    sys.path.insert(0, str(site))

    registry = Registry.discover([])
    assert {"retail", "airline"} <= set(registry.names())
    assert set(registry.broken) == {"crashing", "wrongtype", "misnamed"}
    with pytest.raises(PluginError, match=r"entry point crashing = 'broken_domains_crash:plugin' of broken_domains"):
        registry.get("crashing")
    with pytest.raises(PluginError, match="RuntimeError: no database driver"):
        registry.get("crashing")
    with pytest.raises(PluginError, match=r"entry point wrongtype .* is a builtins.function, not a .*DomainPlugin"):
        registry.get("wrongtype")
    with pytest.raises(PluginError, match=r"entry point misnamed .* is named 'retail', not 'misnamed'"):
        registry.get("misnamed")
    catalog = Catalog(tmp_path, registry)
    assert "crashing" not in catalog.names()
    with pytest.raises(DataError, match="crashing"):  # the services report it as an unavailable domain
        catalog.get("crashing")


def test_unknown_domain_names_the_known_ones() -> None:
    with pytest.raises(KeyError, match=r"unknown domain 'nope'; known: \[.*'airline'.*'retail'"):
        Registry.discover([]).get("nope")


def test_local_folders_on_the_domain_path(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    first, second = tmp_path / "a", tmp_path / "b"
    name_a, _ = scaffold(first)
    name_b, _ = scaffold(second)
    (second / "notes").mkdir()  # not a package: ignored
    monkeypatch.setenv("TAUMESH_DOMAIN_PATH", f"{first}:{second}")
    registry = Registry.discover()
    assert {name_a, name_b, "retail", "airline"} <= set(registry.names())
    catalog = Catalog(tmp_path / "no-data", registry)
    assert {name_a, name_b} <= set(catalog.names())  # listed: they carry their own data


def test_broken_local_folder(tmp_path: Path) -> None:
    good, _ = scaffold(tmp_path)
    broken = tmp_path / "not_a_domain"
    broken.mkdir()
    (broken / "__init__.py").write_text("x = 1\n", encoding="utf-8")
    failing = tmp_path / "fails_on_import"
    failing.mkdir()
    (failing / "__init__.py").write_text("import does_not_exist_anywhere\n", encoding="utf-8")
    registry = Registry.discover([tmp_path])
    assert good in registry.names()
    with pytest.raises(PluginError, match=r"folder .*not_a_domain .* defines no `plugin`"):
        registry.get("not_a_domain")
    with pytest.raises(PluginError, match="ModuleNotFoundError: No module named 'does_not_exist_anywhere'"):
        registry.get("fails_on_import")


def test_one_name_from_two_sources_is_an_error(tmp_path: Path) -> None:
    shadow = tmp_path / "retail"  # a local folder claiming a name an entry point already has
    shadow.mkdir()
    (shadow / "__init__.py").write_text(
        "import dataclasses\nfrom taumesh.domains.v1.retail import plugin as _retail\n"
        "plugin = dataclasses.replace(_retail)\n",
        encoding="utf-8",
    )
    registry = Registry.discover([tmp_path])
    with pytest.raises(PluginError, match=r"domain 'retail' is defined twice: by entry point retail .* and by folder"):
        registry.get("retail")
    assert "airline" in registry.names()
    assert "retail" not in registry.names()


def test_two_local_folders_with_one_name(tmp_path: Path) -> None:
    name, _ = scaffold(tmp_path / "a")
    scaffold(tmp_path / "b", name)
    registry = Registry.discover([tmp_path / "a", tmp_path / "b"])
    assert name not in registry.names()
    twice = f"domain '{name}' is defined twice: by folder .*a/{name} and folder .*b/{name}"
    with pytest.raises(PluginError, match=twice):
        registry.get(name)


def test_a_plugin_says_where_its_data_is(v1_data_dir: Path, tmp_path: Path) -> None:
    name, package = scaffold(tmp_path)
    catalog = Catalog(v1_data_dir, Registry.discover([tmp_path]))
    assert {"retail", "airline", name} <= set(catalog.names())
    assert catalog.get(name).root == package / "data"
    assert catalog.get("retail").root == v1_data_dir / "retail"
    assert "retail" not in Catalog(tmp_path / "empty", catalog.registry).names()


def test_the_registry_imports_a_plugin_when_first_asked_for(v1_data_dir: Path, tmp_path: Path) -> None:
    name, _ = scaffold(tmp_path)
    registry = Registry.discover([tmp_path])
    assert name in registry.declared() and name not in registry.loaded()  # discovered, not imported
    assert registry.canonical(name) == name and name in registry.declared()  # a declared name needs no import
    catalog = Catalog(v1_data_dir, registry)
    assert catalog.has("retail") and not catalog.has("no-such-domain")
    assert "retail" in registry.loaded() and name not in registry.loaded()
    assert catalog.listed(["retail"]) == sorted({"retail", "airline"} | set(registry.loaded()))  # by their folders
    assert name not in registry.loaded()  # a run's listing of its own domain imported no other
    assert catalog.any()
    assert name in catalog.listed([name]) and name in registry.loaded()
    assert set(catalog.listed(["no-such-domain"])) == set(catalog.names())  # a refusal names them all
    assert not registry.declared()  # every plugin imported now: still known to have data
    assert catalog.any()
    assert not Catalog(tmp_path / "empty", Registry(plugins={"retail": registry.get("retail")})).any()


# --- data model -------------------------------------------------------------------------------------------------


def test_data_files_are_validated_at_load(tmp_path: Path) -> None:
    name, package = scaffold(tmp_path)
    counters = {"visits": {"counter_id": "visits", "value": "many"}, "x": {"counter_id": "x", "value": 1, "typo": 2}}
    (package / "data" / "counters.json").write_text(json.dumps(counters), encoding="utf-8")
    domain = local_domain(tmp_path, name)
    with pytest.raises(DataError) as raised:
        domain.base_data  # noqa: B018
    message = str(raised.value)
    assert "does not match its model" in message
    assert "counters.visits.value: Input should be a valid integer" in message
    assert "counters.x.typo: Extra inputs are not permitted" in message


def test_v1_data_validates_and_keeps_its_json(v1_data_dir: Path) -> None:
    for name in ("retail", "airline"):
        domain = load_domain(name, v1_data_dir)
        for table in domain.plugin.tables:
            raw = json.loads((v1_data_dir / name / f"{table}.json").read_text(encoding="utf-8"))
            assert json.dumps(domain.base_data[table]) == json.dumps(raw)  # ints stay ints, order stays


def test_bad_task_file(tmp_path: Path) -> None:
    name, package = scaffold(tmp_path)
    write_tasks(package, [{"user_id": "u", "actions": []}])
    with pytest.raises(DataError, match=r"tasks_test.json: task 0: instruction: Field required"):
        local_domain(tmp_path, name).tasks("test")


# --- task ids -------------------------------------------------------------------------------------------------


def test_v1_task_ids_are_positions(v1_data_dir: Path) -> None:
    catalog = Catalog(v1_data_dir)
    domain = catalog.get("retail")
    tasks = domain.tasks("test")
    assert [task.id for task in tasks] == [str(index) for index in range(len(tasks))]
    assert domain.find_task("test", "7") is tasks[7] is domain.task("test", 7)
    found_domain, task = catalog.find_task("airline", "test", "3")
    assert found_domain.name == "airline"
    assert task is found_domain.tasks("test")[3]


def test_find_task_errors_name_what_is_missing(v1_data_dir: Path) -> None:
    catalog = Catalog(v1_data_dir)
    with pytest.raises(KeyError, match=r"domain 'retail' split 'test' has no task '115' \(ids are 0..114\)"):
        catalog.find_task("retail", "test", "115")
    with pytest.raises(KeyError, match=r"domain 'airline' has no split 'train'"):
        catalog.find_task("airline", "train", "0")
    with pytest.raises(KeyError, match="unknown domain 'shop'"):
        catalog.find_task("shop", "test", "0")
    with pytest.raises(DataError, match="is not a directory"):
        Catalog(v1_data_dir / "vectors").find_task("retail", "test", "0")


def test_string_task_ids_from_the_file(tmp_path: Path) -> None:
    name, package = scaffold(tmp_path)
    task = {"user_id": "u", "instruction": "i", "actions": []}
    write_tasks(package, [{**task, "id": "visits-up"}, {**task, "id": "noop"}])
    domain = local_domain(tmp_path, name)
    assert domain.find_task("test", "noop").id == "noop"
    with pytest.raises(KeyError, match=r"has no task 'x' \(2 tasks, e.g. 'visits-up', 'noop'\)"):
        domain.find_task("test", "x")
    write_tasks(package, [{**task, "id": "same"}, {**task, "id": "same"}])
    with pytest.raises(DataError, match="task id 'same' appears twice"):
        local_domain(tmp_path, name).tasks("test")


# --- user-side tools ---------------------------------------------------------------------------------------------

USER_TOOL = '''

class CheckMyCounter(Tool):
    """The user looks at a counter on their own screen."""

    name = "check_my_counter"
    side = "user"
    description = "Read a counter."
    parameters: dict[str, Any] = {"type": "object", "properties": {"counter_id": {"type": "string"}}}

    @staticmethod
    def invoke(data: Data, counter_id: str) -> str:
        return str(data["counters"][counter_id]["value"])
'''


def test_user_tools_run_only_for_the_user(tmp_path: Path) -> None:
    name, package = scaffold(tmp_path)
    with (package / "tools.py").open("a", encoding="utf-8") as handle:
        handle.write(USER_TOOL)
    init = (package / "__init__.py").read_text(encoding="utf-8")
    init = init.replace("import IncrementCounter", "import CheckMyCounter, IncrementCounter")
    init = init.replace("tools=(IncrementCounter,)", "tools=(IncrementCounter, CheckMyCounter)")
    (package / "__init__.py").write_text(init, encoding="utf-8")

    domain = local_domain(tmp_path, name)
    assert [s["function"]["name"] for s in domain.tool_schemas] == ["increment_counter"]
    assert [s["function"]["name"] for s in domain.user_tool_schemas] == ["check_my_counter"]
    session = Session(domain)
    assert session.call("check_my_counter", {"counter_id": "visits"}, requestor="user").observation == "41"
    assistant = session.call("check_my_counter", {"counter_id": "visits"})
    assert assistant.observation == "Unknown action check_my_counter"
    assert (assistant.known_tool, assistant.error) == (False, True)
    user = session.call("increment_counter", {"counter_id": "visits", "amount": 1}, requestor="user")
    assert user.observation == "Unknown action increment_counter"
    assert session.data_hash() == domain.initial_hash


def test_v1_domains_have_no_user_tools(v1_data_dir: Path) -> None:
    for name in ("retail", "airline"):
        domain = load_domain(name, v1_data_dir)
        assert domain.user_tool_schemas == []
        assert Session(domain).call("think", {"thought": "x"}, requestor="user").observation == "Unknown action think"


# --- domain check ------------------------------------------------------------------------------------------------


def test_check_reports_every_kind_of_problem(tmp_path: Path) -> None:
    name, package = scaffold(tmp_path)
    base = {"user_id": "u", "instruction": "i"}
    write_tasks(
        package,
        [
            {**base, "actions": [{"name": "increment_counter", "kwargs": {"counter_id": "visits", "amount": 1}}]},
            {**base, "actions": [{"name": "increment_counter", "kwargs": {"counter_id": "nope", "amount": 1}}]},
            {**base, "actions": [{"name": "fly_away", "kwargs": {}}]},
            {**base, "actions": [{"name": "increment_counter", "kwargs": {"counter_id": "visits", "amount": "2"}}]},
            {
                **base,
                "actions": [{"name": "increment_counter", "kwargs": {"counter_id": "visits", "amount": 1, "why": "x"}}],
            },
            {**base, "actions": [{"name": "increment_counter", "kwargs": {"amount": 1}}]},
            {**base, "actions": []},
        ],
    )
    report = check_domain(local_domain(tmp_path, name))
    by_id = {task.task_id: task for task in report.tasks}
    assert by_id["0"].ok and not by_id["0"].unchanged
    assert by_id["1"].errors == ["action 0 increment_counter: Error: counter not found"]
    assert by_id["2"].unknown_tools == ["fly_away"]
    assert by_id["3"].argument_mismatches == ["action 0 increment_counter: amount: '2' is not of type 'integer'"]
    assert by_id["4"].argument_mismatches == ["action 0 increment_counter: unknown argument 'why'"]
    required = "action 0 increment_counter: arguments: 'counter_id' is a required property"
    assert by_id["5"].argument_mismatches == [required]
    assert by_id["6"].ok and by_id["6"].unchanged  # a warning only
    assert [task.task_id for task in report.failed] == ["1", "2", "3", "4", "5"]
    assert [task.task_id for task in report.unchanged] == ["1", "2", "3", "4", "5", "6"]
    assert not report.ok


def test_check_of_airline_finds_no_problem(v1_data_dir: Path) -> None:
    report = check_domain(load_domain("airline", v1_data_dir))
    assert len(report.tasks) == 50
    assert report.ok, [task.problems for task in report.failed]
    assert report.unchanged  # some v1 tasks legitimately change nothing


def test_check_of_retail_test_reports_the_gold_actions_that_error(v1_data_dir: Path) -> None:
    """τ-bench v1's own retail gold actions include calls that answer an error (tasks 2-4: unknown product ids)."""
    report = check_domain(load_domain("retail", v1_data_dir), ["test"])
    assert len(report.tasks) == 115
    failed = {task.task_id: task for task in report.failed}
    assert failed["2"].errors == ["action 1 get_product_details: Error: product not found"]
    assert all(not task.unknown_tools and not task.argument_mismatches and task.crash is None for task in report.tasks)


def test_plugin_is_a_frozen_declaration() -> None:
    from taumesh.domains.v1.retail import plugin

    assert isinstance(plugin, DomainPlugin)
    assert plugin.tables == ("orders", "products", "users")
    assert plugin.data_dir(Path("/data")) == Path("/data/retail")
