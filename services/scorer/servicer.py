"""ScorerService over gRPC."""

from __future__ import annotations

from taumesh.convert import messages_from_proto, score_to_proto, task_ref_from_proto, termination_from_proto
from taumesh.domains import Catalog, DataError, EpisodeMismatch
from taumesh.models import EVALUATED_TERMINATIONS
from taumesh.rpc.errors import Context, FailedPrecondition, InvalidArgument, NotFound, status_codes
from taumesh.rpc.server import Service
from taumesh.scorer.v1 import scorer_pb2, scorer_pb2_grpc
from taumesh.services.scorer.pass_hat_k import MAX_OUTCOMES, Outcome, pass_hat_k
from taumesh.services.scorer.reward import GoldStates


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
        termination = termination_from_proto(request.termination)
        try:
            domain, task = self.catalog.find_task(ref.domain, ref.split, ref.task_id)
        except (KeyError, DataError) as exc:
            raise NotFound(str(exc.args[0]), reason="TASK_NOT_FOUND", fields=[("task", "unknown task")]) from exc
        if termination in EVALUATED_TERMINATIONS and not request.final_data_hash:
            raise InvalidArgument(
                "final_data_hash is required for an episode that ended",
                fields=[("final_data_hash", "required when the episode ended")],
            )
        conversation = messages_from_proto(request.conversation)
        gold_hash = self.gold.hash(domain, ref.split, task)
        try:
            score = domain.score(task, conversation, termination, request.final_data_hash, gold_hash)
        except EpisodeMismatch as exc:
            raise FailedPrecondition(str(exc), reason="EPISODE_NOT_REPRODUCIBLE") from exc
        return score_to_proto(score)

    @status_codes
    async def ComputePassHatK(
        self, request: scorer_pb2.ComputePassHatKRequest, context: Context
    ) -> scorer_pb2.ComputePassHatKResponse:
        if len(request.outcomes) > MAX_OUTCOMES:
            raise InvalidArgument(
                f"at most {MAX_OUTCOMES} outcomes per request, got {len(request.outcomes)}",
                reason="TOO_MANY_OUTCOMES",
                fields=[("outcomes", f"at most {MAX_OUTCOMES}")],
            )
        outcomes = [Outcome(task_id=o.task_id, trial=o.trial, reward=o.reward) for o in request.outcomes]
        try:
            result = pass_hat_k(outcomes, request.ks)
        except ValueError as exc:
            raise InvalidArgument(str(exc), fields=[("ks", "each k within 1..trials")]) from exc
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
