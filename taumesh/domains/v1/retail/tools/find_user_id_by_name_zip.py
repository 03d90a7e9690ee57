"""``find_user_id_by_name_zip``: the first user with that name (ignoring case) and exact zip code."""

from __future__ import annotations

from typing import Any

from taumesh.domains import Data, Tool


def _matches(profile: Any, first_name: str, last_name: str, zip: str) -> bool:
    # Evaluated lazily, user by user, as the original: a bad argument type only fails once the
    # earlier conditions hold for some user.
    name = profile["name"]
    return bool(
        name["first_name"].lower() == first_name.lower()
        and name["last_name"].lower() == last_name.lower()
        and profile["address"]["zip"] == zip
    )


class FindUserIdByNameZip(Tool):
    name = "find_user_id_by_name_zip"

    @staticmethod
    def invoke(data: Data, first_name: str, last_name: str, zip: str) -> str:
        for user_id, profile in data["users"].items():
            if _matches(profile, first_name, last_name, zip):
                return str(user_id)
        return "Error: user not found"
