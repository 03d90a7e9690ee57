"""``get_user_details``: a member's profile, payment methods and reservation ids."""

from __future__ import annotations

import json

from taumesh.domains import Data, Tool


class GetUserDetails(Tool):
    name = "get_user_details"

    @staticmethod
    def invoke(data: Data, user_id: str) -> str:
        users = data["users"]
        if user_id in users:
            return json.dumps(users[user_id])
        return "Error: user not found"
