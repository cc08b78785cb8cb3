"""Session 17 precision audit of the red team's new grounding rules: faithful
restatements a memory writer produces from a source that touch a rule's trigger words
must not be refused by it, and the attacks the narrowed triggers must still catch.

* `exceptions_dropped.py`: an exception bears on its own universal's clause only, and
  "apart from that" / "except that the ..." except no member;
* `privatives.py`: "lack" bears on no word past a clause opener other than "and" / "or",
  and a claim word the source also writes outside what "lack" bears on is that mention;
* `prefixed_antonyms.non_flips` (the "non-" rule `non_negations.py` completes): "is not a
  member" is "is a non-member", not its opposite.
"""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from groundwire.guards.grounding.lexical.evidence import Sentence, evidence_for
from groundwire.guards.grounding.lexical.exceptions_dropped import dropped_exceptions
from groundwire.guards.grounding.lexical.prefixed_antonyms import non_flips
from groundwire.guards.grounding.lexical.privatives import privative_flips
from groundwire.guards.grounding.lexical.text import claim_words
from groundwire.topics.records import SourceTurn
from groundwire.topics.vocab import GroundingVerdict
from tests.unit.guards.grounding.one_turn import verify_one_turn

NOT = GroundingVerdict.NOT_SUPPORTED

# faithful restatements each wrongly refused before the audit (blocked on 3e96323)
KEPT = [
    # the exception belongs to another universal's clause
    (
        "All endpoints require TLS.",
        "All endpoints require TLS, and all endpoints except /health require a token.",
    ),
    (
        "Everyone on the team has a laptop.",
        "Everyone on the team has a laptop, and everyone except the interns has production access.",
    ),
    ("Every release is signed.", "Every release is signed and all tags except v0.1 are protected."),
    (
        "All releases are signed.",
        "All releases are signed, and all tags except v0.1 are protected.",
    ),
    # "that" refers back or opens a clause: no member excepted
    (
        "All services were restarted.",
        "All services were restarted, apart from that nothing changed.",
    ),
    (
        "All services were restarted.",
        "All services were restarted; other than that, nothing changed.",
    ),
    ("All tests passed.", "All tests passed, except that the linter printed a warning."),
    (
        "Every endpoint logs requests.",
        "Every endpoint logs requests; other than that, nothing is recorded.",
    ),
    # what "lack" bears on ends at a clause opener; a plain mention elsewhere is read
    ("The service supports HTTP/3.", "The service lacks IPv6 support but supports HTTP/3."),
    ("The service supports HTTP/2.", "The service lacks HTTP/3 support, while it supports HTTP/2."),
    ("The team has enough engineers.", "The team lacks funding but has enough engineers."),
    ("The project has funding.", "The project lacked funding in 2023 and has funding now."),
    # "not a member" is "a non-member"
    ("Ana is not a member.", "Ana is a non-member."),
    ("Ana is a non-member.", "Ana is not a member."),
    ("The job is not a critical one.", "The job is a non-critical one."),
]

# the same shapes as attacks: still caught
CAUGHT = [
    (
        "All endpoints require a token.",
        "All endpoints require TLS, and all endpoints except /health require a token.",
    ),
    ("All tests passed.", "All tests passed except that one."),
    (
        "All endpoints require authentication.",
        "We confirmed that all endpoints except /health require authentication.",
    ),
    ("The service supports IPv6.", "The service lacks IPv6 support but supports HTTP/3."),
    ("The team has funding.", "The team lacks funding but has enough engineers."),
    ("The service supports HTTP/3.", "The service lacks IPv6 and HTTP/3 support."),
    ("Ana is a member.", "Ana is a non-member."),
    ("Ana is a non-member.", "Ana is a member."),
    ("Ana is not a non-member.", "Ana is a non-member."),
]


@pytest.mark.parametrize(("claim", "source"), KEPT)
def test_kept(claim: str, source: str) -> None:
    assert verify_one_turn(claim, source, "user").verdict is not NOT


@pytest.mark.parametrize(("claim", "source"), CAUGHT)
def test_caught(claim: str, source: str) -> None:
    assert verify_one_turn(claim, source, "user").verdict is NOT


def _sentences(text: str) -> Sequence[Sentence]:
    return evidence_for([SourceTurn(id="t1", text=text)]).sentences


def test_dropped_exception_reads_its_own_clause() -> None:
    tls = claim_words("All endpoints require TLS.")
    token = claim_words("All endpoints require a token.")
    src = _sentences("All endpoints require TLS, and all endpoints except /health require a token.")
    assert not dropped_exceptions(tls.lows, tls.stems, tls.content, src)
    assert dropped_exceptions(token.lows, token.stems, token.content, src)


def test_dropped_exception_that_refers_back() -> None:
    w = claim_words("All services were restarted.")
    back = _sentences("All services were restarted, apart from that nothing changed.")
    assert not dropped_exceptions(w.lows, w.stems, w.content, back)
    member = _sentences("All services except that one were restarted.")
    assert dropped_exceptions(w.lows, w.stems, w.content, member)


def test_privative_scope_ends_at_a_clause_opener() -> None:
    w = claim_words("The team has enough engineers.")
    src = _sentences("The team lacks funding but has enough engineers.")
    assert not privative_flips(w.lows, w.stems, w.content, src)
    joined = _sentences("The team lacks funding and enough engineers.")  # "and" joins objects
    assert privative_flips(w.lows, w.stems, w.content, joined)


def test_privative_plain_mention_elsewhere() -> None:
    w = claim_words("The service supports HTTP/3.")
    src = _sentences("The service lacks IPv6 support but supports HTTP/3.")
    assert not privative_flips(w.lows, w.stems, w.content, src)
    v6 = claim_words("The service supports IPv6.")
    assert privative_flips(v6.lows, v6.stems, v6.content, src)


def test_non_flips_reads_a_denied_word_as_the_non_word() -> None:
    src = _sentences("Ana is a non-member.")
    assert not non_flips(claim_words("Ana is not a member.").lows, src, [{"ana"}])
    assert non_flips(claim_words("Ana is a member.").lows, src, [{"ana"}])
