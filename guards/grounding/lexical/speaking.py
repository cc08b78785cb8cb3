"""Whether anyone in the source speaks of themselves (the gate of the speaker's-own rule).

`assertion.speaks_of_itself` blocks "I love cats" where nobody in the source says "I",
"me", "my", "we", ... (`assertion.SPEAKER_WORDS`): a third-person source cannot attest
the speaker's own tastes or doings. The tokenizer reads a lone letter as a word, so a
bare "i" was found in sources where nobody speaks: the letters of a dotted abbreviation
("S.H.I.E.L.D.", "i.e.") and a Roman numeral after a name ("World War I.", "NCAA
Division I Football"), and a Greek iota that `fold_disguises` reads as "i" inside a word
the tokenizer then splits ("βιβλία"), so the rule never fired on a film plot or an
encyclopaedia entry that has one. Those are not read as a speaker any more (session
12); every other speaker word ("me", "my", "I'm", "we", ...) still opens the gate as
before.
"""

from __future__ import annotations

from collections.abc import Sequence

from groundwire.guards.grounding.lexical.assertion import SPEAKER_WORDS
from groundwire.guards.grounding.lexical.text import Token, fold_disguises, tokenize
from groundwire.topics.records import SourceTurn

__all__ = ["someone_speaks"]

_SENTENCE_END = frozenset(".!?:;\"'()[]")


def someone_speaks(turns: Sequence[SourceTurn], lows: frozenset[str] | set[str]) -> bool:
    """Whether some turn has someone speak of themselves. `lows` are the evidence's
    lower-case words (`Evidence.lows`): the set test decides unless the only speaker word
    they hold is a bare "i", which is then read in place."""
    present = SPEAKER_WORDS.intersection(lows)
    if not present:
        return False
    if present != {"i"}:
        return True
    for turn in turns:
        text = fold_disguises(turn.text)  # as the evidence reads it (same offsets)
        words = tokenize(text)
        for k, tok in enumerate(words):
            if tok.low == "i" and _speaker_i(text, words, k):
                return True
    return False


def _speaker_i(text: str, words: Sequence[Token], k: int) -> bool:
    """Whether the lone "i" at `words[k]` is the pronoun, not a letter of a dotted
    abbreviation nor a Roman numeral after a name."""
    tok = words[k]
    after = text[tok.end : tok.end + 2]
    before = text[max(0, tok.start - 2) : tok.start]
    if after[:1].isalpha() or before[1:2].isalpha():
        return False  # a letter of a word the tokenizer split ("βiβλία" read as Latin)
    if after[:1] == "." and after[1:2].isalpha():
        return False  # "S.H.I.E.L.D.", "i.e."
    if before[1:2] == "." and before[:1].isalpha():
        return False  # the last letter of one: "A.I."
    if tok.text != "I" or k == 0:
        return True
    prev = words[k - 1]
    gap = text[prev.end : tok.start]
    if gap.strip() or not prev.text[:1].isupper():
        return True  # "Whoa ! I think", "and I went"
    if k >= 2 and not _SENTENCE_END.intersection(text[words[k - 2].end : prev.start]):
        # a capitalised word inside a sentence, then "I", then no word of its own
        # ("World War I.") or a capitalised one ("Division I Football"): a numeral
        nxt = text[tok.end :].lstrip()
        if not nxt or not nxt[0].isalpha() or nxt[0].isupper():
            return False
    return True
