"""The developer's own side: the authenticator app on their phone.

It shows the code a merge or a rule change needs; the desk never sees it, and the developer reads the code out when
the desk asks.
"""

from __future__ import annotations

from taumesh.domains import Data, Refusal, Tool
from taumesh.domains.engineering.lookup import STRING, schema


class ReadAuthenticatorCode(Tool):
    name = "read_authenticator_code"
    side = "user"
    description = "Open your authenticator app and read the six-digit code of your code-host account (your handle)."
    parameters = schema(handle=STRING)

    @staticmethod
    def invoke(data: Data, handle: str) -> str:
        for developer in data["developers"].values():
            if developer["handle"] == handle.strip().lower().lstrip("@"):
                return str(data["authenticators"][developer["developer_id"]]["code"])
        raise Refusal(f"your authenticator holds no account {handle}")


USER_TOOLS = (ReadAuthenticatorCode,)
