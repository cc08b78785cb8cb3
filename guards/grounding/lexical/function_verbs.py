"""A verb the source writes in a form the stopword list holds: "The user likes jazz" from
the user's "I like jazz", "Gets migraines" from "I get migraines".

The overlap score leaves function words out, and the stopword list holds some plain verb
forms for their other uses ("like" the preposition, "get", "go", "make", "know" as light
or filler verbs: "something like that", "you know"). Its inflected forms are not in the
list ("likes", "gets", "makes", "knows"), so a memory in the third person ("The user
likes jazz") has a content word whose stem the source writes only as a stopword, never
found: with one more restated word the claim fell under the coverage line and a faithful
memory was blocked.

The rule (`function_verbs_found`): a claim content word whose stem is one of these
verbs counts as found where a source sentence writes the verb as a verb of the same
object: a subject pronoun before it ("I", "we", "you", "they", "he", "she"; with at most
two adverbs or "do" between: "I really like", "we do get"), and the word after the
claim's verb among the next six words of the source's ("likes jazz" / "like jazz",
"likes blues" / "like jazz, blues and funk"), before anything that turns the phrase to
another statement: a negation, "but", "than", "except" or another subject ("I like rock,
not jazz", "I like rock but she likes jazz"), or a conjunction not followed right away
by the claim's word ("I like rock and hate jazz"; "and funk" ends the list). "like"
after a noun ("music like jazz") or after "it's" is the preposition, and "I don't like
jazz" has a negation before the verb (no adverb), so neither vouches for "likes". Only
the coverage reads it.
"""

from __future__ import annotations

from collections.abc import Sequence

from groundwire.guards.grounding.lexical.evidence import Sentence
from groundwire.guards.grounding.lexical.text import NEGATIONS

__all__ = ["FUNCTION_VERBS", "function_verbs_found"]

# the lexical verbs of `text.STOPWORDS` as stems (not auxiliaries, not "think", "say",
# "tell": what a claim says someone thinks or said is read by the attribution rules)
FUNCTION_VERBS = frozenset(("like", "get", "go", "make", "know"))
_SUBJECTS = frozenset(("i", "we", "you", "they", "he", "she"))
# what may stand between the subject and its verb
_BETWEEN = frozenset(("really", "also", "just", "still", "always", "do", "all", "both"))
# what ends the verb's phrase: another statement follows
_TURNS = NEGATIONS | _SUBJECTS | frozenset(("but", "than", "except", "excluding", "unlike"))
_REACH = 6
# a conjunction joins the list the object is in only right before it
_JOINS = frozenset(("and", "or", "nor"))


def _verb_of(s: Sentence, j: int) -> bool:
    """Whether the word at `j` of `s` follows a subject pronoun (`_BETWEEN` aside)."""
    for k in range(j - 1, max(j - 4, -1), -1):
        low = s.lows[k]
        if low in _SUBJECTS:
            return True
        if low not in _BETWEEN:
            return False
    return False


def _object_of(s: Sentence, j: int, after: str) -> bool:
    """Whether `after` is among the `_REACH` words after `j` in `s`, before a `_TURNS`."""
    window = s.lows[j + 1 : j + 1 + _REACH]
    for k, low in enumerate(window):
        if low == after:
            return True
        if low in _TURNS:
            return False
        if low in _JOINS and window[k + 1 : k + 2] != (after,):
            return False  # "and hate jazz": another verb phrase; "and funk" is the list's
    return False


def function_verbs_found(
    lows: Sequence[str], stems: Sequence[str], sentences: Sequence[Sentence]
) -> set[int]:
    """The positions of the claim's words (`lows` with their `stems`) that are one of
    `FUNCTION_VERBS` the source writes as a verb of the same object (module doc)."""
    out: set[int] = set()
    for i, st in enumerate(stems):
        if st not in FUNCTION_VERBS or lows[i] == st or i + 1 >= len(lows):
            continue  # the gate: a claim seldom inflects one; its plain form is a stopword
        after = lows[i + 1]
        for s in sentences:
            if st not in s.word_stems or after not in s.lows:
                continue  # the gate: a C-level test before the loop over the words
            if any(
                s.word_stems[j] == st and _verb_of(s, j) and _object_of(s, j, after)
                for j in range(len(s.lows) - 1)
            ):
                out.add(i)
                break
    return out
