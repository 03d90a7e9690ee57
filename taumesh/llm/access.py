"""What a caller may make a model-calling service reach: the operator decides, a request chooses among that at most.

A served agent, user-sim or scorer calls models with the server's own API keys, so the caller must not pick where
those keys go, which files the server opens, or whether it reads its terminal. The operator allows, through the
environment of the served process:

* ``TAUMESH_ALLOWED_API_BASES``: the model endpoints (``ModelConfig.api_base``) a request may name, separated by
  commas or spaces. An empty ``api_base`` (the provider's own endpoint) is always allowed. Model calls carry the
  server's API keys, so only these hosts ever receive them.
* ``TAUMESH_ALLOWED_AGENT_URLS``: the A2A agents (purple agents) a request may name, and the only URLs of their
  agent cards that are ever dialed (a gRPC interface as ``host:port`` or ``grpc://host:port``). They receive the
  policy, the tools and the conversation, never a key, and an agent URL never makes a model endpoint allowed.
  Deprecated: an agent URL listed only in ``TAUMESH_ALLOWED_API_BASES`` (how agents were allowed before the two
  lists were split) is still accepted as an agent, with a warning; list it in ``TAUMESH_ALLOWED_AGENT_URLS``.
* ``TAUMESH_FEW_SHOT_DIR``: directories (separated by ``os.pathsep``) whose files a request may name as
  ``few_shot_displays_path``. A path elsewhere is refused whether it exists or not, so the error reveals nothing.

``taumesh run`` starts its services in the same process and :func:`granted` adds the run's own ``--api-base``
values (as an agent URL with ``--agent-strategy a2a``), few-shot file and the ``human`` user to what its embedded
services allow: flags typed by the person running the benchmark are the operator's choice. A served user-sim never
runs ``human`` (it would read the server's stdin).

The allowances are read at each request, like the retry policy, so tests and operators can change them without a
restart.
"""

from __future__ import annotations

import logging
import operator
import os
import re
from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager
from functools import lru_cache, reduce
from pathlib import Path

from pydantic import BaseModel

from taumesh.rpc.errors import PermissionDenied, clip

log = logging.getLogger(__name__)

ALLOWED_API_BASES_ENV = "TAUMESH_ALLOWED_API_BASES"
"""Environment variable: model endpoints callers may name."""
ALLOWED_AGENT_URLS_ENV = "TAUMESH_ALLOWED_AGENT_URLS"
"""Environment variable: A2A agent URLs (and the agent-card interfaces) callers may name."""
FEW_SHOT_DIR_ENV = "TAUMESH_FEW_SHOT_DIR"
"""Environment variable: directories whose files callers may name as few-shot displays."""


def normalize_api_base(api_base: str) -> str:
    """``api_base`` as compared with the allowed ones: without surrounding space or trailing slashes."""
    return api_base.strip().rstrip("/")


def normalize_agent_url(url: str) -> str:
    """``url`` as compared with the allowed agent URLs: a bare ``host:port`` (an A2A gRPC target) as ``grpc://``."""
    url = normalize_api_base(url)
    return url if not url or "://" in url else f"grpc://{url}"


def _listed(text: str) -> list[str]:
    return re.split(r"[,\s]+", text)


class OperatorGrants(BaseModel, frozen=True):
    """The model endpoints, agent URLs, few-shot files and user strategies a request may ask this process for."""

    api_bases: frozenset[str] = frozenset()
    """Allowed non-empty ``api_base`` values, normalized: where model calls (with the server's keys) may go."""
    agent_urls: frozenset[str] = frozenset()
    """Allowed A2A agent URLs and card interfaces, normalized (:func:`normalize_agent_url`): never given a key."""
    few_shot_paths: tuple[Path, ...] = ()
    """Allowed few-shot files, or directories whose files are allowed (resolved)."""
    human_user: bool = False
    """Whether the ``human`` user strategy may run (only in ``taumesh run``'s own process)."""

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None) -> OperatorGrants:
        """What the operator's environment allows (the three variables above)."""
        env = os.environ if environ is None else environ
        dirs = env.get(FEW_SHOT_DIR_ENV, "").split(os.pathsep)
        return cls.of(
            api_bases=_listed(env.get(ALLOWED_API_BASES_ENV, "")),
            agent_urls=_listed(env.get(ALLOWED_AGENT_URLS_ENV, "")),
            few_shot_paths=dirs,
        )

    @classmethod
    def of(
        cls,
        *,
        api_bases: Iterable[str] = (),
        agent_urls: Iterable[str] = (),
        few_shot_paths: Iterable[str | Path] = (),
        human_user: bool = False,
    ) -> OperatorGrants:
        """Grants for these values (empty ones ignored)."""
        return cls(
            api_bases=frozenset(normalize_api_base(b) for b in api_bases if normalize_api_base(b)),
            agent_urls=frozenset(normalize_agent_url(u) for u in agent_urls if normalize_agent_url(u)),
            few_shot_paths=tuple(Path(p).expanduser().resolve() for p in few_shot_paths if str(p).strip()),
            human_user=human_user,
        )

    def __or__(self, other: OperatorGrants) -> OperatorGrants:
        return OperatorGrants(
            api_bases=self.api_bases | other.api_bases,
            agent_urls=self.agent_urls | other.agent_urls,
            few_shot_paths=self.few_shot_paths + other.few_shot_paths,
            human_user=self.human_user or other.human_user,
        )

    def check_api_base(self, api_base: str, field: str) -> None:
        """PERMISSION_DENIED (reason ``API_BASE_NOT_ALLOWED``) unless ``api_base`` is empty or allowed."""
        if not api_base.strip() or normalize_api_base(api_base) in self.api_bases:
            return
        raise PermissionDenied(
            f"model endpoint {clip(api_base, 200)!r} is not one this server's operator allowed "
            f"({ALLOWED_API_BASES_ENV}); leave api_base empty for the provider's own endpoint",
            reason="API_BASE_NOT_ALLOWED",
            fields=[(field, "not an allowed model endpoint")],
        )

    def check_agent_url(self, url: str, field: str) -> None:
        """PERMISSION_DENIED (reason ``AGENT_URL_NOT_ALLOWED``) unless ``url`` is an allowed A2A agent URL.

        Deprecated path: a URL only in the model endpoints (``TAUMESH_ALLOWED_API_BASES``) passes, with a warning.
        """
        wanted = normalize_agent_url(url)
        if wanted and wanted in self.agent_urls:
            return
        if wanted and wanted in {normalize_agent_url(b) for b in self.api_bases}:
            _warn_deprecated_agent_allowance(wanted)
            return
        raise PermissionDenied(
            f"A2A agent URL {clip(url, 200)!r} is not one this server's operator allowed ({ALLOWED_AGENT_URLS_ENV}, "
            "or `taumesh serve a2a --allow-agent`)",
            reason="AGENT_URL_NOT_ALLOWED",
            fields=[(field, "not an allowed agent URL")],
        )

    def few_shot_file(self, path_text: str, field: str) -> Path:
        """The resolved path, or PERMISSION_DENIED (``FEW_SHOT_PATH_NOT_ALLOWED``) when outside every allowed one.

        Decided on the path alone, before the file system is asked whether it exists.
        """
        try:
            path: Path | None = Path(path_text).expanduser().resolve()
        except (OSError, ValueError):  # a NUL byte, a loop of links: refused like any other path
            path = None
        if path is not None and any(path.is_relative_to(allowed) for allowed in self.few_shot_paths):
            return path
        raise PermissionDenied(
            f"few-shot displays file {clip(path_text, 200)!r} is not under a directory this server's operator "
            f"allowed ({FEW_SHOT_DIR_ENV})",
            reason="FEW_SHOT_PATH_NOT_ALLOWED",
            fields=[(field, "not under an allowed directory")],
        )

    def check_human_user(self, field: str) -> None:
        """PERMISSION_DENIED (``STRATEGY_NOT_SERVED``) unless this is ``taumesh run``'s own process."""
        if self.human_user:
            return
        raise PermissionDenied(
            "user strategy 'human' reads the terminal of `taumesh run`: only its embedded user service runs it",
            reason="STRATEGY_NOT_SERVED",
            fields=[(field, "'human' is not served")],
        )


@lru_cache(maxsize=64)
def _warn_deprecated_agent_allowance(url: str) -> None:
    """Once per URL: the agent is allowed only through the model endpoints' list."""
    log.warning(
        "A2A agent %s is allowed only through %s (deprecated for agents): list it in %s",
        url,
        ALLOWED_API_BASES_ENV,
        ALLOWED_AGENT_URLS_ENV,
    )


_granted_here = OperatorGrants()
"""What ``taumesh run`` granted its own in-process services (see :func:`granted`): the union of the open blocks."""
_open_grants: list[OperatorGrants] = []
"""The grants of every :func:`granted` block open now, in the order they opened."""


@lru_cache(maxsize=16)
def _grants_of(api_bases: str, agent_urls: str, few_shot_dirs: str, here: OperatorGrants) -> OperatorGrants:
    environ = {ALLOWED_API_BASES_ENV: api_bases, ALLOWED_AGENT_URLS_ENV: agent_urls, FEW_SHOT_DIR_ENV: few_shot_dirs}
    return OperatorGrants.from_env(environ) | here


def current_grants() -> OperatorGrants:
    """What a request may ask this process for now: the operator's environment plus :func:`granted` values.

    Built once per set of those values (building resolves paths: 0.1 ms on every model call otherwise).
    """
    env = os.environ
    return _grants_of(
        env.get(ALLOWED_API_BASES_ENV, ""),
        env.get(ALLOWED_AGENT_URLS_ENV, ""),
        env.get(FEW_SHOT_DIR_ENV, ""),
        _granted_here,
    )


@contextmanager
def granted(grants: OperatorGrants) -> Iterator[None]:
    """Within the block, this process's services also allow ``grants`` (``taumesh run``'s own flags).

    Blocks may overlap in any order (concurrent group rollouts in one server): each one's exit withdraws its own
    grants only, so what another block still open granted stays.
    """
    global _granted_here
    _open_grants.append(grants)
    _granted_here = reduce(operator.or_, _open_grants, OperatorGrants())
    try:
        yield
    finally:
        del _open_grants[next(i for i, open_ in enumerate(_open_grants) if open_ is grants)]
        _granted_here = reduce(operator.or_, _open_grants, OperatorGrants())
