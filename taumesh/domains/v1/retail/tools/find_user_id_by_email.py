"""``find_user_id_by_email``: the id of the first user whose email matches, ignoring case."""

from __future__ import annotations

from taumesh.domains import Data, Tool


class FindUserIdByEmail(Tool):
    name = "find_user_id_by_email"

    @staticmethod
    def invoke(data: Data, email: str) -> str:
        for user_id, profile in data["users"].items():
            if profile["email"].lower() == email.lower():
                return str(user_id)
        return "Error: user not found"
