"""A cause the claim names where the source names another: "The index doubled our read
throughput" against "Our read throughput doubled thanks to the cache" (session 18, the
open write-path holes).

The source says what brought the change about after a marker of cause ("thanks to",
"because of", "due to", "caused by", "owing to", "as a result of"). A claim that keeps
the change and gives it another cause shares every word of the effect; the one new
word ("index") counted as a missing detail, so the claim was partial (approved). It is
not a detail added to the source's fact but the fact changed: the source attributes
the doubling to the cache, the claim to something the source never names as its cause.
So it is a contradiction (`not_supported`), like a doer the source gives the act to
another (`passive_actors.py`).

The reading (`changed_causes`): a source clause with a cause marker whose effect (the
content words of its clause before the marker) the claim holds two words of at least,
and whose cause (the content words after the marker, to the end of its clause) the
claim holds none of (nor a form of one: "caching" names "the cache"). The claim names
another cause when a content word of it that the source never writes stands

* after a cause marker of the claim's own ("... doubled because of the index"), or
* before the claim's first effect word, where that word is not the source's first (its
  subject) and the source's first follows it: the claim's subject, with the source's
  effect told as its object ("*The index* doubled our read throughput"; not "Our new
  read throughput doubled", an added detail of the subject).

A claim that leaves the cause out ("Our read throughput doubled") or names the source's
("The cache doubled our read throughput") is not read, nor is one whose new word stands
after the effect ("... doubled last quarter"): no cause is named.
"""

from __future__ import annotations

from collections.abc import Sequence

from groundwire.guards.grounding.lexical.evidence import Sentence, evidence_for
from groundwire.guards.grounding.lexical.text import claim_words, word_set
from groundwire.topics.records import SourceTurn

__all__ = ["changed_causes"]

# the markers of cause: (first word, the words that follow it)
_MARKERS: dict[str, tuple[tuple[str, ...], ...]] = {
    "thanks": (("to",),),
    "because": (("of",),),
    "due": (("to",),),
    "caused": (("by",),),
    "owing": (("to",),),
    "as": (("a", "result", "of"),),
}
_FIRST = frozenset(("thanks", "because", "due", "caused", "owing", "result"))
# words that end a clause (the cause's noun phrase stops there)
_CLAUSE_END = word_set("and but while whereas which who that so although though when")


def _marker_end(lows: Sequence[str], k: int) -> int | None:
    """The position after a cause marker opening at `k` ("thanks to" -> k + 2), or None."""
    for rest in _MARKERS.get(lows[k], ()):
        end = k + 1 + len(rest)
        if tuple(lows[k + 1 : end]) == rest:
            return end
    return None


def _causes(s: Sentence) -> list[tuple[list[str], set[str], str]]:
    """(effect stems in order, cause stems, cause as written) of each cause marker of `s`."""
    out: list[tuple[list[str], set[str], str]] = []
    lows, stems, content = s.lows, s.word_stems, s.content
    clause_of = s.clause_of()
    for k in range(len(lows)):
        end = _marker_end(lows, k)
        if end is None:
            continue
        if not k:
            continue
        # the clause of the word before the marker ("because" may open a clause of its own)
        effect = [stems[j] for j in range(k) if content[j] and clause_of[j] == clause_of[k - 1]]
        cause: set[str] = set()
        stop = end
        while stop < len(lows) and lows[stop] not in _CLAUSE_END:
            if content[stop]:
                cause.add(stems[stop])
            stop += 1
        if effect and cause:
            out.append((effect, cause, " ".join(s.raws[k:stop])))
    return out


def changed_causes(claim_text: str, turns: Sequence[SourceTurn]) -> list[tuple[str, str]]:
    """(the claim's cause, the source's) where the claim names another cause of the
    source's effect (module docstring)."""
    ev = evidence_for(turns)
    if _FIRST.isdisjoint(ev.lows):  # the cheap test first: no marker of cause
        return []
    words = claim_words(claim_text)
    lows, stems, content = words.lows, words.stems, words.content
    held = {stems[k] for k in range(len(lows)) if content[k]}
    if held <= ev.stems:
        return []  # every word of the claim is the source's: it names no other cause
    for s in ev.sentences:
        if _FIRST.isdisjoint(s.lows):
            continue
        for effect, cause, said in _causes(s):
            if len(held.intersection(effect)) < 2 or _names_any(held, cause):
                continue
            new = _named_cause(lows, stems, content, effect, ev.stems)
            if new is not None:
                return [(new, said)]
    return []


def _named_cause(
    lows: Sequence[str],
    stems: Sequence[str],
    content: Sequence[bool],
    effect: list[str],
    source_stems: set[str],
) -> str | None:
    """The claim's words naming a cause the source never writes, in a cause's place."""
    unknown = [
        k
        for k in range(len(lows))
        if content[k] and stems[k] not in source_stems and not _names_any({stems[k]}, source_stems)
    ]
    if not unknown:
        return None
    # after a cause marker of the claim's own
    for k in range(len(lows)):
        end = _marker_end(lows, k)
        if end is not None and any(j >= end for j in unknown):
            return " ".join(lows[k:])
    # the claim's subject, before its first effect word, where that word is not the
    # source's first (the source's subject) and the source's first follows it: the
    # effect told as the object ("The index doubled our read throughput")
    at = [k for k in range(len(lows)) if content[k] and stems[k] in effect]
    if len(at) < 2 or stems[at[0]] == effect[0]:
        return None
    if not any(stems[k] == effect[0] for k in at[1:]):
        return None
    first = at[0]
    if any(k < first for k in unknown):
        return " ".join(lows[:first])
    return None


def _bare(word: str) -> str:
    """The word without a final "e" ("cache" -> "cach", as the stem of "caching")."""
    return word[:-1] if word.endswith("e") and len(word) > 3 else word


def _names_any(stems: set[str], others: set[str]) -> bool:
    """Whether a stem of `stems` is one of `others` or the same word in another form
    (one begins with the other, four letters at least: "caching" / "cache")."""
    if not stems.isdisjoint(others):
        return True
    for a in map(_bare, stems):
        for b in map(_bare, others):
            short, long = (a, b) if len(a) <= len(b) else (b, a)
            if len(short) >= 4 and long.startswith(short):
                return True
    return False
