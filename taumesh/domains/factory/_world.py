"""Seeded worlds: a builder per seed, invariants checked as each world is built, and splits that share no entity.

A world is the domain's tables (``{table: {id: record}}``) built from one seed. A domain builds several (at least
:data:`MIN_SEEDS`), gives each its own ids (:func:`merge_worlds` refuses a clash) and draws its test tasks from
worlds its train tasks never touch (:func:`check_disjoint`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

Record = dict[str, Any]
Table = dict[str, Record]
World = dict[str, Table]

MIN_SEEDS = 3
"""Worlds a domain builds at least: one seed hides what a generator always does."""


class InvariantError(ValueError):
    """A built world breaks a declared invariant, or the worlds or splits do not fit together; the message lists why."""


@dataclass(frozen=True)
class Invariant:
    """A named rule every world must keep, such as "a proxy parent is 18-50 years older than the child".

    ``check`` returns one sentence per violation (empty when the world keeps it).
    """

    name: str
    check: Callable[[World], list[str]]

    def violations(self, world: World) -> list[str]:
        return [f"{self.name}: {problem}" for problem in self.check(world)]


def per_record(table: str, name: str, rule: Callable[[Record], str | None]) -> Invariant:
    """An invariant over each record of ``table``: ``rule`` returns why a record breaks it, or None."""

    def check(world: World) -> list[str]:
        found = [(key, rule(record)) for key, record in world.get(table, {}).items()]
        return [f"{table}[{key}] {why}" for key, why in found if why is not None]

    return Invariant(name, check)


def within(value: float, low: float, high: float, what: str) -> str | None:
    """None when ``low <= value <= high``, else a sentence saying what is out of range."""
    return None if low <= value <= high else f"{what} {value} is outside [{low}, {high}]"


@dataclass(frozen=True)
class SeededWorld:
    """One world: the seed and tag it was built from, and its tables."""

    seed: int
    tag: str
    """Short and unique among the domain's worlds; the builder puts it in every id it makes."""
    tables: World


def build_worlds(
    builder: Callable[[int, str], World],
    seeds: Mapping[str, int],
    invariants: Sequence[Invariant],
    min_seeds: int = MIN_SEEDS,
) -> list[SeededWorld]:
    """Build one world per ``tag: seed`` and check every invariant on each; InvariantError lists all violations."""
    if len(seeds) < min_seeds:
        raise InvariantError(f"{len(seeds)} seed(s) given; a domain builds at least {min_seeds} worlds")
    worlds = [SeededWorld(seed, tag, builder(seed, tag)) for tag, seed in seeds.items()]
    problems = [
        f"world {world.tag} (seed {world.seed}): {problem}"
        for world in worlds
        for invariant in invariants
        for problem in invariant.violations(world.tables)
    ]
    if problems:
        raise InvariantError(f"{len(problems)} invariant violation(s): " + "; ".join(problems[:10]))
    return worlds


def merge_worlds(worlds: Iterable[SeededWorld], shared: Iterable[str] = ()) -> World:
    """One database holding every world's records; ``shared`` tables (reference data) must be equal in all.

    A record id two worlds both use is refused: ids carry the world's tag, so an entity belongs to one world.
    """
    merged: World = {}
    shared = set(shared)
    for world in worlds:
        for table, records in world.tables.items():
            into = merged.setdefault(table, {})
            for key, record in records.items():
                if key in into and not (table in shared and into[key] == record):
                    raise InvariantError(f"table {table}: id {key!r} is in two worlds (world {world.tag})")
                into[key] = record
    return merged


def check_disjoint(
    touched_by_split: Mapping[str, Iterable[set[str]]], apart: tuple[str, str] = ("train", "test")
) -> None:
    """Refuse splits ``apart`` whose tasks touch a common entity (ids of the records a task reads or writes)."""
    first, second = (set[str]().union(*touched_by_split.get(split, ())) for split in apart)
    common = sorted(first & second)
    if common:
        raise InvariantError(f"{apart[0]} and {apart[1]} both touch {len(common)} entities: {', '.join(common[:10])}")
