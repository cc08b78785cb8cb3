"""The team, named in the third person where the user says "we": "The team uses AWS"
from the user's "We use Amazon Web Services".

Memories name their owner in the third person ("The user lives in Berlin" from "I live
in Berlin", `evidence.OWNER_WORDS`). A user who speaks for a group says "we" ("We're
migrating to Kubernetes", "Our sprints are two weeks long"), and an agent restates it the
same way, as "The team ...". The word overlap read "team" as a word the claim adds, so
with one more restated word ("k8s" for "Kubernetes", "uses" for "do") the claim fell
under the coverage line and a faithful memory was blocked.

The rule (`collective_owner_found`): the claim's "team" / "team's" counts as found when
the claim writes it and no source word does, and a sentence of a user's turn says the
claim of "we": the clause of that sentence holding the most of the claim's other content
stems (at least one) has "we" ("we", "we're", "we've", ...) as a word of its own, or
"our" right before one of the claim's content words ("Our sprints are two weeks long"
for "The team's sprints are two weeks long"). Only the coverage reads it: the word stays
one the source does not write for every slot rule, so "The team uses AWS" against "Our
vendor uses AWS" or "The contractors use AWS; we use GCP" (the clause holding "use AWS"
is the contractors') and "The team is hiring" against "Acme is hiring, and we are not"
are refused as before. Only a user's turn counts: what an assistant or a document says
in the first person plural is no statement of the user's group.
"""

from __future__ import annotations

from collections.abc import Sequence

from groundwire.guards.grounding.lexical.evidence import Sentence
from groundwire.guards.grounding.lexical.text import number_value, word_set

__all__ = ["COLLECTIVE_OWNER_WORDS", "collective_owner_found"]

# How memories name the group a user speaks for ("we")
COLLECTIVE_OWNER_WORDS = frozenset(("team", "team's"))
# "we" as a subject, in the spellings the tokenizer keeps whole
_WE = frozenset(("we", "we're", "we've", "we'll", "we'd"))
_OUR = frozenset(("our",))
# what may stand between "we" and the claim's word in the same statement: at most one
# content word that is not a number ("we now use", "we never stopped using", "we have up
# to 500 users") in at most five words; no capitalised word (another subject: "we think
# Acme is hiring"), and no "to" right before the claim's word (an infinitive after a verb
# of wanting or planning: "we hope to use Go" states no use), nor a determiner
_MAX_CONTENT_GAP = 1
# a determiner or possessive between opens another noun phrase, another subject ("we
# think the vendor is hiring"); a closed class of English
_DETERMINERS = word_set("a an the this that these those my your his her its their some any another")
_MAX_GAP = 5


def _said_by_us(s: Sentence, stems: frozenset[str], infinitives: frozenset[str]) -> bool:
    """Whether the clause of `s` holding the most of `stems` (one at least) says it of
    "we": "we" in it, or "our" before one of `stems`."""
    clause_of = s.clause_of()
    held: dict[int, int] = {}
    for j, st in enumerate(s.word_stems):
        if s.content[j] and st in stems:
            held[clause_of[j]] = held.get(clause_of[j], 0) + 1
    if not held:
        return False
    top = max(held.values())
    for clause, n in held.items():
        if n != top:
            continue
        positions = s.clause_positions(clause)
        for j in positions:
            low = s.lows[j]
            if low in _WE and _subject_of(s, j, positions, stems, infinitives):
                return True
            if low in _OUR and j + 1 < len(s.lows) and s.word_stems[j + 1] in stems:
                return True
    return False


def _subject_of(
    s: Sentence,
    at: int,
    positions: Sequence[int],
    stems: frozenset[str],
    infinitives: frozenset[str],
) -> bool:
    """Whether "we" at `at` is the subject of the clause's next claim word, by what
    stands between (`_MAX_GAP`; "to" passes where the claim too writes that word after
    "to": "The team's decision was to postpone" / "We decided to postpone") (audit of
    session 18: "We think Acme is hiring" and "We hope to use Go someday" said nothing
    of the team's hiring or use)."""
    after = [j for j in positions if j > at and s.content[j] and s.word_stems[j] in stems]
    if not after:
        return False
    first = after[0]
    between = range(at + 1, first)
    if len(between) > _MAX_GAP:
        return False
    verb = number_value(s.lows[first]) is None  # "up to 500" is a bound, not an infinitive
    if verb and s.lows[first - 1] == "to" and s.word_stems[first] not in infinitives:
        return False
    if any(s.raws[j][:1].isupper() or s.lows[j] in _DETERMINERS for j in between):
        return False
    words = [j for j in between if s.content[j] and number_value(s.lows[j]) is None]
    return len(words) <= _MAX_CONTENT_GAP


def _bare(lows: Sequence[str]) -> bool:
    """Whether every "team" of the claim is the bare "the team" (or opens it): "the
    marketing team", "the other team", "Acme's team" name a group of their own, not the
    user's "we" (audit of session 18)."""
    for k, low in enumerate(lows):
        if low in COLLECTIVE_OWNER_WORDS and k and lows[k - 1] != "the":
            return False
    return True


def collective_owner_found(
    lows: Sequence[str],
    stems: Sequence[str],
    content: Sequence[bool],
    sentences: Sequence[Sentence],
) -> bool:
    """Whether the claim's "team" / "team's" (`lows`, with their `stems` and content
    flags) stands for the "we" of a user's sentence that says the claim (module doc)."""
    if COLLECTIVE_OWNER_WORDS.isdisjoint(lows):  # the gate: most claims name no team
        return False
    others = frozenset(
        st
        for low, st, c in zip(lows, stems, content, strict=True)
        if c and low not in COLLECTIVE_OWNER_WORDS
    )
    if not others or not _bare(lows):
        return False
    infinitives = frozenset(
        stems[k] for k in range(1, len(lows)) if content[k] and lows[k - 1] == "to"
    )
    if any("team" in s.lows or "team's" in s.lows for s in sentences):
        return False  # a source that names a team is read by its own words
    return any(s.turn.source == "user" and _said_by_us(s, others, infinitives) for s in sentences)
