"""library whose sessions start afresh: the history's hold is not replayed, the state misses it."""

from dataclasses import dataclass

from library import LibraryPlugin
from library import plugin as library

from taumesh.domains import DomainView, Session, Task


@dataclass(frozen=True)
class NoHistory(LibraryPlugin):
    def open_session(self, domain: DomainView, task: Task) -> Session:
        return Session(domain)


plugin = NoHistory(**{**library.__dict__, "name": "library_no_history"})
