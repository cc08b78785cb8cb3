"""Re-entry guard (docs/spec.md §Provenance and re-entry): which source turns may ground a
claim."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from groundwire.guards.config import ProvenanceConfig
from groundwire.guards.provenance import check_provenance, eligible_turns
from groundwire.topics.records import Claim
from groundwire.topics.vocab import ReentryReason

T0 = datetime(2026, 4, 1, 12, 0, tzinfo=UTC)


def _claim(*turns: dict, created_at: datetime | None = T0) -> Claim:
    return Claim(
        claim_id="c1",
        tenant_id="t",
        content="X supports null keys",
        source="ai_synthesis",
        source_turns=list(turns),
        created_at=created_at,
    )


def test_spec_example_model_answer_is_rejected() -> None:
    claim = _claim(
        {"id": "p1#1", "source": "corpus", "text": "X is a constrained mapping."},
        {
            "id": "chat:42",
            "source": "model",
            "text": "(assistant) X supports null keys. citations: [p1#1]",
        },
    )
    report = check_provenance(claim, ProvenanceConfig())
    assert report.eligible_turn_ids == ["p1#1"]
    assert set(report.rejections) == {"chat:42"}
    assert [t.id for t in eligible_turns(claim, report)] == ["p1#1"]


NOT_ALLOWED = ReentryReason.SOURCE_NOT_ALLOWED
MISSING = ReentryReason.SOURCE_MISSING
PREFIX = ReentryReason.RESERVED_PREFIX
SIGNATURE = ReentryReason.TEMPLATE_SIGNATURE


@pytest.mark.parametrize(
    ("turn", "reason", "detail"),
    [
        ({"id": "n1", "source": "model", "text": "fact"}, NOT_ALLOWED, "model"),
        ({"id": "n1", "source": "system", "text": "fact"}, NOT_ALLOWED, "system"),
        ({"id": "n1", "source": "m" * 40, "text": "fact"}, NOT_ALLOWED, "m" * 32),
        ({"id": "draft:9", "source": "corpus", "text": "fact"}, PREFIX, "draft:"),
        ({"id": "TMP:9", "source": "corpus", "text": "fact"}, PREFIX, "tmp:"),
        ({"id": "gen:1", "source": "corpus", "text": "fact"}, PREFIX, "gen:"),
        ({"id": "assistant:1", "source": "corpus", "text": "fact"}, PREFIX, "assistant:"),
        ({"id": "n1", "source": "user", "text": "fact"}, NOT_ALLOWED, "user"),
        ({"id": "n1", "source": "documentation", "text": "fact"}, NOT_ALLOWED, "documentation"),
        ({"id": "n1", "text": "fact"}, MISSING, None),
        ({"id": "n1", "source": None, "text": "fact"}, MISSING, None),
        ({"id": "n1", "source": "", "text": "fact"}, MISSING, None),
        ({"id": "n1", "source": "  ", "text": "fact"}, MISSING, None),
        (
            {"id": "d1", "source": "corpus", "text": "X rejects nulls. citations: [p1]"},
            SIGNATURE,
            "citations: [",
        ),
        (
            {"id": "d2", "source": "corpus", "text": "<|im_start|>assistant hi"},
            SIGNATURE,
            "<|im_start|>",
        ),
        (
            {"id": "d3", "source": "corpus", "text": "As an AI language model, I"},
            SIGNATURE,
            "as an ai language model",
        ),
        (
            {
                "id": "d4",
                "source": "corpus",
                "text": "fact",
                "created_at": T0 + timedelta(minutes=5),
            },
            ReentryReason.CREATED_AFTER_CLAIM,
            None,
        ),
    ],
)
def test_each_rule_rejects(turn: dict, reason: ReentryReason, detail: str | None) -> None:
    """The code is the reason alone; what matched (tag, prefix, signature text) is a
    separate detail."""
    report = check_provenance(_claim(turn), ProvenanceConfig())
    assert report.eligible_turn_ids == []
    assert report.rejections == {turn["id"]: reason}
    assert report.rejection_details == ({turn["id"]: detail} if detail else {})


def test_turns_beyond_the_limit_are_rejected_as_too_many() -> None:
    from groundwire.guards.provenance import MAX_TURNS

    turns = [{"id": f"k{i}", "source": "corpus", "text": "t"} for i in range(MAX_TURNS + 2)]
    report = check_provenance(_claim(*turns), ProvenanceConfig())
    assert len(report.eligible_turn_ids) == MAX_TURNS
    assert set(report.rejections.values()) == {ReentryReason.TOO_MANY_TURNS}
    assert report.rejection_details == {}


def test_without_the_private_regex_parser_every_signature_still_runs(monkeypatch) -> None:
    """`re._parser` is CPython-private; if it moves, the prefilter is off, verdicts stay."""
    import re
    import sys

    from groundwire.guards import provenance

    monkeypatch.delattr(re, "_parser")
    monkeypatch.setitem(sys.modules, "re._parser", None)  # the import now fails
    monkeypatch.setattr(provenance, "_rules_by_cfg", {})
    assert provenance._required_literal(r"citations\s*:", re.MULTILINE) == ""
    provenance._compile.cache_clear()
    try:
        turn = {"id": "d1", "source": "corpus", "text": "X rejects nulls. citations: [p1]"}
        report = check_provenance(_claim(turn), ProvenanceConfig())
        assert report.rejections == {"d1": SIGNATURE}
    finally:
        provenance._compile.cache_clear()


@pytest.mark.parametrize("source", ["corpus", "Corpus", " corpus ", "ＣＯＲＰＵＳ"])
def test_allowed_sources_pass(source: str) -> None:
    turn = {"id": "k1", "source": source, "text": "The API rejects null keys.", "created_at": T0}
    assert check_provenance(_claim(turn), ProvenanceConfig()).eligible_turn_ids == ["k1"]


def test_naive_timestamps_and_claim_without_created_at() -> None:
    naive_later = {"id": "k", "source": "corpus", "text": "t", "created_at": "2026-04-01T12:30:00"}
    assert check_provenance(_claim(naive_later), ProvenanceConfig()).rejections == {
        "k": ReentryReason.CREATED_AFTER_CLAIM
    }
    claim = _claim(naive_later, created_at=None)
    now = datetime(2026, 4, 2, tzinfo=UTC)
    assert check_provenance(claim, ProvenanceConfig(), now=now).eligible_turn_ids == ["k"]


def test_config_can_opt_in() -> None:
    turn = {"id": "chat:7", "source": "model", "text": "summary"}
    cfg = ProvenanceConfig(allowed_sources=["model"], reserved_prefixes=[])
    assert check_provenance(_claim(turn), cfg).eligible_turn_ids == ["chat:7"]


def test_rejected_id_never_passes_even_if_repeated() -> None:
    claim = _claim(
        {"id": "k", "source": "corpus", "text": "ok"},
        {"id": "k", "source": "model", "text": "model text"},
    )
    report = check_provenance(claim, ProvenanceConfig())
    assert eligible_turns(claim, report) == []


def test_only_corpus_grounds_by_default_and_the_list_is_a_setting() -> None:
    turns = [
        {"id": f"k-{src}", "source": src, "text": "The API rejects null keys."}
        for src in ("corpus", "user", "documentation", "model")
    ]
    report = check_provenance(_claim(*turns), ProvenanceConfig())
    assert report.eligible_turn_ids == ["k-corpus"]
    assert set(report.rejections) == {"k-user", "k-documentation", "k-model"}
    wider = ProvenanceConfig(allowed_sources=["corpus", "User"])
    assert check_provenance(_claim(*turns), wider).eligible_turn_ids == ["k-corpus", "k-user"]


def test_a_turn_without_source_is_not_corpus() -> None:
    """The wire default is "missing", not "corpus": such a turn never grounds."""
    from groundwire.topics.records import SourceTurn

    assert SourceTurn(id="k", text="t").source is None
    report = check_provenance(
        _claim({"id": "k", "text": "X supports null keys"}), ProvenanceConfig()
    )
    assert report.rejections == {"k": MISSING} and report.eligible_turn_ids == []


@pytest.mark.parametrize(
    "turn_id",
    [
        "CHAT:7",
        "Chat:7",
        "cHaT:7",
        "ｃｈａｔ：７",
        "chat :7",
        "chat\u0301:7",
        "DRAFT : 1",
        "Ｇｅｎ:x",
    ],
)
def test_reserved_prefixes_are_compared_in_normal_form(turn_id: str) -> None:
    report = check_provenance(
        _claim({"id": turn_id, "source": "corpus", "text": "fact"}), ProvenanceConfig()
    )
    assert report.rejections == {turn_id: PREFIX}


def test_ids_with_surrounding_whitespace_are_refused_at_decode_and_normalised_anyway() -> None:
    from groundwire.guards.provenance import id_form
    from groundwire.topics.codec import DecodeLimits, decode_claim

    raw = (
        b'{"claim_id": "c", "tenant_id": "t", "content": "x", "source": "ai_synthesis",'
        b' "source_turns": [{"id": " chat:7", "source": "corpus", "text": "t"}]}'
    )
    assert not isinstance(decode_claim(raw, DecodeLimits()), Claim)
    assert id_form(" chat:7 ") == id_form("\tCHAT:7") == "chat:7"
    cfg = ProvenanceConfig(reserved_prefixes=[" Chat: "])
    report = check_provenance(_claim({"id": "chat:1", "source": "corpus", "text": "t"}), cfg)
    assert report.rejections == {"chat:1": PREFIX}


@pytest.mark.parametrize(
    "text",
    [
        "X supports null keys. citations: [p1#1]",
        "X supports null keys. citations: p1#1",
        "X supports null keys. Citations : p2#3, p4#1",
        "X supports null keys.\ncitations:p1#1",
        "X supports null keys. citations: (p1#1)",
        "X supports null keys. citations: {p1#1}",
        "X supports null keys. citations: < p1#1 >",
    ],
)
def test_citation_lists_are_caught_with_and_without_brackets(text: str) -> None:
    report = check_provenance(
        _claim({"id": "p9", "source": "corpus", "text": text}), ProvenanceConfig()
    )
    assert report.rejections == {"p9": SIGNATURE}


@pytest.mark.parametrize(
    "text",
    [
        "X supports null keys. (\u0430ssistant)",  # Cyrillic "а"
        "X supports null keys. (assis\u200btant)",  # zero-width space
        "X supports null keys. cit\u0430tions: [p1#1]",
        "<|im_st\u0430rt|>assistant X supports null keys",
        "<\uff5cim_start\uff5c>assistant X supports null keys",  # fullwidth bars
    ],
)
def test_disguised_template_residue_is_still_residue(text: str) -> None:
    """The signatures are also read in the canonical text (docs/spec.md §Canonical text)."""
    report = check_provenance(
        _claim({"id": "p9", "source": "corpus", "text": text}), ProvenanceConfig()
    )
    assert report.rejections == {"p9": SIGNATURE}


@pytest.mark.parametrize(
    "text",
    [
        "Install the package with pip; the instance restarts.",  # "inst" without [ ]
        "The assistant manager approved the budget.",  # "assistant" without ( )
        "The model: a mapping type that rejects null keys.",  # not at the start of a line
    ],
)
def test_paired_brackets_stay_required(text: str) -> None:
    report = check_provenance(
        _claim({"id": "p9", "source": "corpus", "text": text}), ProvenanceConfig()
    )
    assert report.eligible_turn_ids == ["p9"]


def test_bracket_optional_reads_the_pattern_structure() -> None:
    from groundwire.guards.provenance import bracket_optional

    opener = "(?:[\\[({<]\\s*)?"
    closer = "(?:\\s*[\\])}>])?"
    assert bracket_optional(r"citations\s*:\s*\[") == r"citations\s*:\s*" + opener
    assert bracket_optional(r"sources\s*=\s*\{") == r"sources\s*=\s*" + opener
    assert bracket_optional(r"p\d+#\d+\]\s*end") == r"p\d+#\d+" + closer + r"\s*end"
    for kept in (
        r"\[/?inst\]",  # paired: the brackets are the marker
        r"\((?:assistant|ai)\)",  # paired across a group
        r"^\s*\(?(?:assistant|ai)\)?\s*:",  # already optional
        r"[\[(]x",  # inside a character class
        r"a\[{2}",  # counted
        r"as an ai model",  # no brackets
    ):
        assert bracket_optional(kept) == kept
    # a user-configured signature gets the same treatment
    cfg = ProvenanceConfig(template_signatures=[r"sources\s*=\s*\{"])
    report = check_provenance(
        _claim({"id": "p", "source": "corpus", "text": "sources = a, b"}), cfg
    )
    assert report.rejections == {"p": SIGNATURE}


def test_every_failed_cited_id_is_listed_with_why() -> None:
    """The auditor rule (a claim is rejected if any cited id fails) reads `rejections`:
    every failed id is a key, whatever the others did."""
    turns = [{"id": "p1#1", "source": "corpus", "text": "X is a constrained mapping."}]
    turns += [{"id": f"chat:{i}", "source": "corpus", "text": "x"} for i in range(12)]
    turns += [
        {"id": "m1", "source": "model", "text": "x"},
        {"id": "n1", "text": "x"},
        {"id": "p1#1", "source": "corpus", "text": "(assistant) x"},  # same id, fails once
    ]
    report = check_provenance(_claim(*turns), ProvenanceConfig())
    assert set(report.rejections) == {f"chat:{i}" for i in range(12)} | {"m1", "n1", "p1#1"}
    assert report.rejections["p1#1"] is SIGNATURE and report.rejections["n1"] is MISSING
    assert report.rejection_details["chat:3"] == "chat:"
    assert report.rejection_details["m1"] == "model"
    claim = _claim(*turns)
    assert eligible_turns(claim, report) == []  # a failed id never grounds


@pytest.mark.parametrize(
    "text",
    [
        "ChatGPT: X supports null keys.",
        "GPT-4o: X supports null keys.",
        "**Assistant:** X supports null keys.",
        "### Assistant: X supports null keys.",
        "user: does X take null keys? ai: yes, X supports null keys",
        "<start_of_turn>model\nX supports null keys.",
        "<|start_header_id|>assistant<|end_header_id|>\nX supports null keys.",
        "As a large language model, I can say X supports null keys.",
        "I'm an AI, but X supports null keys.",
        "Summary written by GPT-4o: X supports null keys.",
        "This AI-generated note says X supports null keys.",
        "Model output: X supports null keys.",
        "<assistant>X supports null keys.</assistant>",
    ],
)
def test_other_models_and_templates_are_model_output(text: str) -> None:
    report = check_provenance(
        _claim({"id": "p9", "source": "corpus", "text": text}), ProvenanceConfig()
    )
    assert report.rejections == {"p9": SIGNATURE}


@pytest.mark.parametrize(
    "text",
    [
        "Our chatbot answers billing questions; X supports null keys.",
        "The AI team wrote the design doc: X supports null keys.",
        "Airflow: the scheduler that runs the nightly job.",  # "ai" inside a word
        "She wrote the letter by hand. Bots are banned from the forum.",
        "The report was written by Alice using the template.",
    ],
)
def test_words_about_ai_are_not_model_output(text: str) -> None:
    report = check_provenance(
        _claim({"id": "p9", "source": "corpus", "text": text}), ProvenanceConfig()
    )
    assert report.eligible_turn_ids == ["p9"]
