"""The contracts build clients for other languages with protos/buf.gen.yaml, and are documented field by field."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.helpers.paths import PROJECT_ROOT

PROTOS = PROJECT_ROOT / "protos"
BUF = Path(sys.executable).parent / "buf"
NEEDED = ("protoc", "grpc_cpp_plugin", "grpc_python_plugin", "grpc_ruby_plugin", "grpc_php_plugin")


def test_buf_gen_yaml_builds_clients_for_other_languages(tmp_path: Path) -> None:
    missing = [tool for tool in NEEDED if shutil.which(tool) is None]
    if missing:
        pytest.skip(f"{', '.join(missing)} not installed (bash scripts/system-deps.sh installs them)")
    template = tmp_path / "buf.gen.yaml"
    template.write_text((PROTOS / "buf.gen.yaml").read_text().replace("../gen/", f"{tmp_path}/gen/"))
    subprocess.run([str(BUF), "generate", "--template", str(template)], cwd=PROTOS, check=True)
    gen = tmp_path / "gen"
    service = (gen / "cpp/taumesh/agent/v1/agent.grpc.pb.h").read_text()
    assert "class AgentService" in service and "NextMessage" in service
    assert "NextMessageRequest" in (gen / "java/taumesh/agent/v1/Agent.java").read_text()
    assert any((gen / "csharp").glob("Agent*.cs"))
    assert "NextMessage" in (gen / "ruby/taumesh/agent/v1/agent_services_pb.rb").read_text()
    assert (gen / "python/taumesh/agent/v1/agent_pb2_grpc.py").is_file()


def test_every_field_enum_value_and_rpc_is_documented() -> None:
    """buf lint's COMMENTS rules check this too; here the rule cannot be switched off by editing buf.yaml."""
    for proto in sorted(PROTOS.rglob("*.proto")):
        lines = proto.read_text(encoding="utf-8").splitlines()
        for number, line in enumerate(lines):
            declaration = re.match(r"\s*(?:rpc \w+|(?:repeated |optional )?[\w.]+ \w+ = \d+;|[A-Z_0-9]+ = \d+;)", line)
            if declaration and not line.strip().startswith(("reserved", "//")):
                previous = lines[number - 1].strip()
                assert previous.startswith("//"), (
                    f"{proto.relative_to(PROTOS)}:{number + 1} undocumented: {line.strip()}"
                )
