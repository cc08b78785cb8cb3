"""Probe: changed facts that near-duplicate detection and the consistency scan must see,
and controls they must leave alone. Hand-written (not from the dev data), session 11.

Dedup (guards/dedup): each case stores a memory of 25+ distinct words and checks a claim
that differs from it by one changed fact (an antonym, a negation, a name, a month or
place, a number, swapped roles): it must not be blocked as a duplicate (a variant, sent to
review with the memory, or unique). Controls keep the fact (added politeness words, a
reordered list, a synonym, case and punctuation) and must stay duplicates.

Consistency scan (guards/consistency): each case is two short memories of one user;
contradictions ("prefers tea" / "prefers coffee", "likes dogs" / "dislikes dogs") must
end in one cluster judged a contradiction by the rule judge; controls (another subject,
another object of a relation that holds several, the same statement twice, two
preferences of two kinds) must not be judged a contradiction. Since session 12 a bare
choice is one only with a shared domain or values of one kind (guards/consistency/
kinds.py), so "email" / "phone", "tabs" / "spaces", "trains" / "planes" (no kind the
offline judge can see) are misses by design.

    python bench/probe_changed_facts.py [--redis redis://127.0.0.1:6379/0] [-v]

Last line: dedup_variants_not_blocked=a/b dedup_controls_duplicate=c/d
consistency_contradictions=e/f consistency_controls_clean=g/h
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import uuid
from datetime import UTC, datetime

from groundwire.guards.config import DedupConfig
from groundwire.guards.consistency.config import ConsistencyConfig
from groundwire.guards.consistency.judge import rule_verdict
from groundwire.guards.consistency.memory import new_memory
from groundwire.guards.consistency.signals import SemanticIndex, find_clusters
from groundwire.guards.dedup import build_dedup_index
from groundwire.guards.protocols import DedupRequest
from groundwire.topics.memory import MemoryRecord
from groundwire.topics.records import Claim, EvidenceObject, RoutedResult, ValidationResult
from groundwire.topics.vocab import (
    ConsistencyVerdict,
    DedupOutcome,
    ReasonCode,
    Source,
    Tier,
)

B1 = (
    "During the quarterly planning meeting on Tuesday, Alice confirmed that the billing "
    "service keeps the nightly export job enabled for the finance team until the migration "
    "to the new warehouse is finished."
)
B2 = (
    "The platform team decided that every production deployment of the checkout API must "
    "pass the integration suite first, and Marco will approve the rollout after reviewing "
    "the dashboards with the support leads."
)
B3 = (
    "According to the incident review, the payment gateway accepted the retried requests "
    "from the mobile clients during the outage, so the duplicate charges were refunded by "
    "the operations group within two days."
)
B4 = (
    "Our customer Priya told the account manager that she wants the annual plan with "
    "invoices sent by email, because her procurement department cannot process card "
    "payments for software subscriptions anymore."
)
B5 = (
    "The security audit found that the internal admin console is reachable only through "
    "the corporate VPN, and the engineering director asked Laura to document the access "
    "policy before the external review in March."
)
B6 = (
    "After the latest release, the search indexer runs on the dedicated cluster in "
    "Frankfurt, and the data team reported that query latency improved noticeably for "
    "customers in the European region last week."
)
B7 = (
    "The onboarding guide explains that new hires receive their laptops from the IT desk on "
    "the first morning, and their managers schedule introductory sessions with the product, "
    "design and analytics groups."
)
B8 = (
    "In the design review, Kenji argued that the notification service should use the "
    "existing message queue instead of building a separate broker, and the architects "
    "accepted his proposal with minor changes."
)
B9 = (
    "The legal team confirmed that the vendor contract allows us to store anonymised usage "
    "data in the United States, provided that the retention period stays within the limits "
    "agreed during the negotiation."
)
B10 = (
    "Alice approved the budget for the data platform rewrite after the architecture board "
    "agreed that the legacy batch jobs will be retired before the end of the financial year."
)
B11 = (
    "The capacity planning notes say that the team will increase the number of read "
    "replicas for the reporting database ahead of the holiday season, as suggested by the "
    "database administrators in their review."
)
B12 = (
    "Since the reorganisation, Maria reports to Tom in the infrastructure group, and the "
    "weekly sync covers hiring plans, vendor renewals and the shared on-call rotation for "
    "the storage services."
)
B14 = (
    "The platform team confirmed that the new ingestion pipeline uses Postgres, Redis and "
    "Kafka in production, and the same stack will back the billing service, the search API "
    "and the auth gateway after the migration this quarter."
)
B15 = (
    "During the vendor review, Alice approved the renewal of the monitoring contract, and "
    "Bob signed the new support agreement after the finance team checked the pricing "
    "tiers with procurement."
)
B13 = (
    "The mobile app keeps the synchronous upload path for small attachments, while large "
    "videos go through the resumable background queue that the media team maintains for "
    "both platforms today."
)


def edit(base: str, old: str, new: str) -> str:
    assert old in base, (old, base)
    return base.replace(old, new, 1)


def both(base: str, old: str, first: str, second: str) -> tuple[str, str]:
    """(memory, claim): `old` written as `first` in the memory and as `second` in the claim."""
    return edit(base, old, first), edit(base, old, second)


# (what changed, memory, claim)
CHANGED: list[tuple[str, str, str]] = [
    ("antonym enabled/disabled", B1, edit(B1, "enabled", "disabled")),
    ("antonym finished/started", B1, edit(B1, "finished", "started")),
    ("antonym pass/fail", B2, edit(B2, "must pass", "must fail")),
    ("antonym accepted/rejected", B3, edit(B3, "accepted", "rejected")),
    ("antonym internal/external (both in text)", B5, edit(B5, "the internal", "the external")),
    ("antonym improved/worsened", B6, edit(B6, "improved", "worsened")),
    ("antonym first/last", B7, edit(B7, "first morning", "last morning")),
    ("antonym accepted/rejected 2", B8, edit(B8, "accepted", "rejected")),
    ("antonym allows/forbids", B9, edit(B9, "allows", "forbids")),
    ("antonym increase/decrease", B11, edit(B11, "increase", "decrease")),
    ("antonym synchronous/asynchronous", B13, edit(B13, "synchronous", "asynchronous")),
    ("antonym approved/rejected", B10, edit(B10, "approved", "rejected")),
    ("negation added", B2, edit(B2, "must pass", "must not pass")),
    ("negation added 2", B5, edit(B5, "is reachable", "is not reachable")),
    ("negation dropped", edit(B4, "cannot", "can no longer"), edit(B4, "cannot", "can")),
    ("name mid-sentence", B1, edit(B1, "Alice", "Bob")),
    ("name mid-sentence 2", B2, edit(B2, "Marco", "Julia")),
    ("name customer", B4, edit(B4, "Priya", "Meera")),
    ("name person", B5, edit(B5, "Laura", "Sofia")),
    ("month", B5, edit(B5, "March", "April")),
    ("weekday", B1, edit(B1, "Tuesday", "Thursday")),
    ("place", B6, edit(B6, "Frankfurt", "Dublin")),
    ("region", B6, edit(B6, "European", "Asian")),
    ("name 3", B8, edit(B8, "Kenji", "Tomas")),
    ("country", B9, edit(B9, "United States", "United Kingdom")),
    ("name at sentence start", B10, edit(B10, "Alice", "Daniel")),
    ("name written in lower case by the claim", B1, edit(B1, "Alice", "bob").lower()),
    ("name written in lower case by the memory", B1.lower(), edit(B1, "Alice", "Bob")),
    ("number word", B3, edit(B3, "two days", "five days")),
    ("roles swapped", B12, edit(B12, "Maria reports to Tom", "Tom reports to Maria")),
    ("product", B2, edit(B2, "checkout API", "search API")),
    ("vendor tool", B1, edit(B1, "finance team", "Finance team at Stripe")),
    (
        "roles swapped across two clauses",
        B15,
        edit(edit(B15, "Alice approved", "Bob approved"), "Bob signed", "Alice signed"),
    ),
    (
        "two things exchanged across two sentences",
        "Ann asks Mike to buy milk for the weekend trip to the lake and Mike confirms it "
        "before leaving the office. Later, Mike asks Ann if there is any butter left at home, "
        "and after checking the kitchen, Ann confirms there is some in the fridge.",
        "Ann asks Mike to buy butter for the weekend trip to the lake and Mike confirms it "
        "before leaving the office. Later, Mike asks Ann if there is any milk left at home, "
        "and after checking the kitchen, Ann confirms there is some in the fridge.",
    ),
    # the same word "not", another auxiliary: ability against fact is a change
    ("negation, other auxiliary", edit(B4, "cannot", "does not"), B4),
    (
        "negation, other contraction",
        edit(B13, "keeps", "doesn't keep"),
        edit(B13, "keeps", "can't keep"),
    ),
]

B16 = (
    "The on-call engineer confirmed that the payment webhook retries every 30 seconds "
    "after a failure, and the support team turned on the alerts for the billing dashboard "
    "before the launch in june."
)
B17 = (
    "After the incident review, the platform team agreed that the checkout API times out "
    "under heavy load, so the database team will add a read replica and tune the "
    "connection pool next sprint."
)
# session 12: changed facts in plain words (a modifier noun, a unit, a month or a
# weekday written in lower case, a verb's particle)
CHANGED += [
    ("modifier noun", B17, edit(B17, "checkout API", "search API")),
    ("modifier noun 2", B2, edit(B2, "integration suite", "regression suite")),
    ("modifier noun 3", B6, edit(B6, "search indexer", "billing indexer")),
    ("unit", B16, edit(B16, "30 seconds", "30 minutes")),
    ("month in lower case", B16, edit(B16, "in june", "in july")),
    ("weekday in lower case", B16.replace("june", "monday"), edit(B16, "june", "friday")),
    ("particle on / off", B16, edit(B16, "turned on", "turned off")),
    (
        "particle up / down",
        *both(B11, "increase the number", "scale up the number", "scale down the number"),
    ),
]

# (what was done, memory, claim): the same fact
SAME: list[tuple[str, str, str]] = [
    ("please note", B1, "Please note: " + B1),
    ("thanks", B2, B2 + " Thanks!"),
    ("fyi", B3, "FYI, " + B3),
    ("kindly note", B4, "Kindly note " + B4[0].lower() + B4[1:]),
    ("hi team", B5, "Hi team, " + B5),
    ("thank you", B6, B6 + " Thank you."),
    ("just so you know", B7, "Just so " + B7),
    ("heads up", B8, "Heads up: " + B8),
    ("please be aware", B9, "Please, " + B9),
    ("quick update", B10, "Update: " + B10),
    (
        "list reordered",
        B7,
        edit(B7, "product, design and analytics", "analytics, product and design"),
    ),
    (
        "list reordered 2",
        B12,
        edit(B12, "hiring plans, vendor renewals", "vendor renewals, hiring plans"),
    ),
    (
        "list reordered 3",
        B7,
        edit(B7, "product, design and analytics", "design, analytics and product"),
    ),
    (
        "list reordered 4",
        B12,
        edit(
            B12,
            "hiring plans, vendor renewals and the shared on-call rotation",
            "the shared on-call rotation, vendor renewals and hiring plans",
        ),
    ),
    ("list reordered 5", B14, edit(B14, "Postgres, Redis and Kafka", "Kafka, Postgres and Redis")),
    (
        "list of multi-word items reordered",
        B14,
        edit(
            B14,
            "the billing service, the search API and the auth gateway",
            "the auth gateway, the billing service and the search API",
        ),
    ),
    (
        "list with or reversed",
        *both(
            B14, "Postgres, Redis and Kafka", "Postgres, Redis or Kafka", "Kafka, Redis or Postgres"
        ),
    ),
    ("synonym", B6, edit(B6, "noticeably", "significantly")),
    ("synonym 2", B1, edit(B1, "finished", "complete")),
    ("synonym 3", B3, edit(B3, "refunded", "reimbursed")),
    ("opening word", B3, edit(B3, "According to", "As per")),
    ("opening word 2", B11, edit(B11, "The capacity", "Our capacity")),
    ("lower case", B8, B8.lower()),
    ("upper case", B9, B9.upper()),
    ("punctuation", B10, B10.replace(",", "").replace(".", "!")),
    ("quotes", B2, edit(B2, "checkout API", '"checkout" API')),
    ("typographic apostrophe", B4, B4.replace("cannot", "can\u2019t").replace("cannot", "can't")),
    ("word dropped", B13, edit(B13, " today", "")),
    # one negation, two spellings (docs/dedup.md §Variants)
    ("negation spelled: cannot / can not", B4 + " " + B1, edit(B4 + " " + B1, "cannot", "can not")),
    ("negation spelled: can't / cannot", edit(B4, "cannot", "can't"), B4),
    (
        "negation spelled: does not / doesn't",
        *both(B13 + " " + B6, "keeps", "does not keep", "doesn't keep"),
    ),
    (
        "negation spelled: doesn't / does not",
        *both(B13 + " " + B6, "keeps", "doesn't keep", "does not keep"),
    ),
    (
        "negation spelled: is not / isn't",
        *both(B5 + " " + B3, "is reachable", "is not reachable", "isn't reachable"),
    ),
    (
        "negation spelled: won't / will not",
        *both(B10 + " " + B9, "will be", "won't be", "will not be"),
    ),
    (
        "negation spelled: do not / dont (chat)",
        *both(B7 + " " + B8, "receive", "do not receive", "dont receive"),
    ),
    ("word dropped 2", B11, edit(B11, " in their review", " in review")),
    (
        "clause moved",
        B6,
        "The search indexer runs on the dedicated cluster in Frankfurt after the latest "
        "release, and the data team reported that query latency improved noticeably for "
        "customers in the European region last week.",
    ),
    ("article changed", B5, edit(B5, "the corporate VPN", "a corporate VPN")),
    ("tense", B8, edit(B8, "accepted", "accept")),
    ("contraction", B1, edit(B1, "is finished", "has finished")),
    # session 12: rewording around a kept noun, which the in-place rule must not read
    ("adverb reworded before a noun", B17, edit(B17, "heavy load", "very heavy load")),
    ("synonym verb before a noun", B16, edit(B16, "confirmed", "verified")),
    ("article before a modifier", B17, edit(B17, "the checkout API", "our checkout API")),
    ("word dropped before a noun", B17, edit(B17, "read replica", "replica")),
]


async def probe_dedup(redis_url: str | None, verbose: bool) -> tuple[int, int, int, int]:
    index = build_dedup_index(DedupConfig(redis_prefix=f"probe:{uuid.uuid4().hex[:8]}"), redis_url)
    variants = changed_ok = same_ok = 0
    try:
        for group, cases in (("changed", CHANGED), ("same", SAME)):
            for k, (what, mem, claim) in enumerate(cases):
                tenant = f"{group}{k}"
                (first,) = await index.check_and_insert(
                    [DedupRequest(tenant, "m", mem, insert=True)]
                )
                assert not first.failed and not first.is_duplicate, first
                (res,) = await index.check_and_insert([DedupRequest(tenant, "c", claim)])
                assert not res.failed, res
                outcome = (
                    "duplicate" if res.is_duplicate else "variant" if res.variant_of else "unique"
                )
                if group == "changed":
                    changed_ok += outcome != "duplicate"
                    variants += outcome == "variant"
                    bad = outcome == "duplicate"
                else:
                    same_ok += outcome == "duplicate"
                    bad = outcome != "duplicate"
                if verbose or bad:
                    print(f"  {'MISS' if bad else 'ok  '} {group:7} {what}: {outcome}")
    finally:
        await index.aclose()
        if redis_url:
            import redis

            client = redis.Redis.from_url(redis_url)
            for key in client.scan_iter(match=f"{index.cfg.redis_prefix}:*", count=1000):
                client.delete(key)
            client.close()
    print(
        f"dedup: changed facts not blocked {changed_ok}/{len(CHANGED)} (variants {variants}); "
        f"controls blocked as duplicates {same_ok}/{len(SAME)}"
    )
    return changed_ok, len(CHANGED), same_ok, len(SAME)


# (what, content a, content b)
CONTRADICT: list[tuple[str, str, str]] = [
    ("tea / coffee", "The user prefers tea.", "The user prefers coffee."),
    ("likes / dislikes dogs", "The user likes dogs.", "The user dislikes dogs."),
    ("window / aisle", "Georgian prefers window seats.", "Georgian prefers aisle seats."),
    ("likes / dislikes jazz", "Amara likes jazz.", "Amara dislikes jazz."),
    ("dark / light mode", "Chen prefers dark mode.", "Chen prefers light mode."),
    ("loves / hates", "The user loves spicy food.", "The user hates spicy food."),
    ("enjoys / dislikes", "Dana enjoys running.", "Dana dislikes running."),
    ("email / phone", "Bilal prefers email.", "Bilal prefers phone."),
    ("vim / emacs", "Emil prefers Vim.", "Emil prefers Emacs."),
    ("likes / hates", "Farah likes podcasts.", "Farah hates podcasts."),
    (
        "mornings / evenings",
        "The user prefers mornings for meetings.",
        "The user prefers evenings for meetings.",
    ),
    ("tabs / spaces", "Goran prefers tabs.", "Goran prefers spaces."),
    ("likes / dislikes cilantro", "Hana likes cilantro.", "Hana dislikes cilantro."),
    ("metric / imperial", "Ivo prefers metric units.", "Ivo prefers imperial units."),
    ("train / plane", "The user prefers trains.", "The user prefers planes."),
    ("likes / dislikes Python", "The user likes Python.", "The user dislikes Python."),
    # session 12: a choice within a stated domain, or between values of one kind
    (
        "one channel for updates",
        "The user prefers email for updates.",
        "The user prefers Slack for updates.",
    ),
    (
        "favourite colour",
        "The user's favourite colour is blue.",
        "The user's favourite colour is green.",
    ),
    ("beer / wine", "Omar prefers beer.", "Omar prefers wine."),
    ("bus / car", "The user prefers buses.", "The user prefers cars."),
]
DISTINCT: list[tuple[str, str, str]] = [
    ("two subjects like / dislike", "Amara likes jazz.", "Bilal dislikes jazz."),
    ("two subjects prefer", "Chen prefers tea.", "Dana prefers coffee."),
    ("likes two things", "The user likes dogs.", "The user likes cats."),
    ("likes one, dislikes another", "Emil likes tea.", "Emil dislikes coffee."),
    ("same preference twice", "The user prefers tea.", "The user prefers tea."),
    ("uses two tools", "Farah uses Python.", "Farah uses Go."),
    ("likes and uses", "Goran likes Rust.", "Goran uses Rust."),
    ("two users likes", "Hana likes hiking.", "Ivo likes hiking."),
    ("lives / likes", "The user lives in Berlin.", "The user likes Berlin."),
    ("enjoys two", "The user enjoys chess.", "The user enjoys tennis."),
    ("same dislike twice", "Georgian dislikes olives.", "Georgian hates olives."),
    ("likes two foods", "Chen likes sushi.", "Chen likes ramen."),
    ("unrelated", "The user prefers tea.", "The user lives in Lisbon."),
    ("two subjects hate", "Amara hates spiders.", "Bilal loves spiders."),
    ("uses / dislikes other", "Dana uses Windows.", "Dana dislikes Linux."),
    ("likes same, two people", "The user likes sushi.", "Maria likes sushi."),
    ("two preferences of two kinds", "The user prefers dark mode.", "The user prefers tea."),
    ("two preferences, one word each", "The user prefers tea.", "The user prefers email."),
    # session 12
    (
        "two channels for two purposes",
        "The user prefers email for updates.",
        "The user prefers Slack for alerts.",
    ),
    (
        "two drinks at two times",
        "The user prefers tea in the morning.",
        "The user prefers coffee in the evening.",
    ),
    (
        "two favourites of two kinds",
        "The user's favourite colour is blue.",
        "The user's favourite food is pizza.",
    ),
    ("a drink and a game", "Omar prefers tea.", "Omar prefers chess."),
    ("a drink and a time", "The user prefers coffee.", "The user prefers mornings."),
]

_AT = datetime(2026, 4, 10, 12, 0, tzinfo=UTC)


def _memory(claim_id: str, content: str, cfg: ConsistencyConfig) -> MemoryRecord:
    claim = Claim(
        claim_id=claim_id,
        tenant_id="probe",
        user_id="u1",
        content=content,
        memory_type="preference",
        source=Source.USER,
        confidence=0.9,
        created_at=_AT,
    )
    validation = ValidationResult(
        tier=Tier.AUTO_APPROVE,
        approved=True,
        reason="Trusted source: user",
        reason_code=ReasonCode.TRUSTED_SOURCE,
        dedup=DedupOutcome.UNIQUE,
        evidence=EvidenceObject(claim=content, capture_time=_AT, confidence="high"),
    )
    routed = RoutedResult(claim=claim, validation=validation, routed_at=_AT)
    return new_memory(routed, f"claim:probe:{claim_id}", _AT, cfg)


def probe_scan(verbose: bool) -> tuple[int, int, int, int]:
    cfg = ConsistencyConfig()
    semantic = SemanticIndex(cfg)
    caught = clean = 0
    for group, cases in (("contra", CONTRADICT), ("control", DISTINCT)):
        for k, (what, a, b) in enumerate(cases):
            pair = [_memory(f"{group}{k}a", a, cfg), _memory(f"{group}{k}b", b, cfg)]
            clusters = find_clusters(pair, cfg, semantic)
            verdicts = [rule_verdict(c, cfg).verdict for c in clusters if len(c.members) == 2]
            contradiction = ConsistencyVerdict.CONTRADICTION in verdicts
            if group == "contra":
                caught += contradiction
                bad = not contradiction
            else:
                clean += not contradiction
                bad = contradiction
            if verbose or bad:
                shown = [v.value for v in verdicts] or ["not clustered"]
                print(f"  {'MISS' if bad else 'ok  '} {group:7} {what}: {', '.join(shown)}")
    print(
        f"consistency: contradictions clustered and judged {caught}/{len(CONTRADICT)}; "
        f"controls not judged a contradiction {clean}/{len(DISTINCT)}"
    )
    return caught, len(CONTRADICT), clean, len(DISTINCT)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--redis", default=None, help="run the dedup part in Redis (Lua path)")
    ap.add_argument("-v", "--verbose", action="store_true", help="print every case")
    args = ap.parse_args()
    a, b, c, d = asyncio.run(probe_dedup(args.redis, args.verbose))
    e, f, g, h = probe_scan(args.verbose)
    print(
        f"dedup_variants_not_blocked={a}/{b} dedup_controls_duplicate={c}/{d} "
        f"consistency_contradictions={e}/{f} consistency_controls_clean={g}/{h}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
