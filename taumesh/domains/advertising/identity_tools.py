"""The account team's identity check: an advertiser is found by email and verified by their account PIN.

Each verification is a record (``verifications``), so what the desk checked is part of the state the reward sees.
"""

from __future__ import annotations

from taumesh.domains import Data, Refusal, Tool
from taumesh.domains.advertising.records import dump, params, record, string


class FindAdvertiser(Tool):
    name = "find_advertiser"
    description = "Find an advertiser account by the email of the person who runs it; returns its id and company."
    parameters = params(email=string("The email address the caller gives."))

    @staticmethod
    def invoke(data: Data, email: str) -> str:
        for advertiser in data["advertisers"].values():
            if advertiser["email"] == email.strip().lower():
                return dump({"advertiser_id": advertiser["advertiser_id"], "company": advertiser["company"]})
        raise Refusal("no advertiser account has that email")


class VerifyAdvertiser(Tool):
    name = "verify_advertiser"
    writes = True
    description = "Verify that the caller runs the account, by the six-digit account PIN they give."
    parameters = params(
        advertiser_id=string("The advertiser's id, such as 'adv-w1-03'."),
        account_pin=string("The account PIN the caller gives."),
    )

    @staticmethod
    def invoke(data: Data, advertiser_id: str, account_pin: str) -> str:
        advertiser = record(data, "advertisers", advertiser_id, "advertiser")
        if advertiser["account_pin"] != account_pin.strip():
            raise Refusal("the account PIN does not match")
        data["verifications"][advertiser_id] = {"advertiser_id": advertiser_id, "verified": True}
        return dump({"advertiser_id": advertiser_id, "verified": True})


IDENTITY_TOOLS = (FindAdvertiser, VerifyAdvertiser)
