"""The desk's analysis tools: cleaning, summaries, group comparisons, models and charts.

Each tool computes its own figures (statistics.py) and stores them under an id made from what was asked, so any
correct way of asking lands in the same state, and a second request for the same thing is refused rather than
stacked. Whether the policy allows a request at all (access, the cleaning rule, group sizes, chart types) is the
agent's to judge, so that a trap's forbidden write is possible and the agent must decline it.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from taumesh.domains import Data, Refusal, Tool
from taumesh.domains.data_science.clock import CATEGORY_COLUMNS, CHANNELS, NUMERIC_COLUMNS
from taumesh.domains.data_science.records import dump, fetch, one_of, params, text
from taumesh.domains.data_science.statistics import (
    least_squares,
    mean,
    median,
    rmse,
    summary_figures,
    two,
    welch_t,
)
from taumesh.domains.data_science.tables import table_rows, values

_TABLE = text("A data set's id, or a cleaned table's id such as 'ds-w1-3-clean'.")
_REQUESTER = text("The id of the requester the work is for.")
_NUMERIC = text("A numeric column.", NUMERIC_COLUMNS)
METHODS = ("drop_missing", "impute_median")
FILTERS = ("all", *CHANNELS)


def _new(data: Data, table: str, key: str, record: dict[str, Any]) -> str:
    if key in data[table]:
        raise Refusal(f"{key} already exists")
    data[table][key] = record
    return dump(record)


def _requester(data: Data, requester_id: str) -> None:
    fetch(data, "requesters", requester_id, "requester")


class CleanDataset(Tool):
    name = "clean_dataset"
    writes = True
    description = (
        "Make the cleaned table '<dataset_id>-clean' of a data set: drop the rows whose spend is missing, or fill"
        " missing spend with the median of the recorded spend. A data set has one cleaned table."
    )
    parameters = params(dataset_id=text("The data set's id."), method=text("How to treat missing spend.", METHODS))

    @staticmethod
    def invoke(data: Data, dataset_id: str, method: str) -> str:
        fetch(data, "datasets", dataset_id, "data set")
        one_of(method, METHODS, "method")
        rows = table_rows(data, dataset_id)
        recorded = values(rows, "spend")
        drop = method == "drop_missing"
        kept = [r["row_id"] for r in rows if not (drop and r["spend"] is None)]
        table_id = f"{dataset_id}-clean"
        record: dict[str, Any] = {
            "table_id": table_id,
            "dataset_id": dataset_id,
            "method": method,
            "row_ids": kept,
            "fill_value": None if drop else two(median(recorded)),
        }
        _new(data, "derived_tables", table_id, record)
        cleaned = values(table_rows(data, table_id), "spend")
        return dump({**record, "rows": len(kept), "mean_spend": two(mean(cleaned))})


class PublishSummary(Tool):
    name = "publish_summary"
    writes = True
    description = "Publish a summary of a numeric column (count, mean, median, standard deviation of recorded values)."
    parameters = params(table_id=_TABLE, column=_NUMERIC, requester_id=_REQUESTER)

    @staticmethod
    def invoke(data: Data, table_id: str, column: str, requester_id: str) -> str:
        _requester(data, requester_id)
        one_of(column, NUMERIC_COLUMNS, "column")
        found = values(table_rows(data, table_id), column)
        figures = summary_figures(found)
        key = f"rp-{table_id}-summary-{column}-{requester_id}"
        record = {
            "report_id": key,
            "author_id": requester_id,
            "table_id": table_id,
            "kind": "summary",
            "column": column,
            "figures": figures,
            "shared_with": [],
        }
        return _new(data, "reports", key, record)


class RunGroupTest(Tool):
    name = "run_group_test"
    writes = True
    description = (
        "Compare a numeric column between web and store customers with Welch's two-sample t-test, on the recorded"
        " values, and publish the result as a report (each group's rows and mean, and the absolute t statistic)."
    )
    parameters = params(table_id=_TABLE, column=_NUMERIC, requester_id=_REQUESTER)

    @staticmethod
    def invoke(data: Data, table_id: str, column: str, requester_id: str) -> str:
        _requester(data, requester_id)
        one_of(column, NUMERIC_COLUMNS, "column")
        rows = table_rows(data, table_id)
        groups = {c: values([r for r in rows if r["channel"] == c], column) for c in CHANNELS}
        if any(len(found) < 2 for found in groups.values()):
            raise Refusal("each group needs at least two recorded values")
        figures = {f"{c}_rows": float(len(found)) for c, found in groups.items()}
        figures |= {f"{c}_mean": two(mean(found)) for c, found in groups.items()}
        figures["t_statistic"] = two(welch_t(groups["web"], groups["store"]))
        key = f"rp-{table_id}-group_test-{column}-{requester_id}"
        record = {
            "report_id": key,
            "author_id": requester_id,
            "table_id": table_id,
            "kind": "group_test",
            "column": column,
            "figures": figures,
            "shared_with": [],
        }
        return _new(data, "reports", key, record)


class TrainModel(Tool):
    name = "train_model"
    writes = True
    description = (
        "Fit a straight line predicting spend from one feature on the table's train rows, and score it by its root"
        " mean squared error on the test rows (rows with a missing value are skipped)."
    )
    parameters = params(
        table_id=_TABLE, feature=text("The predicting column.", ("visits", "tenure_months")), requester_id=_REQUESTER
    )

    @staticmethod
    def invoke(data: Data, table_id: str, feature: str, requester_id: str) -> str:
        _requester(data, requester_id)
        one_of(feature, ("visits", "tenure_months"), "feature")
        rows = [r for r in table_rows(data, table_id) if r["spend"] is not None]
        train = [r for r in rows if r["split"] == "train"]
        test = [r for r in rows if r["split"] == "test"]
        slope, intercept = least_squares([r[feature] for r in train], [r["spend"] for r in train])
        score = rmse(slope, intercept, [r[feature] for r in test], [r["spend"] for r in test])
        key = f"md-{table_id}-{feature}-{requester_id}"
        record = {
            "model_id": key,
            "requester_id": requester_id,
            "table_id": table_id,
            "target": "spend",
            "feature": feature,
            "slope": round(slope, 4),
            "intercept": round(intercept, 4),
            "train_rows": len(train),
            "test_rows": len(test),
            "test_rmse": two(score),
        }
        return _new(data, "models", key, record)


class CreateChart(Tool):
    name = "create_chart"
    writes = True
    description = (
        "Store a chart's specification: its type, the category on x, the numeric column on y, how y is aggregated"
        " per category, and which channel's rows it shows. Answers the aggregated values it plots."
    )
    parameters = params(
        table_id=_TABLE,
        chart_type=text("The chart type.", ("bar", "pie", "line", "scatter")),
        x=text("The category column.", CATEGORY_COLUMNS),
        y=_NUMERIC,
        aggregate=text("How y is combined per category.", ("sum", "mean")),
        channel_filter=text("The rows shown.", FILTERS),
        requester_id=_REQUESTER,
    )

    @staticmethod
    def invoke(
        data: Data,
        table_id: str,
        chart_type: str,
        x: str,
        y: str,
        aggregate: str,
        channel_filter: str,
        requester_id: str,
    ) -> str:
        _requester(data, requester_id)
        one_of(x, CATEGORY_COLUMNS, "x")
        one_of(y, NUMERIC_COLUMNS, "y")
        one_of(channel_filter, FILTERS, "channel_filter")
        rows = [r for r in table_rows(data, table_id) if channel_filter in ("all", r["channel"])]
        grouped: dict[str, list[float]] = defaultdict(list)
        for row in rows:
            if row[y] is not None:
                grouped[row[x]].append(float(row[y]))
        combine = sum if aggregate == "sum" else mean
        plotted = {k: two(combine(v)) for k, v in sorted(grouped.items())}
        key = f"cht-{table_id}-{chart_type}-{x}-{y}-{aggregate}-{channel_filter}"
        record = {
            "chart_id": key,
            "requester_id": requester_id,
            "table_id": table_id,
            "chart_type": chart_type,
            "x": x,
            "y": y,
            "aggregate": aggregate,
            "channel_filter": channel_filter,
        }
        _new(data, "charts", key, record)
        return dump({**record, "plotted": plotted})


ANALYSIS_TOOLS: tuple[type[Tool], ...] = (CleanDataset, PublishSummary, RunGroupTest, TrainModel, CreateChart)
