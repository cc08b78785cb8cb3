"""Session 18 (screen-stage CPU, issue 15 point 2): each cut is held to the code it
replaced, kept here verbatim as the reference (at 5eb464a), on crafted inputs and on
random ones, counting that the path the cut changed was taken."""

from __future__ import annotations

import random
from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

import pytest
from pydantic import BaseModel, ValidationError

from groundwire.guards import provenance
from groundwire.guards.config import ProvenanceConfig
from groundwire.guards.grounding.lexical import features, quantifiers, slot_swaps
from groundwire.guards.grounding.lexical.evidence import evidence_for
from groundwire.guards.grounding.lexical.labels import _table, gloss_stems
from groundwire.guards.grounding.lexical.quantifiers import (
    ALIGN,
    MAX_READ,
    _other_class,
    changed_quantifiers,
    quantifier_class,
)
from groundwire.guards.grounding.lexical.slot_swaps import _VERB_ENDINGS, _defined
from groundwire.guards.grounding.lexical.text import claim_words, clause_ids, fold_disguises
from groundwire.guards.hedge import detector
from groundwire.guards.hedge import normalize as hedge_normalize
from groundwire.guards.hedge.abbrev import expand, needs_expanding
from groundwire.guards.hedge.lexicon import byte_words
from groundwire.guards.hedge.spelling import needs_respelling, respell
from groundwire.guards.hedge.split import leet_pieces, needs_rejoin, rejoin
from groundwire.topics.records import (
    Claim,
    EvidenceSpan,
    HedgeReport,
    ProvenanceReport,
    SourceTurn,
)
from groundwire.topics.vocab import HedgeAction, HedgeCategory, ReentryReason, Source

# --- slot_swaps._defined: kept per word -------------------------------------------------


def _old_defined(low: str) -> frozenset[str]:
    """`slot_swaps._defined` at 5eb464a (read anew at every call)."""
    found = gloss_stems(low)
    for suffix, base in _VERB_ENDINGS:
        if low.endswith(suffix) and len(low) > len(suffix) + 2:
            more = gloss_stems(low[: -len(suffix)] + base)
            if more:
                return found | more
    return found


_CRAFTED_WORDS = (
    *("billing", "dispersed", "disperse", "colour", "favourite", "running", "stopped"),
    *("managed", "caching", "emails", "history", "violin", "alerts", "teaches", "x", ""),
    *("ed", "ing", "sing", "seed", "bed", "things", "kubernetes", "sms", "hoped", "hoping"),
)


@pytest.mark.parametrize("word", _CRAFTED_WORDS)
def test_defined_as_before_on_crafted_words(word: str) -> None:
    slot_swaps._DEFINED.clear()
    assert _defined(word) == _old_defined(word)
    assert word in slot_swaps._DEFINED  # kept
    assert _defined(word) == _old_defined(word)  # and read back from the kept answer


def test_defined_as_before_on_random_words() -> None:
    rng = random.Random(1801)
    lemmas = sorted(_table())
    endings = ("", "", "ing", "ed", "s", "es", "er", "ly", "e", "d")
    letters = "abcdefghijklmnopqrstuvwxyz"
    words = []
    for _ in range(4_000):
        if rng.random() < 0.8:
            word = rng.choice(lemmas) + rng.choice(endings)
        else:
            word = "".join(rng.choice(letters) for _ in range(rng.randint(1, 9)))
        words.append(word)
    slot_swaps._DEFINED.clear()
    defined = merged = repeated = 0
    seen: set[str] = set()
    for word in words:
        repeated += word in seen
        seen.add(word)
        old = _old_defined(word)
        assert _defined(word) == old, word
        defined += bool(old)
        merged += old != gloss_stems(word)  # the -ing / -ed base added its stems
    assert defined > 1_500 and merged > 100 and repeated > 100  # both answers, and memo reads
    for word in rng.sample(words, 500):  # every answer again, now from the memo
        assert _defined(word) == _old_defined(word), word


def test_defined_memo_is_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(slot_swaps, "_DEFINED_MAX", 3)
    slot_swaps._DEFINED.clear()
    for word in ("billing", "violin", "history", "alerts", "teaches", "billing"):
        assert _defined(word) == _old_defined(word)
        assert len(slot_swaps._DEFINED) <= 3


# --- quantifiers.changed_quantifiers: the quantifiers' positions only ------------------


def _old_changed_quantifiers(claim_text: str, turns: Sequence[SourceTurn]) -> list[tuple[str, str]]:
    """`quantifiers.changed_quantifiers` at 5eb464a."""
    words = claim_words(fold_disguises(claim_text))
    lows = words.lows
    if quantifiers._WORDS.isdisjoint(lows):
        return []
    found = [(k, q) for k in range(len(lows)) if (q := quantifier_class(lows, k)) is not None]
    if not found:
        return []
    clause = clause_ids(fold_disguises(claim_text), words.spans, lows)
    stems_of: dict[int, frozenset[str]] = {}
    for k, (c, st, content) in enumerate(zip(clause, words.stems, words.content, strict=True)):
        if content and lows[k] not in quantifiers._WORDS:
            stems_of[c] = stems_of.get(c, frozenset()) | {st}
    sentences = [
        s for s in evidence_for(turns).sentences if not quantifiers._WORDS.isdisjoint(s.lows)
    ]
    out: list[tuple[str, str]] = []
    read: set[tuple[int, int, int]] = set()
    for k, (scale, cls) in found:
        if (clause[k], scale, cls) in read or len(read) >= MAX_READ:
            continue
        read.add((clause[k], scale, cls))
        c_stems = stems_of.get(clause[k], frozenset())
        need = max(2.0, ALIGN * len(c_stems))
        if len(c_stems) < 2:
            continue
        other = _other_class(c_stems, need, scale, cls, sentences)
        if other is not None:
            out.append((words.raws[k], other))
    return out


def _turns(text: str) -> list[SourceTurn]:
    return [SourceTurn(id="t1", text=text, source="user")]


_CRAFTED = (
    ("All replicas are synced nightly.", "Some replicas are synced nightly."),
    ("We always deploy on Fridays.", "We sometimes deploy on Fridays."),
    ("A few servers failed during the outage.", "Many servers failed during the outage."),
    ("Most users never open the dashboard.", "Most users often open the dashboard."),
    (
        "Every team uses Redis, and some teams use Kafka.",
        "Each team uses Redis and few teams use Kafka.",
    ),
    ("Some 5 people came, all 3 replicas lag.", "Several people came and all replicas lag."),
    (
        "The backups usually run at night but rarely fail.",
        "The backups always run at night and often fail.",
    ),
    ("I can swim and she might sing.", "I could swim and she must sing."),
    ("nothing", "everything"),
    ("No quantifier here at all", "None of them here"),
)


@pytest.mark.parametrize(("claim", "source"), _CRAFTED)
def test_changed_quantifiers_as_before_on_crafted_texts(claim: str, source: str) -> None:
    turns = _turns(source)
    assert changed_quantifiers(claim, turns) == _old_changed_quantifiers(claim, turns)


def test_changed_quantifiers_finds_a_change() -> None:
    turns = _turns("Some replicas are synced nightly.")
    assert changed_quantifiers("All replicas are synced nightly.", turns) == [("All", "Some")]


_QUANTIFIERS = sorted(quantifiers._WORDS)
_CONTENT = (
    *("replicas", "servers", "users", "backups", "teams", "deploy", "synced", "run"),
    *("nightly", "fail", "dashboard", "cache", "Redis", "Kafka", "open", "use"),
)
_FUNCTION = ("the", "a", "and", "but", "on", "at", "of", "not", "are", "is", "we", ",", ".")


def _sentence(rng: random.Random) -> str:
    pool = (_QUANTIFIERS, _CONTENT, _CONTENT, _FUNCTION, _FUNCTION)
    words = [rng.choice(rng.choice(pool)) for _ in range(rng.randint(1, 14))]
    return " ".join(words)


def test_changed_quantifiers_as_before_on_random_texts() -> None:
    rng = random.Random(1802)
    gated = changed = 0
    for _ in range(600):
        source = ". ".join(_sentence(rng) for _ in range(rng.randint(1, 3))) + "."
        turns = _turns(source)
        sentences = source.split(". ")
        for _ in range(6):
            if rng.random() < 0.6:  # a source sentence with a quantifier or two swapped
                words = rng.choice(sentences).split()
                for _ in range(rng.randint(1, 2)):
                    words.insert(rng.randint(0, len(words)), rng.choice(_QUANTIFIERS))
                claim = " ".join(words)
            else:
                claim = _sentence(rng)
            old = _old_changed_quantifiers(claim, turns)
            assert changed_quantifiers(claim, turns) == old, (claim, source)
            words_of = claim_words(fold_disguises(claim)).lows
            gated += any(quantifier_class(words_of, k) is not None for k in range(len(words_of)))
            changed += bool(old)
    assert gated > 1_000 and changed > 100  # the changed path taken, and changes found


# --- reports made by the models' validators from a dict --------------------------------
# (HedgeReport in `hedge.detector`, ProvenanceReport in `provenance`, EvidenceSpan in
# `features._evidence_spans`): the replaced code was `Model(**fields)`, kept here as the
# reference.


def _same_model(new: BaseModel, old: BaseModel) -> None:
    assert type(new) is type(old)
    assert new == old
    assert new.model_fields_set == old.model_fields_set
    assert new.model_dump_json() == old.model_dump_json()
    assert new.model_dump_json(exclude_unset=True) == old.model_dump_json(exclude_unset=True)


def _random_fields(rng: random.Random, model: type[BaseModel]) -> dict[str, Any]:
    """Fields for `model`, mostly valid, some of the wrong type or value."""
    words = ["maybe", "I think", "roughly", "", "ß", "\u202e"]
    if model is HedgeReport:
        out: dict[str, Any] = {"action": rng.choice([*HedgeAction, "block", "nope", 3])}
        if rng.random() < 0.6:
            out["category"] = rng.choice([*HedgeCategory, None, "speculation?"])
        if rng.random() < 0.6:
            out["words"] = rng.choice([[], rng.sample(words, 2), "maybe", [1, 2]])
        return out
    if model is ProvenanceReport:
        ids = [f"t{i}" for i in range(rng.randint(0, 4))]
        out = {"eligible_turn_ids": ids if rng.random() < 0.9 else [1, None]}
        if rng.random() < 0.5:
            out["rejections"] = {
                f"r{i}": rng.choice([*ReentryReason, "unknown_reason"])
                for i in range(rng.randint(0, 3))
            }
            out["rejection_details"] = {k: rng.choice(words) for k in out["rejections"]}
        return out
    start = rng.randint(-2, 50)
    return {
        "turn_id": rng.choice(["t1", "turn:2", "", 7]),
        "start": start if rng.random() < 0.9 else "x",
        "end": start + rng.randint(0, 30),
        "text": rng.choice(words),
    }


@pytest.mark.parametrize("model", [HedgeReport, ProvenanceReport, EvidenceSpan])
def test_reports_from_the_validator_as_from_init(model: type[BaseModel]) -> None:
    rng = random.Random(1803)
    made = refused = 0
    validate = model.__pydantic_validator__.validate_python
    for _ in range(1_500):
        fields = _random_fields(rng, model)
        try:
            old = model(**fields)
        except ValidationError as e:
            with pytest.raises(ValidationError) as new_error:
                validate(dict(fields))
            assert new_error.value.errors() == e.errors()
            refused += 1
            continue
        _same_model(validate(dict(fields)), old)
        made += 1
    assert made > 500 and refused > 100


def test_report_validators_are_the_models_own() -> None:
    assert detector._REPORT.__self__ is HedgeReport.__pydantic_validator__
    assert provenance._REPORT.__self__ is ProvenanceReport.__pydantic_validator__
    assert features._SPAN.__self__ is EvidenceSpan.__pydantic_validator__


@pytest.mark.parametrize(
    "text",
    [
        "The cache runs on Redis.",
        "I think the cache runs on Redis.",
        "Maybe it is roughly 5 ms, I guess.",
        "It should be faster, probably.",
        "",
    ],
)
def test_hedge_report_as_before(text: str) -> None:
    report = detector.HedgeDetector().analyze(text)
    fields = {"action": report.action}
    if report.action is not HedgeAction.NONE:
        fields |= {"category": report.category, "words": report.words}
    _same_model(report, HedgeReport(**fields))


def test_provenance_report_as_before() -> None:
    cfg = ProvenanceConfig()
    now = datetime(2026, 11, 28, tzinfo=UTC)
    kept = [SourceTurn(id="t1", text="We use Redis.", source="corpus")]
    rejected = [*kept, SourceTurn(id="chat:2", text="Sure! As an AI, I", source="model")]
    for turns in (kept, rejected):
        claim = Claim(
            claim_id="c1",
            tenant_id="acme",
            content="We use Redis.",
            source=Source.USER,
            source_turns=turns,
        )
        report = provenance.check_provenance(claim, cfg, now)
        fields: dict[str, Any] = {"eligible_turn_ids": report.eligible_turn_ids}
        if report.rejections:
            fields |= {
                "rejections": report.rejections,
                "rejection_details": report.rejection_details,
            }
        _same_model(report, ProvenanceReport(**fields))
    assert report.rejections  # the second claim took the other branch


def test_evidence_spans_as_before() -> None:
    turns = [SourceTurn(id="t1", text="The cache runs on Redis. Backups run nightly.", source="u")]
    analysis = features.analyze("The cache runs on Redis and backups run nightly.", turns, set())
    assert analysis.spans
    for span in analysis.spans:
        _same_model(span, EvidenceSpan(**span.model_dump()))


# --- hedge: the abbreviation test reads the word list; "I-think" looked for by substring --


def _old_hits(self: detector.HedgeDetector, text: str) -> list[detector.HedgeHit]:
    """`HedgeDetector._hits` at 5eb464a (the words made a frozenset for the abbreviations)."""
    norm = _old_normalize(text)
    lower = norm.lower()
    tokens = byte_words(lower)
    if needs_respelling(lower, tokens):
        early = needs_rejoin(detector._WATCHED.intersection(tokens).union(leet_pieces(tokens)))
        if early:
            norm = _old_normalize(rejoin(norm, early))
            lower = norm.lower()
            tokens = byte_words(lower)
        respelled = respell(norm)
        if respelled != norm:
            norm = _old_normalize(respelled)
            lower = norm.lower()
            tokens = byte_words(lower)
    if ("." in lower or "approx" in lower) and needs_expanding(frozenset(tokens)):
        norm = _old_normalize(expand(norm))
        lower = norm.lower()
        tokens = byte_words(lower)
    words = detector._WATCHED.intersection(tokens)
    pairs = needs_rejoin(words)
    if pairs:
        norm = _old_normalize(rejoin(norm, pairs))
        lower = norm.lower()
        words = detector._WATCHED.intersection(byte_words(lower))
    found = self._scan(norm, lower, words)
    if len(found) > 1:
        found.sort(key=detector._hit_order)
    return found


def _old_normalize(text: str) -> str:
    """`hedge.normalize.normalize` at 5eb464a."""
    if "`" in text or (
        not text.isascii() and ("\u2019" in text or "\u2018" in text or "\x92" in text)
    ):
        text = text.translate(hedge_normalize._APOSTROPHES)
    if "?" in text and hedge_normalize._LOST_APOSTROPHE.search(text):
        text = hedge_normalize._LOST_APOSTROPHE.sub("'", text)
    if "'" in text and (" n't" in text or " '" in text):
        text = hedge_normalize._SPLIT_NEGATION.sub("n't", text)
        text = hedge_normalize._SPLIT_CLITIC.sub(r"'\1", text)
    if ("-" in text or "_" in text) and hedge_normalize._CUT_I.search(text):
        text = hedge_normalize._CUT_I.sub(r"I \1", text)
    return text


_HEDGE_TEXTS = (
    "The cache (prob.) runs on Redis.",
    "Latency is approx. 10 ms, e.g. on Monday.",
    "I-think the cache is Redis; i_guess so.",
    "Wi-Fi is flaky, per-user quotas apply.",
    "The team is I-- think -- done.",
    "prob. 5 replicas, maybe.",
    "It is usu. fine. Approx 3 ms.",
    "X-ray and UI_test are names.",
    "",
)
_HEDGE_PIECES = (
    *("I", "i", "-", "_", "think", "guess", "Wi-Fi", "prob.", "approx.", "approx", "usu."),
    *("perhaps", "maybe", "5", "ms", "the", "cache", "is", "Redis", ".", ",", "e.g.", "I-think"),
    *("UI-", "i_believe", "suppose", "n't", "do", "'m", "pr0b", "ably", "abt", "~", "ish"),
)


def test_hedge_hits_as_before() -> None:
    rng = random.Random(1804)
    texts = list(_HEDGE_TEXTS)
    for _ in range(3_000):
        pieces = [rng.choice(_HEDGE_PIECES) for _ in range(rng.randint(1, 12))]
        texts.append(rng.choice(("", " ")).join(pieces) if rng.random() < 0.3 else " ".join(pieces))
    hedge = detector.HedgeDetector()
    cut = skipped = expanded = hit = 0
    for text in texts:
        assert hedge_normalize.normalize(text) == _old_normalize(text), text
        assert hedge._hits(text) == _old_hits(hedge, text), text
        cut += hedge_normalize._CUT_I.search(text) is not None  # "I-think" read
        skipped += ("-" in text or "_" in text) and not any(
            p in text for p in ("i-", "I-", "i_", "I_")
        )  # a mark, no "I" before one: the pattern no longer tried
        expanded += needs_expanding(byte_words(text.lower()))
        hit += bool(_old_hits(hedge, text))
    assert cut > 100 and skipped > 200 and expanded > 500 and hit > 1_000  # both paths taken
