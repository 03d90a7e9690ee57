"""Domains compared with each other (``taumesh domain distinct``, and ``domain check --strict``'s last part).

A domain's surface is read through the public contract only: its tasks on every split, its policy, its tools'
schemas (the agent's and the user's) and its base data's tables. A domain whose files are not here is left out, and
said so: the comparison is over what loads.
"""

from __future__ import annotations

from pathlib import Path

from taumesh.audit import DomainSurface, Overlap, overlaps
from taumesh.domains import Catalog, DataError, Domain


def surface(domain: Domain) -> DomainSurface:
    """What ``domain`` shows an agent, as :func:`taumesh.audit.overlaps` compares it."""
    instructions = {
        f"{split}/{task.id}": task.instruction
        for split in domain.spec.splits
        if domain.has_split_file(split)
        for task in domain.tasks(split)
    }
    tools = {
        str(schema["function"]["name"]): tuple(sorted(schema["function"].get("parameters", {}).get("properties", {})))
        for schema in [*domain.tool_schemas, *domain.user_tool_schemas]
    }
    tables = {}
    for table, records in domain.base_data.items():
        first = next(iter(records.values()), None) if isinstance(records, dict) else None
        tables[table] = tuple(sorted(first)) if isinstance(first, dict) else ()
    return DomainSurface(name=domain.name, instructions=instructions, policy=domain.policy, tools=tools, tables=tables)


def loadable_surfaces(catalog: Catalog, names: list[str] | None = None) -> tuple[list[DomainSurface], list[str]]:
    """The surfaces of ``names`` (default: every domain the catalog lists), and why any could not be read."""
    surfaces, skipped = [], []
    for name in names or catalog.names():
        try:
            surfaces.append(surface(catalog.describe(name)))
        except (KeyError, DataError, OSError) as exc:
            skipped.append(f"{name}: {exc.args[0] if exc.args else exc}")
    return surfaces, skipped


def distinct_from_others(name: str, data_dir: Path) -> list[Overlap]:
    """What ``name`` shares with any other domain that loads here (empty: it is no copy of one)."""
    catalog = Catalog(data_dir)
    surfaces, _ = loadable_surfaces(catalog, [name, *(other for other in catalog.names() if other != name)])
    return overlaps(surfaces, of=name)
