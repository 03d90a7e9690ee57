"""ScorerService over gRPC."""

from __future__ import annotations

import json

from taumesh.convert import messages_from_proto, task_ref_from_proto
from taumesh.domains import Catalog, DataError
from taumesh.rpc.errors import Context, InvalidArgument, NotFound, status_codes
from taumesh.rpc.server import Service
from taumesh.scorer.v1 import scorer_pb2, scorer_pb2_grpc
from taumesh.services.scorer.pass_hat_k import Outcome, pass_hat_k
from taumesh.services.scorer.reward import ActionsCheck, GoldStates, OutputsCheck, compute_reward


class ScorerServicer(scorer_pb2_grpc.ScorerServiceServicer):
    """Scores episodes of the domains in one data directory."""

    def __init__(self, catalog: Catalog) -> None:
        self.catalog = catalog
        self.gold = GoldStates()

    @status_codes
    async def ScoreEpisode(
        self, request: scorer_pb2.ScoreEpisodeRequest, context: Context
    ) -> scorer_pb2.ScoreEpisodeResponse:
        ref = task_ref_from_proto(request.task)
        try:
            domain, task = self.catalog.task(ref.domain, ref.split, ref.index)
        except (KeyError, IndexError, DataError) as exc:
            raise NotFound(str(exc.args[0])) from exc
        if request.ended and not request.final_data_hash:
            raise InvalidArgument("final_data_hash is required for an episode that ended")
        conversation = messages_from_proto(request.conversation)
        responses = [m.content for m in conversation if m.role == "assistant" and not m.tool_calls]
        gold_hash = self.gold.hash(domain, ref.split, ref.index, task)
        reward = compute_reward(domain, task, gold_hash, request.ended, request.final_data_hash, responses)
        response = scorer_pb2.ScoreEpisodeResponse(
            reward=reward.reward,
            gold_actions=[scorer_pb2.GoldAction(name=a.name, kwargs_json=json.dumps(a.kwargs)) for a in reward.actions],
            required_outputs=task.outputs,
        )
        if isinstance(reward.info, ActionsCheck):
            response.actions_check.CopyFrom(
                scorer_pb2.ActionsCheck(r_actions=reward.info.r_actions, gt_data_hash=reward.info.gt_data_hash)
            )
        elif isinstance(reward.info, OutputsCheck):
            response.outputs_check.CopyFrom(
                scorer_pb2.OutputsCheck(
                    r_outputs=reward.info.r_outputs,
                    outputs=[scorer_pb2.OutputCheck(output=o, found=f) for o, f in reward.info.outputs.items()],
                )
            )
        return response

    @status_codes
    async def ComputePassHatK(
        self, request: scorer_pb2.ComputePassHatKRequest, context: Context
    ) -> scorer_pb2.ComputePassHatKResponse:
        outcomes = [Outcome(task_id=o.task_id, trial=o.trial, reward=o.reward) for o in request.outcomes]
        try:
            result = pass_hat_k(outcomes, request.ks)
        except ValueError as exc:
            raise InvalidArgument(str(exc)) from exc
        return scorer_pb2.ComputePassHatKResponse(
            values=[scorer_pb2.PassHatK(k=k, value=v) for k, v in result.values.items()],
            task_count=result.task_count,
            trials_per_task=result.trials_per_task,
            average_reward=result.average_reward,
        )

    @status_codes
    async def AnalyzeFaults(
        self, request: scorer_pb2.AnalyzeFaultsRequest, context: Context
    ) -> scorer_pb2.AnalyzeFaultsResponse:
        from taumesh.services.scorer.fault_analysis import analyze_faults  # imports litellm: only when asked for

        return await analyze_faults(self.catalog, request)


def scorer_service(catalog: Catalog) -> Service:
    """ScorerService over ``catalog``."""
    return Service(
        name=scorer_pb2.DESCRIPTOR.services_by_name["ScorerService"].full_name,
        register=scorer_pb2_grpc.add_ScorerServiceServicer_to_server,
        servicer=ScorerServicer(catalog),
    )
