"""Rewriting the command line before parsing: argparse's habits that τ-bench users type (no heavy imports)."""

from __future__ import annotations

from typer._click.exceptions import UsageError


def expand_abbreviations(args: list[str], options: dict[str, str]) -> list[str]:
    """``args`` with each unique prefix of a long option written out, as argparse allows (``--num-tr 3``).

    ``options`` maps every long spelling to its parameter's name, so two spellings of one parameter
    (``--task-ids``, ``--task_ids``) are one match. An exact spelling always wins; a prefix of several parameters
    is a usage error naming them. Nothing after ``--`` is touched.
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
            raise UsageError(f"option {flag} is ambiguous: it could be {', '.join(spellings)}")
        if len(matches) == 1:
            flag = next(name for name in options if options[name] == matches[0] and name.startswith(flag))
        out.append(flag + equals + value)
    return out


_LIST_FLAGS = ("--task-ids", "--task_ids")


def expand_list_flags(argv: list[str]) -> list[str]:
    """Accept τ-bench's ``--task-ids 1 2 3`` (argparse ``nargs="+"``) as well as ``--task-ids 1 --task-ids 2``."""
    out: list[str] = []
    i = 0
    while i < len(argv):
        flag = argv[i]
        values = []
        if flag in _LIST_FLAGS:
            j = i + 1
            while j < len(argv) and argv[j].lstrip("-").isdigit() and not argv[j].startswith("--"):
                values.append(argv[j])
                j += 1
        if values:
            out += [part for value in values for part in (flag, value)]
            i += 1 + len(values)
        else:
            out.append(flag)
            i += 1
    return out
