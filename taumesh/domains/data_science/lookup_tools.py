"""The desk's identity and read tools: who is asking, and what the catalogue, the grants and the reports say.

Reads never change anything; identity writes one record (the requester is verified), which the reward sees, so an
agent that works without verifying ends in another state.
"""

from __future__ import annotations

from collections import Counter

from taumesh.domains import Data, Refusal, Tool
from taumesh.domains.data_science.clock import CHANNELS, NUMERIC_COLUMNS
from taumesh.domains.data_science.records import dump, fetch, params, text
from taumesh.domains.data_science.tables import dataset_of, table_rows

_REQUESTER = text("The requester's id, such as 'rq-w1-04'.")
_DATASET = text("The data set's id, such as 'ds-w1-3'.")
_TABLE = text("A data set's id, or a cleaned table's id such as 'ds-w1-3-clean'.")


class FindRequester(Tool):
    name = "find_requester"
    description = "Find a requester's id by their full name and staff number."
    parameters = params(
        first_name=text("First name."), last_name=text("Last name."), staff_number=text("Staff number.")
    )

    @staticmethod
    def invoke(data: Data, first_name: str, last_name: str, staff_number: str) -> str:
        wanted = (first_name.strip().lower(), last_name.strip().lower(), staff_number.strip().upper())
        for person in data["requesters"].values():
            if (person["first_name"].lower(), person["last_name"].lower(), person["staff_number"]) == wanted:
                return str(person["requester_id"])
        raise Refusal("no requester with that name and staff number")


class VerifyRequester(Tool):
    name = "verify_requester"
    writes = True
    description = "Verify the requester by the passphrase registered with the desk."
    parameters = params(requester_id=_REQUESTER, passphrase=text("Their desk passphrase."))

    @staticmethod
    def invoke(data: Data, requester_id: str, passphrase: str) -> str:
        person = fetch(data, "requesters", requester_id, "requester")
        if person["passphrase"] != passphrase.strip().lower():
            raise Refusal("the passphrase does not match")
        data["verifications"][requester_id] = {"requester_id": requester_id, "verified": True}
        return dump({"requester_id": requester_id, "verified": True, "role": person["role"]})


class GetRequester(Tool):
    name = "get_requester"
    description = "A requester's record: role, team, and the day their data-privacy training lapses."
    parameters = params(requester_id=_REQUESTER)

    @staticmethod
    def invoke(data: Data, requester_id: str) -> str:
        person = dict(fetch(data, "requesters", requester_id, "requester"))
        person.pop("passphrase")
        return dump(person)


class ListDatasets(Tool):
    name = "list_datasets"
    description = "The catalogue: every data set with its owner, whether it is restricted, and its size."
    parameters = params()

    @staticmethod
    def invoke(data: Data) -> str:
        return dump(sorted(data["datasets"].values(), key=lambda d: d["dataset_id"]))


class ProfileTable(Tool):
    name = "profile_table"
    description = (
        "Profile a data set or cleaned table: its rows, the missing values per column, the rows per channel and per"
        " region, the recorded values of each numeric column per channel, and how many regions each channel covers."
    )
    parameters = params(table_id=_TABLE)

    @staticmethod
    def invoke(data: Data, table_id: str) -> str:
        rows = table_rows(data, table_id)
        columns = ("region", "channel", "visits", "spend", "tenure_months")
        return dump(
            {
                "table_id": table_id,
                "dataset": dataset_of(data, table_id),
                "rows": len(rows),
                "missing": {c: sum(r[c] is None for r in rows) for c in columns},
                "rows_per_channel": dict(sorted(Counter(r["channel"] for r in rows).items())),
                "rows_per_region": dict(sorted(Counter(r["region"] for r in rows).items())),
                "recorded_per_channel": {
                    column: dict(sorted(Counter(r["channel"] for r in rows if r[column] is not None).items()))
                    for column in NUMERIC_COLUMNS
                },
                "regions_per_channel": {
                    shown: len({r["region"] for r in rows if shown in ("all", r["channel"])})
                    for shown in ("all", *CHANNELS)
                },
            }
        )


class PreviewRows(Tool):
    name = "preview_rows"
    description = "The rows of a data set or cleaned table, in id order (a cleaned table shows its filled values)."
    parameters = params(table_id=_TABLE)

    @staticmethod
    def invoke(data: Data, table_id: str) -> str:
        return dump(table_rows(data, table_id))


class ListCleanedTables(Tool):
    name = "list_cleaned_tables"
    description = "The cleaned tables made from a data set, with the method used."
    parameters = params(dataset_id=_DATASET)

    @staticmethod
    def invoke(data: Data, dataset_id: str) -> str:
        fetch(data, "datasets", dataset_id, "data set")
        return dump([t for t in data["derived_tables"].values() if t["dataset_id"] == dataset_id])


class ListGrants(Tool):
    name = "list_grants"
    description = "The access grants on a data set, active and revoked, with their dates."
    parameters = params(dataset_id=_DATASET)

    @staticmethod
    def invoke(data: Data, dataset_id: str) -> str:
        fetch(data, "datasets", dataset_id, "data set")
        return dump([g for g in data["grants"].values() if g["dataset_id"] == dataset_id])


class ListReports(Tool):
    name = "list_reports"
    description = "The reports a requester has published, with the table, the figures and who each is shared with."
    parameters = params(requester_id=_REQUESTER)

    @staticmethod
    def invoke(data: Data, requester_id: str) -> str:
        fetch(data, "requesters", requester_id, "requester")
        return dump([r for r in data["reports"].values() if r["author_id"] == requester_id])


class ListModels(Tool):
    name = "list_models"
    description = "The models trained on a data set or its cleaned tables, with their test scores."
    parameters = params(dataset_id=_DATASET)

    @staticmethod
    def invoke(data: Data, dataset_id: str) -> str:
        fetch(data, "datasets", dataset_id, "data set")
        return dump([m for m in data["models"].values() if dataset_of(data, m["table_id"])["dataset_id"] == dataset_id])


LOOKUP_TOOLS: tuple[type[Tool], ...] = (
    FindRequester,
    VerifyRequester,
    GetRequester,
    ListDatasets,
    ProfileTable,
    PreviewRows,
    ListCleanedTables,
    ListGrants,
    ListReports,
    ListModels,
)
IDENTITY_TOOLS = frozenset({"find_requester", "verify_requester"})
"""Finding the requester by name and staff number, then verifying them by their passphrase."""
