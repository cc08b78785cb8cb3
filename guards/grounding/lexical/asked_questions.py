"""Questions a claim asks: a question put to the listener, or the speaker's own "I wonder".

`assertion.asks_only` refuses a claim whose every sentence is a plain question ("Do you
listen to the radio?"). A claim that turns to the listener with a question among its
statements, or asks one that takes its content as given ("Did you know the NFL has no
written rule against female players?", "How did you feel about Paltrow as Pepper
Potts?"), was read for its words, and those words are the source's: overlap passed it.
But such a claim is a move in a conversation, not a statement of fact: it asks the
listener to react to what it mentions. Read as a memory it keeps a prompt ("Did you know
...?") as if it were knowledge, and the grounding benchmarks label it so: on the fit half
of the development file, 89 of the 90 BEGIN responses with a question are labelled not
attributable and 29 of the 35 FaithDial ones hallucinated (docs/grounding.md, §Verifiers).

The speaker's "I wonder if / whether / why ..." is the same act turned inwards: an
indirect question, which states what the speaker would like to know, not what is so.

So a claim is refused when one of its sentences

* ends in a question mark (outside quotation marks: 'the song "Where Are You?"' is a
  title) and names the listener ("you", "your", "you're", ...): a question put to the
  listener, whatever its form (yes/no, "did you know", wh-); or opens as one, an
  auxiliary and "you", where chat leaves the mark out ("yes. did you know women could
  play if ..."), or
* has the speaker ("I") wondering ("I wonder", "I'm wondering", "I was wondering"),

unless a verb of saying or asking comes before the listener or the wondering in its
sentence ("Mike asks Ann: do you have milk?", "She said I wonder too much"; not "Can you
tell me ...?"): a question reported is a fact about
the conversation, read by the other checks; nor when a source turn voices the same
wondering (a user's "I wonder if ..." restated). Questions without "you" ("Is it on
Netflix?") stay with `asks_only` and the fitted score, which already weighs a question
mark.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from groundwire.guards.grounding.lexical.text import claim_words, word_set
from groundwire.topics.records import SourceTurn

__all__ = ["asked_questions"]

# the listener, in the forms a question to them takes (a contraction split by the
# tokenizer, "you 're", leaves "you")
_LISTENER = word_set("you your yours yourself yourselves you're you've you'd you'll y'all ya")
# verbs that report a question or a saying: the question is the reported speaker's
_REPORTING = word_set(
    """ask asks asked asking inquire inquires inquired inquiring say says said tell tells
    told wonders wondered question questions questioned"""
)
_WONDER = word_set("wonder wondering")
# what may stand between the speaker and "wonder": "I do wonder", "I'm / I was wondering",
# "I always wonder", "I've been wondering"
_BETWEEN = word_set(
    """'m m am was 've ve have been do did just still really always often sometimes kind
    sort of also too even"""
)
_I = word_set("i i'm i've")
# a question without its mark, as chat often writes it: an auxiliary before "you"
# opening the sentence ("yes. did you know women could play if ..."); not "were",
# "had" or "should", which also open a condition ("Had you asked, ...")
_INVERTING = word_set("do did does have has can could would will are is was")
# what may open a sentence before the question proper
_OPENERS = word_set("yes yeah yep yup no nope nah well so oh ok okay wow hey hi and but hmm")
_QUOTES = frozenset('"“”')
_CLOSERS = " \t\"'”’)]»"
# a sentence ends at one of these, when white space follows ("2.7 inches" splits nothing)
_END = re.compile(r"[.!?]+[\"')\]\u201d\u2019]*(?=\s|$)")


def _inverted(lows: Sequence[str]) -> bool:
    """Whether the sentence opens as a question to the listener does, with or without
    its mark: an auxiliary and "you" ("Did you know ...", "so, do you like ...")."""
    k = 0
    while k < len(lows) and lows[k] in _OPENERS:
        k += 1
    return k + 1 < len(lows) and lows[k] in _INVERTING and lows[k + 1] in _LISTENER


def _wondering(lows: Sequence[str]) -> int | None:
    """The position of the speaker's "wonder" ("I wonder", "I'm wondering"), or None."""
    for k, low in enumerate(lows):
        if low not in _I:
            continue
        j = k + 1
        while j < len(lows) and lows[j] in _BETWEEN:
            j += 1
        if j < len(lows) and lows[j] in _WONDER:
            return j
    return None


def asked_questions(claim_text: str, turns: Sequence[SourceTurn]) -> list[str]:
    """The first sentence of the claim that asks (see the module docstring), as written;
    empty when it asks nothing. One pass over the claim's words: each sentence reads only
    its own."""
    low_text = claim_text.lower()
    if "?" not in claim_text and "wonder" not in low_text and "you" not in low_text:
        return []  # the cheap test first: most claims neither ask nor wonder
    words = claim_words(claim_text)
    ends = [m.end() for m in _END.finditer(claim_text)]
    if not ends or ends[-1] < len(claim_text.rstrip()):
        ends.append(len(claim_text))
    source: str | None = None
    k = 0
    start = 0
    quotes = 0  # quotation marks before `start`: an odd count is inside a quotation
    for end in ends:
        at, start = start, end
        first = k
        while k < len(words.spans) and words.spans[k][1] <= end:
            k += 1
        lows = words.lows[first:k]
        piece = claim_text[at:end]
        stripped = piece.rstrip(_CLOSERS)
        # the sentence opens inside a quotation, or with one
        quoted = quotes % 2 == 1 or piece.lstrip()[:1] in _QUOTES
        inside = (quotes + sum(c in _QUOTES for c in stripped)) % 2 == 1
        quotes += sum(c in _QUOTES for c in piece)
        # a question mark that a quotation mark closes is someone's words or a title
        # ('"Where Are You?"', "the FAQ's 'How do you reset it?'"), single quotes too
        closed = any(c in "\"'”’»" for c in piece.rstrip()[len(stripped) :])
        marked = stripped.endswith("?") and not inside and not closed
        if lows and (marked or (not quoted and _inverted(lows))):
            you = next((j for j, low in enumerate(lows) if low in _LISTENER), None)
            if you is not None and _REPORTING.isdisjoint(lows[:you]):
                return [piece.strip()]
        w = _wondering(lows)
        if w is not None and _REPORTING.isdisjoint(lows[:w]):
            if source is None:
                source = " ".join(t.text.lower() for t in turns)
            if f"i {lows[w]}" not in source and "wondering" not in source:
                return [piece.strip()]
    return []
