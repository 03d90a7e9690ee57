"""The viewer answers only the names it is reached by (DNS rebinding), through a real HTTP server."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from tests.helpers.viewer import VIEW_COMMAND, ServedViewer
from tests.helpers.viewer_thread import ThreadViewer


@pytest.fixture
def viewer(tmp_path: Path) -> Iterator[ThreadViewer]:
    served = ThreadViewer([tmp_path])
    try:
        yield served
    finally:
        served.close()


def test_a_foreign_host_is_refused(viewer: ThreadViewer) -> None:
    for path in ("/api/runs", "/", "/static/app.js", "/api/openapi.json"):
        for host in ("evil.example", f"evil.example:{viewer.port}", "127.0.0.1.nip.io"):
            response = httpx.get(viewer.url + path, headers={"Host": host})
            assert response.status_code == 400, (path, host, response.status_code)
            assert "host" in response.text.lower()
    for host in (f"localhost:{viewer.port}", f"127.0.0.1:{viewer.port}", f"[::1]:{viewer.port}"):
        assert httpx.get(viewer.url + "/api/runs", headers={"Host": host}).status_code == 200, host


def test_a_page_of_another_site_is_refused(viewer: ThreadViewer) -> None:
    response = httpx.get(viewer.url + "/api/runs", headers={"Origin": "https://evil.example"})
    assert response.status_code == 403 and "origin" in response.text.lower()
    assert httpx.get(viewer.url + "/api/runs", headers={"Origin": viewer.url}).status_code == 200


def test_the_health_probe_answers_any_host(viewer: ThreadViewer) -> None:
    """Kubernetes' httpGet probes send the pod's address as Host: /healthz reads nothing and answers them."""
    response = httpx.get(viewer.url + "/healthz", headers={"Host": "10.244.1.7:8765"})
    assert response.status_code == 200 and response.json() == {"status": "ok"}


@pytest.mark.slow
def test_taumesh_view_allows_the_hosts_and_origins_its_flags_name(tmp_path: Path) -> None:
    flags = ["--allowed-host", "viewer.test", "--allowed-origin", "https://console.test"]
    served = ServedViewer([tmp_path], command=[*VIEW_COMMAND, *flags])
    try:
        assert httpx.get(served.url + "/api/runs", headers={"Host": "viewer.test"}).status_code == 200
        assert httpx.get(served.url + "/api/runs", headers={"Host": "viewer.test:80"}).status_code == 200
        assert httpx.get(served.url + "/api/runs", headers={"Host": "other.test"}).status_code == 400
        assert httpx.get(served.url + "/api/runs", headers={"Origin": "https://console.test"}).status_code == 200
        assert httpx.get(served.url + "/api/runs", headers={"Origin": "https://other.test"}).status_code == 403
    finally:
        served.close()
