"""Run one command in a bubblewrap sandbox over one folder: the part every sandboxed tool or grader shares.

A domain's shell tool (τ³'s banking knowledge base) and a grader that runs a repository's tests (engineering)
both need the same thing: bubblewrap found at a fixed path, started as ``nobody`` with every capability dropped
when the env runs as root, a folder mounted at a mount point as the only host files besides the read-only
system directories, no network, limits on processes, memory, CPU, ``/tmp`` and output, and a timeout. What
each does with the folder (exporting documents, a quota on notes, materialising a repository) stays its own.
"""

from taumesh.sandbox._bwrap import (
    BWRAP_LOCATIONS,
    MINIMUM_BWRAP,
    SANDBOX_ID,
    SETPRIV_LOCATIONS,
    SYSTEM_DIRS,
    SYSTEM_FILES,
    Identity,
    Limits,
    bwrap_argv,
    bwrap_path,
    bwrap_version,
    launcher,
    sandbox_identity,
    setpriv_path,
    setup_problem,
)
from taumesh.sandbox._run import Outcome, Stopped, run_sandboxed, wait_for

__all__ = [
    "BWRAP_LOCATIONS",
    "MINIMUM_BWRAP",
    "SANDBOX_ID",
    "SETPRIV_LOCATIONS",
    "SYSTEM_DIRS",
    "SYSTEM_FILES",
    "Identity",
    "Limits",
    "Outcome",
    "Stopped",
    "bwrap_argv",
    "bwrap_path",
    "bwrap_version",
    "launcher",
    "run_sandboxed",
    "sandbox_identity",
    "setpriv_path",
    "setup_problem",
    "wait_for",
]
