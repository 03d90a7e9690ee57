"""library: the test domain that uses every hook of the contract, written with only the public ``taumesh.domains`` API.

A member borrows a book at a library desk. The task continues a conversation (a message history whose hold the env
replays), the member activates their own card (a user tool), the agent searches the catalogue's documents (a
retrieval tool over ``documents.json``) and lends the book; the reward adds a check of the domain's own
(``KNOWLEDGE``: the agent read the document the task names) to the database and the outputs. The desk's closing
line comes from its policy, and the member answers it with the domain's own stop token (``###BYE###``); a task naming
a document gets a policy of its own that names it. Another task ends with a termination tool
(``escalate_to_librarian``). docs/adding-a-domain.md walks through it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar

from pydantic import BaseModel

from taumesh.domains import (
    DatabaseMatch,
    Document,
    DomainPlugin,
    DomainView,
    Episode,
    OutputsSaid,
    Refusal,
    RewardComponent,
    Task,
    Tool,
    Verdict,
)
from taumesh.models import STOP_TOKEN, RewardBasis, RewardCheck

BYE_TOKEN = "###BYE###"
"""The member's own way of ending the conversation: one of the domain's user stop tokens."""
CLOSING_PREFIX = "Closing:"
"""The policy's line holding what the desk says last."""
CONSULT_PREFIX = "Consult first:"
"""What a task's own policy adds below the desk's: the document the task needs (the ``task_policy`` hook)."""


class Book(BaseModel):
    book_id: str
    title: str
    status: str
    holder: str | None = None
    holds: int = 0


class Member(BaseModel):
    member_id: str
    name: str
    card_active: bool


class LibraryDatabase(BaseModel):
    books: dict[str, Book]
    members: dict[str, Member]


class LibraryTask(Task):
    """A library task: the catalogue document the agent must read (empty: none)."""

    required_document: str = ""


def _object(properties: dict[str, Any]) -> dict[str, Any]:
    return {"type": "object", "properties": properties, "required": list(properties)}


_STRING = {"type": "string"}


class GetBook(Tool):
    name = "get_book"
    description = "Look a book up by id."
    parameters: ClassVar[dict[str, Any]] = _object({"book_id": _STRING})

    @staticmethod
    def invoke(data: dict[str, Any], book_id: str) -> str:
        book = data["books"].get(book_id)
        if book is None:
            raise Refusal(f"no book {book_id}")
        return f"{book['title']} ({book['status']})"


class SearchCatalog(Tool):
    """A retrieval tool: it searches the domain's documents (``reads_documents``)."""

    name = "search_catalog"
    description = "Search the catalogue's documents; every word of the query must appear."
    parameters: ClassVar[dict[str, Any]] = _object({"query": _STRING})
    reads_documents = True

    @staticmethod
    def invoke(data: dict[str, Any], documents: Sequence[Document], query: str) -> str:
        words = query.lower().split()
        found = [d for d in documents if all(w in f"{d.title} {d.text}".lower() for w in words)]
        return "\n".join(f"[{d.id}] {d.title}: {d.text}" for d in found) or "No documents found."


class PlaceHold(Tool):
    name = "place_hold"
    writes = True
    description = "Hold an available book for a member."
    parameters: ClassVar[dict[str, Any]] = _object({"member_id": _STRING, "book_id": _STRING})

    @staticmethod
    def invoke(data: dict[str, Any], member_id: str, book_id: str) -> str:
        book = data["books"][book_id]
        if book["status"] != "available":
            raise Refusal(f"{book_id} is {book['status']}")
        book["status"], book["holder"], book["holds"] = "on_hold", member_id, book["holds"] + 1
        return f"{book_id} is on hold for {member_id}"


class LendBook(Tool):
    name = "lend_book"
    writes = True
    description = "Lend a book to a member whose card is active."
    parameters: ClassVar[dict[str, Any]] = _object({"member_id": _STRING, "book_id": _STRING})

    @staticmethod
    def invoke(data: dict[str, Any], member_id: str, book_id: str) -> str:
        book, member = data["books"][book_id], data["members"][member_id]
        if not member["card_active"]:
            raise Refusal(f"the card of {member_id} is not active")
        if book["status"] == "loaned" or (book["status"] == "on_hold" and book["holder"] != member_id):
            raise Refusal(f"{book_id} is not available to {member_id}")
        book["status"], book["holder"] = "loaned", member_id
        return f"Lent {book_id} to {member_id}, due 2024-07-15"


class ActivateCard(Tool):
    """A user tool: the member activates their card in the library's app."""

    name = "activate_card"
    writes = True
    side = "user"
    description = "Activate your library card in the app."
    parameters: ClassVar[dict[str, Any]] = _object({"member_id": _STRING})

    @staticmethod
    def invoke(data: dict[str, Any], member_id: str) -> str:
        data["members"][member_id]["card_active"] = True
        return "Your card is active."


class EscalateToLibrarian(Tool):
    """A termination tool: its call ends the episode."""

    name = "escalate_to_librarian"
    description = "Hand the member over to a librarian; this ends the conversation."
    parameters: ClassVar[dict[str, Any]] = _object({"reason": _STRING})

    @staticmethod
    def invoke(data: dict[str, Any], reason: str) -> str:
        return "A librarian will take over."


@dataclass(frozen=True)
class KnowledgeCited:
    """KNOWLEDGE, a kind of check of this domain's own: a catalogue search showed the agent the task's document."""

    basis: RewardBasis = "KNOWLEDGE"

    def evaluate(self, episode: Episode) -> Verdict:
        wanted = getattr(episode.task, "required_document", "")
        if not wanted:
            return Verdict([], None)
        searches = {c.id for m in episode.conversation for c in m.tool_calls if c.name == SearchCatalog.name}
        results = [m.content for m in episode.conversation if m.role == "tool" and m.tool_call_id in searches]
        seen = any(f"[{wanted}]" in result for result in results)
        check = RewardCheck(basis=self.basis, subject=wanted, passed=seen, expected=wanted)
        return Verdict([check], 1.0 if seen else 0.0)


LIBRARY_REWARD: tuple[RewardComponent, ...] = (DatabaseMatch(), OutputsSaid(), KnowledgeCited())


@dataclass(frozen=True)
class LibraryPlugin(DomainPlugin):
    """The library desk: every hook the contract has, each doing this domain's part."""

    def task_policy(self, root: Path, task: Task) -> str | None:
        """A task naming a document gets the desk's policy and, below it, the catalogue entry to consult first."""
        if isinstance(task, LibraryTask) and task.required_document:
            return f"{self.policy(root)}\n{CONSULT_PREFIX} {task.required_document}\n"
        return None

    def closing_message(self, task: Task, policy: str) -> str | None:
        """The policy's closing line, which the oracle says after its gold actions."""
        for line in policy.splitlines():
            if line.startswith(CLOSING_PREFIX):
                return line.removeprefix(CLOSING_PREFIX).strip()
        return None

    def stop_reply(self, agent_message: str) -> str | None:
        """The scripted member says goodbye with the domain's own token when the desk says goodbye."""
        return f"Bye! {BYE_TOKEN}" if "goodbye" in agent_message.lower() else None

    def gold_hash(self, domain: DomainView, task: Task) -> str:
        """The gold state: the history's calls (the hold), then the gold actions."""
        session = DomainPlugin.open_session(self, domain, task)
        for action in task.actions:
            if action.name not in self.terminate_tools:
                session.call(action.name, dict(action.kwargs), action.requestor)
        return session.data_hash()

    def reward_components(self, task: Task) -> Sequence[RewardComponent]:
        return LIBRARY_REWARD

    def reward_basis(self, task: Task) -> list[RewardBasis]:
        """DB, plus KNOWLEDGE when the task names a document and COMMUNICATE when it requires outputs."""
        basis: list[RewardBasis] = ["DB"]
        if isinstance(task, LibraryTask) and task.required_document:
            basis.append("KNOWLEDGE")
        if task.outputs:
            basis.append("COMMUNICATE")
        return basis


plugin = LibraryPlugin(
    name="library",
    tools=(GetBook, SearchCatalog, PlaceHold, LendBook, ActivateCard, EscalateToLibrarian),
    database=LibraryDatabase,
    splits=("test",),
    terminate_tools=frozenset({EscalateToLibrarian.name}),
    own_data=Path(__file__).parent / "data",
    policy_file="policy.md",
    documents_file="documents.json",
    task_model=LibraryTask,
    user_stop_tokens=(STOP_TOKEN, BYE_TOKEN),
)
"""The library domain, found through ``TAUMESH_DOMAIN_PATH`` (the folder holding this one)."""
