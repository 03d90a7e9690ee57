"""TLS and the shared token: four served processes with a test CA's certificate, and the orchestrator over TLS.

A client without the token is refused (UNAUTHENTICATED), one with a wrong token too, a plaintext client cannot
talk to a TLS port at all, and health checking answers without a token.
"""

from __future__ import annotations

import datetime
import ipaddress
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import grpc
import pytest
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID
from grpc_health.v1 import health_pb2, health_pb2_grpc

from taumesh.domains import Catalog
from taumesh.env.v1 import env_pb2, env_pb2_grpc
from taumesh.rpc.errors import error_reason
from taumesh.rpc.security import ServerSecurity
from taumesh.rpc.server import CHANNEL_OPTIONS, start_server
from taumesh.services.env import env_service
from tests.helpers.cli import (
    ORACLE,
    check_oracle_results,
    explain_result,
    invoke,
    load_json,
    results_path,
    taumesh_executable,
)
from tests.helpers.grpc_services import LoopThread
from tests.helpers.paths import V1_DATA
from tests.helpers.processes import Server

SERVICES = ("env", "user-sim", "agent", "scorer")
TOKEN = "s3cret-test-token"


def _key() -> ec.EllipticCurvePrivateKey:
    return ec.generate_private_key(ec.SECP256R1())


def _pem_key(key: ec.EllipticCurvePrivateKey) -> bytes:
    encoding, key_format = serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8
    return key.private_bytes(encoding, key_format, serialization.NoEncryption())


def _name(common_name: str) -> x509.Name:
    return x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, common_name)])


@dataclass
class Pki:
    """A test CA, a server certificate it signed for 127.0.0.1 and localhost, and a client one, as PEM files."""

    ca: Path
    cert: Path
    key: Path
    client_cert: Path
    client_key: Path


@pytest.fixture(scope="module")
def pki(tmp_path_factory: pytest.TempPathFactory) -> Pki:
    folder = tmp_path_factory.mktemp("pki")
    now = datetime.datetime.now(datetime.UTC)
    ca_key, server_key = _key(), _key()
    ca_cert = (
        x509.CertificateBuilder()
        .subject_name(_name("taumesh test CA"))
        .issuer_name(_name("taumesh test CA"))
        .public_key(ca_key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(minutes=5))
        .not_valid_after(now + datetime.timedelta(days=1))
        .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
        .sign(ca_key, hashes.SHA256())
    )
    server_cert = _leaf(ca_key, ca_cert, "localhost", server_key)
    client_key = _key()
    client_cert = _leaf(ca_key, ca_cert, "taumesh test client", client_key)
    files = ("ca.pem", "server.pem", "server.key", "client.pem", "client.key")
    pki = Pki(*(folder / name for name in files))
    pki.ca.write_bytes(ca_cert.public_bytes(serialization.Encoding.PEM))
    pki.cert.write_bytes(server_cert.public_bytes(serialization.Encoding.PEM))
    pki.key.write_bytes(_pem_key(server_key))
    pki.client_cert.write_bytes(client_cert.public_bytes(serialization.Encoding.PEM))
    pki.client_key.write_bytes(_pem_key(client_key))
    return pki


def _leaf(
    ca_key: ec.EllipticCurvePrivateKey, ca_cert: x509.Certificate, name: str, key: ec.EllipticCurvePrivateKey
) -> x509.Certificate:
    """A certificate for ``name``, 127.0.0.1 and localhost, signed by the CA."""
    now = datetime.datetime.now(datetime.UTC)
    return (
        x509.CertificateBuilder()
        .subject_name(_name(name))
        .issuer_name(ca_cert.subject)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(minutes=5))
        .not_valid_after(now + datetime.timedelta(days=1))
        .add_extension(
            x509.SubjectAlternativeName(
                [x509.DNSName("localhost"), x509.IPAddress(ipaddress.IPv4Address("127.0.0.1"))]
            ),
            critical=False,
        )
        .sign(ca_key, hashes.SHA256())
    )


@pytest.fixture(scope="module")
def tls_services(pki: Pki, tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, str]]:
    """The four services over TLS, each requiring the token; name → address."""
    folder = tmp_path_factory.mktemp("tls-services")
    token_file = folder / "token"
    token_file.write_text(TOKEN + "\n", encoding="utf-8")
    started = []
    try:
        for name in SERVICES:
            argv = [
                taumesh_executable(), "serve", name, "--port", "0", "--data-dir", str(V1_DATA),
                "--tls-cert", str(pki.cert), "--tls-key", str(pki.key), "--token-file", str(token_file),
            ]  # fmt: skip
            started.append(Server.spawn(argv, folder / f"{name}.log"))
        for server in started:  # all start at once, then each is waited for
            server.wait_ready(r"serving \S+ on (?P<address>127\.0\.0\.1:\d+)")
        yield {name: server.address for name, server in zip(SERVICES, started, strict=True)}
    finally:
        for server in started:
            server.kill()
        for server in started:
            assert "Traceback" not in server.stderr(), server.stderr()


def tls_channel(pki: Pki, address: str, token: str | None = None) -> grpc.Channel:
    credentials = grpc.ssl_channel_credentials(root_certificates=pki.ca.read_bytes())
    if token is not None:
        credentials = grpc.composite_channel_credentials(credentials, grpc.access_token_call_credentials(token))
    return grpc.secure_channel(address, credentials, options=CHANNEL_OPTIONS)


def list_domains(channel: grpc.Channel) -> env_pb2.ListDomainsResponse:
    response: env_pb2.ListDomainsResponse = env_pb2_grpc.EnvServiceStub(channel).ListDomains(
        env_pb2.ListDomainsRequest(), timeout=30
    )
    return response


@pytest.mark.slow  # the first on the four TLS service processes: ~4 s to start them
def test_without_the_token_a_call_is_refused_and_health_still_answers(pki: Pki, tls_services: dict[str, str]) -> None:
    for name, address in tls_services.items():
        with tls_channel(pki, address) as channel:
            health = health_pb2_grpc.HealthStub(channel).Check(health_pb2.HealthCheckRequest(), timeout=30)
            assert health.status == health_pb2.HealthCheckResponse.SERVING, name
    with tls_channel(pki, tls_services["env"]) as channel:
        with pytest.raises(grpc.RpcError) as refused:
            list_domains(channel)
        assert refused.value.code() == grpc.StatusCode.UNAUTHENTICATED
        assert error_reason(refused.value) == "TOKEN_REQUIRED"
        assert "authorization: Bearer" in (refused.value.details() or "")
    with tls_channel(pki, tls_services["env"], token="not-the-token") as channel:
        with pytest.raises(grpc.RpcError) as wrong:
            list_domains(channel)
        assert wrong.value.code() == grpc.StatusCode.UNAUTHENTICATED
        assert error_reason(wrong.value) == "TOKEN_INVALID"
        assert TOKEN not in (wrong.value.details() or "")
    with tls_channel(pki, tls_services["env"], token=TOKEN) as channel:
        assert {d.name for d in list_domains(channel).domains} >= {"retail", "airline"}
    # a plaintext client gets no answer from a TLS port, token or not
    with grpc.insecure_channel(tls_services["env"]) as channel:
        with pytest.raises(grpc.RpcError) as plain:
            health_pb2_grpc.HealthStub(channel).Check(health_pb2.HealthCheckRequest(), timeout=5)
        assert plain.value.code() == grpc.StatusCode.UNAVAILABLE


@pytest.mark.slow  # on the four TLS service processes
def test_the_orchestrator_runs_over_tls_with_the_token_from_its_environment(
    pki: Pki, tls_services: dict[str, str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    token_file = tmp_path / "client-token"
    token_file.write_text(TOKEN, encoding="utf-8")
    monkeypatch.setenv("TAUMESH_TLS_CA", str(pki.ca))
    monkeypatch.setenv("TAUMESH_TOKEN_FILE", str(token_file))
    nowhere = tmp_path / "no-data"  # every call goes to the four TLS services
    result = invoke(
        "run", "--env", "retail", "--task-split", "test", *ORACLE, "--data-dir", nowhere, "--log-dir", tmp_path / "run",
        "--end-index", "3", "--max-concurrency", "3",
        "--env-addr", tls_services["env"], "--user-addr", tls_services["user-sim"],
        "--agent-addr", tls_services["agent"], "--scorer-addr", tls_services["scorer"],
    )  # fmt: skip
    assert result.exit_code == 0, explain_result(result)
    check_oracle_results(load_json(results_path(tmp_path / "run")), "retail", "test", [0, 1, 2])


def test_serve_refuses_half_a_tls_setup_in_one_line(tmp_path: Path, pki: Pki) -> None:
    result = invoke("serve", "env", "--port", "0", "--data-dir", V1_DATA, "--tls-cert", pki.cert)
    assert result.exit_code == 2
    assert re.search(r"tls_cert and tls_key go together", result.output), result.output


def test_mutual_tls_refuses_a_client_without_a_certificate(pki: Pki, v1_data_dir: Path) -> None:
    catalog = Catalog(v1_data_dir)
    loop = LoopThread()
    security = ServerSecurity(tls_cert=pki.cert, tls_key=pki.key, tls_client_ca=pki.ca)
    running = loop.run(start_server([env_service(catalog)], security=security))
    try:
        with tls_channel(pki, running.address) as channel:  # the server's CA, but no certificate of its own
            with pytest.raises(grpc.RpcError) as refused:
                list_domains(channel)
            assert refused.value.code() == grpc.StatusCode.UNAVAILABLE
        credentials = grpc.ssl_channel_credentials(
            root_certificates=pki.ca.read_bytes(),
            private_key=pki.client_key.read_bytes(),
            certificate_chain=pki.client_cert.read_bytes(),
        )
        with grpc.secure_channel(running.address, credentials, options=CHANNEL_OPTIONS) as channel:
            assert {d.name for d in list_domains(channel).domains} >= {"retail", "airline"}
    finally:
        loop.run(running.stop(grace=0.5))
        loop.close()
