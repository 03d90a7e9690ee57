"""A bench script of ``bench/`` loaded as a module, so a test runs its ``main`` in the test process (no interpreter
to start and import) while the processes the bench itself starts stay processes."""

from __future__ import annotations

import importlib.util
import sys
from types import ModuleType

from tests.helpers.paths import PROJECT_ROOT

BENCH = PROJECT_ROOT / "bench"


def load_bench(name: str) -> ModuleType:
    """``bench/NAME.py`` as the module ``NAME`` (registered in ``sys.modules``: its dataclasses look it up there).

    ``bench/`` goes on ``sys.path`` as ``python bench/NAME.py`` puts it there, so a bench imports its helpers alike.
    """
    if str(BENCH) not in sys.path:
        sys.path.append(str(BENCH))
    spec = importlib.util.spec_from_file_location(name, BENCH / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module
