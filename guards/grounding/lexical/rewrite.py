"""The offline rewrite of a PARTIAL claim (`grounding.rewrite_partial`, docs/spec.md
§Grounding): the claim restated to keep only what its evidence supports.

The LLM verifier asks its model for the restatement; the offline verifiers derive it by
rule from the same signals that made the verdict PARTIAL:

* the claim is cut into phrases at punctuation and at prepositions ("Georgian will
  deliver the Inbox3 MVP" | "by April 30" | "with 95% confidence");
* a phrase whose words the evidence all has is kept as it is;
* a prepositional phrase that adds what the evidence lacks is replaced by the evidence's
  own phrase with the same preposition and a shared word ("by April 30" -> "by end of
  April"), or dropped when the evidence has none ("with 95% confidence");
* in the other phrases, the numbers and names the evidence never gives are dropped
  ("the Inbox3 MVP" -> "the MVP"), and so is an evaluation the source never makes
  (`lexical/opinion.py`; the verifier passes its words with the names: "The amazing
  film premiered at Cannes" -> "The film premiered at Cannes");
* a fact the claim lists after a semicolon, none of whose content words the evidence
  has, is dropped whole ("Lives in Berlin; moved from Munich in 2023" from "I live in
  Berlin" -> "Lives in Berlin", not "Lives in Berlin moved");
* a claim stated as certain ("will") from evidence that hedges (the hedge guard finds a
  hedge in the supporting sentence) says "expects to" instead: the memory must not be
  surer than its source;
* a claim about its owner stated as done from a clause that only intends it ("Works at
  Acme" from "I'm hoping to work at Acme") says it with the source's verb of intention
  instead ("Hopes to work at Acme", `restate_intention`, called by the verifier).

The result is `GroundingReport.rewritten_content`; the claim's `content` is never
replaced. No rewrite (None) when nothing would change or too little would be left.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence

from groundwire.guards.config import HedgeConfig
from groundwire.guards.grounding.lexical.evidence import Sentence, split_sentences
from groundwire.guards.grounding.lexical.text import Token, claim_words, tokenize
from groundwire.guards.hedge import HedgeDetector
from groundwire.topics.records import EvidenceSpan, SourceTurn
from groundwire.topics.vocab import HedgeAction

__all__ = ["rewrite_partial"]

# Prepositions that open a phrase adding a detail (when, how, with what, where).
_PREPOSITIONS = frozenset(
    {
        *("by", "with", "at", "on", "in", "for", "from", "to", "of", "about", "after"),
        *("before", "until", "till", "during", "within", "since", "via", "per", "under"),
        *("over", "around", "near"),
    }
)
_CUT = re.compile(r"[,;:()\[\]]")
_RUN = 5  # words after a preposition in which the evidence's phrase must share a word
_PLURAL_SUBJECTS = frozenset({"i", "we", "you", "they"})


@functools.lru_cache(maxsize=1)
def _hedges() -> HedgeDetector:
    return HedgeDetector(HedgeConfig())


def _phrases(text: str, tokens: Sequence[Token]) -> list[list[int]]:
    """Token indices per phrase: a new phrase at punctuation and at each preposition."""
    cuts = [m.start() for m in _CUT.finditer(text)]
    cuts.append(len(text) + 1)
    phrases: list[list[int]] = []
    last_end = 0
    c = 0  # the next punctuation mark not yet passed
    for i, t in enumerate(tokens):
        while cuts[c] < last_end:  # inside an earlier word
            c += 1
        cut = cuts[c] < t.start
        while cuts[c] < t.start:
            c += 1
        if not phrases or cut or (t.low in _PREPOSITIONS and i > 0):
            phrases.append([])
        phrases[-1].append(i)
        last_end = t.end
    return phrases


def _source_phrase(prep: str, stems: set[str], sentences: Sequence[Sentence]) -> str | None:
    """The evidence's phrase opening with `prep` and reaching a word of `stems`.

    Read from the sentence's cached word arrays (lower-case forms, stems, content flags,
    offsets: the same words `tokenize` would give), so no `Token`s are built."""
    for s in sentences:
        lows = s.lows
        if prep not in lows:
            continue
        spans = s.word_spans()
        word_stems, content = s.word_stems, s.content
        text = s.turn.text
        for j, low in enumerate(lows):
            if low != prep:
                continue
            for k in range(j + 1, min(len(lows), j + 1 + _RUN)):
                if _CUT.search(text, spans[k - 1][1], spans[k][0]):
                    break  # not across punctuation
                if content[k] and word_stems[k] in stems:
                    end = spans[k][1]  # to the end of the written word ("src/worker/x.py")
                    while end < s.end and not text[end].isspace() and text[end] not in ",;:)":
                        end += 1
                    return text[spans[j][0] : end].rstrip(".!?")
    return None


def _supporting(turns: Sequence[SourceTurn], spans: Sequence[EvidenceSpan]) -> list[Sentence]:
    by_id = {t.id: t for t in turns}
    out: list[Sentence] = []
    for span in spans:
        turn = by_id.get(span.turn_id)
        if turn is None:
            continue
        for s in split_sentences(turn):
            if s.start < span.end and span.start < s.end and s not in out:
                out.append(s)
    return out


def rewrite_partial(
    claim_text: str,
    missing: Sequence[str],
    evidence_stems: set[str],
    turns: Sequence[SourceTurn],
    spans: Sequence[EvidenceSpan],
) -> str | None:
    """The claim restated with only what the evidence supports (see the module doc).

    `missing`: the numbers and names the evidence never gives; `evidence_stems`: the stems
    of every content word of the evidence; `spans`: the verdict's evidence spans."""
    words_of = claim_words(claim_text)  # as `analyze` read it (cached)
    sentences = _supporting(turns, spans)
    if not words_of.raws or not sentences:
        return None
    tokens = words_of.tokens()
    drop = {m.lower() for m in missing}
    kept: list[str] = []
    kept_content = 0
    unfounded = _unfounded_facts(claim_text, tokens, drop, evidence_stems)
    for phrase in _phrases(claim_text, tokens):
        if phrase[0] in unfounded:
            continue  # a fact of its own the evidence has nothing of
        words = [tokens[i] for i in phrase]
        unsupported = [
            t for t in words if t.low in drop or (t.content and t.stem not in evidence_stems)
        ]
        start, end = words[0].start, words[-1].end
        if not unsupported:
            kept.append(claim_text[start:end])
            kept_content += sum(t.content for t in words)
            continue
        if words[0].low in _PREPOSITIONS:
            stems = {t.stem for t in words[1:] if t.content}
            own = _source_phrase(words[0].low, stems, sentences)
            if own is not None:
                kept.append(own)
                kept_content += 1
            continue  # a detail the evidence lacks: dropped
        kept.append(_without(claim_text, start, end, [t for t in words if t.low in drop]))
        kept_content += sum(t.content and t.low not in drop for t in words)
    result = " ".join(k for k in kept if k).strip()
    if kept_content < 2 or _same_words(result, claim_text):
        return None  # nothing dropped: the phrases joined without "Manager:"'s colon
    return _soften(result) if _hedged(sentences) else result


def _same_words(result: str, claim_text: str) -> bool:
    """Whether the rewrite kept every word of the claim: the phrases are joined with
    spaces, so "Manager: Dana" comes back as "Manager Dana", which drops nothing (a
    regex pass: the rewrite's words need no stems)."""
    return _PLAIN.findall(result.lower()) == _PLAIN.findall(claim_text.lower())


_PLAIN = re.compile(r"[^\W_]+")


def _unfounded_facts(
    text: str, tokens: Sequence[Token], drop: set[str], evidence_stems: set[str]
) -> set[int]:
    """Token indices of the facts a claim lists with semicolons ("Lives in Berlin; moved
    from Munich in 2023") that have no content word the evidence gives: a fact of its
    own is dropped whole, not cut down to a stray verb ("Lives in Berlin moved"). Only
    at semicolons, the way memory layers list facts: after a comma or "and" a phrase
    is as often a detail of the same fact."""
    if ";" not in text:
        return set()
    out: set[int] = set()
    fact: list[int] = []
    for i, t in enumerate(tokens):
        if fact and ";" in text[tokens[i - 1].end : t.start]:
            out.update(_if_unfounded(fact, tokens, drop, evidence_stems))
            fact = []
        fact.append(i)
    out.update(_if_unfounded(fact, tokens, drop, evidence_stems))
    return out


def _if_unfounded(
    fact: list[int], tokens: Sequence[Token], drop: set[str], evidence_stems: set[str]
) -> list[int]:
    """`fact` when none of its content words is in the evidence, else nothing."""
    found = any(
        tokens[i].content and tokens[i].low not in drop and tokens[i].stem in evidence_stems
        for i in fact
    )
    return [] if found else fact


def _without(text: str, start: int, end: int, removed: Sequence[Token]) -> str:
    """text[start:end] as written, less the removed words (and the space after each)."""
    out: list[str] = []
    pos = start
    for t in removed:
        out.append(text[pos : t.start])
        pos = t.end
        while pos < end and text[pos] == " ":
            pos += 1
    out.append(text[pos:end])
    kept = "".join(out).strip()
    if removed:  # "French and German" less "German": no "and" left with nothing after it
        kept = _DANGLING.sub("", kept)
    return kept


# a coordinator the dropped words leave at the end of a phrase
_DANGLING = re.compile(r"(?:\s*(?:,|\band\b|\bor\b|&))+$", re.IGNORECASE)


def _hedged(sentences: Sequence[Sentence]) -> bool:
    return any(_hedged_text(s.turn.text[s.start : s.end]) for s in sentences)


@functools.lru_cache(maxsize=4_096)
def _hedged_text(text: str) -> bool:
    """Whether the hedge guard finds a hedge in a sentence (sentences recur across claims)."""
    return _hedges().analyze(text).action is not HedgeAction.NONE


def _soften(text: str) -> str:
    """'X will do' -> 'X expects to do' ('I/we/you/they will' -> 'expect to')."""
    tokens = tokenize(text)
    for i, t in enumerate(tokens):
        if t.low == "will" and i > 0:
            verb = "expect to" if tokens[i - 1].low in _PLURAL_SUBJECTS else "expects to"
            return text[: t.start] + verb + text[t.end :]
    return text


# Verbs of intention the source says before "to" and a base verb ("I'm hoping to work at
# Acme"), as the claim restates them of its owner ("Hopes to work at Acme").
_INTENDS = {
    **dict.fromkeys(("want", "wants", "wanted", "wanting"), "wants"),
    **dict.fromkeys(("hope", "hopes", "hoped", "hoping"), "hopes"),
    **dict.fromkeys(("plan", "plans", "planned", "planning"), "plans"),
    **dict.fromkeys(("wish", "wishes", "wished", "wishing"), "wishes"),
    **dict.fromkeys(("intend", "intends", "intended", "intending"), "intends"),
}
_IRREGULAR_BASE = {"is": "be", "has": "have", "does": "do"}
_OWNER_LEAD = ("the user", "user")


def restate_intention(claim_text: str, source_clause: str) -> str | None:
    """A claim about its owner stated as done ("Works at Acme", "The user lives in
    Berlin") from a source clause that only intends it ("I'm hoping to work at Acme",
    "I'd love to live in Berlin") restated with the source's own verb of intention:
    "Hopes to work at Acme", "The user would love to live in Berlin". None where the
    source's intention is no such verb ("should", "will", "considering") or the claim
    does not open with its owner's verb in the present ("Moved to Berlin")."""
    lows = [t.low for t in tokenize(source_clause)]
    intent = None
    for k, low in enumerate(lows[:-1]):
        if low in _INTENDS and lows[k + 1] == "to":
            intent = f"{_INTENDS[low]} to"
            break
        if low.endswith("'d") and k + 2 < len(lows) and lows[k + 2] == "to":
            intent = f"would {lows[k + 1]} to"  # "I'd love to", "we'd like to"
            break
    if intent is None:
        return None
    tokens = tokenize(claim_text)
    lead = claim_text.lower()
    at = 0
    for owner in _OWNER_LEAD:
        if lead.startswith(owner + " "):
            at = len(owner.split())
            break
    if at >= len(tokens):
        return None
    verb = tokens[at]
    base = _base_form(verb.low)
    if base is None:
        return None
    if at == 0:
        intent = intent[:1].upper() + intent[1:]
    return f"{claim_text[: verb.start]}{intent} {base}{claim_text[verb.end :]}"


def _base_form(low: str) -> str | None:
    """The base form of a verb in the third person singular ("works" -> "work", "lives"
    -> "live", "studies" -> "study", "watches" -> "watch", "is" -> "be"), else None."""
    if low in _IRREGULAR_BASE:
        return _IRREGULAR_BASE[low]
    if len(low) < 3 or not low.endswith("s") or low.endswith(("ss", "us", "is")):
        return None
    if low.endswith("ies") and len(low) > 4:
        return low[:-3] + "y"
    if low.endswith(("sses", "xes", "zes", "ches", "shes", "oes")):
        return low[:-2]
    return low[:-1]
