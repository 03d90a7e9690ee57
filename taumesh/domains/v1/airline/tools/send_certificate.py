"""``send_certificate``: add a travel certificate (one of three fixed ids) to a member's wallet."""

from __future__ import annotations

from taumesh.domains import Data, Tool

_CERTIFICATE_IDS = ("certificate_3221322", "certificate_3221323", "certificate_3221324")


class SendCertificate(Tool):
    name = "send_certificate"
    writes = True

    @staticmethod
    def invoke(data: Data, user_id: str, amount: float) -> str | None:
        users = data["users"]
        if user_id not in users:
            return "Error: user not found"
        wallet = users[user_id]["payment_methods"]
        for payment_id in _CERTIFICATE_IDS:
            if payment_id not in wallet:
                wallet[payment_id] = {"source": "certificate", "amount": amount, "id": payment_id}
                return f"Certificate {payment_id} added to user {user_id} with amount {amount}."
        return None  # the original returns nothing once all three ids are taken; the session reports a crash
