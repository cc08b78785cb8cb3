"""guards/faithfulness/split.py: sentences, kinds with their reasons, atomic claims
(docs/spec.md §Read-time faithfulness, "Atomic claims")."""

from __future__ import annotations

import pytest

from groundwire.guards.faithfulness.split import classify, split_answer, split_sentences
from groundwire.topics.vocab import ClaimKind

INBOX3 = (
    "Your Inbox3 project is at 60% completion. The main blockers are OAuth and rate limits. "
    "Your team of 3 engineers is allocated 50% to this project."
)


def texts(answer: str, markers: list[tuple[int, int]] | None = None) -> list[str]:
    return [answer[a:b] for a, b in split_sentences(answer, markers or [])]


def test_sentences_end_at_stops_not_at_abbreviations_numbers_or_files() -> None:
    answer = "It retries, e.g. on timeouts, every 2.5 s. See retry.py for that. Done!"
    assert texts(answer) == [
        "It retries, e.g. on timeouts, every 2.5 s.",
        "See retry.py for that.",
        "Done!",
    ]


def test_a_marker_after_the_stop_belongs_to_the_sentence_before() -> None:
    answer = "Blockers are OAuth. [mem_Y] Next one."
    start = answer.index("[")
    assert texts(answer, [(start, start + 7)]) == ["Blockers are OAuth. [mem_Y]", "Next one."]


def test_list_items_and_lines_are_sentences() -> None:
    answer = "Here is what I found:\n1. Inbox3 is at 60%\n- Blockers: OAuth"
    assert texts(answer) == ["Here is what I found:", "1. Inbox3 is at 60%", "- Blockers: OAuth"]


@pytest.mark.parametrize(
    ("sentence", "kind"),
    [
        ("Does that help?", ClaimKind.QUESTION),
        ("Hi there!", ClaimKind.GREETING),
        ("Hope this helps!", ClaimKind.GREETING),
        ("Thanks!", ClaimKind.GREETING),
        ("Here is what I found:", ClaimKind.META),
        ("I don't have information about the budget.", ClaimKind.META),
        ("Try restarting the worker.", ClaimKind.ADVICE),
        ("Please check the logs first.", ClaimKind.ADVICE),
        ("If you need speed, use Redis.", ClaimKind.ADVICE),
        ("You should fix OAuth first.", ClaimKind.ADVICE),
        ("I recommend the managed service.", ClaimKind.ADVICE),
        ("I love Paris.", ClaimKind.OPINION),
        ("I think that's great.", ClaimKind.OPINION),
        ("That sounds like a fun trip.", ClaimKind.OPINION),
        ("The API returns JSON.", ClaimKind.FACTUAL),
        ("I think the team has 3 engineers.", ClaimKind.FACTUAL),  # a hedged specific
        ("Use of the cache is optional.", ClaimKind.FACTUAL),  # "use" as a noun
        ("The dashboard is great for teams of 5.", ClaimKind.FACTUAL),
    ],
)
def test_kinds(sentence: str, kind: ClaimKind) -> None:
    found, why = classify(sentence)
    assert found is kind
    assert why  # every piece says why it is what it is


def test_the_spec_example_is_four_atomic_claims() -> None:
    pieces = split_answer(INBOX3)
    assert [p.kind for p in pieces] == [ClaimKind.FACTUAL] * 4
    assert [p.text for p in pieces] == [
        "Your Inbox3 project is at 60% completion.",
        "The main blockers are OAuth and rate limits.",
        "Your team of 3 engineers is allocated to this project.",
        "Your team is allocated 50% to this project.",
    ]
    assert all(p.critical for p in pieces)
    assert pieces[2].start == pieces[3].start  # both from the third sentence


def test_clauses_are_cut_at_conjunctions_after_a_comma_and_at_semicolons() -> None:
    pieces = split_answer(
        "Georgian works at Arrive, but he used to work at Datakynd; it grew fast last year."
    )
    assert [p.text for p in pieces] == [
        "Georgian works at Arrive",
        "he used to work at Datakynd",
        "it grew fast last year.",
    ]
    # a clause under three words stays with the one before
    [piece] = split_answer("The job failed, and so on.")
    assert piece.text == "The job failed, and so on."


def test_quantities_of_one_phrase_stay_together() -> None:
    [piece] = split_answer("Versions 3.10, 3.11 and 3.12 are supported.")
    assert piece.text == "Versions 3.10, 3.11 and 3.12 are supported."


def test_a_greeting_before_a_fact_leaves_the_fact() -> None:
    [piece] = split_answer("Sure, the API returns JSON.")
    assert piece.kind is ClaimKind.FACTUAL
    assert piece.text == "the API returns JSON."


def test_an_opinion_clause_is_excluded_and_the_experience_is_checked() -> None:
    pieces = split_answer("I love Paris, I've been there twice.")
    assert [(p.kind, p.text) for p in pieces] == [
        (ClaimKind.OPINION, "I love Paris"),
        (ClaimKind.FACTUAL, "I've been there twice."),
    ]


def test_lead_ins_that_name_the_sources_are_not_part_of_the_claim() -> None:
    [piece] = split_answer("According to your memories, Georgian works at Arrive.")
    assert piece.text == "Georgian works at Arrive."


def test_markers_are_removed_from_the_claim_text() -> None:
    answer = "Inbox3 is at 60% completion [source:1]."
    start = answer.index("[")
    [piece] = split_answer(answer, [(start, start + 10)])
    assert piece.text == "Inbox3 is at 60% completion."
    assert piece.clause_start <= start < piece.clause_end


def test_input_is_bounded() -> None:
    pieces = split_answer("A fact. " * 10_000, max_chars=80)
    assert len(pieces) == 10


def claims_of(answer: str) -> list[tuple[ClaimKind, str]]:
    return [(p.kind, p.text) for p in split_answer(answer)]


@pytest.mark.parametrize("dash", [" — ", "—", " – ", " - ", " -- "])
def test_a_dash_before_a_conjunction_cuts_a_clause(dash: str) -> None:
    answer = f"Inbox3 ships on Monday{dash}and the budget doubled to $4M."
    assert claims_of(answer) == [
        (ClaimKind.FACTUAL, "Inbox3 ships on Monday"),
        (ClaimKind.FACTUAL, "the budget doubled to $4M."),
    ]


def test_a_dash_inside_a_word_or_without_a_conjunction_does_not_cut() -> None:
    assert len(claims_of("The pre-and post-release checks found 3 bugs.")) == 1
    assert len(claims_of("Inbox3 ships Monday — the budget is $2M.")) == 1


def test_a_table_header_row_names_columns_and_its_rows_are_claims() -> None:
    answer = "| Item | Value |\n|---|:---:|\n| Budget | $5M |"
    got = claims_of(answer)
    assert got[0] == (ClaimKind.META, "| Item | Value |")
    assert got[-1] == (ClaimKind.FACTUAL, "| Budget | $5M |")
    # a row without a rule under it is not a header
    assert claims_of("| Budget | $5M |\n| Team | 4 |")[0][0] is ClaimKind.FACTUAL


@pytest.mark.parametrize(
    "lead", ["If you recall, ", "As you know, ", "As you may remember, ", "As mentioned earlier, "]
)
def test_a_reminder_lead_in_is_not_part_of_the_claim_it_asserts(lead: str) -> None:
    assert claims_of(f"{lead}the budget is $5M.") == [(ClaimKind.FACTUAL, "the budget is $5M.")]


def test_a_conditional_that_does_not_remind_keeps_its_condition() -> None:
    assert claims_of("If the budget is $5M, the team has 9 engineers.") == [
        (ClaimKind.FACTUAL, "If the budget is $5M, the team has 9 engineers.")
    ]


@pytest.mark.parametrize(
    ("answer", "statement"),
    [
        ("I love that Dana is the CTO!", "Dana is the CTO!"),
        ("Sorry the launch slipped to Friday.", "the launch slipped to Friday."),
        ("I'm glad Inbox3 ships on Friday.", "Inbox3 ships on Friday."),
        ("It's great that the budget is $2M.", "the budget is $2M."),
    ],
)
def test_an_emotive_frame_over_a_specific_states_it(answer: str, statement: str) -> None:
    [piece] = split_answer(answer)
    assert (piece.kind, piece.text) == (ClaimKind.FACTUAL, statement)
    assert "framed by" in piece.why


@pytest.mark.parametrize(
    ("answer", "kind"),
    [
        ("I love that idea.", ClaimKind.OPINION),  # nothing specific, no clause
        ("I love Paris.", ClaimKind.OPINION),
        ("Sorry to hear that.", ClaimKind.GREETING),
        ("Sorry I couldn't find Dana's file.", ClaimKind.GREETING),  # a refusal, not a fact
        ("I can't help with that.", ClaimKind.META),
    ],
)
def test_an_emotive_frame_over_nothing_checkable_stays_excluded(
    answer: str, kind: ClaimKind
) -> None:
    assert [p.kind for p in split_answer(answer)] == [kind]


@pytest.mark.parametrize(
    ("answer", "statement"),
    [
        ("Given that the budget is $5M, what should we cut?", "the budget is $5M"),
        ("Now that Inbox3 ships on Friday, are you ready?", "Inbox3 ships on Friday"),
        ("Since Dana joined Acme in 2019, has the team grown?", "Dana joined Acme in 2019"),
    ],
)
def test_a_premise_before_a_question_is_stated(answer: str, statement: str) -> None:
    [piece] = split_answer(answer)
    assert (piece.kind, piece.text) == (ClaimKind.FACTUAL, statement)


@pytest.mark.parametrize(
    "answer",
    [
        "Since you moved, have you settled in?",  # nothing specific: about the user
        "Since when do you work there?",  # no premise clause ("since when" asks)
        "Because of Dana, did Inbox3 slip?",  # a phrase, not a clause
    ],
)
def test_a_question_without_a_specific_premise_stays_a_question(answer: str) -> None:
    assert [p.kind for p in split_answer(answer)] == [ClaimKind.QUESTION]


def test_an_apposition_in_advice_is_a_claim_about_the_name() -> None:
    pieces = split_answer("Ask Dana, the CTO, about the schedule.")
    assert [(p.kind, p.text) for p in pieces] == [
        (ClaimKind.ADVICE, "Ask Dana, the CTO, about the schedule."),
        (ClaimKind.FACTUAL, "Dana is the CTO"),
    ]
    assert "apposition" in pieces[1].why


@pytest.mark.parametrize(
    "answer",
    ["Ask Dana about the schedule.", "Please check the logs, the config, and the env."],
)
def test_advice_without_an_apposition_to_a_name_states_nothing(answer: str) -> None:
    assert [p.kind for p in split_answer(answer)] == [ClaimKind.ADVICE]


def test_a_why_question_about_a_named_third_party_presupposes_it() -> None:
    [piece] = split_answer("Why did Inbox3 slip to Friday?")
    assert (piece.kind, piece.text) == (ClaimKind.FACTUAL, "Inbox3 slip to Friday")
    assert "framed by 'why did'" in piece.why


@pytest.mark.parametrize(
    "answer",
    ["Why do you like Star Wars?", "Why is the sky blue?", "Why not use Redis?"],
)
def test_a_why_question_about_the_user_or_nothing_specific_stays_a_question(
    answer: str,
) -> None:
    assert [p.kind for p in split_answer(answer)] == [ClaimKind.QUESTION]


def test_thanks_for_something_with_a_number_presupposes_it() -> None:
    pieces = split_answer("Thanks for approving the $5M budget.")
    assert [(p.kind, p.text) for p in pieces] == [
        (ClaimKind.GREETING, "Thanks for"),
        (ClaimKind.FACTUAL, "approving the $5M budget"),
    ]


@pytest.mark.parametrize(
    "answer", ["Thanks for asking about Inbox3!", "Thank you for your question."]
)
def test_thanks_for_nothing_numbered_stays_a_pleasantry(answer: str) -> None:
    assert [p.kind for p in split_answer(answer)] == [ClaimKind.GREETING]


def test_a_negative_question_about_a_named_third_party_leans_on_its_statement() -> None:
    [piece] = split_answer("Doesn't Inbox3 ship on Friday?")
    assert (piece.kind, piece.text) == (ClaimKind.FACTUAL, "Inbox3 ship on Friday")


@pytest.mark.parametrize(
    "answer", ["Isn't that amazing?", "Don't you love Paris?", "Isn't it great?"]
)
def test_a_negative_question_about_the_user_or_nothing_stays_a_question(answer: str) -> None:
    assert [p.kind for p in split_answer(answer)] == [ClaimKind.QUESTION]


def test_an_apposition_in_a_pleasantry_or_at_the_end_is_a_claim() -> None:
    pieces = split_answer("Feel free to ping Dana, our CTO.")
    assert [(p.kind, p.text) for p in pieces] == [
        (ClaimKind.GREETING, "Feel free to ping Dana, our CTO."),
        (ClaimKind.FACTUAL, "Dana is our CTO"),
    ]
    assert [p.kind for p in split_answer("Feel free to ask.")] == [ClaimKind.GREETING]


@pytest.mark.parametrize(
    "answer",
    [
        "Hope you have a relaxing weekend.",
        "I hope you enjoy it.",
        "Enjoy your trip!",
        "Good luck with the review!",
        "Congratulations on the new role!",
        "Welcome back!",
        "Fingers crossed for the review!",
        "Can't wait to hear how it goes!",
        "Looking forward to it!",
    ],
)
def test_a_wish_or_a_congratulation_naming_nothing_is_a_pleasantry(answer: str) -> None:
    assert [p.kind for p in split_answer(answer)] == [ClaimKind.GREETING]


@pytest.mark.parametrize(
    ("answer", "kind", "described"),
    [
        ("Hope the Monday launch goes well!", ClaimKind.GREETING, "the Monday launch"),
        ("Let me know if the $8M budget needs a sign-off.", ClaimKind.GREETING, "the $8M budget"),
        (
            "Feel free to ask if the 12-person team needs help.",
            ClaimKind.GREETING,
            "the 12-person team",
        ),
        ("Thanks for confirming the Monday launch!", ClaimKind.GREETING, "the Monday launch"),
        ("Who owns the Monday launch?", ClaimKind.QUESTION, "the Monday launch"),
        ("If the launch on Monday slips, tell me.", ClaimKind.ADVICE, "the launch on Monday"),
        ("I love the Paris offsite.", ClaimKind.OPINION, "the Paris offsite"),
    ],
)
def test_a_definite_description_with_a_specific_is_presupposed(
    answer: str, kind: ClaimKind, described: str
) -> None:
    pieces = split_answer(answer)
    assert [(p.kind, p.text) for p in pieces] == [(kind, answer), (ClaimKind.FACTUAL, described)]
    assert pieces[1].critical
    assert "presupposed by a definite description" in pieces[1].why


@pytest.mark.parametrize(
    "answer",
    [
        "Who is your favourite player on the Patriots?",  # asks the user about their own
        "I couldn't find the Q3 report.",  # a remark about the search
        "Do you like the NFL?",
    ],
)
def test_descriptions_a_question_asks_about_or_a_refusal_names_are_not_read(answer: str) -> None:
    assert [p.kind for p in split_answer(answer) if p.kind is ClaimKind.FACTUAL] == []


def test_a_description_inside_a_reason_given_is_checked_once() -> None:
    pieces = split_answer("Try the EU region, since the US region was deprecated.")
    assert [p.text for p in pieces if p.kind is ClaimKind.FACTUAL] == [
        "the US region was deprecated",
        "the EU region",
    ]


def test_a_congratulation_presupposes_what_it_congratulates_on() -> None:
    pieces = split_answer("Congrats to Dana on becoming CTO, well deserved!")
    assert [(p.kind, p.text) for p in pieces] == [
        (ClaimKind.GREETING, "Congrats to"),
        (ClaimKind.FACTUAL, "Dana on becoming CTO"),
    ]


def test_what_continues_a_wish_is_not_a_statement_but_a_statement_after_one_is() -> None:
    assert [p.kind for p in split_answer("I hope it has fans, with 18 to 49 year olds.")] == [
        ClaimKind.GREETING
    ]
    assert claims_of("Hope this helps, the budget is $5M.") == [
        (ClaimKind.GREETING, "Hope this helps"),
        (ClaimKind.FACTUAL, "the budget is $5M."),
    ]


@pytest.mark.parametrize(
    ("answer", "kind"),
    [
        ("Just a reminder to check the logs.", ClaimKind.ADVICE),
        ("If the launch slips, tell me.", ClaimKind.ADVICE),
        ("I'll check the logs for you.", ClaimKind.META),  # an offer, "I'll" as "I will"
        ("I'll be in Paris on Monday.", ClaimKind.FACTUAL),
        ("Just a reminder that the launch is on Monday.", ClaimKind.FACTUAL),
    ],
)
def test_instructions_and_offers_in_their_short_forms(answer: str, kind: ClaimKind) -> None:
    assert split_answer(answer)[0].kind is kind


def test_a_statement_after_a_refusal_is_read_without_a_specific() -> None:
    assert claims_of("I don't have the exact figure, but the team grew fast.") == [
        (ClaimKind.META, "I don't have the exact figure, but"),
        (ClaimKind.FACTUAL, "the team grew fast."),
    ]


def test_a_postscript_label_is_not_text() -> None:
    assert claims_of("P.S. the launch moved to Monday.") == [
        (ClaimKind.FACTUAL, "the launch moved to Monday.")
    ]
    assert claims_of("PS: let me know if anything changes.") == [
        (ClaimKind.GREETING, "let me know if anything changes.")
    ]


def factual(answer: str) -> list[str]:
    return [p.text for p in split_answer(answer) if p.kind is ClaimKind.FACTUAL]


@pytest.mark.parametrize(
    ("answer", "stated"),
    [
        # a wish over a clause whose subject a relative clause describes
        ("Hope the launch that moved to Monday works for everyone.", "the launch moved to Monday"),
        ("Hope the launch, which moved to Monday, goes well.", "the launch moved to Monday"),
        ("Hope the launch being moved to Monday works out.", "the launch moved to Monday"),
        # an opinion and advice: the relative clause is the speaker's statement
        ("I really like Dana, who became CFO last year.", "Dana became CFO last year"),
        ("Try the API, which allows 500 requests a minute.", "API allows 500 requests a minute"),
        ("Ask Priya, who leads the sales team, about it.", "Priya leads the sales team"),
    ],
)
def test_a_relative_clause_in_an_excluded_sentence_is_checked(answer: str, stated: str) -> None:
    assert stated in factual(answer)


@pytest.mark.parametrize(
    "answer",
    [
        "I hope that the launch goes well.",  # "that" joins the wish's own clause
        "I'm glad that you asked.",
        "Who is the person that runs Acme?",  # a question asks who does
        "Let me know which option works for you.",
        "I really like Dana, who is great.",  # nothing specific in the clause
    ],
)
def test_no_relative_clause_is_read_where_there_is_none_to_check(answer: str) -> None:
    assert factual(answer) == []


def test_a_number_in_a_relative_clause_leaves_a_taste_an_opinion() -> None:
    pieces = split_answer("I love Redis, which handles 1M ops per second.")
    assert [(p.kind, p.text) for p in pieces] == [
        (ClaimKind.OPINION, "I love Redis, which handles 1M ops per second."),
        (ClaimKind.FACTUAL, "Redis handles 1M ops per second"),
    ]
    # a number of the taste itself still makes the sentence a statement
    assert split_answer("I love the 4 engineers on the platform team.")[0].kind is ClaimKind.FACTUAL


@pytest.mark.parametrize(
    ("answer", "stated"),
    [
        ("Try the API (it allows 500 requests per minute).", "it allows 500 requests per minute"),
        ("Hope the launch (now on Monday) goes well.", "the launch is now on Monday"),
        ("Ask Dana (our CFO) about the budget.", "Dana is our CFO"),
    ],
)
def test_an_aside_in_parentheses_in_an_excluded_sentence_is_checked(
    answer: str, stated: str
) -> None:
    assert stated in factual(answer)


def test_an_aside_that_names_nothing_is_not_read() -> None:
    assert factual("Ask Dana (when you can) about the budget.") == []
    assert factual("Try it again (if you like).") == []


def test_a_name_with_a_possessive_makes_a_definite_description() -> None:
    assert factual("Hope Dana's move to CFO goes well.") == ["Dana's move to CFO"]
    assert factual("Hope Dana's move went well.") == []  # it names nothing more
    assert factual("It's great news.") == []  # "It's" opens the sentence: no possessive


def test_a_clause_of_time_before_advice_is_read_when_it_names_a_specific() -> None:
    assert "Dana became CFO in 2023" in factual("After Dana became CFO in 2023, ask her.")
    assert "the $8M budget is approved" in factual("Once the $8M budget is approved, tell Dana.")
    # nothing named, or a supposition ("if", "before": it may never happen)
    assert factual("When it breaks, call me.") == []
    assert factual("If Dana becomes CFO in 2027, tell me.") == []
    assert factual("Before Dana leaves on Friday, ask her.") == []
