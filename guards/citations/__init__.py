"""Citations in a claim: found (`detect`) and checked against what they name.

A verified citation is one of the few ways a claim from an untrusted source reaches
auto-approval, so each check refuses rather than guesses: ADR files, commits in local git
repositories, URLs behind an SSRF guard, and issue trackers; verdicts are cached per
process and, optionally, shared through Redis.
"""

from __future__ import annotations

from groundwire.guards.citations.detect import Citation, CitationType, detect
from groundwire.guards.citations.verifier import CitationVerifier, build_citation_verifier

__all__ = ["Citation", "CitationType", "CitationVerifier", "build_citation_verifier", "detect"]
