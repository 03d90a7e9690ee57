"""YAML run files (``taumesh run --config FILE``): taumesh's settings, or the MT-bench fork's minimal form.

A file is a mapping of settings keyed by the options' names (``max_concurrency: 8``). It is in the MT fork's form
when it has ``model_name`` or ``subsets``; the fork's three keys then map to run settings, and any other key is a
setting as usual:

* ``model_name: provider/model`` → ``model_provider`` and ``model`` (split at the first ``/``, so
  ``openrouter/meta/llama-3`` is provider ``openrouter``); a name without ``/`` is the model alone;
* ``subsets: retail`` or ``subsets: [retail, airline]`` → one run per domain (``env``), one after another, each
  with its own results;
* ``dataset_name: D`` → ``dataset_name``, the MT folder's name before its timestamp (``tau_bench`` by default);
* ``output_format`` defaults to ``taubench,mt``: the fork's layout, and τ-bench's file for ``--resume``;
* ``mt_fork_folder`` defaults to true: the folder goes where the fork writes it, ``./data/{dataset_name}_{timestamp}/``
  in the working directory. ``mt_fork_folder: false`` (or ``TAUMESH_MT_FORK_FOLDER=false``) keeps taumesh's
  ``{log_dir}/data/{dataset_name}_{subset}_{timestamp}/``.

Reading the file is this module's job, validating the settings :mod:`taumesh.settings`' (unknown keys, types).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

MT_KEYS = ("dataset_name", "model_name", "subsets")
"""The MT fork's input schema."""
MT_OUTPUT_FORMAT = "taubench,mt"
"""What a file in the MT form writes unless it says otherwise."""
MT_DEFAULTS: dict[str, Any] = {"output_format": MT_OUTPUT_FORMAT, "mt_fork_folder": True}
"""Settings a file in the MT form takes as the fork does unless it says otherwise: its layout, in ``./data/``."""
REPLACED_BY = {"subsets": ("env", "domain"), "model_name": ("model", "model_provider")}
"""Settings an MT key sets, which the same file may not also set."""


class RunFileError(ValueError):
    """A run file that cannot be read; the message names the file and the key at fault."""


class MtForm(BaseModel):
    """The MT fork's keys of a run file."""

    model_config = ConfigDict(extra="forbid")

    dataset_name: str | None = Field(default=None, min_length=1)
    model_name: str | None = Field(default=None, min_length=1)
    subsets: list[str] | None = Field(default=None, min_length=1)

    @field_validator("subsets", mode="before")
    @classmethod
    def one_or_many(cls, value: Any) -> Any:
        """A single domain is a list of one."""
        return [value] if isinstance(value, str) else value

    @field_validator("subsets")
    @classmethod
    def distinct_domains(cls, value: list[str] | None) -> list[str] | None:
        """Each domain once, none empty."""
        if value is not None:
            if any(not name.strip() for name in value):
                raise ValueError("a domain name is empty")
            if len(set(value)) != len(value):
                raise ValueError(f"a domain is named twice in {value}")
        return value


def read_settings_file(path: Path) -> dict[str, Any]:
    """The file's mapping of settings, as written (an empty file is no settings)."""
    import yaml  # imported here: most runs have no settings file, and yaml's import is slow

    try:
        raw = yaml.safe_load(path.read_text(encoding="utf-8"))
    except yaml.YAMLError as exc:
        raise RunFileError(f"{path}: not valid YAML: {' '.join(str(exc).split())}") from exc
    except (OSError, UnicodeDecodeError) as exc:
        raise RunFileError(f"{path}: cannot be read: {exc}") from exc
    if raw is None:
        return {}
    if not isinstance(raw, dict) or not all(isinstance(key, str) for key in raw):
        raise RunFileError(f"{path}: the file must be a mapping of setting names to values")
    return raw


def is_mt_form(values: dict[str, Any]) -> bool:
    """Whether a file's settings are in the MT fork's form (``model_name`` or ``subsets`` present)."""
    return "model_name" in values or "subsets" in values


def read_run_file(path: Path) -> list[dict[str, Any]]:
    """The runs a run file describes, one mapping of ``taumesh run`` settings each, in the order to play them."""
    values = read_settings_file(path)
    return mt_runs(values, path) if is_mt_form(values) else [values]


def mt_runs(values: dict[str, Any], path: Path | str = "the run file") -> list[dict[str, Any]]:
    """The MT form's settings as one run per subset (one run when it names none)."""
    form = _mt_form(values, path)
    for key, replaced in REPLACED_BY.items():
        clash = [name for name in replaced if getattr(form, key) is not None and name in values]
        if clash:
            raise RunFileError(f"{path}: {key} and {', '.join(clash)} both set the same thing; keep {key}")
    base = MT_DEFAULTS | {key: value for key, value in values.items() if key not in MT_KEYS}
    if form.dataset_name is not None:
        base["dataset_name"] = form.dataset_name
    if form.model_name is not None:
        provider, _, model = form.model_name.partition("/")
        base.update({"model_provider": provider, "model": model} if model else {"model": provider})
    if form.subsets is None:
        return [base]
    return [{**base, "env": subset} for subset in form.subsets]


def _mt_form(values: dict[str, Any], path: Path | str) -> MtForm:
    try:
        return MtForm.model_validate({key: values[key] for key in MT_KEYS if key in values})
    except ValidationError as exc:
        problems = [
            f"{path}: {'.'.join(str(part) for part in error['loc'])}: {_message(error['msg'], error['loc'])}"
            for error in exc.errors()
        ]
        raise RunFileError("\n".join(problems)) from exc


def _message(msg: str, loc: tuple[int | str, ...]) -> str:
    if loc and loc[0] == "subsets" and len(loc) == 1 and not msg.startswith("Value error"):
        return f"a domain name or a list of domain names ({msg})"
    return msg.removeprefix("Value error, ")
