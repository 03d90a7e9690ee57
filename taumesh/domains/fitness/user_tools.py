"""The member's own tools (``side = "user"``): the watch and its app, which the club cannot see.

A workout reaches the club only when the member reads its share code from the watch and the agent imports it
(dual control). The app is signed in with the member's email, which is how the tool knows whose watch it is.
"""

from __future__ import annotations

import json

from taumesh.domains import Data, Refusal, Tool
from taumesh.domains.fitness.schema import arguments, string


class ListWatchWorkouts(Tool):
    side = "user"
    name = "list_watch_workouts"
    description = "Open your watch's app and list the workouts it recorded: date, kind, minutes and share code."
    parameters = arguments(account_email=string("The email your watch app is signed in with."))

    @staticmethod
    def invoke(data: Data, account_email: str) -> str:
        for watch in data["wearables"].values():
            if watch["account_email"] == account_email.strip().lower():
                return json.dumps(watch["workouts"])
        raise Refusal("no watch app is signed in with that email")


USER_TOOLS: tuple[type[Tool], ...] = (ListWatchWorkouts,)
