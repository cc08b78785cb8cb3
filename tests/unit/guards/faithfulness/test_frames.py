"""Statements inside a question or instruction frame are read as claims
(guards/faithfulness/frames.py); real questions and instructions stay what they are."""

from __future__ import annotations

import pytest

from groundwire.guards.faithfulness.frames import presupposed_descriptions
from groundwire.guards.faithfulness.split import split_answer
from groundwire.topics.vocab import ClaimKind


def factual(text: str) -> list[str]:
    return [p.text for p in split_answer(text) if p.kind is ClaimKind.FACTUAL]


@pytest.mark.parametrize(
    ("answer", "claim"),
    [
        ("Did you know the refund window is 90 days?", "the refund window is 90 days"),
        ("did you know that the cluster has 12 nodes ?", "the cluster has 12 nodes"),
        ("Are you aware that billing moved to Postgres?", "billing moved to Postgres"),
        ("Have you heard the team migrated to Go?", "the team migrated to Go"),
        ("Isn't it great that Inbox3 ships on Friday?", "Inbox3 ships on Friday"),
        ("Note: the budget is $5M.", "the budget is $5M."),
        ("Remember: the API key expires on Monday.", "the API key expires on Monday."),
        ("You should know that the API key expires on Monday.", "the API key expires on Monday."),
        ("Don't forget the deploy window is 2am.", "the deploy window is 2am."),
        ("Please keep in mind that backups run at 2am.", "backups run at 2am."),
        ("Remember, it's hosted in Frankfurt.", "it's hosted in Frankfurt."),
        ("The deploy is on Friday, isn't it?", "The deploy is on Friday"),
        ("Billing moved to Postgres last year, right?", "Billing moved to Postgres last year"),
    ],
)
def test_a_framed_statement_is_a_claim(answer: str, claim: str) -> None:
    pieces = split_answer(answer)
    assert [p.text for p in pieces if p.kind is ClaimKind.FACTUAL] == [claim]
    assert all("framed by" in p.why for p in pieces)


@pytest.mark.parametrize(
    "answer",
    [
        "Do you know where the logs are?",
        "Do you know who owns billing?",
        "Did you know the answer?",
        "Have you heard of Kafka?",
        "Are you aware of the outage?",
        "Did you know that?",
        "Is it true that the budget is $5M?",  # asks; presupposes nothing
        "Can you confirm the budget is $5M?",
        "Did you restart the server?",
        "What is the budget, right?",
        "Is the budget $5M, right?",
        "Note the deadline in your calendar.",
        "Note: if the deploy fails, restart it.",
        "You should know the basics first.",
        "Isn't it weird?",
    ],
)
def test_questions_and_instructions_without_a_statement_stay_unchecked(answer: str) -> None:
    assert factual(answer) == []


def test_a_judgement_before_a_statement_leaves_the_statement_checked() -> None:
    assert factual("Interesting, they also have gills.") == ["Interesting, they also have gills."]
    assert factual("Cool, thanks!") == []  # the rest is a pleasantry
    assert factual("Great, that is awesome.") == []  # the rest is a judgement too
    assert factual("Interesting, I love that.") == []


@pytest.mark.parametrize(
    ("answer", "claim"),
    [
        ("You should use Redis because Postgres is down this week.", "Postgres is down this week"),
        ("I recommend Redis since it handles 1M ops per second.", "it handles 1M ops per second"),
        ("Try the EU region, since the US region was deprecated.", "the US region was deprecated"),
        ("Use the v2 API now that v1 is retired.", "v1 is retired"),
        ("I love Redis because it handles 1M ops per second.", None),  # a number: all checked
    ],
)
def test_the_reason_advice_gives_is_checked(answer: str, claim: str | None) -> None:
    pieces = split_answer(answer)
    if claim is None:
        assert [p.kind for p in pieces] == [ClaimKind.FACTUAL]
        return
    assert pieces[0].kind is ClaimKind.ADVICE
    # the reason first; a description the advice names ("the EU region") follows it
    assert factual(answer)[0] == claim
    assert "the reason given" in pieces[1].why


@pytest.mark.parametrize(
    "answer",
    [
        "You might want to wait since last year.",  # a time, not a reason
        "Consider Redis because of its speed.",  # no clause
        "Try it because you might like it.",  # a guess
        "I love Redis because it is fast.",  # a taste and its grounds, nothing specific
    ],
)
def test_advice_and_opinions_without_a_stated_reason_stay_unchecked(answer: str) -> None:
    assert factual(answer) == []


@pytest.mark.parametrize(
    ("answer", "lead", "claim"),
    [
        (
            "I don't have the exact figure, but the budget is $5M.",
            ClaimKind.META,
            "the budget is $5M.",
        ),
        ("I'm not sure about the date; the budget is $5M.", ClaimKind.META, "the budget is $5M."),
        ("Hope this helps: the budget is $5M.", ClaimKind.GREETING, "the budget is $5M."),
        (
            "Glad to help, the team has 12 engineers.",
            ClaimKind.GREETING,
            "the team has 12 engineers.",
        ),
        ("Sorry, the deploy moved to Friday.", ClaimKind.GREETING, "the deploy moved to Friday."),
    ],
)
def test_a_statement_after_a_pleasantry_or_a_refusal_is_checked(
    answer: str, lead: ClaimKind, claim: str
) -> None:
    pieces = split_answer(answer)
    assert [p.kind for p in pieces] == [lead, ClaimKind.FACTUAL]
    assert pieces[1].text == claim


@pytest.mark.parametrize(
    "answer",
    [
        "Thank you, have a nice day.",
        "Hope this helps, let me know if you need more.",
        "I don't know, sorry.",
        "I couldn't find that in the context, sorry about that.",
        "Feel free to ask, I can look up more details.",
        "Sure, I can help with that.",
        "I'm not sure, maybe ask the team.",
        "So sorry to hear that.",
    ],
)
def test_pleasantries_refusals_and_offers_stay_unchecked(answer: str) -> None:
    assert factual(answer) == []


def test_a_marker_after_the_frame_cites_the_framed_statement() -> None:
    text = "Inbox3 ships on Friday, right? [source:2]"
    marker = (text.index("["), len(text))
    [piece] = split_answer(text, [marker])
    assert piece.text == "Inbox3 ships on Friday"
    assert piece.clause_start <= marker[0] and piece.clause_end >= marker[0]


@pytest.mark.parametrize(
    ("answer", "claim"),
    [
        ("When did Dana become CTO?", "Dana become CTO"),
        ("When does the launch on Friday start?", "the launch on Friday start"),
        ("Since when is Dana the CTO?", "Dana the CTO"),
        ("How long has Dana led the Lisbon office?", "Dana led the Lisbon office"),
        ("In what year did Dana join Acme?", "Dana join Acme"),
    ],
)
def test_a_when_or_how_long_question_presupposes_its_statement(answer: str, claim: str) -> None:
    pieces = split_answer(answer)
    assert [(p.kind, p.text) for p in pieces] == [(ClaimKind.FACTUAL, claim)]
    assert "framed by" in pieces[0].why


@pytest.mark.parametrize(
    "answer",
    [
        "When will you be back?",  # about the user
        "How long have you been waiting?",
        "When is the launch?",  # nothing specific
        "How do I reset my password?",
    ],
)
def test_a_when_question_about_the_user_or_nothing_specific_stays_a_question(
    answer: str,
) -> None:
    assert [p.kind for p in split_answer(answer)] == [ClaimKind.QUESTION]


@pytest.mark.parametrize(
    ("answer", "claim"),
    [
        ("Could it be that the payments team moved to Adyen?", "the payments team moved to Adyen"),
        ("Is it possible that the API allows 500 requests?", "the API allows 500 requests"),
        ("Might it be the case that Dana joined in 2019?", "Dana joined in 2019"),
        ("Maybe the launch moved to Monday?", "the launch moved to Monday"),
        # after an adverb of doubt a statement follows, whatever its verb
        ("Perhaps the API allows 500 requests?", "the API allows 500 requests"),
        ("I wonder if the launch moved to Monday.", "the launch moved to Monday"),
        ("So the Q3 budget is $8M?", "the Q3 budget is $8M"),
        ("Dana became CTO in 2021?", "Dana became CTO in 2021"),
        # an irregular past reads as a clause as "-ed" does
        ("Did you know Dana became CTO in 2021?", "Dana became CTO in 2021"),
    ],
)
def test_a_hedged_or_asked_statement_with_a_specific_is_a_claim(answer: str, claim: str) -> None:
    assert factual(answer) == [claim]


@pytest.mark.parametrize(
    "answer",
    [
        "Could it be that you need a new API key?",  # about the user
        "Could it be that it broke?",  # nothing specific
        "Could you check the logs?",
        "Maybe you could try restarting it?",  # advice asked
        "I wonder what you think.",
        "I wonder if it's still there.",
        "You moved to Paris?",  # asks the user
        "No. Do you?",
        "Any idea when the launch is?",
        "Because of Dana, did Inbox3 slip?",
        "Did you know the thought experiment?",  # "thought" after "the" is a noun
    ],
)
def test_a_real_question_or_a_hedge_over_nothing_specific_stays_unchecked(answer: str) -> None:
    assert factual(answer) == []
    assert split_answer(answer)[0].kind in (ClaimKind.QUESTION, ClaimKind.ADVICE)


@pytest.mark.parametrize(
    ("text", "described"),
    [
        ("Hope the Monday launch goes well!", ["the Monday launch"]),
        ("Let me know if the $8M budget needs a sign-off.", ["the $8M budget"]),
        ("Enjoy your trip to Rome!", ["your trip to Rome"]),
        ("Hope your June trip to Madrid is fun.", ["your June trip to Madrid"]),
        ("When does the launch on Friday start?", ["the launch on Friday"]),
        ("Have you seen the movie Shape of Water?", ["the movie Shape of Water"]),
        ("Is the 3.5% raise in the Q3 plan?", ["the 3.5% raise in the Q3 plan"]),
    ],
)
def test_definite_descriptions_that_name_a_specific(text: str, described: list[str]) -> None:
    assert [text[f.start : f.end] for f in presupposed_descriptions(text)] == described


@pytest.mark.parametrize(
    "text",
    [
        "Check the logs first.",  # names nothing
        "Do you like the NFL?",  # only a name: no plain word says what it is
        "Is the budget $5M?",  # the amount is asked of the budget, not part of it
        "I know that 5 is enough.",  # "that" joins a clause
        "Did you see a Monday launch?",  # not definite
    ],
)
def test_no_definite_description_with_a_specific(text: str) -> None:
    assert presupposed_descriptions(text) == []
