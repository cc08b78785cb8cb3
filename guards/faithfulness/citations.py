"""The answer's sources and its citations, checked without a verifier (docs/spec.md
§Read-time faithfulness, "Citations inside answers").

* **Provenance first.** Every context source goes through the provenance guard
  (`guards/provenance.py`, the same rules as a claim's source turns: allowed source tags,
  reserved id prefixes, template signatures, nothing created after the answer's turn
  started). A rejected source never grounds a claim, and a claim that cites one is
  rejected (the auditor rule).
* **Each citation** of a claim (an inline marker, or a stated `citations[i]` whose span
  covers the claim) resolves to a context source or is a *phantom*; a quoted snippet
  (`"..."` in the claim, or the citation's `quote`) must occur in a cited source, compared
  case- and space-insensitively; line numbers must exist in the cited source and, with a
  quote, hold it.
* **Fields.** File paths, file names, fields, parameters and flags the answer names must
  appear in an admissible source (`guards/artifacts.py`, the write-time phantom check).

Whether the cited source *says* the claim is the verifier's question (`score.py`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime

from groundwire.guards.artifacts import named_references, phantom_references
from groundwire.guards.config import ProvenanceConfig
from groundwire.guards.faithfulness.markers import Marker, resolve, source_hash
from groundwire.guards.provenance import check_provenance
from groundwire.topics.answers import Answer, AnswerCitation, CitationCheck, ContextSource
from groundwire.topics.records import Claim, SourceTurn
from groundwire.topics.vocab import AnswerCitationStatus, ReentryReason, Source

__all__ = [
    "ClaimRef",
    "SourceIndex",
    "check_refs",
    "field_check",
    "index_sources",
    "normalise",
    "probe_claim",
    "refs_for",
]

_SPACES = re.compile(r"\s+")
_EDGE = re.compile(r"^[\s\"'“”‘’.,;:!?()\[\]]+|[\s\"'“”‘’.,;:!?()\[\]]+$")


def normalise(text: str) -> str:
    """How snippets are compared: case folded, quotes unified, white space collapsed,
    punctuation trimmed at both ends (ADR-0031: a fuzzy match for minor formatting)."""
    text = text.replace("’", "'").replace("‘", "'").replace("“", '"').replace("”", '"')
    return _EDGE.sub("", _SPACES.sub(" ", text.casefold()))


@dataclass(slots=True)
class SourceIndex:
    """An answer's context, read once: ids, hashes, what provenance admitted."""

    context: list[ContextSource]
    hashes: list[str]
    by_id: dict[str, ContextSource]
    admissible: dict[str, SourceTurn]  # id -> the source as a grounding turn
    rejected: dict[str, tuple[ReentryReason, str]]  # id -> (code, detail)
    other: list[SourceTurn] = field(default_factory=list)  # admissible other-scope sources
    scope_of: dict[str, str] = field(default_factory=dict)  # other-scope id -> its scope
    _norm: dict[str, str] = field(default_factory=dict)

    @property
    def turns(self) -> list[SourceTurn]:
        return list(self.admissible.values())

    def normalised(self, source_id: str) -> str:
        hit = self._norm.get(source_id)
        if hit is None:
            hit = normalise(self.by_id[source_id].text)
            self._norm[source_id] = hit
        return hit


def probe_claim(
    content: str,
    *,
    claim_id: str = "answer",
    tenant_id: str = "answer",
    user_id: str = "",
    source_turns: list[SourceTurn] | None = None,
    created_at: datetime | None = None,
) -> Claim:
    """A claim built without validation from text that is already bounded, for the
    guards that take claims (provenance, phantom names, the verifier). Every field is
    given: pydantic's `model_construct` is slow on fields left to a default factory."""
    return Claim.model_construct(
        claim_id=claim_id,
        tenant_id=tenant_id,
        user_id=user_id,
        content=content,
        memory_type="fact",
        source=Source.AI_SYNTHESIS,
        source_turns=source_turns if source_turns is not None else [],
        subject=None,
        predicate=None,
        object=None,
        confidence=1.0,
        created_at=created_at,
        metadata={},
        key_id=None,
        signature=None,
    )


def _turns(sources: Sequence[ContextSource]) -> list[SourceTurn]:
    return [
        SourceTurn.model_construct(id=s.id, text=s.text, source=s.source, created_at=s.created_at)
        for s in sources
    ]


def _admitted(
    answer: Answer, sources: Sequence[ContextSource], cfg: ProvenanceConfig, now: datetime | None
) -> tuple[list[SourceTurn], dict[str, tuple[ReentryReason, str]]]:
    turns = _turns(sources)
    if not turns:
        return [], {}
    probe = probe_claim(
        answer.text,
        claim_id=answer.answer_id,
        tenant_id=answer.tenant_id,
        user_id=answer.user_id,
        source_turns=turns,
        created_at=answer.created_at,
    )
    report = check_provenance(probe, cfg, now)
    rejected = {
        tid: (code, report.rejection_details.get(tid, ""))
        for tid, code in report.rejections.items()
    }
    allowed = set(report.eligible_turn_ids) - set(rejected)
    return [t for t in turns if t.id in allowed], rejected


def index_sources(
    answer: Answer, cfg: ProvenanceConfig, now: datetime | None = None, max_sources: int = 256
) -> SourceIndex:
    """The answer's context with the provenance guard applied (and its other scopes)."""
    context = list(answer.context[:max_sources])
    admitted, rejected = _admitted(answer, context, cfg, now)
    by_id: dict[str, ContextSource] = {}
    for source in context:
        by_id.setdefault(source.id, source)
    index = SourceIndex(
        context=context,
        hashes=[source_hash(s.text) for s in context],
        by_id=by_id,
        admissible={t.id: t for t in admitted},
        rejected=rejected,
    )
    others = list(answer.other_scopes[:max_sources])
    if others:
        other_turns, _ = _admitted(answer, others, cfg, now)
        index.other = other_turns
        index.scope_of = {s.id: s.scope or "other" for s in others}
    return index


@dataclass(frozen=True, slots=True)
class ClaimRef:
    """One citation of one claim, before its check."""

    ref: str  # as written ("[source:2]"), or "citations[i]"
    target: str  # what names the source: the reference text, or a stated source_id
    lines: tuple[int, int] | None = None
    quote: str | None = None
    stated: bool = False  # a `citations[i]` entry (its target is an id, never an index)


def refs_for(
    clause: tuple[int, int],
    markers: Sequence[Marker],
    stated: Sequence[AnswerCitation],
    text: str,
) -> list[ClaimRef]:
    """The citations of the claim read from answer[clause[0]:clause[1]]: the markers inside
    that span, and each stated citation whose span overlaps it."""
    a, b = clause
    out: list[ClaimRef] = []
    for marker in markers:
        if a <= marker.start < b:
            shown = text[marker.start : marker.end]
            out.extend(_marker_refs(marker, shown))
    for i, cite in enumerate(stated):
        if cite.start is None or cite.end is None:
            continue
        if cite.start < b and cite.end > a:
            lines = _stated_lines(cite)
            out.append(ClaimRef(f"citations[{i}]", cite.source_id, lines, cite.quote, True))
    return out


def _marker_refs(marker: Marker, shown: str) -> list[ClaimRef]:
    return [ClaimRef(shown, r.text, r.lines) for r in marker.refs]


def _stated_lines(cite: AnswerCitation) -> tuple[int, int] | None:
    if cite.line_start is None and cite.line_end is None:
        return None
    first = cite.line_start if cite.line_start is not None else cite.line_end
    last = cite.line_end if cite.line_end is not None else first
    assert first is not None and last is not None
    return first, last


def answer_level_refs(stated: Sequence[AnswerCitation]) -> list[ClaimRef]:
    """Stated citations without a span: checked for existence, snippet and lines only."""
    return [
        ClaimRef(f"citations[{i}]", c.source_id, _stated_lines(c), c.quote, True)
        for i, c in enumerate(stated)
        if c.start is None or c.end is None
    ]


def check_refs(
    refs: Sequence[ClaimRef], quotes: Sequence[str], index: SourceIndex
) -> list[CitationCheck]:
    """Resolution, provenance, snippets and lines of a claim's citations. A check that
    passes these has status VERIFIED for now; `score.py` then asks whether the cited
    sources say the claim (UNSUPPORTED / CONTRADICTED otherwise)."""
    out: list[CitationCheck] = []
    for ref in refs:
        source_id = (
            (ref.target if ref.target in index.by_id else None)
            if ref.stated
            else resolve(ref.target, index.context, index.hashes)
        )
        if source_id is None:
            detail = f"{ref.target!r} names no source of the context"
            out.append(
                CitationCheck(ref=ref.ref, status=AnswerCitationStatus.PHANTOM, detail=detail)
            )
            continue
        if source_id in index.rejected:
            code, what = index.rejected[source_id]
            detail = f"{source_id} may not be evidence ({code.value}{': ' + what if what else ''})"
            out.append(
                CitationCheck(
                    ref=ref.ref,
                    source_id=source_id,
                    status=AnswerCitationStatus.REJECTED_SOURCE,
                    detail=detail,
                )
            )
            continue
        if source_id not in index.admissible:  # beyond the provenance guard's turn limit
            detail = f"{source_id} was not checked by the provenance guard"
            out.append(
                CitationCheck(
                    ref=ref.ref,
                    source_id=source_id,
                    status=AnswerCitationStatus.REJECTED_SOURCE,
                    detail=detail,
                )
            )
            continue
        out.append(_content_check(ref, source_id, quotes, index))
    return out


def _content_check(
    ref: ClaimRef, source_id: str, quotes: Sequence[str], index: SourceIndex
) -> CitationCheck:
    wanted = [q for q in (*quotes, ref.quote or "") if normalise(q)]
    hay = index.normalised(source_id)
    for quote in wanted:
        if normalise(quote) not in hay:
            return CitationCheck(
                ref=ref.ref,
                source_id=source_id,
                status=AnswerCitationStatus.SNIPPET_MISMATCH,
                detail=f"{quote[:120]!r} is not in {source_id}",
            )
    if ref.lines is not None:
        problem = _lines_problem(index.by_id[source_id].text, ref.lines, wanted)
        if problem:
            return CitationCheck(
                ref=ref.ref,
                source_id=source_id,
                status=AnswerCitationStatus.LINES_INVALID,
                detail=f"{source_id}: {problem}",
            )
    return CitationCheck(ref=ref.ref, source_id=source_id, status=AnswerCitationStatus.VERIFIED)


def _lines_problem(text: str, lines: tuple[int, int], quotes: Sequence[str]) -> str:
    first, last = lines
    count = len(text.splitlines()) or 1
    if first < 1 or last < first or last > count:
        return f"lines {first}-{last} do not exist (it has {count})"
    if quotes:
        held = normalise("\n".join(text.splitlines()[first - 1 : last]))
        missing = [q for q in quotes if normalise(q) not in held]
        if missing:
            return f"lines {first}-{last} do not hold {missing[0][:80]!r}"
    return ""


def field_check(
    pieces_text: Sequence[str], index: SourceIndex, owner: Sequence[str]
) -> tuple[list[list[str]], int, int]:
    """Per piece, the names it mentions that no admissible source contains; and the
    answer's distinct named references (fields_total) and how many were found."""
    sources = [t.text for t in index.admissible.values()]
    per_piece: list[list[str]] = []
    names: set[str] = set()
    phantoms: set[str] = set()
    for text in pieces_text:
        named = named_references(text)
        if not named:
            per_piece.append([])
            continue
        names.update(n.lower() for n in named)
        if sources:
            missing = phantom_references(probe_claim(text), sources, owner)
        else:
            mine = {o.lower() for o in owner if o}
            missing = [n for n in named if n.lower() not in mine]
        phantoms.update(n.lower() for n in missing)
        per_piece.append(missing)
    return per_piece, len(names), len(names) - len(phantoms & names)
