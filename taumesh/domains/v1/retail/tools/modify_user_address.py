"""``modify_user_address``: replace a user's default address (no validation of the fields)."""

from __future__ import annotations

import json

from taumesh.domains import Data, Tool


class ModifyUserAddress(Tool):
    name = "modify_user_address"
    writes = True

    @staticmethod
    def invoke(
        data: Data,
        user_id: str,
        address1: str,
        address2: str,
        city: str,
        state: str,
        country: str,
        zip: str,
    ) -> str:
        users = data["users"]
        if user_id not in users:
            return "Error: user not found"
        user = users[user_id]
        user["address"] = {
            "address1": address1,
            "address2": address2,
            "city": city,
            "state": state,
            "country": country,
            "zip": zip,
        }
        return json.dumps(user)
