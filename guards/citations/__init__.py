"""Citations in a claim: found (`detect`) and checked against what they name.

A verified citation is one of the few ways a claim from an untrusted source reaches
auto-approval, so each check refuses rather than guesses: ADR files (`adr`), commits in
local git repositories (`git`), URLs behind an SSRF guard (`url`, `ssrf`), and issue
trackers (`issues`); `verifier` is the facade over them, and verdicts are cached per
process and, optionally, shared through Redis (`cache`).
"""

from __future__ import annotations

from groundwire.guards.citations.detect import Citation, detect
from groundwire.guards.citations.verifier import CitationVerifier, build_citation_verifier
from groundwire.topics.vocab import CitationType

__all__ = ["Citation", "CitationType", "CitationVerifier", "build_citation_verifier", "detect"]
