"""Tools over A/B tests: list a campaign's tests, start one, and stop one with its winner.

Whether a test may start or stop (one at a time per campaign; the stopping rule) is the policy's, not the tools'.
"""

from __future__ import annotations

from taumesh.domains import Data, Refusal, Tool
from taumesh.domains.advertising.clock import TODAY
from taumesh.domains.advertising.records import dump, next_id, params, record, string, world_tag

CAMPAIGN = string("The campaign's id, such as 'cmp-w1-007'.")


class ListExperiments(Tool):
    name = "list_experiments"
    description = "A campaign's A/B tests: start date, status, each arm's variant, visitors and conversions, winner."
    parameters = params(campaign_id=CAMPAIGN)

    @staticmethod
    def invoke(data: Data, campaign_id: str) -> str:
        record(data, "campaigns", campaign_id, "campaign")
        return dump([e for e in data["experiments"].values() if e["campaign_id"] == campaign_id])


class StartExperiment(Tool):
    name = "start_experiment"
    writes = True
    description = "Start an A/B test on a campaign today, splitting its traffic evenly between two creative variants."
    parameters = params(
        campaign_id=CAMPAIGN,
        variant_a=string("Arm A's creative: the one running now."),
        variant_b=string("Arm B's creative: the challenger."),
    )

    @staticmethod
    def invoke(data: Data, campaign_id: str, variant_a: str, variant_b: str) -> str:
        record(data, "campaigns", campaign_id, "campaign")
        if not variant_a.strip() or not variant_b.strip() or variant_a.strip() == variant_b.strip():
            raise Refusal("a test compares two different named variants")
        experiment_id = next_id(data, "experiments", "exp", world_tag(campaign_id))
        experiment = {
            "experiment_id": experiment_id,
            "campaign_id": campaign_id,
            "start_date": TODAY.isoformat(),
            "status": "running",
            "arms": {
                "A": {"variant": variant_a.strip(), "visitors": 0, "conversions": 0},
                "B": {"variant": variant_b.strip(), "visitors": 0, "conversions": 0},
            },
            "winner": None,
        }
        data["experiments"][experiment_id] = experiment
        return dump(experiment)


class ConcludeExperiment(Tool):
    name = "conclude_experiment"
    writes = True
    description = "Stop a running A/B test and record its winning arm; the campaign then runs the winner's creative."
    parameters = params(
        experiment_id=string("The test's id, such as 'exp-w1-004'."),
        winner=string("The winning arm.", ["A", "B"]),
    )

    @staticmethod
    def invoke(data: Data, experiment_id: str, winner: str) -> str:
        experiment = record(data, "experiments", experiment_id, "experiment")
        if experiment["status"] != "running":
            raise Refusal("the test has stopped already")
        if winner not in experiment["arms"]:
            raise Refusal("the winner is arm A or arm B")
        experiment["status"] = "concluded"
        experiment["winner"] = winner
        return dump(experiment)


EXPERIMENT_TOOLS = (ListExperiments, StartExperiment, ConcludeExperiment)
