"""The desk's identity and read tools: who is asking, and what the simulated web and the team's jobs hold.

Reads never change anything; identity writes one record (the member is verified), which the reward sees, so an
agent that acts without verifying ends in another state.
"""

from __future__ import annotations

from taumesh.domains import Data, Refusal, Tool
from taumesh.domains.web_automation.records import dump, fetch, pages_under, params, text

_MEMBER = text("The member's id, such as 'mb-w1-04'.")
_SITE = text("The site's id, such as 'st-w1-3'.")
_TEAM = text("The team's id, such as 'tm-w1-2'.")


class FindMember(Tool):
    name = "find_member"
    description = "Find a team member's id by full name and employee number."
    parameters = params(
        first_name=text("First name."), last_name=text("Last name."), employee_number=text("Such as 'E-40213'.")
    )

    @staticmethod
    def invoke(data: Data, first_name: str, last_name: str, employee_number: str) -> str:
        wanted = (first_name.strip().lower(), last_name.strip().lower(), employee_number.strip().upper())
        for member in data["members"].values():
            if (member["first_name"].lower(), member["last_name"].lower(), member["employee_number"]) == wanted:
                return str(member["member_id"])
        raise Refusal("no member with that name and employee number")


class VerifyMember(Tool):
    name = "verify_member"
    writes = True
    description = "Verify a member by the desk passphrase on their record."
    parameters = params(member_id=_MEMBER, passphrase=text("Two words joined by a hyphen."))

    @staticmethod
    def invoke(data: Data, member_id: str, passphrase: str) -> str:
        member = fetch(data, "members", member_id, "member")
        if member["passphrase"] != passphrase.strip().lower():
            raise Refusal("the passphrase does not match")
        data["verifications"][member_id] = {"member_id": member_id, "verified": True}
        return dump({"member_id": member_id, "verified": True, "team_id": member["team_id"]})


class GetMember(Tool):
    name = "get_member"
    description = "A member's record and the team they work for."
    parameters = params(member_id=_MEMBER)

    @staticmethod
    def invoke(data: Data, member_id: str) -> str:
        member = dict(fetch(data, "members", member_id, "member"))
        member.pop("passphrase")
        return dump({**member, "team": data["teams"][member["team_id"]]})


class FindSite(Tool):
    name = "find_site"
    description = "Find a site by its host name, such as 'shop.example.net'."
    parameters = params(host=text("The site's host name."))

    @staticmethod
    def invoke(data: Data, host: str) -> str:
        wanted = host.strip().lower().removeprefix("https://").removeprefix("http://").rstrip("/")
        for site in data["sites"].values():
            if site["host"] == wanted:
                return str(site["site_id"])
        raise Refusal("no site with that host")


class GetSite(Tool):
    name = "get_site"
    description = (
        "A site's terms for automated clients (rate limit, shortest schedule interval, sign-in) and its robots rules."
    )
    parameters = params(site_id=_SITE)

    @staticmethod
    def invoke(data: Data, site_id: str) -> str:
        site = fetch(data, "sites", site_id, "site")
        rules = sorted(
            (r for r in data["robots_rules"].values() if r["site_id"] == site_id), key=lambda r: r["rule_id"]
        )
        return dump({**site, "robots_rules": rules})


class ListPages(Tool):
    name = "list_pages"
    description = "The pages of a site under a path prefix ('/' for all): path, title, whether sign-in is needed."
    parameters = params(site_id=_SITE, path_prefix=text("Such as '/catalog'."))

    @staticmethod
    def invoke(data: Data, site_id: str, path_prefix: str) -> str:
        fetch(data, "sites", site_id, "site")
        found = pages_under(data, site_id, "/" + path_prefix.strip().strip("/"))
        return dump([{k: p[k] for k in ("page_id", "path", "title", "requires_sign_in")} for p in found])


class ReadPage(Tool):
    name = "read_page"
    description = "One page as the desk's browser renders it: text, fields, last change and version."
    parameters = params(page_id=text("The page's id, such as 'pg-w1-3-05'."))

    @staticmethod
    def invoke(data: Data, page_id: str) -> str:
        return dump(fetch(data, "pages", page_id, "page"))


class ListForms(Tool):
    name = "list_forms"
    description = "The forms a site offers: title, path, whether a CAPTCHA guards it, the most units one may ask for."
    parameters = params(site_id=_SITE)

    @staticmethod
    def invoke(data: Data, site_id: str) -> str:
        fetch(data, "sites", site_id, "site")
        return dump(sorted((f for f in data["forms"].values() if f["site_id"] == site_id), key=lambda f: f["form_id"]))


class ListExtractions(Tool):
    name = "list_extractions"
    description = "A team's extractions: site, path prefix, field, rows collected, whether they hold personal data."
    parameters = params(team_id=_TEAM)

    @staticmethod
    def invoke(data: Data, team_id: str) -> str:
        fetch(data, "teams", team_id, "team")
        return dump([e for e in data["extractions"].values() if e["team_id"] == team_id])


class ListSchedules(Tool):
    name = "list_schedules"
    description = "A team's scheduled extractions: interval, status, whether a run is in progress, runs completed."
    parameters = params(team_id=_TEAM)

    @staticmethod
    def invoke(data: Data, team_id: str) -> str:
        fetch(data, "teams", team_id, "team")
        return dump([s for s in data["schedules"].values() if s["team_id"] == team_id])


class GetWatch(Tool):
    name = "get_watch"
    description = "One page watch, the team that owns it, and the changes it caught."
    parameters = params(watch_id=text("The watch's id, such as 'wt-w1-07'."))

    @staticmethod
    def invoke(data: Data, watch_id: str) -> str:
        watch = fetch(data, "watches", watch_id, "watch")
        changes = [c for c in data["changes"].values() if c["watch_id"] == watch_id]
        return dump({**watch, "changes": sorted(changes, key=lambda c: c["change_id"])})


LOOKUP_TOOLS: tuple[type[Tool], ...] = (
    FindMember,
    VerifyMember,
    GetMember,
    FindSite,
    GetSite,
    ListPages,
    ReadPage,
    ListForms,
    ListExtractions,
    ListSchedules,
    GetWatch,
)
IDENTITY_TOOLS = frozenset({"find_member", "verify_member"})
"""Finding the member by name and employee number, then verifying them by their passphrase."""
