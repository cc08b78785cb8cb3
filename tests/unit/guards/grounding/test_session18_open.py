"""Session 18: the open write-path holes the default verifier approved, each a rule of
its own, with the faithful restatements touching its trigger words that must stay
approved:

* `superseded_tenses.py`: a value told in the past and replaced in the present with the
  same verb ("worked at Globex and now works at Acme") is not current;
* `crossed_directions.py`: "Latency went up and errors went down" gives errors "down";
* `changed_causes.py`: a cause the source's marker ("thanks to the cache") gives to
  something else is a changed fact;
* `alternative_values.py`: "14 days, or 30 days for students" has 14 days as the rule;
* `continued_states.py`: "never stopped using Jenkins" says they use it.
"""

from __future__ import annotations

import pytest

from groundwire.guards.grounding.lexical import verifier
from groundwire.guards.grounding.lexical.alternative_values import alternative_values
from groundwire.guards.grounding.lexical.changed_causes import changed_causes
from groundwire.guards.grounding.lexical.continued_states import continued_states
from groundwire.guards.grounding.lexical.crossed_directions import crossed_directions
from groundwire.guards.grounding.lexical.superseded_tenses import superseded_tenses
from groundwire.topics.vocab import GroundingVerdict
from tests.unit.guards.grounding.one_turn import one_turn, verify_one_turn

NOT = GroundingVerdict.NOT_SUPPORTED

WORKED = "Ana worked at Globex and now works at Acme."
WENT = "Latency went up and errors went down."
THANKS = "Our read throughput doubled thanks to the cache."
TRIAL = "The trial lasts 14 days, or 30 days for students."
NEVER = "We never stopped using Jenkins."

# (rule, claim, source): attacks the rule catches (each approved before session 18)
CAUGHT = [
    (superseded_tenses, "Ana works at Globex.", WORKED),
    (superseded_tenses, "Ana lives in Oslo.", "Ana lived in Oslo but now lives in Bergen."),
    (
        superseded_tenses,
        "Ana leads the platform team.",
        "Ana led the platform team. She now leads the data team.",
    ),
    (superseded_tenses, "Ana is at Globex.", "Ana was at Globex and is now at Acme."),
    (
        superseded_tenses,
        "We use Redis for caching.",
        "We used Redis for caching, but now we use Memcached.",
    ),
    (crossed_directions, "Errors went up.", WENT),
    (crossed_directions, "Latency went down.", WENT),
    (crossed_directions, "Prices are up.", "Costs are up but prices are down."),
    (crossed_directions, "The fans are on.", "The fans are off and the lights are on."),
    (changed_causes, "The index doubled our read throughput.", THANKS),
    (changed_causes, "Our read throughput doubled because of the index.", THANKS),
    (alternative_values, "The trial lasts 30 days.", TRIAL),
    (alternative_values, "Shipping takes 2 days.", "Shipping takes 5 days, but 2 days with Prime."),
    (
        alternative_values,
        "Tickets cost 3 dollars.",
        "Tickets cost 5 dollars (3 dollars on Mondays).",
    ),
    (continued_states, "We don't use Jenkins.", NEVER),
    (continued_states, "We no longer use Jenkins.", NEVER),
    (
        continued_states,
        "Ana doesn't work at Acme.",
        "Ana didn't stop working at Acme after the merger.",
    ),
]

# (rule, claim, source): faithful restatements on each rule's trigger words, kept
KEPT = [
    (superseded_tenses, "Ana worked at Globex.", WORKED),
    (superseded_tenses, "Ana now works at Acme.", WORKED),
    (superseded_tenses, "Ana lived in Oslo.", "Ana lived in Oslo but now lives in Bergen."),
    (
        superseded_tenses,
        "Ana leads the data team.",
        "Ana led the platform team. She now leads the data team.",
    ),
    (
        superseded_tenses,
        "Ana still works at Globex.",
        "Ana worked at Globex in 2019 and still works at Globex.",
    ),
    (
        superseded_tenses,
        "Ana wants to work at Acme.",
        "Ana worked at Globex and wants to work at Acme.",
    ),
    (
        superseded_tenses,
        "The film is accompanied by a song by Pharrell.",
        "The film was directed by Pierre Coffin and is accompanied by a song by Pharrell.",
    ),
    (superseded_tenses, "I love the sequel.", "I loved the first book and I love the sequel too."),
    (crossed_directions, "Errors went down.", WENT),
    (crossed_directions, "Latency went up.", WENT),
    (crossed_directions, "The lights are on.", "The fans are off and the lights are on."),
    (
        crossed_directions,
        "Errors went up after the deploy.",
        "Errors went up after the deploy and went down after the rollback.",
    ),
    (
        crossed_directions,
        "The report is on the shared drive.",
        "The heater is off and the report is on the shared drive.",
    ),
    (changed_causes, "The cache doubled our read throughput.", THANKS),
    (changed_causes, "Caching doubled our read throughput.", THANKS),
    (changed_causes, "Our read throughput doubled.", THANKS),
    (changed_causes, "Our read throughput doubled because of the cache.", THANKS),
    (changed_causes, "Our new read throughput doubled.", THANKS),
    (changed_causes, "Our read throughput doubled last quarter.", THANKS),
    (alternative_values, "The trial lasts 14 days.", TRIAL),
    (alternative_values, "The trial lasts 30 days for students.", TRIAL),
    (
        alternative_values,
        "Shipping takes 2 days with Prime.",
        "Shipping takes 5 days, but 2 days with Prime.",
    ),
    (
        alternative_values,
        "The review meeting has 10 or 12 people.",
        "The meeting has 10 or 12 people for the review.",
    ),
    (continued_states, "We still use Jenkins.", NEVER),
    (continued_states, "We use Jenkins.", NEVER),
    (
        continued_states,
        "We don't use Jenkins for releases.",
        "We never stopped using Jenkins for builds, but we don't use it for releases.",
    ),
    (
        continued_states,
        "Ana still works at Acme.",
        "Ana didn't stop working at Acme after the merger.",
    ),
]


def _ids(cases: list[tuple[object, str, str]]) -> list[str]:
    return [f"{getattr(rule, '__name__', rule)}:{claim}" for rule, claim, _ in cases]


@pytest.mark.parametrize(("rule", "claim", "source"), CAUGHT, ids=_ids(CAUGHT))
def test_rule_fires(rule, claim: str, source: str) -> None:  # type: ignore[no-untyped-def]
    assert rule(claim, one_turn(source, "user"))


@pytest.mark.parametrize(("rule", "claim", "source"), KEPT, ids=_ids(KEPT))
def test_rule_stays_quiet(rule, claim: str, source: str) -> None:  # type: ignore[no-untyped-def]
    assert not rule(claim, one_turn(source, "user"))


@pytest.mark.parametrize(("rule", "claim", "source"), CAUGHT, ids=_ids(CAUGHT))
def test_caught(rule, claim: str, source: str) -> None:  # type: ignore[no-untyped-def]
    assert verify_one_turn(claim, source, "user").verdict is NOT


@pytest.mark.parametrize(("rule", "claim", "source"), KEPT, ids=_ids(KEPT))
def test_kept(rule, claim: str, source: str) -> None:  # type: ignore[no-untyped-def]
    assert verify_one_turn(claim, source, "user").verdict is not NOT


@pytest.mark.parametrize(
    ("name", "claim", "source"),
    [
        ("superseded_tenses", "Ana works at Globex.", WORKED),
        ("crossed_directions", "Errors went up.", WENT),
        ("changed_causes", "The index doubled our read throughput.", THANKS),
        ("alternative_values", "The trial lasts 30 days.", TRIAL),
        ("continued_states", "We don't use Jenkins.", NEVER),
    ],
)
def test_the_rule_is_what_refuses(
    monkeypatch: pytest.MonkeyPatch, name: str, claim: str, source: str
) -> None:
    """Each attack was approved before its rule: with the rule switched off it is not
    refused (so the tests above test the rule, not an older one)."""
    monkeypatch.setattr(verifier, name, lambda c, t: [])
    assert verify_one_turn(claim, source, "user").verdict is not NOT


def test_the_conflict_names_both_values() -> None:
    report = verify_one_turn("Ana works at Globex.", WORKED, "user")
    assert "'works at Globex' where the source says 'works at Acme'" in report.reasoning
