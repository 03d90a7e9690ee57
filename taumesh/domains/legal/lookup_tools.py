"""The desk's read tools: the firm's directory, clients, matters, deadlines, documents, templates and research.

None of them changes anything; bar numbers, client numbers and postcodes are never shown.
"""

from __future__ import annotations

from typing import Any

from taumesh.domains import Data, Refusal, Tool
from taumesh.domains.legal.records import dump, fetch
from taumesh.domains.legal.schema import params, text

MATTER = text("The matter's id, such as 'mat-w1-007'.")


def _lawyer_card(lawyer: dict[str, Any]) -> dict[str, Any]:
    hidden = {"bar_number", "email"}
    return {key: value for key, value in lawyer.items() if key not in hidden}


class SearchDirectory(Tool):
    name = "search_directory"
    description = "Search the firm's lawyers by name (part of it is enough); returns their cards."
    parameters = params(name=text("A first name, last name or both."))

    @staticmethod
    def invoke(data: Data, name: str) -> str:
        wanted = name.strip().lower()
        found = [
            _lawyer_card(lawyer)
            for lawyer in data["attorneys"].values()
            if wanted and wanted in f"{lawyer['first_name']} {lawyer['last_name']}".lower()
        ]
        if not found:
            raise Refusal("no lawyer of the firm has that name")
        return dump(found)


class GetAttorney(Tool):
    name = "get_attorney"
    description = (
        "A lawyer's card: name, role, practice group, hourly rate, status and the parties they are screened from."
    )
    parameters = params(attorney_id=text("The lawyer's id."))

    @staticmethod
    def invoke(data: Data, attorney_id: str) -> str:
        return dump(_lawyer_card(fetch(data, "attorneys", attorney_id, "attorney")))


class SearchClients(Tool):
    name = "search_clients"
    description = "Search the firm's clients by name (part of it is enough); returns their ids, names and kinds."
    parameters = params(name=text("The client's name or part of it."))

    @staticmethod
    def invoke(data: Data, name: str) -> str:
        wanted = name.strip().lower()
        found = [
            {"client_id": c["client_id"], "name": c["name"], "kind": c["kind"]}
            for c in data["clients"].values()
            if wanted and wanted in c["name"].lower()
        ]
        if not found:
            raise Refusal("no client has that name")
        return dump(found)


class GetClient(Tool):
    name = "get_client"
    description = "A client with its contacts (who is a signatory) and its matters (id, title, status)."
    parameters = params(client_id=text("The client's id, such as 'cli-w1-04'."))

    @staticmethod
    def invoke(data: Data, client_id: str) -> str:
        client = fetch(data, "clients", client_id, "client")
        contacts = [
            {k: c[k] for k in ("contact_id", "first_name", "last_name", "signatory")}
            for c in data["contacts"].values()
            if c["client_id"] == client_id
        ]
        matters = [
            {k: m[k] for k in ("matter_id", "title", "practice_area", "status")}
            for m in data["matters"].values()
            if m["client_id"] == client_id
        ]
        card = {"client_id": client_id, "name": client["name"], "kind": client["kind"]}
        return dump({**card, "contacts": contacts, "matters": matters})


class SearchMatters(Tool):
    name = "search_matters"
    description = "Search matters by words of their title; returns id, title, client id and status of each."
    parameters = params(query=text("Words of the matter's title."))

    @staticmethod
    def invoke(data: Data, query: str) -> str:
        words = query.lower().split()
        found = [
            {k: m[k] for k in ("matter_id", "title", "client_id", "status")}
            for m in data["matters"].values()
            if words and all(word in m["title"].lower() for word in words)
        ]
        if not found:
            raise Refusal("no matter's title has those words")
        return dump(found)


class GetMatter(Tool):
    name = "get_matter"
    description = "Everything on a matter: client, practice area, responsible partner, team, adverse party, status."
    parameters = params(matter_id=MATTER)

    @staticmethod
    def invoke(data: Data, matter_id: str) -> str:
        return dump(fetch(data, "matters", matter_id, "matter"))


class ListDeadlines(Tool):
    name = "list_deadlines"
    description = "A matter's deadlines: kind, due date, the date first set, status and every earlier date."
    parameters = params(matter_id=MATTER)

    @staticmethod
    def invoke(data: Data, matter_id: str) -> str:
        fetch(data, "matters", matter_id, "matter")
        return dump([d for d in data["deadlines"].values() if d["matter_id"] == matter_id])


class ListDocuments(Tool):
    name = "list_documents"
    description = "A matter's documents: title, kind, privilege, status, and whether produced to the other side."
    parameters = params(matter_id=MATTER)

    @staticmethod
    def invoke(data: Data, matter_id: str) -> str:
        fetch(data, "matters", matter_id, "matter")
        return dump([d for d in data["documents"].values() if d["matter_id"] == matter_id])


class SearchTemplates(Tool):
    name = "search_templates"
    description = "Search the firm's document templates by name; returns each with its practice areas and review rule."
    parameters = params(query=text("Words of the template's name."))

    @staticmethod
    def invoke(data: Data, query: str) -> str:
        words = query.lower().split()
        found = [t for t in data["templates"].values() if words and all(w in t["name"].lower() for w in words)]
        if not found:
            raise Refusal("no template's name has those words")
        return dump(found)


class SearchAuthorities(Tool):
    name = "search_authorities"
    description = "Search the research corpus (statutes, cases, model clauses) by words of a title, citation or topic."
    parameters = params(query=text("Words to look for."))

    @staticmethod
    def invoke(data: Data, query: str) -> str:
        words = query.lower().split()
        found = [
            {k: a[k] for k in ("authority_id", "citation", "title", "kind", "jurisdiction", "status")}
            for a in data["authorities"].values()
            if words and all(w in " ".join([a["title"], a["citation"], *a["topics"]]).lower() for w in words)
        ]
        if not found:
            raise Refusal("nothing in the corpus matches those words")
        return dump(found)


class GetAuthority(Tool):
    name = "get_authority"
    description = "One authority in full: citation, summary, status, and what superseded it when it is not good law."
    parameters = params(authority_id=text("The authority's id, such as 'auth-07'."))

    @staticmethod
    def invoke(data: Data, authority_id: str) -> str:
        return dump(fetch(data, "authorities", authority_id, "authority"))


LOOKUP_TOOLS = (
    SearchDirectory,
    GetAttorney,
    SearchClients,
    GetClient,
    SearchMatters,
    GetMatter,
    ListDeadlines,
    ListDocuments,
    SearchTemplates,
    SearchAuthorities,
    GetAuthority,
)
