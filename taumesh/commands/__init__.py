"""Sub-commands of the ``taumesh`` CLI, one module per command group."""
