"""Task labels for the viewer: the task fields a domain names through its ``labels()`` hook.

Healthcare's are intent, tier, trap and dual control. Their values come from the domain's own task files (found by
name through the registry, as the services find them), since a results file records none. A domain that declares no
labels is not even loaded. Which fields are labels is the domain's to say (``DomainPlugin.labels``); the viewer knows
none. Labels need the domain's description only: a domain that cannot run where the viewer serves (a model or
sandbox missing) still shows them.
"""

from __future__ import annotations

from pathlib import Path

from taumesh.domains import Catalog, DataError, PluginError, Registry


def task_labels(domain_name: str, data_dir: Path = Path("data")) -> dict[str, dict[str, str]]:
    """Each task id's labels (field -> text), over every split of ``domain_name`` whose file exists."""
    try:
        registry = Registry.discover()
        names = registry.get(domain_name).labels()
        if not names:
            return {}
        domain = Catalog(data_dir, registry).describe(domain_name)  # its tasks, whether or not it runs here
        found: dict[str, dict[str, str]] = {}
        for split in domain.spec.splits:
            if domain.has_split_file(split):
                for task in domain.tasks(split):
                    values = {name: getattr(task, name, None) for name in names}
                    found.setdefault(task.id, {k: _text(v) for k, v in values.items() if v is not None})
        return found
    except (KeyError, DataError, PluginError, OSError):
        return {}


def _text(value: object) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


def label_matches(labels: dict[str, str], wanted: str) -> bool:
    """Whether ``labels`` hold ``wanted`` (``name=value``; empty: every row)."""
    if not wanted:
        return True
    name, _, value = wanted.partition("=")
    return labels.get(name) == value
