"""ScorerService over gRPC."""

from __future__ import annotations

from collections.abc import Sequence

from taumesh.convert import (
    messages_from_proto,
    model_from_proto,
    score_to_proto,
    task_ref_from_proto,
    termination_from_proto,
    usage_to_proto,
)
from taumesh.domains import Catalog, DataError, Episode, EpisodeMismatch, EpisodeScore
from taumesh.llm.access import current_grants
from taumesh.models import EVALUATED_TERMINATIONS, ChatMessage, Score, Usage
from taumesh.rpc.errors import Context, FailedPrecondition, InvalidArgument, NotFound, Unavailable, status_codes
from taumesh.rpc.server import Service
from taumesh.scorer.v1 import scorer_pb2, scorer_pb2_grpc
from taumesh.services.scorer.reward import GoldStates
from taumesh.services.scorer.strict import GoldErrors, StrictGrader
from taumesh.stats import MAX_OUTCOMES, TrialOutcome, pass_hat_k


class ScorerServicer(scorer_pb2_grpc.ScorerServiceServicer):
    """Scores episodes of the domains in one data directory."""

    def __init__(self, catalog: Catalog) -> None:
        self.catalog = catalog
        self.gold = GoldStates()
        self.strict = StrictGrader()

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
        strict = request.grader == scorer_pb2.GRADER_STRICT
        if strict:  # before anything else: a caller may ask whether the task is gradable before playing it
            try:
                self.strict.check_gold(domain, ref.split, task)
            except GoldErrors as exc:
                raise FailedPrecondition(str(exc), reason="GOLD_ERRORS") from exc
        if termination in EVALUATED_TERMINATIONS and not request.final_data_hash:
            raise InvalidArgument(
                "final_data_hash is required for an episode that ended",
                fields=[("final_data_hash", "required when the episode ended")],
            )
        conversation = messages_from_proto(request.conversation)
        gold_hash = self.gold.hash(domain, ref.split, task)
        try:
            score: Score = domain.score(
                Episode(domain, task, conversation, termination, request.final_data_hash, gold_hash)
            )
        except EpisodeMismatch as exc:
            raise FailedPrecondition(str(exc), reason="EPISODE_NOT_REPRODUCIBLE") from exc
        if strict and termination in EVALUATED_TERMINATIONS:
            score = self.strict.regrade(domain, ref.split, task, conversation, score)
        to_judge = score.nl_assertions if isinstance(score, EpisodeScore) else []
        usage = Usage()
        if to_judge:  # the conversation starts with the task's message history, as τ²'s trajectory does
            score, usage = await judged(score, to_judge, conversation, request, context)
        response = score_to_proto(score)
        response.judge_usage.CopyFrom(usage_to_proto(usage))
        return response

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
        outcomes = [TrialOutcome(o.task_id, o.trial, o.reward) for o in request.outcomes]
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
        """Who is at fault in each episode; a caller holding permits (``RATE_LIMITS_METADATA``) gets 429s at once."""
        from taumesh.llm.status import model_errors_as_status
        from taumesh.services.scorer.fault_analysis import analyze_faults  # imports litellm: only when asked for

        with model_errors_as_status(context):
            return await analyze_faults(self.catalog, request)


async def judged(
    score: Score,
    assertions: Sequence[str],
    conversation: Sequence[ChatMessage],
    request: scorer_pb2.ScoreEpisodeRequest,
    context: Context | None = None,
) -> tuple[Score, Usage]:
    """``score`` with the judge's NL_ASSERTION checks added and its verdict multiplied in, and what the judge cost.

    FAILED_PRECONDITION when the request names no judge (reason ``JUDGE_NOT_CONFIGURED``) or the model refuses
    the request; PERMISSION_DENIED for an endpoint the operator did not allow; UNAVAILABLE when the judge stays
    down or unreadable: the episode's score is never a 0 the judge did not give. A caller holding the provider's
    permits (``RATE_LIMITS_METADATA`` in ``context``) gets a 429 back at once, as the agent and user-sim do.
    """
    judge = model_from_proto(request.judge)
    if not judge.model:
        raise FailedPrecondition(
            f"task {request.task.task_id!r} is scored on {len(assertions)} NL assertion(s), which need a judge "
            "model: pass --judge-model (and --judge-api-base for an OpenAI-compatible server)",
            reason="JUDGE_NOT_CONFIGURED",
            fields=[("judge.model", "required when the task's reward basis holds NL_ASSERTION")],
        )
    current_grants().check_api_base(judge.api_base, "judge.api_base")
    from taumesh.llm.status import model_errors_as_status
    from taumesh.services.scorer.nl_judge import JudgeUnavailable, judge_assertions  # imports litellm

    try:
        with model_errors_as_status(context):
            judgement = await judge_assertions(judge, conversation, assertions)
    except JudgeUnavailable as exc:
        raise Unavailable(str(exc), reason="JUDGE_UNAVAILABLE") from exc
    update = {"reward": score.reward * judgement.reward, "checks": [*score.checks, *judgement.checks]}
    return score.model_copy(update=update), judgement.usage


def scorer_service(catalog: Catalog) -> Service:
    """ScorerService over ``catalog``."""
    return Service(
        name=scorer_pb2.DESCRIPTOR.services_by_name["ScorerService"].full_name,
        register=scorer_pb2_grpc.add_ScorerServiceServicer_to_server,
        servicer=ScorerServicer(catalog),
    )
