"""What the env says of a run's domain, and the run resolved by it: split, seed and limits the run leaves unset.

Every front door's run is resolved here before it plays (the runner, the REST API, the Gym, an episode played
alone): a domain declares its own run defaults (``DomainPlugin.run_defaults``), the env sends them with the domain
(``DomainInfo.run_defaults``), so no code outside the domains chooses by a domain's name.
"""

from __future__ import annotations

from functools import partial

from taumesh.convert import run_defaults_from_proto
from taumesh.env.v1 import env_pb2
from taumesh.orchestrator.clients import ServiceClients, with_retries
from taumesh.orchestrator.config import RunConfig


class ConfigError(Exception):
    """The run asks for something the services do not have (a domain, a split, a task index)."""


class DomainNotRunnable(ConfigError):
    """The env has the domain but cannot run it where it is (an embedding model or a sandbox it lacks)."""


async def listed_domains(clients: ServiceClients, config: RunConfig) -> env_pb2.ListDomainsResponse:
    """The env's domains, ``config``'s own described too (a variant as itself: :func:`listing_request`)."""
    listed: env_pb2.ListDomainsResponse = await with_retries(
        partial(clients.env.ListDomains, listing_request(config.env), timeout=config.rpc_timeout)
    )
    return listed


def listing_request(env: str) -> env_pb2.ListDomainsRequest:
    """ListDomains asking for ``env`` too, so that a variant (``<domain>:<variant>``) is described as itself.

    Only ``env`` (and its domain) is described; the others are listed by name, so the env reads no other domain's
    tasks. The env lists a variant only when named, and its release may differ from its domain's (``healthcare:v1``
    serves release 1).
    """
    base = env.partition(":")[0]  # a variant's domain too: an env that does not know the variant describes its base
    return env_pb2.ListDomainsRequest(variants=[env], describe_only=list(dict.fromkeys((env, base))))


def domain_info(listed: env_pb2.ListDomainsResponse, env: str) -> env_pb2.DomainInfo | None:
    """``env``'s entry with data; a variant an older env did not describe: its domain's. None when there is none."""
    base = env.partition(":")[0]  # a variant (taumesh.domains.VARIANT_SEPARATOR) has its domain's splits
    for name in dict.fromkeys((env, base)):
        for domain in listed.domains:
            if domain.name == name and domain.splits:
                return domain
    return None


async def served_domain(clients: ServiceClients, config: RunConfig) -> env_pb2.DomainInfo | None:
    """What the env says of the run's domain (a variant: of itself); None when it serves no data for it."""
    return domain_info(await listed_domains(clients, config), config.env)


def release_of(listed: env_pb2.ListDomainsResponse, env: str) -> str:
    """The data release the env serves for ``env``, "" when it records none.

    A variant's own when ``listed`` asked for it (:func:`listing_request`), else its domain's.
    """
    return served_release(domain_info(listed, env))


def served_release(served: env_pb2.DomainInfo | None) -> str:
    """The release of the data the env serves for a domain ("" when it records none)."""
    return served.data_release if served is not None else ""


async def resolve_domain(clients: ServiceClients, config: RunConfig) -> tuple[RunConfig, env_pb2.DomainInfo]:
    """The run with what it leaves unset taken from its domain as the env serves it, and what the env says of it.

    The split (the domain's default, else its first with data), the seed, the limits and the per-trial seeds come
    from ``DomainInfo.run_defaults`` (:meth:`RunConfig.with_defaults`): the domain declares them, not its name.
    A domain the env has no data for is the configuration's fault: :class:`ConfigError`, naming those it has.
    """
    listed = await listed_domains(clients, config)
    domain = domain_info(listed, config.env)
    if domain is None:
        known = ", ".join(sorted(d.name for d in listed.domains)) or "none"
        raise ConfigError(
            f"no data for domain {config.env!r} (is --data-dir {config.data_dir} right, or is the domain "
            f"misspelled?); domains with data: {known}"
        )
    defaults = run_defaults_from_proto(domain)
    config = config.with_defaults(defaults)
    if config.task_split is None:
        config = config.model_copy(update={"task_split": defaults.split or str(domain.splits[0].name)})
    return config, domain
