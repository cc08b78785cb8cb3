"""A source that contradicts the claim: antonyms from WordNet and negation flips
(docs/spec.md §Grounding, "contradicted by it").

Each contradiction is paired with a control that must NOT be read as one: the same
antonym in an unrelated sentence, an antonym undone by a negation, a negation in another
clause, so the tests fail when the rule becomes too eager as well as when it misses.
"""

from __future__ import annotations

from importlib import resources

import pytest

from groundwire.guards.config import GroundingConfig
from groundwire.guards.grounding.lexical import LexicalVerifier
from groundwire.guards.grounding.lexical import antonyms as ant
from groundwire.guards.protocols import GroundingRequest
from groundwire.topics.records import Claim, GroundingReport, SourceTurn
from groundwire.topics.vocab import GroundingVerdict

NOT_SUPPORTED = GroundingVerdict.NOT_SUPPORTED


def verify(content: str, *texts: str) -> GroundingReport:
    turns = [SourceTurn(id=f"turn-{i}", text=t, source="user") for i, t in enumerate(texts, 1)]
    claim = Claim(
        claim_id="c", tenant_id="t", content=content, source="conversation", source_turns=turns
    )
    return LexicalVerifier(GroundingConfig()).verify_one(GroundingRequest(claim, turns))


# --- the WordNet table ------------------------------------------------------------------


def test_the_table_ships_with_its_licence_and_loads() -> None:
    # its load time is a line of bench/bench_grounding.py, not an assertion here
    data = resources.files("groundwire.guards.grounding").joinpath("data")
    licence = data.joinpath("WORDNET-LICENSE.txt").read_text("utf-8")
    assert "WordNet 3.1 Copyright 2011 by Princeton University" in licence
    head = data.joinpath("antonyms.tsv").read_text("utf-8").splitlines()[:2]
    assert "WordNet 3.1" in head[0] and "build_antonyms.py" in head[1]
    words, _, troponyms = ant._load()
    words_now, exceptions = ant.table_size()
    assert words_now == len(words) > 15_000 and exceptions > 1_000
    assert len(troponyms) > 1_000 and "grow" in troponyms and "grow" not in words


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("approve", "reject"),  # through the synset {disapprove, reject}
        ("approved", "rejected"),  # inflections undone by WordNet's detachment rules
        ("likes", "dislikes"),
        ("enabled", "disabled"),
        ("increase", "decreased"),
        ("went", "came"),  # irregular forms from the exception lists
        ("better", "worse"),
        ("succeeded", "failed"),
        ("soggy", "dry"),  # a satellite adjective against its head's antonym
    ],
)
def test_antonyms(a: str, b: str) -> None:
    assert ant.antonymous(a, b) and ant.antonymous(b, a)


@pytest.mark.parametrize(
    ("a", "b"),
    [("cat", "dog"), ("approve", "approve"), ("soggy", "arid"), ("short", "detailed")],
)
def test_not_antonyms(a: str, b: str) -> None:
    """Two satellites of opposite heads are not antonyms (WordNet's indirect antonymy is
    satellite against head); nothing outside WordNet is added."""
    assert not ant.antonymous(a, b)


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("grew", "shrank"),  # ways to increase / decrease (troponyms of a pair)
        ("grows", "decreases"),  # a troponym against the other head
        ("swelled", "shrank"),
        ("expanded", "shrinks"),
        ("stayed", "moved"),
    ],
)
def test_a_verbs_troponyms_inherit_its_side_of_a_pair(a: str, b: str) -> None:
    assert ant.antonymous(a, b) and ant.antonymous(b, a)


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("goes", "enters"),  # go means exit in 8% of its tagged uses: not a common reading
        ("takes", "moved"),  # take as buy, move as sell: rare readings
        ("help", "take"),  # troponyms of a unique beginner (act / refrain) inherit nothing
        ("grew", "grew"),
    ],
)
def test_rare_senses_and_unique_beginners_inherit_no_antonyms(a: str, b: str) -> None:
    assert not ant.antonymous(a, b)


def test_inherited_antonyms_do_not_become_lemmas() -> None:
    """The troponym block widens antonymy only: the alignment's lemma matching is
    unchanged (grow has no antonym of its own in WordNet)."""
    assert ant.lemmas("grew") == () and ant.codes("grew")


@pytest.mark.parametrize(
    ("claim", "source"),
    [
        ("Revenue shrank last quarter.", "Revenue grew last quarter."),
        ("The queue grew after the deploy.", "The queue shrank after the deploy."),
    ],
)
def test_an_inherited_antonym_in_the_slot_contradicts(claim: str, source: str) -> None:
    assert verify(claim, source).verdict is NOT_SUPPORTED
    assert verify(source, source + " It was reported on Monday.").verdict is not NOT_SUPPORTED


# --- antonym substitution ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("claim", "source", "pair"),
    [
        (
            "We decided to approve the vendor contract",
            "We decided to reject the vendor contract.",
            ("approve", "reject"),
        ),
        ("Bob likes the new dashboard", "Bob dislikes the new dashboard.", ("likes", "dislikes")),
        (
            "The cache is disabled in production",
            "The cache is enabled in production.",
            ("disabled", "enabled"),
        ),
        ("We will decrease the pool size", "We will increase the pool size.", None),
        ("The nightly deployment succeeded", "The nightly deployment failed.", None),
        # active against passive: the shared words sit on swapped sides
        ("The team accepted the proposal", "The proposal was rejected by the team.", None),
    ],
)
def test_an_antonym_in_the_same_slot_contradicts(
    claim: str, source: str, pair: tuple[str, str] | None
) -> None:
    report = verify(claim, source)
    assert report.verdict is NOT_SUPPORTED, report.reasoning
    assert "contradicts the source" in report.reasoning
    if pair:
        assert f"{pair[0]!r} where the source says {pair[1]!r}" in report.reasoning


@pytest.mark.parametrize(
    ("claim", "source", "pair"),
    [
        ("More than half of the tests pass", "Less than half of the tests pass.", ("More", "Less")),
        ("The build takes at least 10 minutes", "The build takes at most 10 minutes.", None),
        ("Many users enabled the beta", "Few users enabled the beta.", ("Many", "Few")),
    ],
)
def test_a_degree_word_against_its_opposite_contradicts(
    claim: str, source: str, pair: tuple[str, str] | None
) -> None:
    """Degree words are function words for the overlap score, not for the antonym check."""
    report = verify(claim, source)
    assert report.verdict is NOT_SUPPORTED, report.reasoning
    if pair:
        assert f"{pair[0]!r} where the source says {pair[1]!r}" in report.reasoning


@pytest.mark.parametrize(
    ("claim", "source"),
    [
        ("More than half of the tests pass", "More than half of the tests pass."),
        ("The build takes at most 10 minutes", "The build takes at most 10 minutes on CI."),
        # "less" about something else in the sentence: another slot
        (
            "Most users prefer the dark theme",
            "Most users prefer the dark theme; it uses less power.",
        ),
    ],
)
def test_a_degree_word_that_agrees_or_stands_elsewhere_is_no_contradiction(
    claim: str, source: str
) -> None:
    report = verify(claim, source)
    assert report.verdict is not NOT_SUPPORTED, report.reasoning


def test_a_contradicting_turn_wins_over_a_turn_that_repeats_the_words() -> None:
    """The question repeats every word of the claim; the answer contradicts it."""
    report = verify(
        "We decided to approve the vendor contract",
        "Should we approve the vendor contract?",
        "We decided to reject the vendor contract.",
    )
    assert report.verdict is NOT_SUPPORTED


def test_an_antonym_in_another_slot_is_no_contradiction() -> None:
    """'reject' in the source is about the spam filter, not about the contract."""
    report = verify(
        "We decided to approve the vendor contract",
        "We decided to approve the vendor contract. The spam filter will reject the old emails.",
    )
    assert report.verdict is not NOT_SUPPORTED, report.reasoning


def test_a_negation_elsewhere_in_the_clause_does_not_undo_an_antonym() -> None:
    """The negation bears on 'missionaries', not on 'northern': still a contradiction."""
    report = verify(
        "The northern churches said owners could not be missionaries",
        "The southern churches said owners could be missionaries.",
    )
    assert report.verdict is NOT_SUPPORTED, report.reasoning
    assert "'northern' where the source says 'southern'" in report.reasoning


@pytest.mark.parametrize(
    ("claim", "source"),
    [
        ("Players are not allowed to eat there", "Players are forbidden to eat there."),
        ("The month of his birth is not known", "The month of his birth is unknown."),
    ],
)
def test_a_negated_antonym_is_the_same_statement(claim: str, source: str) -> None:
    report = verify(claim, source)
    assert report.verdict is not NOT_SUPPORTED, report.reasoning
    assert "negation" not in report.reasoning


def test_an_antonym_undone_by_a_negation_agrees() -> None:
    """'not disabled' says 'enabled': no contradiction, and no negation flip either."""
    report = verify(
        "The cache is not disabled in production", "The cache is enabled in production."
    )
    assert report.verdict is not NOT_SUPPORTED, report.reasoning
    assert "negation" not in report.reasoning


# --- negation flips -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("claim", "source"),
    [
        ("The feature flag will not be enabled", "The feature flag will be enabled."),
        ("The feature flag will be enabled", "The feature flag will not be enabled."),
        ("There is a cache in production", "There is no cache in production."),
        ("Bob will not attend the review meeting", "Bob will attend the review meeting."),
        ("Deploys always run on Friday", "Deploys never run on Friday."),
        # a coordinated clause without its own subject shares the one before it
        ("The cache is replicated", "The cache runs on Redis 7 and is not replicated."),
        (
            "The cache runs on Redis 7 and is replicated",
            "The cache runs on Redis 7 and is not replicated.",
        ),
        ("The queue is not durable", "The queue lives on disk but is durable."),
    ],
)
def test_a_negation_flip_against_the_supporting_clause_contradicts(claim: str, source: str) -> None:
    report = verify(claim, source)
    assert report.verdict is NOT_SUPPORTED, report.reasoning
    assert "negation differs from the source" in report.reasoning


@pytest.mark.parametrize(
    ("claim", "source"),
    [
        # the negation is in another clause
        ("The cache is enabled in production", "I don't know much, but the cache is enabled."),
        # "not only ... but" adds, it does not deny
        (
            "It was one of the longest concert tours in rock history",
            "It was not only the band's longest tour, but one of the longest concert tours "
            "in rock history.",
        ),
        # the negation bears on "written rule", not on the players
        (
            "They pay female players in the league",
            "The league has no written rule against female players, and pays its players.",
        ),
        # a leading "no" answers the other speaker
        ("The cache is enabled in production", "No, the cache is enabled in production."),
        # the subject-less clause's negation is not about what the first clause says
        ("The cache runs on Redis 7", "The cache runs on Redis 7 and is not replicated."),
        ("The cache is not replicated", "The cache runs on Redis 7 and isn't replicated."),
    ],
)
def test_a_negation_elsewhere_is_no_flip(claim: str, source: str) -> None:
    report = verify(claim, source)
    assert "negation differs from the source" not in report.reasoning, report.reasoning


# --- particles that point opposite ways ---------------------------------------------------


@pytest.mark.parametrize(
    ("claim", "source"),
    [
        ("The cache is turned off in production", "The cache is turned on in production."),
        ("Latency went up after the migration", "Latency went down after the migration."),
        ("The backup runs before the deploy", "The backup runs after the deploy."),
        ("The release is next week", "The release was last week."),
        ("The project is over budget this quarter", "The project is under budget this quarter."),
        # a universal where the source only says "most", "some", "sometimes"
        ("All services use mTLS", "Most services use mTLS."),
        ("Every service uses mTLS", "Some services use mTLS."),
        ("The job always retries on timeout", "The job sometimes retries on timeout."),
    ],
)
def test_a_particle_against_its_opposite_in_the_same_phrase_contradicts(
    claim: str, source: str
) -> None:
    report = verify(claim, source)
    assert report.verdict is NOT_SUPPORTED, report.reasoning
    assert "contradicts the source" in report.reasoning


@pytest.mark.parametrize(
    ("claim", "source"),
    [
        # undone by a negation on one side
        ("The cache is not turned off", "The cache is turned on."),
        ("The cache is turned off", "The cache is not turned on."),
        # the claim says both, as the source does
        (
            "The cache is turned on and the logs are turned off",
            "The cache is turned on and the logs are turned off.",
        ),
        # the opposite in another phrase: only a function word is shared next to it
        ("He started off his career in Paris", "He embarked on his career in Paris."),
        # "in"/"out" is no pair: phrasal verbs with them do not oppose
        ("The puns work out in the end", "The puns work in the end."),
        # a denied universal agrees with "most" ("some" where the source says "all" is
        # a changed quantifier since session 14 round 2: test_changed_facts.py)
        ("Not all services use mTLS", "Most services use mTLS."),
    ],
)
def test_a_particle_in_another_phrase_or_under_a_negation_is_no_contradiction(
    claim: str, source: str
) -> None:
    report = verify(claim, source)
    assert report.verdict is not NOT_SUPPORTED, report.reasoning


@pytest.mark.parametrize(
    ("words", "content"),
    [
        # no content word after the negation: it reaches the particle later in the clause
        ("the cache is not ever on", "0 1 0 0 0 0"),
        # a content word after it: the particle right after its scope, not one further on
        ("the cache is not turned off and then on", "0 1 0 0 1 0 0 0 0"),
        ("it was not up before noon", "0 0 0 0 0 0 1"),
    ],
)
def test_the_negation_reaches_the_same_particles_both_ways_it_is_asked(
    words: str, content: str
) -> None:
    """`_bears_on` (does the negation bear on word k) and `_particles_in_scope` (which
    particles it bears on) read one rule; they once differed when no content word
    followed the negation."""
    from groundwire.guards.grounding.lexical import polarity

    lows = words.split()
    flags = [c == "1" for c in content.split()]
    positions = list(range(len(lows)))
    first = lows.index("not")
    scoped = polarity._scope(positions, first, flags, lows)
    listed = set(polarity._particles_in_scope(positions, first, scoped, lows))
    asked = {
        k
        for k in positions
        if k not in scoped and polarity._bears_on(positions, first, flags, lows, k)
    }
    assert listed == asked
    assert listed  # each case has a particle within reach


@pytest.mark.parametrize(
    ("claim", "source"),
    [
        (
            "Users are unable to delete their own accounts.",
            "Users cannot delete their own accounts.",
        ),
        (
            "The worker was unable to reach the database.",
            "The worker could not reach the database.",
        ),
        ("The service failed to start.", "The service did not start."),
        ("The service did not start.", "The service failed to start."),
    ],
)
def test_a_negative_implicative_agrees_with_a_negation(claim: str, source: str) -> None:
    """ "unable to" / "failed to" deny what follows like "cannot" / "did not": no flip."""
    report = verify(claim, source)
    assert report.verdict is not NOT_SUPPORTED
    assert "negation differs" not in report.reasoning


@pytest.mark.parametrize(
    ("claim", "source"),
    [
        ("Users are able to delete their own accounts.", "Users cannot delete their own accounts."),
        (
            "The service is unable to read from the replica.",
            "The service can read from the replica.",
        ),
        ("The service failed to start.", "The service started."),
        ("The service started.", "The service failed to start."),
    ],
)
def test_a_negative_implicative_against_a_plain_statement_still_contradicts(
    claim: str, source: str
) -> None:
    assert verify(claim, source).verdict is NOT_SUPPORTED


@pytest.mark.parametrize(
    ("claim", "source"),
    [
        (
            "The auth service calls the billing service.",
            "The billing service calls the auth service.",
        ),
        (
            "The production database is a replica of the staging database.",
            "The staging database is a replica of the production database.",
        ),
        (
            "Postgres is slower than MySQL for our workload.",
            "Postgres is faster than MySQL for our workload.",
        ),
        (
            "The new cluster has fewer nodes than the old one.",
            "The new cluster has more nodes than the old one.",
        ),
    ],
)
def test_common_nouns_swapped_or_a_comparative_reversed_contradict(claim: str, source: str) -> None:
    assert verify(claim, source).verdict is NOT_SUPPORTED


@pytest.mark.parametrize(
    ("claim", "source"),
    [
        # a passive, a fronted phrase, a copula read the other way, clauses swapped round "and"
        (
            "The billing service calls the auth service.",
            "The auth service is called by the billing service.",
        ),
        ("On Mondays the team deploys the API.", "The team deploys the API on Mondays."),
        (
            "The worker reads from the queue and writes to the database.",
            "The worker writes to the database and reads from the queue.",
        ),
        # the converse of a comparative: the antonym with the two sides swapped
        (
            "MySQL is slower than Postgres for our workload.",
            "Postgres is faster than MySQL for our workload.",
        ),
        (
            "The old cluster has fewer nodes than the new one.",
            "The new cluster has more nodes than the old one.",
        ),
        ("Bob is younger than Alice.", "Alice is older than Bob."),
    ],
)
def test_the_same_roles_in_another_order_or_a_converse_agree(claim: str, source: str) -> None:
    assert verify(claim, source).verdict is not NOT_SUPPORTED


@pytest.mark.parametrize(
    ("claim", "source"),
    [
        ("We run four services.", "We run billing, search and auth as our services."),
        ("We run two services.", "Our services are billing, search and auth."),
        ("The team has four engineers.", "The engineers on the team are Ana, Ben and Cy."),
        (
            "She speaks three languages.",
            "The languages she speaks are French, German, Italian and Spanish.",
        ),
        ("We have two databases.", "Our databases: Postgres, Redis and ClickHouse."),
    ],
)
def test_a_count_against_a_listed_enumeration_contradicts(claim: str, source: str) -> None:
    report = verify(claim, source)
    assert report.verdict is NOT_SUPPORTED and "contradicts the source" in report.reasoning


@pytest.mark.parametrize(
    ("claim", "source"),
    [
        ("We run three services.", "We run billing, search and auth as our services."),
        ("The team has three engineers.", "The engineers on the team are Ana, Ben and Cy."),
        (
            "She speaks four languages.",
            "The languages she speaks are French, German, Italian and Spanish.",
        ),
    ],
)
def test_a_count_a_list_states_is_no_contradiction(claim: str, source: str) -> None:
    report = verify(claim, source)
    assert report.verdict is not NOT_SUPPORTED
    assert "contradicts the source" not in report.reasoning


@pytest.mark.parametrize(
    ("claim", "source"),
    [
        # examples are not all of them; a bound is no count of all; a name is no noun
        ("We have two databases.", "We use databases such as Postgres, Redis and ClickHouse."),
        ("We have at least two databases.", "Our databases: Postgres, Redis and ClickHouse."),
        ("They meet at 7 James said.", "James says the options are pizza, sushi and tacos."),
    ],
)
def test_no_enumeration_no_count(claim: str, source: str) -> None:
    assert "contradicts the source" not in verify(claim, source).reasoning


# --- bounded work on claims built to be paired many times -------------------------------


def _made_up_names(n: int) -> list[str]:
    """Distinct capitalised non-words, so no cache or set folds the copies together."""
    consonants = "bdfgklmnprstvz"
    return [
        "Q" + "".join(consonants[(k // 14**p) % 14] + "aeiou"[(k + p) % 5] for p in range(4))
        for k in range(n)
    ]


def test_a_claim_of_many_opposed_pairs_is_still_read_past_the_pair_bound() -> None:
    from groundwire.guards.grounding.lexical.polarity import MAX_PAIRS

    names = _made_up_names(MAX_PAIRS * 2)
    claim = " ".join(f"my sister {n} works at Acme," for n in names)
    source = " ".join(f"I work at Acme and my brother {n}" for n in names)
    report = verify(claim, source)
    # the bound stops the pairing, not the finding: the opposed pair is still reported
    assert report.verdict is NOT_SUPPORTED, report.reasoning
    # control: the same claim and source without the opposed word are no contradiction
    same = verify(claim.replace("sister", "brother"), source)
    assert "sister" not in same.reasoning and "contradicts" not in same.reasoning


def test_a_swap_among_many_names_is_still_found() -> None:
    # the span bound keeps a claim of names at the size limit from pairing every name
    # with every other; a swap inside one relation is within it
    crowd = ", ".join(_made_up_names(300))
    source = f"Priya reviewed Marco's pull request. The guests were {crowd}."
    swapped = verify(f"Marco reviewed Priya's pull request. The guests were {crowd}.", source)
    assert swapped.verdict is NOT_SUPPORTED, swapped.reasoning
    kept = verify(f"Priya reviewed Marco's pull request. The guests were {crowd}.", source)
    assert kept.verdict is not NOT_SUPPORTED, kept.reasoning
