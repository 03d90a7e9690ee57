"""An address nothing listens on fails at once (issue 40, item 7): gRPC's dial retried a refused connection for the
whole connect timeout (10 s) before ``taumesh run`` said so."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from taumesh.orchestrator.run.preflight import connection_refused
from tests.helpers.cli import ORACLE, invoke
from tests.helpers.processes import free_port


def test_a_refused_agent_address_fails_well_before_the_connect_timeout(tau2_data: Path, tmp_path: Path) -> None:
    nobody = f"127.0.0.1:{free_port()}"
    started = time.monotonic()
    result = invoke("run", "--env", "tau2-mock", *ORACLE, "--agent-addr", nobody, "--log-dir", tmp_path)
    took = time.monotonic() - started
    said = " ".join(result.output.split())
    assert result.exit_code == 2, said
    assert f"no connection to --agent-addr {nobody} within 10s (refused at once)" in said, said
    assert took < 5, took  # the default wait is 10 s; a refusal is known in milliseconds


@pytest.mark.parametrize(
    "address",
    ["dns:///user-sim:50051", "ipv4:127.0.0.1:1,127.0.0.1:2", "unix:/tmp/x.sock", "localhost"],
)
def test_grpc_s_other_address_forms_are_left_to_its_dial(address: str) -> None:
    assert connection_refused(address, 0.5) is False
