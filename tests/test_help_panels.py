"""Help people can scan (issue 40, item 4): ``run --help`` in panels, ``serve --help`` naming every server."""

from __future__ import annotations

import os
import re
import subprocess
from typing import ClassVar

import pytest

from taumesh.commands._options import help_panel_order
from taumesh.flags import flag_of
from taumesh.settings import RunSettings, ServeSettings, TaumeshSettings
from tests.helpers.cli import IN_PROCESS_ENV
from tests.helpers.paths import PROJECT_ROOT

RUN_PANELS = ["Tasks", "Agent", "User", "Limits", "Services", "Outputs", "Scale", "Knowledge"]


def help_of(*args: str) -> str:
    """``taumesh ARGS --help`` as a user's terminal shows it (a real process, 200 columns: no cut-off names)."""
    env = {**os.environ, **{k: v for k, v in IN_PROCESS_ENV.items() if v is not None}, "COLUMNS": "200"}
    done = subprocess.run(
        [str(PROJECT_ROOT / ".venv" / "bin" / "taumesh"), *args, "--help"],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
        check=True,
    )
    return done.stdout


def test_run_help_lists_its_panels_in_order_with_the_niche_ones_last() -> None:
    text = help_of("run")
    panels = [re.sub(r"\s*\(.*", "", title) for title in re.findall(r"╭─ (.+?) ─", text)]
    assert panels == ["Options", *RUN_PANELS], panels

    def panel_of(option: str) -> str:
        before = text[: text.index(f"│ {option}")]
        return re.findall(r"╭─ (\w+)", before)[-1]

    # the niche embedding and reranker options came first; now they are the last panel's
    assert [panel_of(o) for o in ("--embedding-model", "--reranker-api-base")] == ["Knowledge", "Knowledge"]
    assert [panel_of(o) for o in ("--env", "--model", "--user-model", "--max-steps")] == [
        "Tasks", "Agent", "User", "Limits"
    ]  # fmt: skip
    assert [panel_of(o) for o in ("--env-addr", "--log-dir", "--workers")] == ["Services", "Outputs", "Scale"]


@pytest.mark.parametrize("settings_cls", [RunSettings, ServeSettings])
def test_no_option_is_missing_from_the_help(settings_cls: type[TaumeshSettings]) -> None:
    text = help_of("run" if settings_cls is RunSettings else "serve")
    for name, field in settings_cls.model_fields.items():
        flag = flag_of(field.metadata)
        if flag.positional:
            assert re.search(rf"\b{name}\b", text), name
            continue
        assert re.search(rf"{re.escape(flag.spellings(name)[0])}\b", text), name


def test_every_run_setting_is_in_exactly_one_panel() -> None:
    order = help_panel_order(RunSettings)
    assert set(order) == set(RunSettings.model_fields)
    assert [panel for panel in dict.fromkeys(order.values()) if panel] == list(RunSettings.help_panels)
    assert list(dict.fromkeys(p.split(" ")[0] for p in RunSettings.help_panels)) == RUN_PANELS


def test_a_setting_left_out_of_the_panels_is_refused() -> None:
    class Partial(RunSettings):
        help_panels: ClassVar[dict[str, tuple[str, ...]]] = {"Tasks": ("env",)}

    with pytest.raises(TypeError, match=r"not placed \[.*'model'.*\]"):
        help_panel_order(Partial)

    class Twice(RunSettings):
        help_panels: ClassVar[dict[str, tuple[str, ...]]] = {**RunSettings.help_panels, "Again": ("env",)}

    with pytest.raises(TypeError, match="env is in Tasks and Again"):
        help_panel_order(Twice)


def test_serve_help_lists_every_server() -> None:
    text = help_of("serve")
    for server in ("env", "user-sim", "agent", "scorer", "api", "a2a", "mcp"):
        assert re.search(rf"taumesh serve {server}\s", text), server


def test_tau_bench_s_underscored_spellings_are_read_but_listed_once() -> None:
    options = help_of("run").split("╭─", 1)[1]  # the panels, after the description that mentions the spelling
    assert "--max_concurrency" not in options and "--task_ids" not in options  # each option once: no cut-off pairs
    from taumesh.cli import load_command

    command = load_command("run")
    for args, name, value in (
        (["--max_concurrency", "3"], "max_concurrency", 3),
        (["--max_concurrency=4"], "max_concurrency", 4),
        (["--num_tr", "5"], "num_trials", 5),  # a unique prefix of the underscored spelling, as argparse allows
        (["--task_ids", "1", "2"], "task_ids", ["1", "2"]),
    ):
        ctx = command.make_context("run", args)
        assert ctx.params[name] == value, args
