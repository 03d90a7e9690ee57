"""τ²'s toolkits as classes: methods tagged read or write become the tools a session runs."""

from __future__ import annotations

from typing import Any

import pytest

from taumesh.domains.tau2._common_tools import Transfer
from taumesh.domains.tau2._toolkit import Toolkit, read, read_function, write
from taumesh.domains.tau2_retail.tools import TOOLS as RETAIL_TOOLS
from taumesh.domains.tau2_telecom.user_tools import USER_FUNCTIONS, USER_TOOLS


class NotesTools(Transfer):
    """A toolkit over a ``notes`` table."""

    @read
    def count_notes(self) -> str:
        return str(len(self.data["notes"]))

    @write
    def add_note(self, note_id: str, text: str) -> str:
        self.data["notes"][note_id] = {"text": text}
        return "added"

    @read_function
    def assert_note(self, note_id: str) -> bool:
        return note_id in self.data["notes"]


def test_tagged_methods_become_tools_and_functions() -> None:
    tools = {tool.name: tool for tool in NotesTools.tools()}
    assert sorted(tools) == ["add_note", "count_notes", "transfer_to_human_agents"]
    assert (tools["add_note"].writes, tools["count_notes"].writes) == (True, False)
    assert {tool.side for tool in tools.values()} == {"assistant"}
    assert [function.name for function in NotesTools.functions()] == ["assert_note"]
    data: dict[str, Any] = {"notes": {}}
    assert tools["add_note"].invoke(data=data, note_id="n1", text="hi") == "added"
    assert tools["count_notes"].invoke(data=data) == "1"
    assert NotesTools.functions()[0].invoke(data=data, note_id="n1") is True


def test_argument_errors_name_the_toolkit_as_taus_do() -> None:
    tools = {tool.name: tool for tool in NotesTools.tools()}
    with pytest.raises(TypeError, match=r"^NotesTools\.add_note\(\) missing 1 required positional argument: 'text'$"):
        tools["add_note"].invoke(data={"notes": {}}, note_id="n1")
    # an inherited tool is re-homed: its errors name the toolkit using it, not the mixin
    with pytest.raises(TypeError, match=r"^NotesTools\.transfer_to_human_agents\(\) got an unexpected keyword"):
        tools["transfer_to_human_agents"].invoke(data={}, summary="s", reason="r")
    retail = {tool.name: tool for tool in RETAIL_TOOLS}
    with pytest.raises(TypeError, match=r"^RetailTools\.calculate\(\) missing 1 required positional argument"):
        retail["calculate"].invoke(data={})


def test_a_toolkit_on_the_users_side_offers_user_tools() -> None:
    assert {tool.side for tool in (*USER_TOOLS, *USER_FUNCTIONS)} == {"user"}
    assert "toggle_airplane_mode" in {tool.name for tool in USER_TOOLS}
    assert "turn_airplane_mode_on" not in {tool.name for tool in USER_TOOLS}
    assert "turn_airplane_mode_on" in {function.name for function in USER_FUNCTIONS}


def test_a_toolkit_without_tools_offers_none() -> None:
    class Empty(Toolkit):
        pass

    assert Empty.tools() == () and Empty.functions() == ()
