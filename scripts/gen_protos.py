"""Regenerate the Python code of the contracts in ``protos/`` (checked in, inside the ``taumesh`` package).

Each proto package ``taumesh.<name>.v1`` becomes the Python package ``taumesh/<name>/v1/``; those version folders
hold only generated code and are replaced whole (``taumesh/<name>/`` itself may hold hand-written code too).

python scripts/gen_protos.py          # regenerate
python scripts/gen_protos.py --check  # fail when the checked-in code is out of date (CI)
"""

from __future__ import annotations

import argparse
import filecmp
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PROTOS = ROOT / "protos"
PACKAGE = "taumesh"


def generated_packages() -> list[str]:
    """The top-level folders under ``taumesh/`` that protoc writes (one per proto package)."""
    return sorted(p.name for p in (PROTOS / PACKAGE).iterdir() if p.is_dir())


def generated_versions() -> list[tuple[str, str]]:
    """(package, version folder) of each proto package: ``("env", "v1")`` is ``taumesh/env/v1/``."""
    return [(name, v.name) for name in generated_packages() for v in sorted((PROTOS / PACKAGE / name).iterdir())]


def generate(into: Path) -> None:
    """Run protoc (from grpcio-tools) with the mypy-protobuf plugins for typed stubs."""
    bin_dir = Path(sys.executable).parent
    sources = sorted(str(p.relative_to(PROTOS)) for p in PROTOS.rglob("*.proto"))
    subprocess.run(  # noqa: S603 - our own protoc, our own files
        [
            sys.executable,
            "-m",
            "grpc_tools.protoc",
            f"-I{PROTOS}",
            f"--plugin=protoc-gen-mypy={bin_dir / 'protoc-gen-mypy'}",
            f"--plugin=protoc-gen-mypy_grpc={bin_dir / 'protoc-gen-mypy_grpc'}",
            f"--python_out={into}",
            f"--grpc_python_out={into}",
            f"--mypy_out={into}",
            f"--mypy_grpc_out={into}",
            *sources,
        ],
        check=True,
    )
    for name in generated_packages():
        top = into / PACKAGE / name
        for folder in [top, *(p for p in top.rglob("*") if p.is_dir())]:
            (folder / "__init__.py").touch()


def differences(a: Path, b: Path) -> list[str]:
    """Relative paths that differ between two trees."""
    found: list[str] = []
    compare = filecmp.dircmp(a, b, ignore=["__pycache__"])
    stack = [(compare, Path())]
    while stack:
        node, rel = stack.pop()
        found += [str(rel / n) for n in node.left_only + node.right_only + node.diff_files]
        stack += [(sub, rel / name) for name, sub in node.subdirs.items()]
    return found


def main() -> int:
    """Regenerate, or with --check compare."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--check", action="store_true", help="only check that the generated code is up to date")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        generate(Path(tmp))
        stale: list[str] = []
        # only the version folders (taumesh/<name>/v1/) are generated: taumesh/rollout/ also holds the Python API
        for name, version in generated_versions():
            fresh, current = Path(tmp) / PACKAGE / name / version, ROOT / PACKAGE / name / version
            if args.check:
                where = f"{PACKAGE}/{name}/{version}"
                stale += [f"{where}/{p}" for p in differences(fresh, current)] if current.exists() else [where]
                continue
            shutil.rmtree(current, ignore_errors=True)
            shutil.copytree(fresh, current)
            (current.parent / "__init__.py").touch()
        if args.check:
            if stale:
                print("generated code is out of date; run: python scripts/gen_protos.py", *stale, sep="\n  ")
                return 1
            print("generated code is up to date")
            return 0
    print("generated", *(f"{PACKAGE}/{name}/{version}/" for name, version in generated_versions()))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
