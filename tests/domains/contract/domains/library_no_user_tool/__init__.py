"""library with its user tool moved to the agent's side: the member cannot activate the card, the loan is refused."""

import dataclasses

from library import ActivateCard
from library import plugin as library


class AgentsActivateCard(ActivateCard):
    side = "assistant"


tools = tuple(AgentsActivateCard if tool is ActivateCard else tool for tool in library.tools)
plugin = dataclasses.replace(library, name="library_no_user_tool", tools=tools)
