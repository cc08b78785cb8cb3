"""Phantom bibliographic citations (guards/bibrefs.py): footnote markers, author-year
citations and standard numbers that no source gives are phantom references (review)."""

from __future__ import annotations

import asyncio

import pytest

from groundwire.guards.artifacts import phantom_references
from groundwire.guards.bibrefs import MAX_CHECKED, bibliographic_references, phantom_bibrefs
from groundwire.guards.config import GuardsConfig
from groundwire.guards.screening import screen_batch
from groundwire.guards.testing import StatedCitationVerifier
from groundwire.topics.records import Claim


def claim(content: str) -> Claim:
    return Claim(claim_id="c", tenant_id="t", content=content, source="ai_synthesis")


@pytest.mark.parametrize(
    ("text", "refs"),
    [
        ("Alice approved the deploy [1].", ["[1]"]),
        ("Alice approved it.[2] Bob did not [12].", ["[2]", "[12]"]),
        ("Alice approved it (Smith et al., 2021).", ["(Smith et al., 2021)"]),
        ("As Smith and Jones (2019) found, it is slow.", ["Smith and Jones (2019)"]),
        (
            "It follows RFC 9999 and ISO/IEC 27001:2013 §4.2.",
            ["RFC 9999", "ISO/IEC 27001:2013 §4.2"],
        ),
        ("Controls map to NIST SP 800-53.", ["NIST SP 800-53"]),
        # numbers in brackets or parentheses that cite nothing
        ("The count is in array[1].", []),
        ("Pass [0, 1] as the range.", []),
        ("Set x = [1] first.", []),
        ("It shipped in March (2021).", []),
        ("Page 3 (2021) and v3.11 (2022b).", []),
    ],
)
def test_bibliographic_references(text: str, refs: list[str]) -> None:
    assert [name for _, name, _ in bibliographic_references(text)] == refs


@pytest.mark.parametrize(
    ("text", "sources", "phantoms"),
    [
        ("Alice approved the deploy [1].", ["Alice approved the deploy."], ["[1]"]),
        ("Alice approved the deploy [1].", ["Alice approved the deploy [1]."], []),
        ("It follows RFC 9999.", ["It follows the standard."], ["RFC 9999"]),
        ("It follows RFC 9999.", ["It follows rfc-9999."], []),
        ("It follows ISO 27001.", ["It follows ISO/IEC 27001:2013."], []),
        ("It is slow (Smith et al., 2021).", ["Smith measured it in 2021."], []),
        (
            "It is slow (Smith et al., 2021).",
            ["Jones measured it in 2021."],
            ["(Smith et al., 2021)"],
        ),
    ],
)
def test_phantom_bibrefs(text: str, sources: list[str], phantoms: list[str]) -> None:
    assert phantom_bibrefs(text, sources) == phantoms
    # the names check (shared with read-time faithfulness) is not the place for them
    assert phantom_references(claim(text), sources) == []


def test_a_phantom_citation_is_not_approved() -> None:
    """Screened end to end: the phantom footnote keeps an otherwise grounded claim from
    approval; the same claim with the footnote in its source stays clean. Nothing is
    fetched (the verifier is a stated one)."""
    cfg = GuardsConfig()
    cfg.provenance.allowed_sources = ["corpus", "user"]

    def screened(source: str):  # type: ignore[no-untyped-def]
        c = Claim(
            claim_id="c",
            tenant_id="t",
            content="Alice approved the deploy [1].",
            source="conversation",
            source_turns=[{"id": "t1", "text": source, "source": "user"}],
        )
        return asyncio.run(screen_batch([c], cfg, StatedCitationVerifier({})))[0]

    assert screened("Alice approved the deploy.").phantoms == ["[1]"]
    assert screened("Alice approved the deploy [1].").phantoms == []


def test_references_beyond_the_lookup_bound_count_as_not_found() -> None:
    refs = [f"RFC {n}" for n in range(1000, 1001 + MAX_CHECKED)]  # one past the bound
    source = [" ".join(refs)]
    # every reference the source holds, within the bound: none is a phantom
    assert phantom_bibrefs(f"See {' '.join(refs[:MAX_CHECKED])}.", source) == []
    # the one past the bound is not looked up, so it cannot pass as found: a phantom
    # cannot hide behind many genuine references
    assert phantom_bibrefs(f"See {' '.join(refs)}.", source) == [refs[-1]]


# Session 13: a standard used as a modifier of a noun names a format or an encoding the
# claim's data follows; it cites no document as the source of a statement.
@pytest.mark.parametrize(
    "text",
    [
        "Dates are stored in ISO 8601 format.",
        "We follow RFC 3339 timestamps.",
        "The API returns the ISO 8601 dates of each run.",
        "Payloads use RFC 8259 encoding with IEEE 754 doubles.",
        "Radios of the IEEE 802.11 family interoperate.",  # a noun in -ly
    ],
)
def test_a_standard_naming_a_format_is_no_citation(text: str) -> None:
    assert bibliographic_references(text) == []
    assert phantom_bibrefs(text, ["Dates are stored as text."]) == []


@pytest.mark.parametrize(
    ("text", "phantom"),
    [
        # a section or an edition points into a document
        ("Per ISO 27001:2013 §4.2, access is reviewed yearly.", "ISO 27001:2013 §4.2"),
        ("Access follows ISO 27001:2013 controls.", "ISO 27001:2013"),
        # the standard says it: subject, after a citing word, or alone
        ("RFC 9999 says tokens expire hourly.", "RFC 9999"),
        ("RFC 9999 requires hourly token expiry.", "RFC 9999"),
        ("Tokens expire hourly because RFC 9999 requires it.", "RFC 9999"),
        ("According to RFC 9999 tokens expire hourly.", "RFC 9999"),
        ("Tokens expire hourly per RFC 9999.", "RFC 9999"),
        ("Tokens expire hourly (RFC 9999).", "RFC 9999"),
        ("The gateway follows what RFC 9999 says.", "RFC 9999"),
        ("It follows RFC 9999.", "RFC 9999"),
        # an adverb after it modifies the verb, not the standard
        ("The gateway follows RFC 9999 strictly.", "RFC 9999"),
    ],
)
def test_a_cited_standard_is_still_a_phantom(text: str, phantom: str) -> None:
    assert phantom_bibrefs(text, ["Tokens expire hourly."]) == [phantom]
