"""Where a name stands in its clause (guards/grounding/lexical/name_roles.py): a name set
off before its apposition ("Grace, the CTO, approved ...") is a subject, and the patient
of a passive with a named agent ("Revenue was reported by the CFO") holds no agent's
slot. Also the title rule and the choice to block a name changed by one letter
(docs/grounding.md §a name the source gives another). Each rule has its control.
"""

from __future__ import annotations

import pytest

from groundwire.guards.grounding.lexical.name_roles import after_apposition, passive_with_agent
from groundwire.guards.grounding.lexical.text import claim_words
from groundwire.topics.vocab import GroundingVerdict
from tests.unit.guards.grounding.test_assertion import NOT_SUPPORTED, verify

SUPPORTED = GroundingVerdict.SUPPORTED
PARTIAL = GroundingVerdict.PARTIAL


@pytest.mark.parametrize(
    ("claim", "source", "named", "instead"),
    [
        (
            "Grace, the CTO, approved the budget.",
            "Dana, the CTO, approved the budget on Friday.",
            "Grace",
            "Dana",
        ),
        (
            "Grace, our CTO, approved the budget.",
            "Dana, our CTO, approved the budget on Friday.",
            "Grace",
            "Dana",
        ),
        (
            "Hope, the CFO, was hired by Dana.",
            "Priya, the CFO, was hired by Dana.",
            "Hope",
            "Priya",
        ),
        # the patient against the source's patient is still a swap
        ("Grace was hired by the CTO.", "The CTO hired Dana in May.", "Grace", "Dana"),
        (
            "Mr. Johnston approved the budget.",
            "Mr. Johnson approved the budget.",
            "Johnston",
            "Johnson",
        ),
    ],
)
def test_a_swapped_name_in_these_places_contradicts(
    claim: str, source: str, named: str, instead: str
) -> None:
    report = verify(claim, source)
    assert report.verdict is NOT_SUPPORTED, report.reasoning
    assert f"names {named!r} where the source names {instead!r}" in report.reasoning


@pytest.mark.parametrize(
    ("claim", "source", "verdict"),
    [
        ("Grace, the CTO, approved the budget.", "Grace, the CTO, approved the budget.", SUPPORTED),
        # an adverb opening the sentence is no name, comma or not
        ("Yesterday, the CTO approved the budget.", "Dana, the CTO, approved the budget.", PARTIAL),
        # the patient of a passive whose agent is named is no rival of the source's agent
        ("Revenue was reported by the CFO.", "Dana, the CFO, reported costs.", PARTIAL),
        ("Revenue was reported by the CFO.", "Revenue was reported by Dana, the CFO.", SUPPORTED),
        ("Mr. Johnson approved the budget.", "Mr. Johnson approved the budget.", SUPPORTED),
    ],
)
def test_controls_keep_their_verdict(claim: str, source: str, verdict: GroundingVerdict) -> None:
    report = verify(claim, source)
    assert report.verdict is verdict, report.reasoning
    assert "names '" not in report.reasoning


@pytest.mark.parametrize("claim", ["Johm approved the budget.", "Jonh approved the budget."])
def test_a_short_name_changed_by_a_letter_is_blocked_not_reviewed(claim: str) -> None:
    """A one-letter change of a short name is as often another person ("Jon" / "Joan",
    "Mark" / "Mary"); the only verdict between supported and not supported, partial, is
    approved with a penalty, so a typo is not spared at the cost of a swapped person."""
    report = verify(claim, "John approved the budget on Friday.")
    assert report.verdict is NOT_SUPPORTED, report.reasoning


def test_the_shapes_read() -> None:
    def parts(text: str) -> tuple[tuple[str, ...], tuple[tuple[int, int], ...]]:
        w = claim_words(text)
        return w.raws, w.spans

    text = "Grace, the CTO, approved the budget."
    raws, spans = parts(text)
    assert after_apposition(0, raws, spans, text) == 3
    text = "However, the CTO, who joined in May, approved it."
    raws, spans = parts(text)
    assert after_apposition(0, raws, spans, text) == 3  # an apposition, but no verb after it
    text = "Yesterday, the CTO approved the budget."
    raws, spans = parts(text)
    assert after_apposition(0, raws, spans, text) is None
    text = "Revenue was reported by the CFO."
    raws, spans = parts(text)
    assert passive_with_agent(0, raws, spans, text)
    text = "Revenue was reported last week."
    raws, spans = parts(text)
    assert not passive_with_agent(0, raws, spans, text)
