"""ListDomains describes only the domains a run asks for (``describe_only``) and names the others, so starting a run
reads no other domain's tasks; without it, every domain is described."""

from __future__ import annotations

from taumesh.env.v1 import env_pb2, env_pb2_grpc
from taumesh.orchestrator.domain_info import domain_info, listing_request


def test_a_run_gets_its_domain_described_and_the_others_named(env_stub: env_pb2_grpc.EnvServiceStub) -> None:
    everything = env_stub.ListDomains(env_pb2.ListDomainsRequest(), timeout=60)
    described = {d.name for d in everything.domains if d.splits}
    assert {"retail", "airline"} <= described

    asked = env_stub.ListDomains(listing_request("retail"), timeout=60)
    assert [d.name for d in asked.domains if d.splits] == ["retail"]
    assert {d.name for d in asked.domains} == {d.name for d in everything.domains}  # the rest named, for errors
    info = domain_info(asked, "retail")
    assert info is not None and {s.name: s.task_count for s in info.splits}["test"] == 115
