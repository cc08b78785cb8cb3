"""Session 15 red team of the grounding check on the write path: an opposite WordNet gives
only through a phrasal verb or an un-/dis- coinage (`derived_opposites.py`), a length of
time changed across units or against "an hour" (`durations.py`), a time moved to the
other side of now (`time_direction.py`), a modal's state told as present
(`assertion._told_as_present`), an acronym in the slot of an undefined word after a
shared "-ly" modifier (`slot_swaps._slots`). Each with the case it must now catch and
the controls that must stay as they were."""

from __future__ import annotations

import pytest

from groundwire.guards.config import GroundingConfig
from groundwire.guards.grounding.lexical import LexicalVerifier, analyze
from groundwire.guards.grounding.lexical.derived_opposites import (
    derived_opposite,
    may_have_derived,
    table_size,
)
from groundwire.guards.protocols import GroundingRequest
from groundwire.topics.records import Claim, GroundingReport, SourceTurn
from groundwire.topics.vocab import GroundingVerdict

CFG = GroundingConfig()
NOT, PARTIAL, SUPPORTED = (
    GroundingVerdict.NOT_SUPPORTED,
    GroundingVerdict.PARTIAL,
    GroundingVerdict.SUPPORTED,
)


def _verify(content: str, source: str) -> GroundingReport:
    turns = [SourceTurn(id="s", text=source)]
    claim = Claim(claim_id="c1", tenant_id="t1", content=content, source="chat", source_turns=turns)
    return LexicalVerifier(CFG).verify_one(GroundingRequest(claim, turns))


CAUGHT = [
    # opposites through a phrasal verb (WordNet: add ! take away; remove has take away)
    (
        "We removed the retry limit from the upload worker.",
        "We added a retry limit to the upload worker.",
    ),
    (
        "We added a retry limit to the upload worker.",
        "We removed the retry limit from the upload worker.",
    ),
    (
        "They dismounted the shared volume on the build host.",
        "They mounted the shared volume on the build host.",
    ),
    # a negating prefix on a verb WordNet lacks
    ("We uninstalled the agent on the build hosts.", "We installed the agent on the build hosts."),
    ("We installed the agent on the build hosts.", "We uninstalled the agent on the build hosts."),
    # durations
    ("The backup job takes 30 minutes.", "The backup job takes an hour."),
    ("The deploy freeze lasts 2 days.", "The deploy freeze lasts a week."),
    ("The job takes 90 minutes.", "The job takes two hours."),
    # the other side of now
    ("We moved to the EU region two years ago.", "We move to the EU region in two years."),
    ("We will move to the EU region in two years.", "We moved to the EU region two years ago."),
    ("The audit happens in a week.", "The audit happened a week ago."),
    # a modal's state told as present
    ("Kai is the new tech lead for payments.", "Kai might become the new tech lead for payments."),
    ("The billing service is on Postgres 16.", "The billing service will be on Postgres 16."),
    ("Ravi leads the data platform team.", "Ravi may lead the data platform team next year."),
    # an acronym for an undefined word, after a shared modifier in -ly
    ("We keep nightly RDS backups for 14 days.", "We keep nightly postgres backups for 14 days."),
    # an undefined word ending its clause after a shared preposition, against an acronym
    ("The billing API runs on kubernetes.", "The billing API runs on ECS."),
    ("The billing API runs on ECS.", "The billing API runs on kubernetes."),
]


@pytest.mark.parametrize(("claim", "source"), CAUGHT)
def test_changed_fact_is_not_supported(claim: str, source: str) -> None:
    assert _verify(claim, source).verdict is NOT


CONTROLS = [
    (
        "A retry limit was added to the upload worker.",
        "We added a retry limit to the upload worker.",
    ),
    (
        "We uploaded the logs to the shared bucket.",
        "We loaded the logs and uploaded them to the shared bucket.",
    ),
    (
        "Jo discovered the leak in the payment service.",
        "Jo discovered the leak in the payment service.",
    ),
    ("The backup job takes 60 minutes.", "The backup job takes an hour."),
    ("The backup job takes one hour.", "The backup job takes an hour."),
    ("The deploy freeze lasts seven days.", "The deploy freeze lasts a week."),
    ("The job takes 30 minutes.", "The job takes half an hour."),
    ("Two years ago we moved to the EU region.", "We moved to the EU region two years ago."),
    ("The audit happens in a week.", "The audit happens in a week."),
    ("The billing service will be on Postgres 16.", "The billing service will be on Postgres 16."),
    (
        "The billing service is on Postgres 16.",
        "The billing service is on Postgres 16, and it will be on Postgres 17.",
    ),
    (
        "We keep nightly Postgres backups for 14 days.",
        "We keep nightly postgres backups for 14 days.",
    ),
    ("We keep nightly backups for 14 days.", "We keep nightly postgres backups for 14 days."),
    ("The billing API runs on containers.", "The billing API runs on ECS."),
    ("We store the logs in elasticsearch.", "We store the logs in ES."),
    # "will" with another verb: the generic present of an encyclopedia (faithdial-wow-5)
    (
        "Yea, the Sun actually sets exactly due west at the equator.",
        "The Sun will set exactly due west at the equator.",
    ),
]


@pytest.mark.parametrize(("claim", "source"), CONTROLS)
def test_faithful_restatement_is_not_refuted(claim: str, source: str) -> None:
    assert _verify(claim, source).verdict is not NOT


def test_a_dropped_hedge_adverb_stays_partial() -> None:
    """docs/spec.md's sharpened plan: a hedge dropped is partial, not refuted; only a modal
    governing the verb is read as a state not reached."""
    report = _verify(
        "We use Redis for the session cache.", "We probably use Redis for the session cache."
    )
    assert report.verdict is PARTIAL


@pytest.mark.parametrize(
    ("a", "b", "expected"),
    [
        ("removed", "added", True),
        ("add", "remove", True),
        ("dismounted", "mounted", True),
        ("uninstalled", "installed", True),
        ("unmount", "mount", True),
        ("discovered", "covered", False),  # a WordNet word: no reversal of its stem
        ("displayed", "played", False),
        ("uploaded", "loaded", False),
        ("unit", "it", False),  # a stem too short
        ("added", "added", False),
        ("added", "appended", False),
        ("come", "falls", False),  # "come up" stands against "go down"; "come" alone not
        ("took", "added", False),  # "take away" likewise, "take" alone not
    ],
)
def test_derived_opposite(a: str, b: str, expected: bool) -> None:
    assert derived_opposite(a, b) is expected
    assert derived_opposite(b, a) is expected


def test_cheap_test_and_table() -> None:
    assert table_size() > 100
    assert may_have_derived(["we", "removed", "it"], [False, True, False], frozenset())
    assert may_have_derived(["we", "installed", "it"], [False, True, False], {"uninstalled"})
    assert not may_have_derived(["we", "use", "redis"], [False, True, True], {"we", "use"})


def test_a_decade_is_no_duration() -> None:
    """ "1960s" ("1960 s") is a decade, not 1960 seconds: no changed duration."""
    turns = [SourceTurn(id="s", text="The band played in the 1960s.")]
    found = analyze("The band played for 11 minutes.", turns, set()).conflicts
    assert not [pair for pair in found if "minutes" in pair[0]]


def test_a_derived_opposite_needs_a_claim_word_the_source_lacks() -> None:
    """ "departing" is the source's own word (one sentence), "arrive" another's: the claim
    restates both, so no derived pair is read ("depart" / "arrive" stand only through the
    phrasal-verb bridge); an answer split at its times reads this way."""
    turns = [
        SourceTurn(
            id="s",
            text="Sally: so it's settled you're departing from the main station on June 26th "
            "at 1:34 PM. You'll arrive in Bedford at 6:55 PM.",
        )
    ]
    claim = "Sally gets them a ticket from the main station departing at :, reaching Bedford at :"
    found = analyze(claim, turns, set()).conflicts
    assert ("departing", "arrive") not in found
    # the same pair with a claim word the source never uses is read
    turns = [SourceTurn(id="s", text="You'll arrive in Bedford at 6:55 PM.")]
    found = analyze("You'll depart Bedford at 6:55 PM.", turns, set()).conflicts
    assert ("depart", "arrive") in found
