"""How a setting is typed on the command line: metadata beside its pydantic field (no CLI library imported).

A setting is declared once, as a field of a settings model: its name gives the flags (``--max-concurrency`` and
τ-bench's ``--max_concurrency``), its docstring the help, its default and constraints the rest. :class:`Flag` adds
what the name cannot say: other spellings (τ²'s ``--agent-llm``), a short form, how the text is parsed.
"""

from __future__ import annotations

from typing import Any


class Flag:
    """Command-line details of one setting, given as ``Annotated[T, Flag(...)]`` metadata."""

    def __init__(self, *aliases: str, parse_as: Any = None, positional: bool = False) -> None:
        self.aliases = aliases
        """Spellings besides ``--kebab-name`` and ``--snake_name`` (``--task-split-name``, ``-v``)."""
        self.parse_as = parse_as
        """The type the command line parses, when not the field's (τ-bench's ``--shuffle 1`` is an int)."""
        self.positional = positional
        """An argument, not an option (``taumesh serve env``)."""

    def spellings(self, name: str) -> list[str]:
        """Every spelling of the setting ``name``: dashes (τ²), underscores (τ-bench's argparse), the aliases."""
        kebab = f"--{name.replace('_', '-')}"
        return [kebab, *([f"--{name}"] if "_" in name else []), *self.aliases]


def flag_of(metadata: list[Any]) -> Flag:
    """The :class:`Flag` among a field's metadata, or the plain one (spellings from the name alone)."""
    return next((item for item in metadata if isinstance(item, Flag)), Flag())
