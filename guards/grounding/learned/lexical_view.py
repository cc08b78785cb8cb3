"""The lexical verifier's own judgement of a claim, as features for the learned model.

The lexical verifier gained many rules after the learned model's first features were
chosen (a question asks nothing, the source speaking of itself, a judgement nobody made,
the speaker's own conjecture, a common word swapped in place, hedged or planned
statements, ...). The learned model saw none of their outcomes. `read` runs the lexical
verifier on the claim, exactly as it runs when it is the configured verifier, and `VIEW`
turns its report into features, so the trees can start from the lexical judgement and
only add to it:

* `lex_score`: the lexical logistic score (1.0 for a verbatim quote),
* `lex_supported`, `lex_partial`: the lexical verdict (neither: NOT_SUPPORTED),
* `lex_contradiction`: a contradiction rule fired (antonym or swapped specific in the
  slot, negation flip, a common word swapped in place),
* `lex_ruled_out`: NOT_SUPPORTED although the score cleared the partial threshold and no
  contradiction fired: another not-supported rule decided (a question, the source
  speaking of itself, the wrong speaker, a strong mood, a judgement only, a conjecture),
* `lex_capped`: PARTIAL although the score cleared the supported threshold: a cap rule
  decided (unsupported specifics, a negation flip, a hedged or planned source, an added
  evaluation),
* `lex_rescued`: PARTIAL although the score is under the partial threshold (the claim's
  core without its added specifics is in the source),
* `lex_unasserted`: the source only hedges, plans, asks or conditions what the claim
  states.

The verdict rules of the learned verifier itself stay the lexical ones
(`LexicalVerifier._decide`, over the learned score), so these features change the score,
never bypass a rule. The analysis the lexical verifier made is handed to
`features.extract`, so the claim is read once, and with it the outcome of the rules that
do not read the score (`Analysis.findings`), so the learned verdict applies only its
thresholds to them (unless the lexical verifier restated the claim: then it read
another text, and the learned verdict reads them again for its own).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from groundwire.guards.config import GroundingConfig
from groundwire.guards.grounding.learned.features import extract
from groundwire.guards.grounding.lexical import LexicalVerifier
from groundwire.guards.grounding.lexical.features import Analysis
from groundwire.guards.protocols import GroundingRequest
from groundwire.topics.records import Claim, GroundingReport, SourceTurn
from groundwire.topics.vocab import GroundingVerdict

__all__ = [
    "VIEW",
    "LexicalReading",
    "extract_with_view",
    "lexical_twin",
    "read",
    "view_values",
]

VIEW: tuple[str, ...] = (
    "lex_score",
    "lex_supported",
    "lex_partial",
    "lex_contradiction",
    "lex_ruled_out",
    "lex_capped",
    "lex_rescued",
    "lex_unasserted",
)


@dataclass(slots=True)
class LexicalReading:
    """The lexical verifier's report on a claim and the analysis behind it (None for a
    verbatim quote, no evidence or an internal error: then no analysis ran)."""

    report: GroundingReport
    analysis: Analysis | None


def lexical_twin(cfg: GroundingConfig | None = None, rewrite: bool = False) -> LexicalVerifier:
    """The lexical verifier as it runs by default: its own thresholds (the learned
    verifier's settings may move the learned ones, not these features), no rewriting of
    PARTIAL claims (only the verdict and score are read) unless `rewrite` (a stacked
    model hands the lexical report on as its own: then it rewrites as configured)."""
    base = cfg or GroundingConfig()
    own = {
        "supported_threshold": None,
        "partial_threshold": None,
        "rewrite_partial": rewrite and base.rewrite_partial,
    }
    return LexicalVerifier(base.model_copy(update=own))


def read(twin: LexicalVerifier, claim: Claim, turns: Sequence[SourceTurn]) -> LexicalReading:
    """The lexical verifier's reading of `claim` against `turns` (already bounded)."""
    report, analysis = twin.verify_with_analysis(GroundingRequest(claim, list(turns)))
    return LexicalReading(report, analysis)


def view_values(reading: LexicalReading, twin: LexicalVerifier) -> list[float]:
    """The `VIEW` features of a reading, in order."""
    r, a = reading.report, reading.analysis
    p = float(r.score) if r.score is not None else 0.0
    supported = r.verdict is GroundingVerdict.SUPPORTED
    partial = r.verdict is GroundingVerdict.PARTIAL
    refused = r.verdict is GroundingVerdict.NOT_SUPPORTED
    contradiction = a is not None and bool(a.conflicts or a.polarity_flips)
    unasserted = a is not None and bool(a.unasserted)
    lo, hi = twin.partial_threshold, twin.supported_threshold
    return [
        p,
        float(supported),
        float(partial),
        float(contradiction),
        float(refused and p >= lo and not contradiction),
        float(partial and p >= hi),
        float(partial and p < lo),
        float(unasserted),
    ]


def extract_with_view(
    twin: LexicalVerifier,
    claim: Claim,
    turns: Sequence[SourceTurn],
    names: set[str],
    aligned_swaps: bool = False,
) -> tuple[LexicalReading, Analysis, list[float]]:
    """The lexical reading, the analysis and the features in `FEATURES + VIEW` order: the
    same function for training rows and for claims at run time, so the model sees at run
    time what it was fitted on."""
    reading = read(twin, claim, turns)
    ex = extract(claim.content, turns, names, aligned_swaps, reading.analysis)
    return reading, ex.analysis, [*ex.values, *view_values(reading, twin)]
