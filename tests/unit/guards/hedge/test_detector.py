"""Hedge detector: the five categories of docs/spec.md §Hedges, its required false-positive
filters and the no-cancellation rule."""

from __future__ import annotations

import pytest

from groundwire.guards.config import HedgeConfig
from groundwire.guards.hedge import HedgeDetector, analyze
from groundwire.guards.hedge.lexicon import PATTERNS


@pytest.mark.parametrize(
    ("text", "action", "category"),
    [
        # docs/spec.md §Hedges table and the blocked worked examples of §Tier policy
        ("I think we should use Redis", "block", "personal_speculation"),
        ("I guess the API supports this", "block", "personal_speculation"),
        ("I believe the cache is warm", "block", "personal_speculation"),
        ("I assume the queue is durable", "block", "personal_speculation"),
        ("I don't know which broker we run", "block", "admitted_uncertainty"),
        ("Not sure the index is rebuilt nightly", "block", "admitted_uncertainty"),
        ("I could be wrong, but the port is 8080", "block", "admitted_uncertainty"),
        ("Maybe we could try GraphQL", "block", "suggestion"),
        ("Perhaps we should shard the table", "block", "suggestion"),
        ("The server may timeout under load", "review", "technical_hedge"),
        ("Connections typically complete in <100ms", "review", "technical_hedge"),
        ("Retries often succeed on the second attempt", "review", "technical_hedge"),
        ("The job usually finishes before midnight", "review", "technical_hedge"),
        ("The worker might drop the connection", "review", "technical_hedge"),
        ("The build takes approximately 12 minutes", "review", "approximation"),
        ("The table holds around 40000 rows", "review", "approximation"),
        ("Startup takes roughly two seconds", "review", "approximation"),
        ("Per ADR-003, we use PostgreSQL", "none", None),
        ("The API returns JSON for REST responses", "none", None),
    ],
)
def test_spec_categories(text: str, action: str, category: str | None) -> None:
    report = analyze(text)
    assert (report.action, report.category) == (action, category)
    if action != "none":
        assert report.words, "the matched hedge words are reported"


@pytest.mark.parametrize(
    "text",
    [
        "I think we should use Redis, definitely",
        "Definitely, absolutely, I think the API is REST",
        "I guess it is certainly PostgreSQL 15 for sure",
    ],
)
def test_assertion_markers_never_cancel_personal_speculation(text: str) -> None:
    assert analyze(text).action == "block"


@pytest.mark.parametrize(
    "text",
    [
        "The release shipped in May 2024",
        "We migrated on May 3rd",
        "Billing moved to Stripe in May, after the audit",
        "The parser couldn't handle UTF-16 input",
        "The old client could not reconnect after failover",
        "The retry count should be 5",
        "The default timeout should be 30 seconds",
    ],
)
def test_spec_false_positive_filters(text: str) -> None:
    assert analyze(text).action == "none", analyze(text)


def test_filters_do_not_hide_real_modals() -> None:
    assert analyze("May cause errors under load").action == "review"
    assert analyze("The client could reconnect on its own").action == "review"
    assert analyze("The cache should be warm by then").action == "review"


@pytest.mark.parametrize(
    "text",
    [
        # D2: the modal in any letter case is not the month (spec: Hedges)
        "The client MAY retry the request",
        "The server May timeout under load",
        "Clients MAY cache the token",
        "The values passed in May be null",  # a particle "in", then a verb
        "Of the 5 replicas, 2 may lag behind",  # a count, not a day
        "In May, the job may run twice",  # the month and then the modal
    ],
)
def test_may_is_a_modal_in_any_case_without_a_date(text: str) -> None:
    report = analyze(text)
    assert (report.action, report.category) == ("review", "technical_hedge"), report


@pytest.mark.parametrize(
    "text",
    [
        "The release shipped in May 2024",
        "The release shipped in MAY 2024",
        "The cutover is on May 3",
        "The cutover was on may 3rd, 2026",
        "The cutover was on the 3rd of May",
        "Backups moved in mid-May",
        "Nothing changed since May.",
        "The index was rebuilt in May and June",
        "In May we moved the cluster",
        "On 3 May the node was replaced",
    ],
)
def test_may_with_a_date_next_to_it_is_the_month(text: str) -> None:
    assert analyze(text).action == "none", analyze(text)


@pytest.mark.parametrize(
    "text",
    [
        # D3: approximations without a digit (spec: Hedges, a grammar, not a list)
        "A full reindex takes around a minute",
        "The nightly export takes about an hour",
        "The migration took a couple of hours",
        "Roughly half of the shards are hot",
        "Approximately a third of requests hit the cache",
        "Nearly all tenants use the default",
        "A failover takes a few seconds",
        "The warm-up takes almost a minute",
        "Compaction frees about twenty-five gigabytes",
        "The queue holds close to a thousand jobs",
        "The job needs some twenty minutes",
        "Backups take several hours",
        "The index rebuild takes a day or two",
        "The pool keeps one or two idle connections",
        "Startup takes fiveish seconds",
        "Almost every request is cached",
        "The cache almost never misses",
        "A resync takes something like ten minutes",
        "Latency is on the order of a millisecond",
        "The dump is in the region of a terabyte",
    ],
)
def test_approximations_without_digits_go_to_review(text: str) -> None:
    report = analyze(text)
    assert (report.action, report.category) == ("review", "approximation"), report


@pytest.mark.parametrize(
    "text",
    [
        "The service talks about one of its peers",  # "one of": a pronoun
        "Jobs run on a minute boundary",  # no approximator
        "The pool keeps this or two others",  # "or two" after no quantity
        "The English publisher ships the dataset",  # "-ish" in a word
    ],
)
def test_quantity_words_alone_are_not_approximations(text: str) -> None:
    assert analyze(text).action == "none", analyze(text)


@pytest.mark.parametrize(
    ("text", "action"),
    [
        # D4: spelled-out numbers count as numbers in the "should be 5" filter
        ("The retry count should be five", "none"),
        ("The replica count should be three", "none"),
        ("The pool size should equal twelve", "none"),
        ("The batch should be a dozen", "none"),
        ("The retry count should be 5", "none"),
        ("This should be one of the fastest paths", "review"),  # not a value
        ("The retry count should be fine", "review"),
    ],
)
def test_should_with_a_spelled_out_number_states_a_value(text: str, action: str) -> None:
    assert analyze(text).action == action, analyze(text)


def test_typographic_and_tokenised_contractions() -> None:
    assert analyze("I don\u2019t know the port").action == "block"
    assert analyze("It could n't be simpler").action == "none"
    assert analyze("I 'm not sure it works").action == "block"


def test_block_outranks_review_and_words_list_both() -> None:
    report = analyze("The service may restart, I think")
    assert report.action == "block"
    assert "I think" in report.words and "may" in report.words


def test_config_switches() -> None:
    assert HedgeDetector(HedgeConfig(enabled=False)).analyze("I think so").action == "none"
    off = HedgeDetector(HedgeConfig(frequency_adverbs_review=False))
    assert off.analyze("Jobs usually finish at night").action == "none"
    assert off.analyze("Jobs may finish at night").action == "review"


def test_bounded_input() -> None:
    text = "The API returns JSON. " * 500 + "I think it is XML."
    assert HedgeDetector(HedgeConfig(max_chars=1000)).analyze(text).action == "none"
    assert HedgeDetector().analyze(text).action == "block"


def test_trigger_prefilter_never_changes_a_result(monkeypatch: pytest.MonkeyPatch) -> None:
    """The word-set prefilter is an optimisation only: running every pattern on every
    text must give the same reports."""
    import groundwire.guards.hedge.detector as detector_module

    texts = [
        "I think we should use Redis, definitely",
        "I don\u2019t really know; it could n't be simpler, maybe 5-ish or so",
        "The build takes ~3 minutes, give or take, in most cases",
        "We'd guess the cache tends to expire; it appears that IIRC it's uncertain whether",
        "Let's try GraphQL. How about using REST? What if we shard? Who knows.",
        "Released in May 2024; the value should be 5; nothing else here.",
        "It might be worth checking; as far as I know the port is about 8080",
    ]
    detector = HedgeDetector()
    expected = [detector.analyze(t) for t in texts]
    monkeypatch.setattr(
        detector_module,
        "candidates",
        lambda lower, tokens=None: list(range(len(PATTERNS))),
    )
    assert [detector.analyze(t) for t in texts] == expected
    assert any(r.action == "none" for r in expected) and any(r.action == "block" for r in expected)


@pytest.mark.parametrize(
    ("text", "action"),
    [
        # spellings of contractions found in informal and badly encoded text
        ("I dont know which broker we run", "block"),
        ("I didn?t think the index was rebuilt", "block"),
        ("I?m not sure the port is open", "block"),
        ("The parser could nt handle UTF-16", "none"),
        # the negation in "could not only" belongs to "only", not to the modal
        ("The outage could not only delay billing, it stops exports", "review"),
        # first-person disbelief and near-certainty; "no doubt" asserts
        ("I doubt the cache is warm", "block"),
        ("I'm pretty sure the queue is durable", "block"),
        ("No doubt the queue is durable", "none"),
        ("I even think the port is 8080", "block"),
        # impersonal likelihood, inference and hearsay
        ("It is possible that the replica lags", "review"),
        ("Chances are the job already ran", "review"),
        ("The key must have expired overnight", "review"),
        ("The vendor reportedly fixed the leak", "review"),
        ("You'd think the retry would succeed", "review"),
        # root / deontic readings are not hedges
        ("The key must be rotated monthly", "none"),
        ("You should restart the worker after upgrading", "none"),
        ("The table holds up to 40000 rows", "none"),
        ("It is as fast as possible", "none"),
        ("The vendor says it is fixed and I believe it.", "none"),
        ("I believe it is fixed", "block"),
        ("The ledger is replicated as it should be", "none"),
        ("Use the mirror, as it should be faster", "review"),
        ("Guess the cache was cold. It failed twice", "block"),
        ("The port is 8080. Suppose so", "block"),
        ("Guess what: the port is 8080", "none"),
        ("I would have thought the port is 8080", "block"),
        ("The import was an unlikely bottleneck", "none"),
        ("A retry is unlikely to help", "review"),
        ("If I'm not mistaken the port is 8080", "block"),
        ("It is unclear whether the index is rebuilt", "block"),
        ("The disk looks as if it is failing", "review"),
        # attributed belief of unnamed others: an opinion reported, not a fact
        ("Many people think the broker is faster on ZFS", "review"),
        ("Some engineers believe the cache never expires", "review"),
        ("They suspect the replica is corrupt", "review"),
        # deliberation is not belief
        ("People think about latency before throughput", "none"),
        ("Most teams think through failover in design reviews", "none"),
        # hearsay: the writer passes a claim on without vouching for it
        ("Rumor has it the API is deprecated", "review"),
        ("The API is rumoured to be deprecated", "review"),
        ("I've heard that the API is deprecated", "review"),
        ("It is said that the API is deprecated", "review"),
        ("They say that the API is deprecated", "review"),
        ("I am told the API is deprecated", "review"),
        ("Sources suggest the API is deprecated", "review"),
        ("The API is deprecated (TBC)", "review"),
        ("The sunset date is yet to be confirmed", "review"),
        ("I heard the album twice", "none"),
        # "that" left out: a clause after "heard" is hearsay, a sound is not
        ("I heard the API is deprecated", "review"),
        ("I've heard our CTO has left", "review"),
        ("I heard the alarm go off at night", "none"),
        ("Someone said the API is deprecated", "review"),
        ("Someone mentioned a corolla", "none"),
        # session 9: more ways to say it is unchecked, guessed or hoped
        ("Correct me if I'm wrong, the port is 8080", "block"),
        ("From memory, the port is 8080", "block"),
        ("The port is 8080, but double-check", "block"),
        ("Pretty sure the port is 8080", "block"),
        ("The port is 8080, I'm 90% sure", "block"),
        ("My guesstimate is 8080 ports", "block"),
        # "I" run into the verb of belief
        ("Ithink the port is 8080", "block"),
        ("I-think the port is 8080", "block"),
        ("The Wi-Fi feel of the office is fine", "none"),
        ("The port is 8080 (TBD)", "review"),
        ("The port is 8080 (I hope)", "review"),
        # ... and not the same words stating something else
        ("The cache is loaded from memory, not disk", "none"),
        ("I'm 100% sure the port is 8080", "none"),
        ("We double-check every release", "none"),
        ("I was told to restart the worker after upgrading", "none"),
        ("Orders are to be confirmed by email", "none"),
        # the claim's own writer says it is unchecked, or may be misremembered
        ("The API is deprecated (unverified)", "block"),
        ("Unconfirmed: the API is deprecated", "block"),
        ("The API is deprecated, but this has not been verified", "block"),
        ("If memory serves, the port is 8080", "block"),
        ("The port is 8080, unless I'm mistaken", "block"),
        ("My hunch: the replica is corrupt", "block"),
        # ... and not a fact about verification
        ("The fix was not verified in staging", "none"),
        ("The API returns unverified tokens", "none"),
        ("The API is deprecated (needs checking)", "block"),
        ("The API is deprecated, unconfirmed.", "block"),
        ("The tokens are unverified.", "none"),
        # likelihood, and the limits of the writer's own knowledge
        ("In all likelihood the API is deprecated", "review"),
        ("Odds are the API is deprecated", "review"),
        ("There's a good chance the API is deprecated", "review"),
        ("It's plausible that the API is deprecated", "review"),
        ("The odds are stored in a table", "none"),
        ("My understanding is that the API is deprecated", "block"),
        ("As I understand it, the API is deprecated", "block"),
        ("I'm under the impression the API is deprecated", "block"),
        ("Best guess: the API is deprecated", "block"),
        ("To my knowledge, the API is deprecated", "block"),
        ("From what I've read, the API is deprecated", "block"),
        ("The API is deprecated, if I'm not wrong", "block"),
        ("The gather step runs nightly", "none"),
        # session 10: as of the writer's last look, the writer's understanding, hearsay,
        # appearance without "that", a claim weakened at once
        ("Last I checked, the API is deprecated", "block"),
        ("The API is deprecated, last time I looked.", "block"),
        ("The API is deprecated, as of when I last checked.", "block"),
        ("It's my understanding that the API is deprecated", "block"),
        ("Rumour is the API is deprecated", "review"),
        ("It appears the API is deprecated", "review"),
        ("The API is deprecated, or at least it used to be", "review"),
        # ... and the same words dating a check, judging a rumour, placing a word
        ("The last time I checked the logs was Monday", "none"),
        ("When we last checked in, the deploy was done", "none"),
        ("The rumour is false", "none"),
        ("It appears in the logs twice", "none"),
        ("At least 3 nodes are up", "none"),
        # someone else's doubt, reported, is a fact about them; the writer's stays a hedge
        ("The user is not sure whether to use Redis", "none"),
        ("They're unsure about the budget", "none"),
        ("She's not certain the API is slow", "none"),
        ("I'm not sure the API is slow", "block"),
        ("Not sure, but the API is slow", "block"),
        ("We are not sure yet", "block"),
        ("The fix is not certain to work", "block"),
        ("The user is not sure, but I think it is Redis", "block"),
    ],
)
def test_linguistic_refinements(text: str, action: str) -> None:
    assert analyze(text).action == action, analyze(text)


def test_maybe_before_a_quantity_approximates() -> None:
    """ "maybe 15 GB" approximates a number (review), bare "maybe" speculates (block)."""
    assert (
        analyze("The dump is maybe 15 GB").action,
        analyze("The dump is maybe 15 GB").category,
    ) == (
        "review",
        "approximation",
    )
    assert analyze("Maybe the dump is 15 GB").action == "block"


@pytest.mark.parametrize(
    "text",
    [
        "I think we should use Redis, definitely",
        "I dont know the port",
        "We migrated on May 3rd; maybe 5 nodes, I'm pretty sure",
        "It could not only fail, it could n't recover, as it should",
    ],
)
def test_prefilter_and_split_patterns_never_change_a_result(
    text: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Splitting leading alternations into literal-first patterns and memoising the
    candidate lists are optimisations only: every pattern on every text agrees."""
    import groundwire.guards.hedge.detector as detector_module

    expected = HedgeDetector().analyze(text)
    monkeypatch.setattr(
        detector_module,
        "candidates",
        lambda lower, tokens=None: list(range(len(PATTERNS))),
    )
    assert HedgeDetector().analyze(text) == expected


# The provenance guard's literal prefilter lives in guards/provenance.py; its test is here
# because this is the guards-speed owner's test file (test_provenance.py covers behaviour).
@pytest.mark.parametrize(
    ("pattern", "literal"),
    [
        (r"citations\s*:\s*\[", "citations"),
        (r"^\s*\(?(?:assistant|ai)\)?\s*:", ":"),
        (r"\[/?inst\]", "inst]"),
        (r"foo|bar", ""),
        (r"(?i)Assistant:", ""),
        (r"Generated by", ""),
        (r"x?", ""),
    ],
)
def test_provenance_required_literal(pattern: str, literal: str) -> None:
    import re

    from groundwire.guards.provenance import _required_literal

    assert _required_literal(pattern, re.MULTILINE) == literal


def test_provenance_prefilter_never_changes_a_verdict() -> None:
    from datetime import UTC, datetime

    from groundwire.guards.config import ProvenanceConfig
    from groundwire.guards.provenance import _compile, rejection_reason
    from groundwire.topics.records import SourceTurn

    cfg = ProvenanceConfig()
    rules = _compile(
        tuple(cfg.allowed_sources), tuple(cfg.reserved_prefixes), tuple(cfg.template_signatures), 0
    )
    texts = [
        "Citations: [1]",
        "note\n  (assistant): hi",
        "<|im_start|>user",
        "[INST] do it [/INST]",
        "As an AI language model, I",
        "generated by GPT-4",
        "plain evidence about ports: 8080 (default)",
    ]
    now = datetime.now(UTC)
    for text in texts:
        turn = SourceTurn(id="t1", text=text, source="corpus")
        brute = any(re.search(text.lower()) for _, re in rules.signatures)
        assert (rejection_reason(turn, rules, now) == "template_signature") == brute, text
