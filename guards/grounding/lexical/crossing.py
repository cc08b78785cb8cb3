"""Two facts of one source sentence crossed into one claim: the claim takes the frame of
one coordinated clause and a word of its sibling ("The old API was removed in 2023"
against "The old API was deprecated in 2023 and removed in 2024"; "The primary database
is in eu-west-1" against "The primary database is in us-east-1 and the replica is in
eu-west-1"). Every word of the claim is in the sentence, so overlap reads it as
supported; it states neither clause.

A claim clause is crossed with a source sentence when:

* the sentence holds all of the clause's content stems, but none of its clauses does;
* one of its clauses (the frame) holds the rest of the claim clause but one or two of its
  stems, not all numbers, and has one or two stems of its own in their place, next to
  the same word (the word right before, or right after, the substituted words is the
  same on both sides);
* a sibling clause (the clause just before or after the frame) holds the words the
  claim put in, and words of its own where the claim kept the frame's (next to the same
  word: "removed in *2024*" where the claim says "in 2023"; "*Alice* deployed" where it
  says "Bob deployed").

Not crossed: a claim that joins a subject to its elided predicate ("Bob fixed the bug and
deployed the patch": "Bob deployed the patch"; the sibling has no word where the claim
has "Bob", and a modifier it adds, "the *hot* patch", stands elsewhere), nor one that
takes only a value from a sibling ("The deadline was March 3, but it was moved to March
10": "The deadline is March 10").

Bounded (docs/grounding.md "Bounded work per claim"): a claim clause read before (the
same words) replays its outcome, re-reading only the sentence that crossed it; at most
`MAX_SENTENCE_READS` (claim clause, sentence) pairs are looked at, and at most
`MAX_CROSSINGS` of them read clause by clause, per call. Past either, the remaining
clauses count as not crossed.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence

from groundwire.guards.grounding.lexical.evidence import ClaimClauses, Sentence
from groundwire.guards.grounding.lexical.text import ClaimWords, number_value

__all__ = ["crossed_clauses"]

_MAX_SWAPPED = 2  # stems substituted on each side
# (claim clause, candidate sentence) pairs looked at per call, and of them those read
# clause by clause (`_crossing`, ~100 times dearer): a claim of 2,000 short clauses each
# held by 2,000 sentences of two clauses made a million readings (20 s)
MAX_SENTENCE_READS = 200_000
MAX_CROSSINGS = 5_000


def _neighbours(
    lows: Sequence[str], stems: Sequence[str], positions: Sequence[int], swapped: frozenset[str]
) -> set[tuple[int, str]]:
    """(side, word) of the words right before (-1) and after (+1) each word at
    `positions` whose stem is `swapped`, when that neighbour is not swapped itself."""
    out: set[tuple[int, str]] = set()
    inside = set(positions)
    for k in positions:
        if stems[k] not in swapped:
            continue
        if k - 1 in inside and stems[k - 1] not in swapped:
            out.add((-1, lows[k - 1]))
        if k + 1 in inside and stems[k + 1] not in swapped:
            out.add((1, lows[k + 1]))
    return out


def crossed_clauses(
    words: ClaimWords,
    clauses: ClaimClauses,
    sentences: Sequence[Sentence],
    shared: Sequence[set[str] | frozenset[str]],
    sizes: Sequence[int],
    claim_stems: set[str],
) -> list[tuple[str, str]]:
    """(claim word, source word) for each claim clause crossed with a source sentence
    (module docstring); `shared[i]`: the claim stems sentence i holds, `sizes[i]` how
    many; `claim_stems`: the claim's content stems."""
    out: list[tuple[str, str]] = []
    # the sentences holding two claim stems or more, found once
    candidates = [i for i, n in enumerate(sizes) if n >= 2]
    if not candidates:
        return out
    stems = words.stems
    bounds = clauses.bounds()
    # a clause's reading depends only on its words (lows and stems): the sentence that
    # crossed a clause of the same words before (None: no sentence did)
    seen: dict[tuple[tuple[str, ...], tuple[str, ...]], int | None] = {}
    reads, crossings = MAX_SENTENCE_READS, MAX_CROSSINGS
    for c_stems, (a, b) in zip(clauses.stem_sets(), itertools.pairwise(bounds), strict=True):
        if len(c_stems) < 2:
            continue
        key = (words.lows[a:b], stems[a:b])
        if key in seen:
            i = seen[key]
            if i is not None:  # the same sentence crosses it; only the claim word may differ
                pair = _crossing(
                    words, stems, (a, b), c_stems, sentences[i], _own(sentences[i]), claim_stems
                )
                if pair is not None and pair not in out:
                    out.append(pair)
            continue
        seen[key] = None
        if reads <= 0 or crossings <= 0:
            break  # the budget is spent: the rest count as not crossed
        for i in candidates:
            reads -= 1
            if reads < 0:
                break
            if not c_stems <= shared[i]:
                continue  # the sentence does not hold the whole clause
            s = sentences[i]
            sets = s.clause_sets()
            if len(sets) < 2 or any(map(c_stems.__le__, sets)):
                continue  # one clause, or one clause says it all
            crossings -= 1
            if crossings < 0:
                break
            pair = _crossing(words, stems, (a, b), c_stems, s, _own(s), claim_stems)
            if pair is not None:
                seen[key] = i
                if pair not in out:
                    out.append(pair)
                break
    return out


def _own(s: Sentence) -> list[tuple[tuple[int, ...], frozenset[str]]]:
    """(word positions, content stems) of each clause of sentence `s`."""
    return [(pos, st) for (_, pos, _), st in zip(s.clauses(), s.clause_sets(), strict=True)]


def _crossing(
    words: ClaimWords,
    stems: Sequence[str],
    span: tuple[int, int],
    c_stems: frozenset[str],
    s: Sentence,
    own: Sequence[tuple[tuple[int, ...], frozenset[str]]],
    claim_stems: set[str],
) -> tuple[str, str] | None:
    """The first (claim word, frame word) substitution that crosses the claim clause at
    `span` with sentence `s` (its clauses `own`: positions, content stems), if any."""
    c_pos = range(*span)
    for f, (d_pos, d_set) in enumerate(own):
        put_in = c_stems - d_set
        if not 1 <= len(put_in) <= _MAX_SWAPPED or c_stems.isdisjoint(d_set):
            continue
        if all(number_value(st) is not None for st in put_in):
            continue  # a value from a sibling clause: an update as often as a mix-up
        left_out = d_set - claim_stems
        if not 1 <= len(left_out) <= _MAX_SWAPPED:
            continue
        mine = _neighbours(words.lows, stems, c_pos, put_in)
        if mine.isdisjoint(_neighbours(s.lows, s.word_stems, d_pos, left_out)):
            continue
        # a sibling clause (next to the frame) holds what the claim put in, and words of
        # its own where the claim has the frame's (next to the same word)
        kept = _neighbours(words.lows, stems, c_pos, c_stems & d_set)
        if not any(
            abs(g - f) == 1
            and put_in <= e_set
            and not kept.isdisjoint(_neighbours(s.lows, s.word_stems, e_pos, e_set - claim_stems))
            for g, (e_pos, e_set) in enumerate(own)
        ):
            continue
        claim_word = next(words.raws[k] for k in range(*span) if stems[k] in put_in)
        frame_word = next(s.raws[j] for j in d_pos if s.word_stems[j] in left_out)
        return claim_word, frame_word
    return None
