"""Installing taumesh adds exactly one top-level import package, `taumesh`, with every layer inside it."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.helpers.paths import PROJECT_ROOT

pytestmark = pytest.mark.slow


def test_a_wheel_installs_one_top_level_package(tmp_path: Path) -> None:
    wheels = tmp_path / "wheels"
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--no-build-isolation", "-w", str(wheels), "."],
        cwd=PROJECT_ROOT,
        check=True,
    )
    (wheel,) = wheels.glob("taumesh-*.whl")
    venv = tmp_path / "empty"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    python = venv / "bin" / "python"
    clean = {name: value for name, value in os.environ.items() if name != "PYTHONPATH"}  # nothing but the venv
    subprocess.run([str(python), "-m", "pip", "install", "--quiet", "--no-deps", str(wheel)], check=True, env=clean)

    site = Path(
        subprocess.run(
            [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
    )
    (record,) = site.glob("taumesh-*.dist-info/RECORD")
    installed = [line.split(",", 1)[0] for line in record.read_text().splitlines() if line]
    importable = [path for path in installed if not path.startswith("..")]  # ../../../bin/taumesh is the script
    top_level = {path.split("/", 1)[0] for path in importable} - {record.parent.name}
    # taumesh, and the τ-bench API fork's client under its own import name (tau_bench.api.client), nothing else
    assert top_level == {"taumesh", "tau_bench"}
    assert {path for path in importable if path.startswith("tau_bench/") and path.endswith(".py")} == {
        "tau_bench/__init__.py",
        "tau_bench/api/__init__.py",
        "tau_bench/api/client.py",
    }
    for module in (
        "taumesh/services/env/servicer.py",
        "taumesh/orchestrator/episode/turn_loop.py",
        "taumesh/env/v1/env_pb2.py",
    ):
        assert module in installed  # the service and orchestrator folders, and the generated code, are inside it
        assert not (site / module).is_symlink()  # copied, not linked back into a source tree
