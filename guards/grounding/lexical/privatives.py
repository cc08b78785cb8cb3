"""A negation told by the verb "lack" or by "far from": "The service lacks IPv6 support"
says it does not support IPv6, "The bug is far from fixed" that it is not fixed
(session 17, the write-path red team).

"lack" denies its object as "not have" does, but it is no negation word
(`text.NEGATIONS`), so "The service supports IPv6" against "The service lacks IPv6
support" was supported (every content word is there), and the faithful "The service
does not support IPv6" read as a negation the source lacks and was blocked. Only the
verb's own forms are read ("lack", "lacks", "lacked", "lacking"): the noun ("a lack of
sleep") is a thing named, read as before, and is told apart by a determiner or "of"
around it. "far from" before a word that is no determiner or number denies that one word
("far from perfect"); "far from the station" is a distance, read as before. Either one
with a negation in the three words before it ("we don't lack funding", "not far from
perfect") denies a denial and is not read.

Precision (session 17, precision audit): "lack" bears on no word past a clause opener
other than "and" / "or" (which may join its objects: "lacks IPv6 and HTTP/3 support"),
so "lacks funding but has enough engineers" does not lack "enough"; and a claim word
the source sentence also writes outside what its "lack" bears on is read as that
mention ("The service supports HTTP/3" restates "... lacks IPv6 support but supports
HTTP/3"; "The project has funding", "... lacked funding in 2023 and has funding now").

* `privative_flips`: a claim with no negation whose content stems a source sentence
  holds, and whose stems include one the source's "lack" bears on (its first `SCOPE`
  content words, as a negation's scope): (the claim word, "lacks ..." of the source).
* `privative_agrees`: a clause negated in one text, and in the other a clause whose
  "lack" bears on a stem the negation bears on: the two agree, as "not disabled" and
  "enabled" do.
"""

from __future__ import annotations

from collections.abc import Sequence

from groundwire.guards.grounding.lexical.evidence import Sentence
from groundwire.guards.grounding.lexical.text import (
    NEGATIONS,
    has_implicative,
    number_value,
    word_set,
)

__all__ = ["PRIVATIVES", "privative_agrees", "privative_flips"]

PRIVATIVES = word_set("lack lacks lacked lacking")
SCOPE = 2  # content words after it that it bears on (`polarity.SCOPE`)
_NOUN_BEFORE = word_set("a an the no any this that their our its of")
# the words that open another clause, where what "lack" bears on ends ("and" / "or" may
# join its objects and are not among them)
_CLAUSE_OPENERS = word_set(
    "but while whereas although though because yet unless so which who that when if"
)


def _far_from(lows: Sequence[str], k: int) -> bool:
    """Whether "from" at `k` closes "far from" before a word that is no determiner or
    number ("far from fixed", "far from perfect"; not "far from the station")."""
    if lows[k] != "from" or k == 0 or lows[k - 1] != "far" or k + 1 >= len(lows):
        return False
    nxt = lows[k + 1]
    return nxt.isalpha() and nxt not in _NOUN_BEFORE and number_value(nxt) is None


def _lacked(
    lows: Sequence[str], stems: Sequence[str], content: Sequence[bool], positions: Sequence[int]
) -> dict[str, int]:
    """Stem -> the position of the verb "lack" that bears on it, among `positions`."""
    out: dict[str, int] = {}
    at = list(positions)
    for n, k in enumerate(at):
        if not NEGATIONS.isdisjoint(lows[max(0, k - 3) : k]):
            continue  # "we don't lack funding", "not far from perfect": denied in turn
        if _far_from(lows, k):
            taken = [k + 1] if content[k + 1] else []  # "far from fixed": the one word
        elif lows[k] not in PRIVATIVES:
            continue
        elif (k and lows[k - 1] in _NOUN_BEFORE) or (k + 1 < len(lows) and lows[k + 1] == "of"):
            continue  # "a lack of sleep": the noun
        else:
            taken = []
            for j in at[n + 1 :]:
                if lows[j] in _CLAUSE_OPENERS or len(taken) == SCOPE:
                    break
                if content[j]:
                    taken.append(j)
        for j in taken:
            out.setdefault(stems[j], k)
    return out


def _scope_positions(lows: Sequence[str], stems: Sequence[str], lacked: dict[str, int]) -> set[int]:
    """The positions of the words each "lack" / "far from" of `lacked` bears on (the
    first mention of each lacked stem after its verb), with the verbs themselves."""
    out: set[int] = set(lacked.values())
    for st, v in lacked.items():
        j = next((i for i in range(v + 1, len(lows)) if stems[i] == st), None)
        if j is not None:
            out.add(j)
    return out


def privative_flips(
    lows: Sequence[str],
    stems: Sequence[str],
    content: Sequence[bool],
    sentences: Sequence[Sentence],
) -> list[tuple[str, str]]:
    """(claim word, the source's "lacks ...") for a claim that states what the source
    says something lacks (module docstring)."""
    if not NEGATIONS.isdisjoint(lows) or not PRIVATIVES.isdisjoint(lows) or has_implicative(lows):
        return []
    # `_far_from` needs "far" before "from": one set test before the per-word loop
    if "far" in lows and any(_far_from(lows, k) for k in range(len(lows))):
        return []  # the claim's own "far from"
    mine = {st: k for k, (st, c) in enumerate(zip(stems, content, strict=True)) if c}
    if not mine:
        return []
    for s in sentences:
        if (PRIVATIVES.isdisjoint(s.lows) and "far" not in s.lows) or not mine.keys() <= s.stems:
            continue
        lacked = _lacked(s.lows, s.word_stems, s.content, range(len(s.lows)))
        if not lacked:
            continue
        # the stems the sentence also writes where no "lack" bears on them
        scope = _scope_positions(s.lows, s.word_stems, lacked)
        plain = {st for i, st in enumerate(s.word_stems) if s.content[i] and i not in scope}
        for st, k in mine.items():
            v = lacked.get(st)
            if v is not None and st not in plain:
                if s.lows[v] == "from":  # "far from fixed"
                    return [(lows[k], " ".join(s.raws[v - 1 : v + 2]))]
                return [(lows[k], " ".join(s.raws[v : v + 1 + SCOPE]))]
    return []


def privative_agrees(
    negated_stems: Sequence[str],
    scope: Sequence[int],
    other_lows: Sequence[str],
    other_stems: Sequence[str],
    other_content: Sequence[bool],
    other: Sequence[int],
) -> bool:
    """Whether the other clause (`other`: its positions) lacks what the negation of the
    negated clause bears on (`scope`: positions in `negated_stems`)."""
    if PRIVATIVES.isdisjoint(other_lows[k] for k in other) and "far" not in other_lows:
        return False
    lacked = _lacked(other_lows, other_stems, other_content, other)
    return any(negated_stems[k] in lacked for k in scope)
