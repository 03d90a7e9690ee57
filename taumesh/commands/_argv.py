"""argparse's habits that τ-bench users type, as pure functions over the command line (no heavy imports)."""

from __future__ import annotations

from collections.abc import Collection, Mapping


class AmbiguousOption(ValueError):
    """A prefix of several options' spellings (``--mod``: ``--model`` or ``--model-provider``)."""


def expand_abbreviations(args: list[str], options: Mapping[str, str]) -> list[str]:
    """``args`` with each unique prefix of a long option written out, as argparse allows (``--num-tr 3``).

    ``options`` maps every long spelling to its parameter's name, so two spellings of one parameter
    (``--task-ids``, ``--task_ids``) are one match. An exact spelling always wins; a prefix of several parameters
    raises :class:`AmbiguousOption` naming them. Nothing after ``--`` is touched.
    """
    out: list[str] = []
    for index, arg in enumerate(args):
        if arg == "--":
            return out + args[index:]
        flag, equals, value = arg.partition("=")
        if not flag.startswith("--") or flag == "--" or flag in options:
            out.append(arg)
            continue
        matches = sorted({options[name] for name in options if name.startswith(flag)})
        if len(matches) > 1:
            spellings = sorted({next(n for n in options if options[n] == m and n.startswith(flag)) for m in matches})
            raise AmbiguousOption(f"option {flag} is ambiguous: it could be {', '.join(spellings)}")
        if len(matches) == 1:
            flag = next(name for name in options if options[name] == matches[0] and name.startswith(flag))
        out.append(flag + equals + value)
    return out


def _is_value(arg: str) -> bool:
    """A list option's next value: a number (``-1`` too) or a word that is not an option."""
    return not arg.startswith("--") and (arg.lstrip("-").isdigit() or not arg.startswith("-"))


def expand_list_flags(argv: list[str], list_flags: Collection[str]) -> list[str]:
    """Argparse's ``nargs="+"`` for the ``list_flags``: ``--task-ids 1 2 3`` as ``--task-ids 1 --task-ids 2 ...``.

    Nothing after ``--`` is touched.
    """
    out: list[str] = []
    i = 0
    while i < len(argv):
        flag = argv[i]
        if flag == "--":
            return out + argv[i:]
        values = []
        if flag in list_flags:
            j = i + 1
            while j < len(argv) and _is_value(argv[j]):
                values.append(argv[j])
                j += 1
        if values:
            out += [part for value in values for part in (flag, value)]
            i += 1 + len(values)
        else:
            out.append(flag)
            i += 1
    return out
