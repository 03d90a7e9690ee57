"""The desk's browser tools: submitting a site's form and linking a member's account on a site, and the hand-off.

A form guarded by a CAPTCHA takes the token the member got by solving it in their own browser, and an account link
takes the one-time code the member's authenticator shows: the tools refuse any other, so what only the member can
see reaches the desk through them (dual control). Whether the policy allows the write is the agent's to judge.
"""

from __future__ import annotations

from taumesh.domains import Data, Refusal, Tool
from taumesh.domains.web_automation import clock
from taumesh.domains.web_automation.records import dump, fetch, integer, new_id, params, text

TEAMS = ["platform_engineering", "privacy_office", "site_relations"]


class SubmitForm(Tool):
    name = "submit_form"
    writes = True
    description = (
        "Fill and submit a site's form for a member, asking for a number of units; a form guarded by a CAPTCHA needs"
        " the token the member got by solving it (leave it empty otherwise). The site answers a confirmation number."
    )
    parameters = params(
        form_id=text("The form's id, such as 'fm-w1-2-1'."),
        member_id=text("The member the form is for."),
        quantity=integer("Units asked for."),
        captcha_token=text("The token the member read from their browser, or '' for a form with no CAPTCHA."),
    )

    @staticmethod
    def invoke(data: Data, form_id: str, member_id: str, quantity: int, captcha_token: str) -> str:
        form = fetch(data, "forms", form_id, "form")
        fetch(data, "members", member_id, "member")
        token = captcha_token.strip().upper()
        if form["captcha"] and token != clock.captcha_token(form_id):
            raise Refusal("the CAPTCHA token is not this form's: ask the member to solve it in their browser")
        if not form["captcha"] and token:
            raise Refusal("this form has no CAPTCHA: leave the token empty")
        if quantity < 1:
            raise Refusal("the quantity is a positive number of units")
        submission_id = new_id(data, "submissions", "sub")
        number = clock.confirmation(form_id, member_id, quantity)
        data["submissions"][submission_id] = {
            "submission_id": submission_id,
            "form_id": form_id,
            "member_id": member_id,
            "quantity": quantity,
            "confirmation": number,
        }
        return dump(data["submissions"][submission_id])


class LinkAccount(Tool):
    name = "link_account"
    writes = True
    description = (
        "Link a member's own account on a site to the desk's browser, with the one-time code from their authenticator."
    )
    parameters = params(
        member_id=text("The member whose account it is."),
        site_id=text("The site's id."),
        login_code=text("The six-character code the member reads from their authenticator."),
    )

    @staticmethod
    def invoke(data: Data, member_id: str, site_id: str, login_code: str) -> str:
        fetch(data, "members", member_id, "member")
        fetch(data, "sites", site_id, "site")
        if login_code.strip().upper() != clock.login_code(site_id):
            raise Refusal("the sign-in code does not match: ask the member to read it from their authenticator")
        if any((k["member_id"], k["site_id"]) == (member_id, site_id) for k in data["account_links"].values()):
            raise Refusal("that account is linked already")
        link_id = new_id(data, "account_links", "ln")
        data["account_links"][link_id] = {"link_id": link_id, "member_id": member_id, "site_id": site_id}
        return dump(data["account_links"][link_id])


class TransferToHumanAgents(Tool):
    name = "transfer_to_human_agents"
    writes = True
    description = "Hand the member to a team (platform engineering, the privacy office, site relations); ends the chat."
    parameters = params(member_id=text("The member's id."), team=text("The team.", TEAMS))

    @staticmethod
    def invoke(data: Data, member_id: str, team: str) -> str:
        fetch(data, "members", member_id, "member")
        if team not in TEAMS:
            raise Refusal(f"team must be one of {TEAMS}")
        handoff_id = new_id(data, "handoffs", "handoff")
        data["handoffs"][handoff_id] = {"handoff_id": handoff_id, "member_id": member_id, "team": team}
        return "Transferred; the team takes the chat from here."


WEB_TOOLS: tuple[type[Tool], ...] = (SubmitForm, LinkAccount, TransferToHumanAgents)
