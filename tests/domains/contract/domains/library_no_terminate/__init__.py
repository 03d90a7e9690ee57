"""library without its termination tool: escalating no longer ends the episode."""

import dataclasses

from library import plugin as library

plugin = dataclasses.replace(library, name="library_no_terminate", terminate_tools=frozenset())
