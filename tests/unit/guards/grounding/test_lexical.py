"""The offline verifier on the worked examples of docs/spec.md §Grounding and targeted cases.

Each targeted case pairs a grounded claim with a minimal edit of it (an invented entity,
a changed number, a flipped negation, another speaker), so a test fails if the verifier
stops telling them apart — not just if a score drifts.
"""

from __future__ import annotations

import pytest

from groundwire.guards.config import GroundingConfig
from groundwire.guards.grounding import grounding_blocks
from groundwire.guards.grounding.lexical import LexicalVerifier, analyze, stem, tokenize
from groundwire.guards.protocols import GroundingRequest
from groundwire.topics.records import Claim, GroundingReport, SourceTurn
from groundwire.topics.vocab import GroundingVerdict

CFG = GroundingConfig()


def verify(content: str, turns: list[SourceTurn], **claim: object) -> GroundingReport:
    c = Claim(
        claim_id="c1",
        tenant_id="t1",
        content=content,
        source="chat",
        source_turns=turns,
        **claim,  # type: ignore[arg-type]
    )
    return LexicalVerifier(CFG).verify_one(GroundingRequest(c, turns))


def assert_spans_exact(report: GroundingReport, turns: list[SourceTurn]) -> None:
    by_id = {t.id: t for t in turns}
    for span in report.evidence_spans:
        assert by_id[span.turn_id].text[span.start : span.end] == span.text


# --- docs/spec.md §Grounding worked examples ----------------------------------------

MEETING = [
    SourceTurn(id="turn-1", text="Let's schedule the meeting for next Tuesday.", source="user"),
    SourceTurn(
        id="turn-2", text="I'll be joining from my home office in Bangalore.", source="user"
    ),
]
MVP = [
    SourceTurn(
        id="turn-1",
        text="I think I should be done with the MVP by end of April, pretty confident.",
        source="user",
    )
]


def test_spec_invented_employer_is_not_supported() -> None:
    report = verify(
        "Georgian works as a software developer at Google",
        MEETING,
        confidence=0.85,
        user_id="georgian",
    )
    assert report.verdict == GroundingVerdict.NOT_SUPPORTED
    assert report.evidence_spans == []
    assert "Google" in report.reasoning
    assert grounding_blocks(report, CFG)


def test_spec_sharpened_plan_keeps_evidence_and_penalises() -> None:
    report = verify(
        "Georgian will deliver the Inbox3 MVP by April 30 with 95% confidence",
        MVP,
        confidence=0.82,
        user_id="georgian",
    )
    assert report.verdict == GroundingVerdict.PARTIAL
    assert 0.10 <= report.confidence_penalty <= 0.30
    assert report.adjusted_confidence == pytest.approx(0.82 - report.confidence_penalty)
    texts = " ".join(s.text for s in report.evidence_spans)
    assert "MVP by end of April" in texts
    assert_spans_exact(report, MVP)
    assert not grounding_blocks(report, CFG)
    # the same claim from a low-confidence extractor falls under the minimum -> dropped
    low = verify(
        "Georgian will deliver the Inbox3 MVP by April 30 with 95% confidence",
        MVP,
        confidence=0.4,
        user_id="georgian",
    )
    assert low.verdict == GroundingVerdict.PARTIAL and grounding_blocks(low, CFG)


def test_faithful_restatement_is_supported_with_spans() -> None:
    report = verify("Georgian should be done with the MVP by end of April", MVP, user_id="georgian")
    assert report.verdict == GroundingVerdict.SUPPORTED
    assert report.evidence_spans and report.evidence_spans[0].turn_id == "turn-1"
    assert_spans_exact(report, MVP)
    assert report.confidence_penalty == 0.0


# --- targeted cases ----------------------------------------------------------------

TEAM = [SourceTurn(id="s", text="The team has 3 engineers working on the OAuth integration.")]


def test_changed_number_contradicts() -> None:
    assert verify("The team has 3 engineers working on the OAuth integration", TEAM).verdict == (
        GroundingVerdict.SUPPORTED
    )
    report = verify("The team has 5 engineers working on the OAuth integration", TEAM)
    assert report.verdict == GroundingVerdict.NOT_SUPPORTED
    assert "'5' where the source says '3'" in report.reasoning


def test_swapped_entity_contradicts() -> None:
    report = verify("The team has 3 engineers working on the Stripe integration", TEAM)
    assert report.verdict == GroundingVerdict.NOT_SUPPORTED
    assert "Stripe" in report.reasoning


def test_added_quantity_is_at_most_partial() -> None:
    report = verify("The team has 3 engineers working on the OAuth integration since 2019", TEAM)
    assert report.verdict in (GroundingVerdict.PARTIAL, GroundingVerdict.NOT_SUPPORTED)
    assert "2019" in report.reasoning


def test_number_words_match_digits() -> None:
    report = verify("The team has three engineers working on the OAuth integration", TEAM)
    assert report.verdict == GroundingVerdict.SUPPORTED


def test_negation_flip_is_not_supported() -> None:
    turns = [SourceTurn(id="s", text="The payment service uses Postgres for the ledger.")]
    assert verify("The payment service uses Postgres for the ledger", turns).verdict == (
        GroundingVerdict.SUPPORTED
    )
    report = verify("The payment service does not use Postgres for the ledger", turns)
    assert report.verdict == GroundingVerdict.NOT_SUPPORTED
    assert "negation" in report.reasoning


def test_claim_about_a_different_speaker() -> None:
    turns = [
        SourceTurn(
            id="chat", text="Anna: I will bring the cake tomorrow . Bob: great, I'll bring drinks"
        )
    ]
    assert verify("Anna will bring the cake tomorrow", turns).verdict == GroundingVerdict.SUPPORTED
    report = verify("Bob will bring the cake tomorrow", turns)
    assert report.verdict == GroundingVerdict.NOT_SUPPORTED
    assert "speaker" in report.reasoning


def test_owner_name_is_not_an_invented_entity_only_for_first_person_evidence() -> None:
    third_person = [SourceTurn(id="s", text="Priya should be done with the MVP by end of April.")]
    text = "By end of April, Georgian should be done with the MVP"
    assert "Georgian" in analyze(text, third_person, set()).missing_entities
    assert "Georgian" not in analyze(text, MVP, {"georgian"}).missing_entities
    report = verify(text, MVP, user_id="georgian")
    assert report.verdict == GroundingVerdict.SUPPORTED


def test_no_admissible_turns_is_not_supported() -> None:
    claim = Claim(claim_id="c", tenant_id="t", content="x is y", source="chat", source_turns=MVP)
    [report] = [LexicalVerifier(CFG).verify_one(GroundingRequest(claim, []))]
    assert report.verdict == GroundingVerdict.NOT_SUPPORTED
    assert report.reasoning == "no admissible evidence"


async def test_verify_batch_keeps_order_and_never_raises() -> None:
    claims = [
        Claim(claim_id=f"c{i}", tenant_id="t", content=text, source="chat", source_turns=TEAM)
        for i, text in enumerate(
            ["The team has 3 engineers working on the OAuth integration", "Cats purr loudly"]
        )
    ]
    reports = await LexicalVerifier(CFG).verify_batch(
        [GroundingRequest(c, c.source_turns) for c in claims]
    )
    assert [r.verdict for r in reports] == [
        GroundingVerdict.SUPPORTED,
        GroundingVerdict.NOT_SUPPORTED,
    ]
    assert all(r.verifier == "lexical" for r in reports)


def test_evidence_is_bounded() -> None:
    cfg = GroundingConfig(max_evidence_chars=20)
    turns = [SourceTurn(id="s", text="padding " * 10 + "The team has 3 engineers on OAuth.")]
    claim = Claim(
        claim_id="c",
        tenant_id="t",
        content="The team has 3 engineers",
        source="chat",
        source_turns=turns,
    )
    report = LexicalVerifier(cfg).verify_one(GroundingRequest(claim, turns))
    assert (
        report.verdict == GroundingVerdict.NOT_SUPPORTED
    )  # the evidence past the budget is not read


def test_tokenizer_and_stemmer() -> None:
    assert stem("works") == stem("work")
    assert stem("confidence") == stem("confident")
    toks = tokenize("It's 1,000 people, not 95%!")
    assert [t.low for t in toks if t.content] == ["1,000", "people", "95"]
    assert all("It's 1,000 people, not 95%!"[t.start : t.end] == t.text for t in toks)


@pytest.mark.parametrize(
    "forms",
    [
        "like likes liked liking",
        "live lives lived living",
        "use uses used using",
        "manage manages managed managing",
        "stop stops stopped stopping",
        "box boxes",
        "watch watches watched",
        "company companies",
        "need needs needed",
        "visit visits visited visiting",
        "open opens opened opening",
    ],
)
def test_the_inflections_of_a_word_share_its_stem(forms: str) -> None:
    assert len({stem(w) for w in forms.split()}) == 1, {w: stem(w) for w in forms.split()}


@pytest.mark.parametrize(
    ("a", "b"), [("thing", "th"), ("string", "str"), ("shed", "sh"), ("hope", "hop"), ("bed", "b")]
)
def test_words_that_only_look_inflected_keep_their_stem(a: str, b: str) -> None:
    assert stem(a) != stem(b)


def test_a_claim_in_the_third_person_meets_evidence_in_the_first() -> None:
    """'lives' against 'live', 'manages' against 'manage': the e of the base is no suffix."""
    turns = [SourceTurn(id="u", text="I live in Berlin and I manage the billing team.")]
    for content in ("Georgian lives in Berlin", "Georgian manages the billing team"):
        report = verify(content, turns, user_id="georgian")
        assert report.verdict == GroundingVerdict.SUPPORTED, report.reasoning


def test_configured_thresholds_take_effect() -> None:
    text = "The team has 3 engineers working on that OAuth integration"
    claim = Claim(claim_id="c", tenant_id="t", content=text, source="chat", source_turns=TEAM)
    strict = LexicalVerifier(GroundingConfig(supported_threshold=1.0))
    report = strict.verify_one(GroundingRequest(claim, TEAM))
    assert report.verdict == GroundingVerdict.PARTIAL
    assert report.confidence_penalty == pytest.approx(0.10, abs=0.05)


def test_a_verbatim_quote_of_the_source_is_supported_with_its_span():
    from groundwire.guards.config import GroundingConfig
    from groundwire.guards.grounding.lexical import LexicalVerifier
    from groundwire.guards.protocols import GroundingRequest
    from groundwire.topics.records import Claim, SourceTurn

    turn = SourceTurn(
        id="p1#1", text="Intro. X is a constrained mapping. More text.", source="corpus"
    )
    claim = Claim(claim_id="c", tenant_id="t", content="x is a constrained mapping", source="chat")
    report = LexicalVerifier(GroundingConfig()).verify_one(GroundingRequest(claim, [turn]))
    assert report.verdict == "supported"
    [span] = report.evidence_spans
    assert turn.text[span.start : span.end] == span.text == "X is a constrained mapping"
    fragment = Claim(claim_id="f", tenant_id="t", content="a constrained", source="chat")
    assert (
        LexicalVerifier(GroundingConfig()).verify_one(GroundingRequest(fragment, [turn])).reasoning
        != "supported: the source states the claim verbatim"
    )


def _user_said(*texts: str) -> list[SourceTurn]:
    return [SourceTurn(id=f"u{i}", text=t, source="user") for i, t in enumerate(texts)]


@pytest.mark.parametrize(
    ("claim", "said"),
    [
        ("The user lives in Berlin", "I live in Berlin with my partner."),
        ("The user has two kids", "I have two kids."),
        ("The user's birthday is May 3", "My birthday is May 3."),
        ("The user is vegetarian", "My wife and I are vegetarian."),
    ],
)
def test_the_user_named_in_the_third_person_is_the_speaker_of_the_users_turns(
    claim: str, said: str
) -> None:
    report = verify(claim, _user_said(said))
    assert report.verdict is not GroundingVerdict.NOT_SUPPORTED, report.reasoning
    assert "user" not in report.reasoning.split("unsupported words:")[-1]


@pytest.mark.parametrize(
    ("claim", "said"),
    [
        ("The user lives in Berlin", "My sister lives in Berlin."),
        ("The user has two kids", "My brother has two kids."),
        ("The user is vegetarian", "My wife is vegetarian, I eat anything."),
        ("The user uses Postgres", "Our competitor uses Postgres."),
        ("The user's birthday is May 3", "My dad's birthday is May 3."),
        ("Georgian lives in Berlin", "My sister lives in Berlin."),
        ("The user's manager is Dana", "My manager's manager is Dana."),
    ],
)
def test_what_the_speaker_says_of_someone_of_theirs_is_not_said_of_the_speaker(
    claim: str, said: str
) -> None:
    report = verify(claim, _user_said(said), user_id="georgian")
    assert report.verdict is GroundingVerdict.NOT_SUPPORTED
    assert "where the source says " in report.reasoning and (
        "My" in report.reasoning or "Our" in report.reasoning
    )


def test_the_user_is_no_speaker_where_only_the_assistant_speaks_in_the_first_person() -> None:
    turns = [
        SourceTurn(id="a", text="I live in Berlin.", source="assistant"),
        SourceTurn(id="u", text="Nice.", source="user"),
    ]
    report = verify("The user lives in Berlin", turns)
    assert "user" in report.reasoning  # still an unsupported word


def test_a_claim_about_the_user_that_no_turn_of_the_users_speaks_of_is_not_supported() -> None:
    turns = [
        SourceTurn(id="a", text="Many people are allergic to peanuts.", source="assistant"),
        SourceTurn(id="u", text="Good to know.", source="user"),
    ]
    report = verify("The user is allergic to peanuts", turns)
    assert report.verdict is GroundingVerdict.NOT_SUPPORTED
    assert "attributed to a speaker who did not say it" in report.reasoning


# --- memories that leave their owner out ("Prefers dark mode", "Name is Priya") --------


@pytest.mark.parametrize(
    ("claim", "said"),
    [
        ("Prefers dark mode", "I really prefer dark mode."),
        ("Name is Priya", "My name is Priya."),
        ("Works at Acme as a data engineer", "I work at Acme as a data engineer."),
        ("Is planning a trip to Japan in May", "I'm planning a trip to Japan in May."),
        ("Moved to Berlin in 2023", "I moved to Berlin in 2023."),
        ("Favourite food is sushi", "My favourite food is sushi."),
        ("Wife is vegetarian", "My wife is vegetarian, I eat anything."),
        ("Sister lives in Berlin", "My sister lives in Berlin."),
        ("Lives in Berlin", "My sister and I live in Berlin."),
        ("Manager: Dana", "My manager is Dana."),
        ("The user's daughter's name is Mia", "My daughter's name is Mia."),
        ("Dana is vegetarian", "My wife Dana is vegetarian."),
        ("Postgres is the main database", "Our team's main database is Postgres, I set it up."),
        ("User prefers dark mode", "I prefer dark mode."),
        ("User's manager: Dana", "My manager is Dana."),
    ],
)
def test_a_memory_that_leaves_its_owner_out_is_grounded_by_the_owners_words(
    claim: str, said: str
) -> None:
    report = verify(claim, _user_said(said), user_id="u42")
    assert not grounding_blocks(report, CFG), report.reasoning


@pytest.mark.parametrize(
    ("claim", "said"),
    [
        ("Prefers dark mode", "My husband prefers dark mode."),
        ("Name is Priya", "My daughter's name is Priya."),  # verbatim "name is Priya"
        ("Works at Acme as a data engineer", "My brother works at Acme as a data engineer."),
        ("Is planning a trip to Japan in May", "My boss is planning a trip to Japan in May."),
        (
            "Lives in Berlin; moved from Munich in 2023",
            "My parents live in Berlin; they moved from Munich in 2023.",
        ),
        ("Favourite food is sushi", "My son's favourite food is sushi."),
        ("Manager: Dana", "My wife's manager is Dana."),
        ("Has two kids", "My brother has two kids."),
    ],
)
def test_a_memory_that_leaves_its_owner_out_is_not_said_of_someone_of_the_owners(
    claim: str, said: str
) -> None:
    report = verify(claim, _user_said(said), user_id="u42")
    assert report.verdict is GroundingVerdict.NOT_SUPPORTED, report.reasoning
    assert "'(the user)' where the source says " in report.reasoning
    tail = report.reasoning.split("where the source says")[-1]
    assert "My" in tail or "they" in tail  # "my parents ...; they moved ..."


@pytest.mark.parametrize(
    ("claim", "said", "who"),
    [
        ("Is planning a trip to Japan in May", "He is planning a trip to Japan in May.", "He"),
        ("The user lives in Berlin", "I love that city. She lives in Berlin.", "She"),
        ("User's birthday is May 3", "Her birthday is May 3, I always forget it.", "Her"),
        ("Name is Priya", "I met someone new. Her name is Priya.", "Her"),
    ],
)
def test_what_the_speaker_says_of_a_third_person_is_not_said_of_the_speaker(
    claim: str, said: str, who: str
) -> None:
    report = verify(claim, _user_said("I'm fine.", said), user_id="u42")
    assert report.verdict is GroundingVerdict.NOT_SUPPORTED, report.reasoning
    assert who in report.reasoning.split("where the source says")[-1]


@pytest.mark.parametrize(
    ("claim", "said"),
    [
        ("Lives in Berlin", "I told her I live in Berlin."),
        ("Lives in Berlin", "I live in Berlin, she lives in Paris."),
        ("Is married to Dana", "My wife Dana and I got married in 2019."),
        ("The user lives in Berlin", "My wife and I live in Berlin; she loves it."),
        ("Name is Priya", "He asked me and I said my name is Priya."),
        ("Works at Acme", "They hired me last year, so I work at Acme now."),
    ],
)
def test_a_third_person_beside_the_speaker_leaves_the_claim_the_speakers(
    claim: str, said: str
) -> None:
    report = verify(claim, _user_said(said), user_id="u42")
    assert not grounding_blocks(report, CFG), report.reasoning


def test_a_subjectless_memory_no_turn_of_the_users_speaks_of_is_not_supported() -> None:
    said = _user_said("Lots of people are allergic to peanuts, right?", "Peanuts are everywhere.")
    report = verify("Is allergic to peanuts", said)
    assert report.verdict is GroundingVerdict.NOT_SUPPORTED
    assert "attributed to a speaker who did not say it" in report.reasoning
    # a bare noun first may be the subject, not the owner's: the user's plain fact grounds it
    fact = verify("Postgres is the main database", _user_said("The main database is Postgres."))
    assert not grounding_blocks(fact, CFG), fact.reasoning


@pytest.mark.parametrize(
    "said",
    [
        ["Postgres runs the ledger."],
        ["Honestly, Postgres runs the ledger and my team loves it."],
    ],
)
def test_a_first_word_the_evidence_writes_capitalised_is_a_subject_not_the_owners_verb(
    said: list[str],
) -> None:
    report = verify("Postgres runs the ledger", _user_said(*said), user_id="u42")
    assert report.verdict is GroundingVerdict.SUPPORTED, report.reasoning


@pytest.mark.parametrize(
    "claim",
    ["The user is allergic to peanuts", "User is allergic to peanuts", "Is allergic to peanuts"],
)
def test_a_claim_about_the_user_only_a_document_says_of_others_is_not_supported(
    claim: str,
) -> None:
    doc = SourceTurn(id="c", text="Many children are allergic to peanuts.", source="corpus")
    report = verify(claim, [doc, *_user_said("I'm new here.")], user_id="u42")
    assert report.verdict is GroundingVerdict.NOT_SUPPORTED, report.reasoning
    assert "attributed to a speaker who did not say it" in report.reasoning
    # a document in the first person, or the user's own words, still speak of the user
    mine = SourceTurn(id="c", text="Allergy record: I am allergic to peanuts.", source="corpus")
    ok = verify(claim, [mine, *_user_said("I'm new here.")], user_id="u42")
    assert not grounding_blocks(ok, CFG), ok.reasoning


def test_a_subjectless_claim_without_turns_of_the_users_is_read_as_before() -> None:
    corpus = [SourceTurn(id="c", text="My brother works at Acme.", source="corpus")]
    report = verify("Works at Acme", corpus)
    assert "(the user)" not in report.reasoning


def test_a_yes_to_a_question_about_the_user_is_the_users_own_word() -> None:
    asked = SourceTurn(id="a", text="Would you prefer dark mode?", source="assistant")
    yes = verify("The user prefers dark mode", [asked, *_user_said("Yes, dark mode please.")])
    assert yes.verdict is GroundingVerdict.SUPPORTED, yes.reasoning
    no = verify("The user prefers dark mode", [asked, *_user_said("No, light mode.")])
    assert no.verdict is GroundingVerdict.NOT_SUPPORTED
