"""guards/faithfulness/score.py: an answer scored against its context, end to end with the
offline verifier (docs/spec.md §Read-time faithfulness and its worked example)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from groundwire.guards.config import GuardsConfig
from groundwire.guards.faithfulness.cache import MemoryAnswerCache
from groundwire.guards.faithfulness.regenerate import RegenerationRequest
from groundwire.guards.faithfulness.score import AnswerScorer
from groundwire.guards.testing import ScriptedVerifier
from groundwire.topics.answers import Answer, ScoredAnswer
from groundwire.topics.vocab import (
    AnswerAction,
    AnswerCitationStatus,
    AnswerClaimVerdict,
    AnswerPolicy,
    AnswerWarningType,
    ClaimKind,
    RiskLevel,
    UncitedClass,
)

INBOX3 = (
    "Your Inbox3 project is at 60% completion. The main blockers are OAuth and rate limits. "
    "Your team of 3 engineers is allocated 50% to this project."
)
MEMORIES = [
    {"id": "mem_X", "text": "Inbox3 is at 60% completion.", "source": "corpus"},
    {"id": "mem_Y", "text": "Inbox3 blockers are OAuth and rate limits.", "source": "corpus"},
]
S = AnswerClaimVerdict.SUPPORTED


def answer(text: str, context: list[dict[str, Any]] | None = None, **kw: Any) -> Answer:
    fields: dict[str, Any] = {"answer_id": "a-1", "tenant_id": "acme", "user_id": "georgian"}
    fields.update(kw)
    return Answer(text=text, context=MEMORIES if context is None else context, **fields)


def guards(**faithfulness: Any) -> GuardsConfig:
    return GuardsConfig(faithfulness=faithfulness)


async def score(a: Answer, cfg: GuardsConfig | None = None, **kw: Any) -> ScoredAnswer:
    scorer = AnswerScorer(cfg or GuardsConfig(), **kw)
    try:
        return await scorer.score(a)
    finally:
        await scorer.aclose()


def kinds(scored: ScoredAnswer) -> list[tuple[ClaimKind, AnswerClaimVerdict | None]]:
    return [(c.kind, c.verdict) for c in scored.claims]


def warning_types(scored: ScoredAnswer) -> list[AnswerWarningType]:
    return [w.type for w in scored.warnings]


# -- the worked example ------------------------------------------------------------------


async def test_the_inbox3_example_scores_half_and_high() -> None:
    scored = await score(answer(INBOX3))
    assert scored.factual_claims == 4 and scored.supported_claims == 2
    assert scored.faithfulness == 0.5
    assert scored.risk is RiskLevel.HIGH
    verdicts = [c.verdict for c in scored.claims]
    assert verdicts[:2] == [S, S]
    assert all(v is not S for v in verdicts[2:])
    assert scored.claims[0].grounding is not None
    assert {s.turn_id for s in scored.claims[0].grounding.evidence_spans} == {"mem_X"}
    # warn (the default policy) annotates the unsupported claims, says why
    assert scored.policy is AnswerPolicy.WARN and scored.action is AnswerAction.WARNED
    assert scored.final_text.startswith(INBOX3[:80])
    assert "[unverified: " in scored.final_text and "3" in scored.final_text.split("[")[-1]


async def test_the_inbox3_example_with_the_context_as_one_sentence() -> None:
    context = [
        {
            "id": "mem_X",
            "text": "Inbox3 is at 60% completion, blockers are OAuth and rate limits.",
            "source": "corpus",
        }
    ]
    scored = await score(answer(INBOX3, context))
    assert (scored.faithfulness, scored.risk) == (0.5, RiskLevel.HIGH)


async def test_exclusions_do_not_count_and_say_why() -> None:
    text = (
        "Hi Georgian! Inbox3 is at 60% completion. You should fix OAuth first. "
        "Shall I draft a plan? Hope this helps!"
    )
    scored = await score(answer(text))
    assert kinds(scored) == [
        (ClaimKind.GREETING, None),
        (ClaimKind.FACTUAL, S),
        (ClaimKind.ADVICE, None),
        (ClaimKind.QUESTION, None),
        (ClaimKind.GREETING, None),
    ]
    assert all(c.why for c in scored.claims)
    assert (scored.faithfulness, scored.risk, scored.action) == (
        1.0,
        RiskLevel.NONE,
        AnswerAction.NONE,
    )
    assert scored.final_text == text


async def test_an_answer_without_factual_claims_has_no_score_and_no_risk() -> None:
    scored = await score(answer("Thanks for asking! What else would you like to know?"))
    assert scored.faithfulness is None and scored.factual_claims == 0
    assert scored.risk is RiskLevel.NONE


async def test_no_context_supports_nothing() -> None:
    scored = await score(answer("Inbox3 is at 60% completion.", []))
    [claim] = scored.claims
    assert claim.verdict is AnswerClaimVerdict.UNSUPPORTED
    assert claim.reason == "no context was given"


# -- citations inside answers ------------------------------------------------------------


async def test_a_verified_citation_and_a_phantom() -> None:
    text = "Inbox3 is at 60% completion [source:1]. The blockers are OAuth and rate limits [7]."
    scored = await score(answer(text))
    first, second = scored.claims
    assert [(c.ref, c.status) for c in first.citations] == [
        ("[source:1]", AnswerCitationStatus.VERIFIED)
    ]
    assert second.citations[0].status is AnswerCitationStatus.PHANTOM
    assert second.verdict is S  # the context still says it; the citation is invented
    assert AnswerWarningType.PHANTOM_SOURCE in warning_types(scored)
    assert (scored.validation.sources_verified, scored.validation.sources_total) == (1, 2)
    assert scored.validation.confidence == 0.5


async def test_a_miscited_claim_names_the_source_that_says_it() -> None:
    scored = await score(answer("The blockers are OAuth and rate limits [mem_X]."))
    [claim] = scored.claims
    assert claim.verdict is S
    [check] = claim.citations
    assert check.status is AnswerCitationStatus.UNSUPPORTED
    assert "mem_Y does" in check.detail
    assert AnswerWarningType.CITATION_UNSUPPORTED in warning_types(scored)


async def test_a_hash_citation_resolves() -> None:
    import hashlib

    digest = hashlib.sha256(MEMORIES[0]["text"].encode()).hexdigest()[:10]
    scored = await score(answer(f"Inbox3 is at 60% completion [{digest}]."))
    assert scored.claims[0].citations[0].source_id == "mem_X"
    assert scored.claims[0].citations[0].status is AnswerCitationStatus.VERIFIED


async def test_the_auditor_rule_rejects_a_claim_citing_model_output() -> None:
    context = [
        *MEMORIES,
        {"id": "chat:42", "text": "Inbox3 runs on Postgres.", "source": "model"},
    ]
    scored = await score(answer("Inbox3 runs on Postgres [chat:42].", context))
    [claim] = scored.claims
    assert claim.verdict is AnswerClaimVerdict.REJECTED
    assert claim.citations[0].status is AnswerCitationStatus.REJECTED_SOURCE
    assert "source_not_allowed" in claim.reason
    assert scored.risk is RiskLevel.HIGH  # an answer resting on model output does not ship
    assert AnswerWarningType.REJECTED_SOURCE in warning_types(scored)


async def test_the_auditor_rule_covers_reserved_prefixes_and_later_sources() -> None:
    """Seed 004: a cited source is rejected for a reserved id prefix (whatever its source
    tag) and for being created after the answer's turn started; the claim goes with it."""
    start = datetime(2026, 4, 1, tzinfo=UTC)
    later = (start + timedelta(minutes=5)).isoformat()
    context = [
        *MEMORIES,
        {"id": "draft:7", "text": "Inbox3 runs on Postgres.", "source": "corpus"},
        {"id": "mem_Z", "text": "Inbox3 ships in May.", "source": "corpus", "created_at": later},
    ]
    text = "Inbox3 runs on Postgres [draft:7]. Inbox3 ships in May [mem_Z]."
    scored = await score(answer(text, context, created_at=start))
    prefix, late = scored.claims
    assert [prefix.verdict, late.verdict] == [AnswerClaimVerdict.REJECTED] * 2
    assert "reserved_prefix" in prefix.reason
    assert "created_after_claim" in late.reason
    assert all(
        c.citations[0].status is AnswerCitationStatus.REJECTED_SOURCE for c in (prefix, late)
    )
    assert scored.faithfulness == 0.0 and scored.risk is RiskLevel.HIGH


async def test_model_output_never_grounds_an_uncited_claim() -> None:
    context = [{"id": "gen:1", "text": "Inbox3 runs on Postgres.", "source": "corpus"}]
    scored = await score(answer("Inbox3 runs on Postgres.", context))
    assert scored.claims[0].verdict is AnswerClaimVerdict.UNSUPPORTED
    assert "provenance" in scored.claims[0].reason


async def test_context_created_after_the_answer_started_is_not_evidence() -> None:
    start = datetime(2026, 4, 1, tzinfo=UTC)
    context = [{**MEMORIES[0], "created_at": (start + timedelta(hours=1)).isoformat()}]
    scored = await score(answer("Inbox3 is at 60% completion.", context, created_at=start))
    assert scored.claims[0].verdict is not S


async def test_a_quote_must_occur_in_the_cited_source() -> None:
    good = await score(answer('Its blockers are "OAuth and rate limits" [mem_Y].'))
    assert good.claims[0].citations[0].status is AnswerCitationStatus.VERIFIED
    bad = await score(answer('The blockers are "OAuth and billing limits" [mem_Y].'))
    [claim] = bad.claims
    assert claim.citations[0].status is AnswerCitationStatus.SNIPPET_MISMATCH
    assert claim.verdict is AnswerClaimVerdict.UNSUPPORTED
    assert AnswerWarningType.SNIPPET_MISMATCH in warning_types(bad)


async def test_line_numbers_must_exist_and_hold_the_quote() -> None:
    code = {
        "id": "src",
        "text": "def retry():\n    wait(2)\n    return call()\n",
        "source": "corpus",
    }
    ok = await score(answer('It calls "wait(2)" [src L2].', [code]))
    assert ok.claims[0].citations[0].status is AnswerCitationStatus.VERIFIED
    missing = await score(answer('It calls "wait(2)" [src L9-L12].', [code]))
    assert missing.claims[0].citations[0].status is AnswerCitationStatus.LINES_INVALID
    assert "do not exist" in missing.claims[0].citations[0].detail
    elsewhere = await score(answer('It calls "wait(2)" [src, lines 3-3].', [code]))
    assert "do not hold" in elsewhere.claims[0].citations[0].detail


async def test_stated_citations_beside_the_text() -> None:
    text = "Inbox3 is at 60% completion."
    stated = [
        {"source_id": "mem_X", "start": 0, "end": len(text), "quote": "60% completion"},
        {"source_id": "mem_Q"},  # for the whole answer, and invented
    ]
    scored = await score(answer(text, citations=stated))
    assert scored.claims[0].citations[0].status is AnswerCitationStatus.VERIFIED
    assert AnswerWarningType.PHANTOM_SOURCE in warning_types(scored)
    assert scored.validation.sources_total == 2


# -- fields -------------------------------------------------------------------------------


async def test_fields_and_files_must_be_in_a_source() -> None:
    context = [{"id": "doc", "text": "Set retry_limit in worker.yaml.", "source": "corpus"}]
    text = "The retry_limit lives in worker.yaml. Set `max_retries` to 5."
    scored = await score(answer(text, context))
    fact, advice = scored.claims
    assert fact.verdict is S and fact.phantoms == []
    assert advice.kind is ClaimKind.ADVICE and advice.phantoms == ["max_retries"]
    assert "Unverified fields: max_retries" in [w.message for w in scored.warnings]
    assert (scored.validation.fields_verified, scored.validation.fields_total) == (2, 3)


async def test_a_factual_claim_naming_an_unknown_field_is_unsupported() -> None:
    context = [{"id": "doc", "text": "The worker retries failed jobs.", "source": "corpus"}]
    scored = await score(answer("The worker retries failed jobs via max_retries.", context))
    assert scored.claims[0].verdict is AnswerClaimVerdict.UNSUPPORTED
    assert "max_retries" in scored.claims[0].reason


# -- the uncited-claim flagger -----------------------------------------------------------


async def test_uncited_claims_are_classified() -> None:
    other = [{"id": "team_1", "text": "Inbox3 ships in May.", "source": "corpus", "scope": "team"}]
    text = (
        "Inbox3 is at 60% completion [source:1]. The blockers are OAuth and rate limits. "
        "Inbox3 ships in May. Inbox3 has a budget of 40000 dollars."
    )
    scored = await score(answer(text, other_scopes=other))
    found = [c.uncited.finding if c.uncited else None for c in scored.claims]
    assert found == [
        None,
        UncitedClass.LIKELY_SOURCED,
        UncitedClass.OTHER_SCOPE,
        UncitedClass.KNOWLEDGE_GAP,
    ]
    likely, team = scored.claims[1].uncited, scored.claims[2].uncited
    assert likely is not None and likely.source_id == "mem_Y" and likely.span is not None
    assert team is not None and (team.source_id, team.scope) == ("team_1", "team")
    assert scored.claims[2].verdict is not S  # another scope is not this answer's context
    # the answer cites, so each uncited claim is a warning
    assert warning_types(scored).count(AnswerWarningType.UNCITED_CLAIM) == 3


async def test_an_answer_that_cites_nothing_gets_no_uncited_warnings_by_default() -> None:
    scored = await score(answer("The blockers are OAuth and rate limits."))
    assert scored.claims[0].uncited is not None
    assert AnswerWarningType.UNCITED_CLAIM not in warning_types(scored)
    strict = await score(
        answer("The blockers are OAuth and rate limits."), guards(require_citations=True)
    )
    assert AnswerWarningType.UNCITED_CLAIM in warning_types(strict)


# -- degradation --------------------------------------------------------------------------


async def test_a_failing_verifier_falls_back_to_the_offline_one_and_says_so() -> None:
    scored = await score(answer(INBOX3), verifier=ScriptedVerifier(fail=True))
    assert scored.degraded
    assert "scripted failed on 4 of 4 claims" in scored.degradation
    assert "offline lexical verifier" in scored.degradation
    assert AnswerWarningType.VERIFIER_DEGRADED in warning_types(scored)
    assert scored.faithfulness == 0.5  # what the offline verifier says


async def test_with_block_on_failure_the_answer_is_withheld() -> None:
    cfg = guards(on_verifier_failure="block")
    scored = await score(answer(INBOX3), cfg, verifier=ScriptedVerifier(fail=True))
    assert scored.degraded and scored.action is AnswerAction.BLOCKED
    assert scored.final_text == cfg.faithfulness.block_text
    assert all(c.verdict is AnswerClaimVerdict.UNKNOWN for c in scored.claims)


async def test_claims_past_the_bound_are_not_checked_and_count_against() -> None:
    scored = await score(
        answer("Inbox3 is at 60% completion. The blockers are OAuth."), guards(max_claims=1)
    )
    assert scored.claims[1].verdict is AnswerClaimVerdict.UNKNOWN
    assert AnswerWarningType.NOT_CHECKED in warning_types(scored)


# -- policies -----------------------------------------------------------------------------


async def test_block_answers_with_the_refusal_on_any_unsupported_claim() -> None:
    cfg = guards(tenant_policies={"acme": "block"})
    scored = await score(answer("Inbox3 is at 60% completion. It has 9 engineers."), cfg)
    assert scored.risk is not RiskLevel.NONE
    assert scored.action is AnswerAction.BLOCKED
    assert scored.final_text == "I don't have enough reliable information to answer that."
    other = await score(answer("It has 9 engineers.", tenant_id="globex"), cfg)
    assert other.policy is AnswerPolicy.WARN  # the default for everyone else


class Scripted:
    def __init__(self, *texts: str | Exception | None) -> None:
        self.texts = list(texts)
        self.requests: list[RegenerationRequest] = []

    async def regenerate(self, request: RegenerationRequest) -> str | None:
        self.requests.append(request)
        item = self.texts.pop(0)
        if isinstance(item, Exception):
            raise item
        return item


async def test_regenerate_keeps_the_first_attempt_that_scores_below_high() -> None:
    regen = Scripted(
        "Your team has 4 people and 9 servers at 20% load.", "Inbox3 is at 60% completion."
    )
    scored = await score(answer(INBOX3), guards(on_hallucination="regenerate"), regenerator=regen)
    assert scored.action is AnswerAction.REGENERATED
    assert scored.final_text == "Inbox3 is at 60% completion."
    assert [(a.accepted, a.risk) for a in scored.attempts] == [
        (False, RiskLevel.HIGH),
        (True, RiskLevel.NONE),
    ]
    first = regen.requests[0].payload()
    assert first["attempt"] == 1 and len(first["unsupported"]) == 2
    assert first["context"][0] == {"index": 1, "id": "mem_X", "text": MEMORIES[0]["text"]}
    assert scored.faithfulness == 0.5  # the score is the original answer's


async def test_regenerate_then_block_when_no_attempt_is_good_enough() -> None:
    regen = Scripted(TimeoutError("slow"), None)
    cfg = guards(on_hallucination="regenerate")
    scored = await score(answer(INBOX3), cfg, regenerator=regen)
    assert scored.action is AnswerAction.BLOCKED
    assert scored.final_text == cfg.faithfulness.block_text
    assert [a.error for a in scored.attempts] == ["TimeoutError: slow", "no answer returned"]


async def test_regenerate_without_a_regenerator_blocks() -> None:
    scored = await score(answer(INBOX3), guards(on_hallucination="regenerate"))
    assert scored.action is AnswerAction.BLOCKED
    assert scored.attempts[0].error == "no regeneration callback or webhook"


async def test_a_low_risk_answer_is_left_alone_by_warn() -> None:
    text = (
        "Inbox3 is at 60% completion. The blockers are OAuth and rate limits. "
        "Inbox3 blockers are OAuth. Inbox3 is at 60%. The weather was nice there."
    )
    scored = await score(answer(text))
    assert scored.risk in (RiskLevel.NONE, RiskLevel.LOW)
    assert scored.action is AnswerAction.NONE and scored.final_text == text


# -- the validated cache ------------------------------------------------------------------


async def test_a_validated_score_is_cached_per_tenant_and_the_policy_applies_again() -> None:
    cfg = GuardsConfig()
    scorer = AnswerScorer(cfg)
    events: list[str] = []
    scorer.cache = MemoryAnswerCache(cfg, scorer.verifier_name, events.append)
    good = answer("Inbox3 is at 60% completion. The blockers are OAuth and rate limits.")
    first = await scorer.score(good)
    second = await scorer.score(good.model_copy(update={"answer_id": "a-2"}))
    assert (first.cached, second.cached) == (False, True)
    assert second.claims == first.claims and second.answer.answer_id == "a-2"
    assert events == ["miss", "store", "hit"]
    other_tenant = await scorer.score(good.model_copy(update={"tenant_id": "globex"}))
    assert not other_tenant.cached
    # a policy change applies to a cached score at once
    risky = answer("Inbox3 is at 60% completion. It has 9 engineers and 4 servers.")
    await scorer.score(risky)
    cfg.faithfulness.tenant_policies["acme"] = "block"
    again = await scorer.score(risky)
    assert again.action is AnswerAction.BLOCKED
    await scorer.aclose()


async def test_unvalidated_scores_are_not_cached() -> None:
    cfg = GuardsConfig()
    scorer = AnswerScorer(cfg, verifier=ScriptedVerifier(fail=True))
    events: list[str] = []
    scorer.cache = MemoryAnswerCache(cfg, scorer.verifier_name, events.append)
    await scorer.score(answer("Inbox3 is at 60% completion."))  # degraded
    fields = answer("Set `max_retries` to 5.", [{"id": "d", "text": "x", "source": "corpus"}])
    await scorer.score(fields)  # an unverified field
    assert "store" not in events
    await scorer.aclose()


@pytest.mark.parametrize("n", [1, 7])
async def test_batches_score_like_single_answers(n: int) -> None:
    answers = [answer(INBOX3, answer_id=f"a-{i}") for i in range(n)]
    scorer = AnswerScorer(GuardsConfig())
    batch = await scorer.score_batch(answers)
    single = await scorer.score(answers[0])
    assert {s.faithfulness for s in batch} == {single.faithfulness}
    await scorer.aclose()


BUDGET = [
    {"id": "m2", "text": "Inbox3 ships on Monday.", "source": "corpus"},
    {"id": "m3", "text": "The budget for Inbox3 is $2M.", "source": "corpus"},
]


async def test_a_fact_after_a_dash_and_a_conjunction_is_checked_on_its_own() -> None:
    bad = await score(answer("Inbox3 ships on Monday — and the budget doubled to $4M.", BUDGET))
    assert bad.risk is not RiskLevel.NONE
    good = await score(answer("Inbox3 ships on Monday — and the budget is $2M.", BUDGET))
    assert good.risk is RiskLevel.NONE


async def test_a_table_header_is_not_an_unsupported_claim() -> None:
    table = "| Item | Value |\n|---|---|\n| Budget | {} |"
    assert (await score(answer(table.format("$2M"), BUDGET))).risk is RiskLevel.NONE
    assert (await score(answer(table.format("$5M"), BUDGET))).risk is not RiskLevel.NONE


async def test_a_reminder_lead_in_neither_hides_nor_spoils_the_fact() -> None:
    assert (await score(answer("If you recall, the budget is $2M.", BUDGET))).risk is RiskLevel.NONE
    assert (await score(answer("If you recall, the budget is $5M.", BUDGET))).risk is not (
        RiskLevel.NONE
    )


async def test_an_apposition_in_advice_is_checked() -> None:
    ctx = [{"id": "m1", "text": "Dana is the head of design at Acme.", "source": "corpus"}]
    bad = await score(answer("Ask Dana, the CTO, about the schedule.", ctx))
    assert bad.risk is not RiskLevel.NONE
    good = await score(answer("Ask Dana, the head of design at Acme, about it.", ctx))
    assert good.risk is RiskLevel.NONE


LAUNCH = [
    {"id": "m1", "text": "The Inbox3 launch is on Friday at 10am.", "source": "corpus"},
    {"id": "m2", "text": "The Q3 budget is $5M and needs one sign-off.", "source": "corpus"},
    {"id": "m3", "text": "Dana became CTO of Acme in March 2024.", "source": "corpus"},
]


@pytest.mark.parametrize(
    ("bad", "good"),
    [
        ("Hope the Monday launch goes well!", "Hope the Friday launch goes well!"),
        (
            "Let me know if the $8M budget needs a second sign-off.",
            "Let me know if the $5M budget needs a second sign-off.",
        ),
        ("When does the launch on Monday start?", "When does the launch on Friday start?"),
        ("When did Dana become CFO?", "When did Dana become CTO?"),
        ("Could it be that the Q3 budget is $8M?", "Could it be that the Q3 budget is $5M?"),
        ("Congrats to Dana on becoming CFO!", "Congrats to Dana on becoming CTO!"),
    ],
)
async def test_a_specific_a_wish_or_a_question_takes_as_given_is_checked(
    bad: str, good: str
) -> None:
    flagged = await score(answer(bad, LAUNCH))
    assert flagged.risk is not RiskLevel.NONE
    assert flagged.supported_claims < flagged.factual_claims
    kept = await score(answer(good, LAUNCH))
    assert kept.risk is RiskLevel.NONE
    assert kept.factual_claims == kept.supported_claims


@pytest.mark.parametrize(
    "text",
    [
        "Hope you have a relaxing weekend.",
        "Enjoy your trip!",
        "Congratulations on the new role!",
        "Let me know if you need anything else.",
        "Could it be that you need a new API key?",
        "I wonder what you think.",
        "If the launch slips, tell me.",
    ],
)
async def test_a_wish_a_real_question_or_an_instruction_naming_nothing_has_no_claim(
    text: str,
) -> None:
    scored = await score(answer(text, LAUNCH))
    assert scored.factual_claims == 0
    assert scored.risk is RiskLevel.NONE
