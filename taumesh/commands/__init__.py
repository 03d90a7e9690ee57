"""Sub-commands of the ``taumesh`` CLI, one module per command group."""

HELP_OPTIONS = {"help_option_names": ["-h", "--help"]}
"""``-h`` as well as ``--help``, as τ-bench's argparse accepts (every command and group)."""
