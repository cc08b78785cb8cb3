"""An answer cut into atomic claims (docs/spec.md §Read-time faithfulness, "Atomic claims").

Three steps, each a plain rule so that a reader can predict the output:

1. **Sentences.** A sentence ends at `.`, `!` or `?` followed by white space (not after
   an abbreviation such as "e.g." or an initial), at a line break, or at a colon that
   ends a line. Citation markers right after the end belong to the sentence before
   (`... limits. [source:2]`); list bullets are not part of the text.
2. **Kinds.** Each sentence is a factual claim unless it asks (a question), greets or
   thanks (greeting), speaks about the answer itself or declines (meta), tells the reader
   what to do (advice: an imperative, "you should ...", "I recommend ..."), or judges
   (opinion: "I love ...", "I think it is great", a short sentence whose only predicate
   is an evaluative word). Every exclusion carries its reason. A belief frame ("I think")
   over a statement that names a number, a name or a file is still checked: hedging a
   specific does not make it an opinion.
3. **Atomic claims.** A factual sentence is cut into clauses at ";" and at a conjunction
   after a comma (", and", ", but", ", while", ...), and a clause that states two separate
   quantities ("a team of 3 engineers is allocated 50%") into one claim per quantity,
   each without the other quantity's phrase: each claim is then true or false on its own.

A claim is *critical* when it names a specific: a number, a capitalised name after the
first word, a file or field name, a quotation or a URL.

Pure and bounded: the text is read up to `max_chars`.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from groundwire.guards.faithfulness.frames import (
    Framed,
    emotive_statement,
    framed_statement,
    parenthesised,
    presupposed_descriptions,
    presupposed_relatives,
    reads_as_statement,
    reason_given,
)
from groundwire.topics.vocab import ClaimKind

__all__ = ["Piece", "split_answer", "split_sentences"]


@dataclass(slots=True)
class Piece:
    """One sentence, or one atomic claim of a factual sentence."""

    text: str  # citation markers removed, white space collapsed
    start: int  # the sentence's span in the answer
    end: int
    kind: ClaimKind
    why: str
    critical: bool = False
    # the span of the answer this claim was read from (its clause); markers in it or
    # right after it are its citations
    clause_start: int = 0
    clause_end: int = 0
    quotes: list[str] = field(default_factory=list)  # quoted snippets it states


def _words(text: str) -> list[str]:
    return text.split()


# -- sentences --------------------------------------------------------------------------

_ABBREVIATIONS = frozenset(
    _words("e.g i.e etc vs mr mrs ms dr prof st no fig approx cf al inc ltd jr sr dept est p.s")
)
_END = re.compile(r"[.!?]+[\"'”’)\]]*(?=\s|$)|:[ \t]*(?=\n)|\n")
# a list bullet, or a postscript's label ("P.S. ...", "PS: ..."): neither is text
_BULLET = re.compile(r"^\s*(?:[-*•–]|\d{1,3}[.)]|[a-z][.)]|[Pp]\.\s?[Ss]\.:?|PS:)\s+")
_SPACE = re.compile(r"\s+")
_TABLE_RULE = re.compile(r"[ \t]*\|?[ \t]*:?-{3,}:?[ \t]*\|")  # "|---|:--:|" under a header


def _abbreviation_before(text: str, end: int) -> bool:
    """Whether the full stop at `end` closes an abbreviation or an initial ("J. Smith")."""
    if text[end] != ".":
        return False
    j = end
    while j > 0 and (text[j - 1].isalpha() or text[j - 1] == "."):
        j -= 1
    word = text[j:end].lower().rstrip(".")
    if word in _ABBREVIATIONS:
        return True
    return len(word) == 1 and text[j : j + 1].isupper() and end + 2 < len(text)


def _list_number(text: str, dot: int) -> bool:
    """Whether the full stop at `dot` ends a list number at a line start ("1. ", "b. ")."""
    line_start = text.rfind("\n", 0, dot) + 1
    head = text[line_start:dot].strip()
    return bool(head) and (head.isdigit() or (len(head) == 1 and head.isalpha()))


def split_sentences(
    text: str, markers: Sequence[tuple[int, int]] = (), max_chars: int = 20_000
) -> list[tuple[int, int]]:
    """(start, end) of each sentence of `text`; `markers` are spans that never hold a
    sentence end and, right after one, belong to the sentence before."""
    text = text[:max_chars]
    inside = _covered(markers)
    spans: list[tuple[int, int]] = []
    start = 0
    for match in _END.finditer(text):
        end = match.end()
        if match.start() in inside:
            continue
        if match.group(0)[0] == "." and (
            _abbreviation_before(text, match.start()) or _list_number(text, match.start())
        ):
            continue
        # markers right after the end ("... limits. [source:2]") belong to this sentence
        j = end
        while True:
            k = j
            while k < len(text) and text[k] in " \t":
                k += 1
            follow = next((m for m in markers if m[0] == k), None)
            if follow is None:
                break
            j = follow[1]
            end = j
        if text[start:end].strip():
            spans.append((start, end))
        start = end
    if text[start:].strip():
        spans.append((start, len(text)))
    return [_trimmed(text, s, e) for s, e in spans]


def _covered(markers: Sequence[tuple[int, int]]) -> set[int]:
    out: set[int] = set()
    for a, b in markers:
        out.update(range(a, b))
    return out


def _trimmed(text: str, start: int, end: int) -> tuple[int, int]:
    while start < end and text[start].isspace():
        start += 1
    while end > start and text[end - 1].isspace():
        end -= 1
    return start, end


# -- kinds ------------------------------------------------------------------------------

_GREETING = re.compile(
    r"^(?:hi|hello|hey|greetings|good (?:morning|afternoon|evening|day)|thanks|thank you|"
    r"you'?re welcome|you are welcome|cheers|bye|goodbye|welcome|hope (?:this|that|it) "
    r"helps|glad (?:to|i could|i can) help|happy to help|let me know|feel free|any other "
    r"questions|anything else|have a (?:great|good|nice)|sorry|apologies|my apologies|"
    r"i apologi[sz]e|"
    # a wish or a congratulation: it hopes for or celebrates, it reports nothing (a
    # specific it names is presupposed: `presupposed_descriptions`, `_after_lead`)
    r"(?:i |we )?(?:really |do )?hope\b|wishing you|(?:good|best of) luck|best wishes|"
    r"fingers crossed|(?:i |we )?(?:can't|cannot|can not) wait\b|(?:i'm |we're )?looking "
    r"forward|"
    r"enjoy\b|have fun|have (?:a|an) (?:safe|wonderful|lovely|fantastic|relaxing|fun|happy|"
    r"productive|smooth)\b|congratulations|congrats|kudos|welcome back|cheers to)\b"
)
_INTERJECTION = re.compile(
    r"^(?:sure|of course|certainly|absolutely|great question|good question|no problem|ok|"
    r"okay|wow|oh|ah|yes|yeah|no|nope|indeed|right|great|awesome|cool|nice|exactly|got it|"
    r"understood|alright|all right|hmm+|haha+)\W*$"
)
_META = re.compile(
    r"^(?:(?:here is|here's|here are|below is|below are|the following)\b.*:$|"
    r"(?:i|we) (?:do not|don't|did not|didn't|cannot|can't|could not|couldn't) "
    r"(?:have|find|know|see|say|tell|help|answer|access)\b|(?:i'?m|i am) not sure\b|"
    r"(?:this is )?not found in (?:the )?(?:provided )?(?:sources|context)\b|"
    r"(?:the )?(?:provided )?(?:sources|context|memories) (?:do|does) not (?:say|mention|"
    r"contain|cover)\b|(?:to summari[sz]e|in summary|in short)\W*$|"
    # an offer of the assistant's own help: about the conversation, not the world
    # ("I'll check" as "I will check": the contraction has no space before it)
    r"(?:i|we)(?:\s|(?='))(?:can|could|will|'ll|would be happy to|'d be happy to|am happy to|"
    r"'m happy to) (?:help|look|check|find|provide|give|search|dig|share|answer|explain|walk|"
    r"research)\b)"
)
_IMPERATIVE = frozenset(
    _words("""try use consider make check run set add remove avoid remember ensure install update
    restart reboot open click go contact ask keep start stop take call read see look follow
    review verify enable disable configure create delete change move replace upgrade
    downgrade switch reach talk don't do never always be let's let please note pick choose
    select include exclude increase decrease reduce raise lower wait visit refer rename
    define write test monitor limit prefer double-check tell ping""")
)
_SOFTENERS = frozenset(_words("please just also then so now first next finally maybe perhaps"))
_NOT_AFTER_IMPERATIVE = frozenset(
    _words("of is was are were has had to by in on for and or 's")
)  # "Use of X is ...", "Check-in is at 3": a noun, not an order
_ADVICE = re.compile(
    r"\b(?:you (?:should|could|might want to|may want to|need to|must|have to|ought to|"
    r"can try|'d better|had better)|(?:i|we) (?:would |'d )?(?:recommend|suggest|advise)|"
    r"it(?:'s| is) (?:best|a good idea|advisable|recommended|worth) to|"
    r"(?:my|our) (?:advice|recommendation|suggestion) is|why not|how about|"
    r"^(?:just )?a (?:quick |friendly |gentle )?reminder to)\b"
)
_CONDITIONAL = re.compile(r"^(?:if|when|once|before|after)\b[^,]{1,120},\s*([a-z'-]+)")
# "I wonder if ...", "I was wondering what ...": a question put as a statement
_WONDER = re.compile(
    r"^(?:(?:i|we) (?:wonder|was wondering|am wondering|were wondering)|"
    r"(?:i'm|we're) wondering)\b"
)
_BELIEF = re.compile(
    r"^(?:(?:i|we) (?:think|believe|feel|guess|suppose|reckon|bet)|in my (?:opinion|view)|"
    r"personally|imo|if you ask me)\b"
)
_TASTE = re.compile(
    r"\b(?:i|we) (?:really |truly |absolutely |also |just )?(?:love|like|prefer|enjoy|hate|"
    r"dislike|adore|admire|can't stand)\b|\b(?:i'?m|i am) (?:a (?:big |huge )?fan|not a fan)\b"
)
_EVALUATIVE = frozenset(
    _words("""great awesome amazing wonderful fantastic cool nice lovely interesting fun boring
    terrible awful beautiful good bad excellent brilliant fascinating exciting impressive
    incredible horrible delicious cute funny weird strange best worst favorite favourite
    perfect sad scary neat glad happy""")
)
_INTERJECTED = re.compile(r"^[a-z]+\s?[,!:]\s+")  # "interesting, ...", "great !  ..."
_LEAD_IN = re.compile(
    r"^(?:(?:based on|according to|per|from) (?:the|your|my|our) (?:sources?|context|"
    r"memories|memory|notes|records|documents?|data)\s*,\s*|(?:note|remember) that\s+|"
    r"(?:also|additionally|moreover|furthermore|so|well|in fact|actually|basically)\s*,\s*|"
    # a reminder presupposes what follows and asserts it: the rest is the claim
    r"(?:as you (?:may |might )?(?:know|recall|remember)|if you (?:recall|remember)|"
    r"as (?:mentioned|noted|discussed|stated)(?: (?:earlier|before|above))?)\s*,\s*)",
    re.IGNORECASE,
)
_WORDS = re.compile(r"[A-Za-z0-9][\w'’.-]*")
_DIGIT = re.compile(r"\d")
_QUOTE = re.compile(r"[\"“]([^\"“”\n]{3,400})[\"”]")
_NAMED = re.compile(r"`[^`]+`|\w\.[a-z]{1,5}\b|\w_\w|[a-z][A-Z]|\w/\w|https?://")


def _low(text: str) -> str:
    return _SPACE.sub(" ", text.replace("’", "'").strip().lower())


def _has_specific(text: str) -> bool:
    """A number, a capitalised word after the first, a file/field name, a quote, a URL."""
    if _DIGIT.search(text) or _NAMED.search(text) or _QUOTE.search(text):
        return True
    words = _WORDS.findall(text)
    return any(w[:1].isupper() and w.lower() not in ("i", "i'm", "i've") for w in words[1:])


def _without_relatives(text: str) -> str:
    """`text` without its relative clauses (`presupposed_relatives`)."""
    found = presupposed_relatives(text)
    return _without(text, [(c.start, c.end) for _, c in found]) if found else text


def classify(text: str) -> tuple[ClaimKind, str]:
    """The kind of one sentence (citation markers already removed) and why."""
    low = _low(text)
    bare = low.rstrip(" .!")
    if not bare or not any(c.isalnum() for c in bare):
        return ClaimKind.META, "no words"
    if low.endswith("?"):
        return ClaimKind.QUESTION, "a question asks; it asserts nothing"
    if _WONDER.match(low):
        return ClaimKind.QUESTION, "an indirect question: it asks"
    emotive = emotive_statement(text.strip())
    if emotive is not None:  # "I love that Dana is the CTO", "Sorry the launch slipped"
        stated = text.strip()[emotive.start : emotive.end]
        if _has_specific(stated) and classify(stated)[0] is ClaimKind.FACTUAL:
            return ClaimKind.FACTUAL, f"a statement framed by {emotive.frame!r}"
    if _GREETING.match(bare) or _INTERJECTION.match(bare):
        word = bare.split(",")[0].split("!")[0][:40]
        return ClaimKind.GREETING, f"a greeting or pleasantry ({word!r})"
    if _META.match(bare):
        return ClaimKind.META, "about the answer itself, or a refusal"
    words = bare.split()
    first = words[0].strip(",;:")
    if len(words) > 1 and first in _SOFTENERS:  # "please try ...", "then restart ..."
        first = words[1].strip(",;:")
    after = words[1] if len(words) > 1 else ""
    if first in _IMPERATIVE and after not in _NOT_AFTER_IMPERATIVE:
        return ClaimKind.ADVICE, f"advice: an instruction ({first!r})"
    conditional = _CONDITIONAL.match(bare)
    if conditional is not None and conditional.group(1) in _IMPERATIVE:
        return ClaimKind.ADVICE, f"advice: an instruction ({conditional.group(1)!r})"
    advice = _ADVICE.search(bare)
    if advice is not None:
        return ClaimKind.ADVICE, f"advice ({advice.group(0)!r})"
    specific = _has_specific(text)
    taste = _TASTE.search(bare)
    if taste is not None and not _DIGIT.search(_without_relatives(text)):
        # "I love Paris": taste, named or not; a number in a relative clause ("I love
        # Redis, which handles 1M ops per second") is that clause's, read on its own
        return ClaimKind.OPINION, f"an opinion: the speaker's taste ({taste.group(0)!r})"
    belief = _BELIEF.match(bare)
    if belief is not None and not specific:
        return ClaimKind.OPINION, f"an opinion ({belief.group(0)!r}) about nothing specific"
    if not specific and len(words) <= 8:
        # a judgement as an interjection before the statement ("Interesting, they also
        # have gills") judges nothing in it: the statement is read
        lead = _INTERJECTED.match(bare)
        said = words
        if lead is not None and bare[lead.end() :]:
            inner = classify(bare[lead.end() :])
            if inner[0] is not ClaimKind.FACTUAL:  # "Cool, thanks!", "Nice, I love it"
                return inner
            said = bare[lead.end() :].split()
        judged = [w.strip(",.!;:") for w in said if w.strip(",.!;:") in _EVALUATIVE]
        if judged:
            return ClaimKind.OPINION, f"an opinion: a judgement ({judged[0]!r})"
    return ClaimKind.FACTUAL, "a statement of fact"


# -- atomic claims ----------------------------------------------------------------------

# A cut that opens with whitespace starts where its run of whitespace starts ("(?<!\s)"):
# a match from inside the run is one from its start, and without the look-behind each
# space of a long run was tried in turn, each reading the run to its end (quadratic:
# seconds on an answer with one long run of spaces).
_CLAUSE_CUT = re.compile(
    r";\s+|,\s+(?=(?:and|but|while|whereas|although|though|yet|so)\s)|"
    r"(?<!\s)\s+(?=(?:but|whereas|although)\s)|"
    # a dash before a conjunction joins two clauses as ", and" does ("X — and Y")
    r"(?:(?<!\s)\s+-{1,2}\s+|(?<!\s)\s+[–—]\s*|[–—]\s*)(?=(?:and|but|while|whereas|although|though|yet|so)\s)|"
    r",\s+(?=(?:i|we|you|he|she|they|i'[a-z]{1,2}|we'[a-z]{1,2}|you'[a-z]{1,2})\s)",
    re.IGNORECASE,
)
_CONJUNCTION_HEAD = re.compile(r"^(?:and|but|while|whereas|although|though|yet|so)\s+", re.I)
_GREETING_HEAD = re.compile(
    r"^(?:hi|hello|hey|sure|of course|certainly|absolutely|great question|good question|"
    r"thanks|thank you|ok|okay|yes|yeah|no|well|oh|ah|wow|indeed|right)\b[^.!?,:;]{0,24}?"
    r"[,!:]\s+",
    re.IGNORECASE,
)
_QUANTITY = re.compile(r"(?<![\w.])[$€£]?\d[\d,.]*(?:\s?%|\s?percent\b)?(?![A-Za-z])")
_JOINING = frozenset(_words("and or to - – , / x by than"))
_UNIT_STOP = frozenset(
    _words("""is are was were be been has have had will would can could may might to of in on at
    by for with and or but than the a an this that these those it its""")
)


def _clauses(text: str, start: int, end: int) -> list[tuple[int, int]]:
    """Clause spans of the sentence text[start:end], each with at least three words."""
    cuts = [start]
    # the sentence alone, so the look-behind sees nothing before its start
    for m in _CLAUSE_CUT.finditer(text[start:end]):
        cuts.append(start + m.end())
    cuts.append(end)
    spans: list[tuple[int, int]] = []
    for a, b in itertools.pairwise(cuts):
        piece = _CONJUNCTION_HEAD.sub("", text[a:b].strip(" ,;"))
        if spans and len(_WORDS.findall(piece)) < 3:
            spans[-1] = (spans[-1][0], b)  # too short to stand alone: keep it with before
            continue
        spans.append((a, b))
    if len(spans) > 1 and len(_WORDS.findall(text[spans[0][0] : spans[0][1]])) < 3:
        spans[1] = (spans[0][0], spans[1][1])
        spans.pop(0)
    return spans


def _quantity_phrases(clause: str) -> list[tuple[int, int]]:
    """Spans of the separate quantity phrases of a clause: "of 3 engineers", "50%".

    Quantities joined only by punctuation, "and", "to", ... ("3.10, 3.11 and 3.12",
    "5 to 10 minutes") form one phrase; a phrase takes the word after it when that word
    is not a function word ("3 engineers") and a partitive "of" before it."""
    found = [
        (m.start(), m.end())
        for m in _QUANTITY.finditer(clause)
        if any(c.isdigit() for c in m.group(0))
    ]
    if len(found) < 2:
        return []
    groups: list[list[int]] = [[found[0][0], found[0][1]]]
    for a, b in found[1:]:
        between = clause[groups[-1][1] : a].strip().lower().split()
        if all(w.strip(",") in _JOINING or not w.strip(",") for w in between):
            groups[-1][1] = b
        else:
            groups.append([a, b])
    if len(groups) < 2:
        return []
    phrases: list[tuple[int, int]] = []
    for a, b in groups:
        after = re.match(r"\s+([A-Za-z][\w-]*)", clause[b:])
        if after is not None and after.group(1).lower() not in _UNIT_STOP:
            b += after.end()
        before = re.search(r"\bof\s+$", clause[:a])
        if before is not None:
            a = before.start()
        phrases.append((a, b))
    return phrases


def _clean(text: str) -> str:
    text = _BULLET.sub("", text)
    text = _CONJUNCTION_HEAD.sub("", text.strip())
    text = _LEAD_IN.sub("", text)
    return _SPACE.sub(" ", text).strip(" ,;:-–—")


def _without(text: str, cut: Sequence[tuple[int, int]]) -> str:
    out, pos = [], 0
    for a, b in sorted(cut):
        out.append(text[pos:a])
        pos = max(pos, b)
    out.append(text[pos:])
    return _SPACE.sub(" ", "".join(out)).replace(" ,", ",").replace(" .", ".").strip()


def _strip_markers(text: str, start: int, markers: Sequence[tuple[int, int]]) -> str:
    """text (which begins at `start` of the answer) without the markers inside it."""
    inner = [(a - start, b - start) for a, b in markers if a >= start and b <= start + len(text)]
    return _without(text, inner) if inner else text


def split_answer(
    text: str,
    markers: Sequence[tuple[int, int]] = (),
    *,
    max_chars: int = 20_000,
) -> list[Piece]:
    """Every sentence of the answer as excluded pieces and atomic factual claims (the
    scorer checks at most `faithfulness.max_claims` of them)."""
    text = text[:max_chars]
    pieces: list[Piece] = []
    for s_start, s_end in split_sentences(text, markers, max_chars):
        sentence = _strip_markers(text[s_start:s_end], s_start, markers)
        if _TABLE_RULE.match(text, s_end + 1) and sentence.startswith("|"):
            # a table's header row names the columns below its rule; it states nothing
            why = "a table's header row: it names columns"
            pieces.append(Piece(_clean(sentence), s_start, s_end, ClaimKind.META, why))
            continue
        body = _BULLET.sub("", sentence)
        head = _GREETING_HEAD.match(body)
        if head is not None and head.end() < len(body.rstrip(" .!")):
            body = body[head.end() :]  # "Sure, the API returns JSON": the rest is read
        kind, why = classify(body)
        offset = s_start + (len(sentence) - len(body) if head is not None else 0)
        c_from, c_to, frame = max(s_start, offset), s_end, ""
        if kind in _MAY_FRAME or kind in _MAY_LEAD:
            # "Did you know X?", "Note: X.", "Glad to help, X", "I'm not sure, but X":
            # X is what is read
            found = framed_statement(body) if kind in _MAY_FRAME else _after_lead(body)
            if found is not None and found.needs_specific:
                # a premise, a "why" or a hedged question is read only when it names a
                # specific: "Since you moved, have you settled in?" reports nothing
                found = found if _has_specific(body[found.start : found.end]) else None
            inner = _framed_span(text, body, found, c_from, s_end)
            if inner is not None:
                c_from, c_to, frame = inner
                if kind in _MAY_LEAD:  # the lead itself stays what it is, excluded
                    lead = _clean(text[max(s_start, offset) : c_from])
                    pieces.append(Piece(lead, s_start, s_end, kind, why, False, s_start, c_from))
                    frame = ""
                kind = ClaimKind.FACTUAL
        if kind in _WHOLE_SENTENCE:  # a question, a greeting, a remark about the answer
            pieces.append(Piece(_clean(sentence), s_start, s_end, kind, why, False, s_start, s_end))
            if kind is ClaimKind.GREETING:  # "Feel free to ping Dana, our CTO."
                pieces.extend(_apposition_claims(body, kind, s_start, s_end, s_start, s_end))
            read = [p.text for p in pieces if p.start == s_start and p.kind is ClaimKind.FACTUAL]
            pieces.extend(_description_claims(text, body, kind, s_start, s_end, read))
            continue
        for c_start, c_end in _clauses(text, c_from, c_to):
            clause = _clean(_strip_markers(text[c_start:c_end], c_start, markers))
            if not clause:
                continue
            kind, why = classify(clause)
            if kind is not ClaimKind.FACTUAL:  # "I love Paris, I've been there twice"
                pieces.append(Piece(clause, s_start, s_end, kind, why, False, c_start, c_end))
                pieces.extend(_reason_claims(text, clause, kind, s_start, s_end, c_start, c_end))
                pieces.extend(_apposition_claims(clause, kind, s_start, s_end, c_start, c_end))
                read = [
                    p.text for p in pieces if p.start == s_start and p.kind is ClaimKind.FACTUAL
                ]
                pieces.extend(_description_claims(text, clause, kind, s_start, s_end, read))
                continue
            emotive = emotive_statement(clause) if why.startswith("a statement framed") else None
            if emotive is not None:  # "I'm glad Inbox3 ships on Friday": the statement
                clause = clause[emotive.start :]
            atomic = _atomic(clause, s_start, s_end, c_start, c_end)
            said = f", framed by {emotive.frame!r}" if emotive is not None else ""
            for piece in atomic if said else ():
                piece.why += said
            for piece in atomic if frame else ():
                piece.why += f", framed by {frame!r}"
                if c_end == c_to:  # the frame's markers ("..., right? [2]") cite it too
                    piece.clause_end = s_end
            pieces.extend(atomic)
    return pieces


# "Dana, the CTO, ...": a name, then a noun phrase between commas that renames it
_APPOSITION = re.compile(
    r"(?<![\w'])([A-Z][\w'-]+(?: [A-Z][\w'-]+)?), ((?:the|our|your|their|its|his|her|a|an) "
    r"[^,;:.!?]{2,60}?)(?:,|[.!]*\s*$)"
)


def _apposition_claims(
    clause: str, kind: ClaimKind, s_start: int, s_end: int, c_start: int, c_end: int
) -> list[Piece]:
    """What an apposition in advice or an opinion states about a name ("Ask Dana, the
    CTO, about it" states "Dana is the CTO"), checked like any other claim."""
    if kind not in (ClaimKind.ADVICE, ClaimKind.OPINION, ClaimKind.GREETING):
        return []
    out: list[Piece] = []
    for m in _APPOSITION.finditer(clause):
        name = m.group(1).split()
        if len(name) > 1 and name[0].lower() in _IMPERATIVE | _SOFTENERS:
            name = name[1:]  # "Ask Dana, the CTO, ...": the order is not the name
        said = f"{' '.join(name)} is {m.group(2).strip()}"
        if classify(said)[0] is not ClaimKind.FACTUAL:
            continue
        for piece in _atomic(said, s_start, s_end, c_start, c_end):
            piece.why += f", an apposition in {kind.value}"
            out.append(piece)
    return out


# Excluded kinds whose definite descriptions are read: a wish, a request to be told, a
# question, advice or a taste take "the Monday launch" as given as a statement does. (A
# remark about the answer, "I couldn't find the Q3 report", is about the search.)
_PRESUPPOSING = frozenset(
    {ClaimKind.GREETING, ClaimKind.QUESTION, ClaimKind.ADVICE, ClaimKind.OPINION}
)
_IN = {
    ClaimKind.GREETING: "a pleasantry",
    ClaimKind.QUESTION: "a question",
    ClaimKind.ADVICE: "advice",
    ClaimKind.OPINION: "an opinion",
}


def _description_claims(
    text: str, said: str, kind: ClaimKind, s_start: int, s_end: int, read: Sequence[str] = ()
) -> list[Piece]:
    """What the definite descriptions of an excluded piece presuppose ("Hope the Monday
    launch goes well!" takes a launch on Monday as given): each description that names a
    specific is a claim of its own, checked as any other; the piece stays excluded. One
    inside a claim already `read` from the sentence (the reason advice gives, an
    apposition) is checked there."""
    if kind not in _PRESUPPOSING:
        return []
    out: list[Piece] = []
    for found in presupposed_descriptions(said):
        described = said[found.start : found.end]
        if kind is ClaimKind.QUESTION and described.lower().startswith("your "):
            continue  # "Who is your favourite player?": it asks the user about their own
        if any(described.lower() in r.lower() for r in read):
            continue
        a = text.find(described, s_start, s_end)
        a, b = (a, a + len(described)) if a >= 0 else (s_start, s_end)
        for piece in _atomic(described, s_start, s_end, a, b):
            piece.why += f", presupposed by a definite description in {_IN[kind]}"
            out.append(piece)
    out.extend(_relative_claims(text, said, kind, s_start, s_end, read))
    out.extend(_aside_claims(text, said, kind, s_start, s_end))
    return out


def _aside_claims(text: str, said: str, kind: ClaimKind, s_start: int, s_end: int) -> list[Piece]:
    """What an aside in parentheses states in an excluded piece ("Try the API (it allows
    500 requests per minute)", "Hope the launch (now on Monday) goes well": "the launch is
    now on Monday"): a clause is read as it stands; a phrase after a noun phrase says what
    that is. Read only when it names a specific ("(if you can)", "(see above)" do not)."""
    out: list[Piece] = []
    for phrase, inner in parenthesised(said):
        content = said[inner.start : inner.end].strip()
        if not _has_specific(content):
            continue
        if phrase is None:
            stated = content
        else:
            head = said[phrase.start : phrase.end]
            stated = f"{head} is {content}"
        if classify(stated)[0] is not ClaimKind.FACTUAL:
            continue
        a = text.find(content, s_start, s_end)
        a, b = (a, a + len(content)) if a >= 0 else (s_start, s_end)
        for piece in _atomic(stated, s_start, s_end, a, b):
            piece.why += f", an aside in parentheses in {_IN[kind]}"
            out.append(piece)
    return out


def _relative_claims(
    text: str, said: str, kind: ClaimKind, s_start: int, s_end: int, read: Sequence[str]
) -> list[Piece]:
    """What the relative clauses of an excluded piece state about their noun phrases ("I
    really like Dana, who became CFO last year": "Dana became CFO last year"; "Hope the
    launch that moved to Monday works for everyone": "the launch moved to Monday"), each
    checked as any claim when it names a specific. In a question only a name's clause
    is read: "Who is the person that runs Acme?" asks who does."""
    out: list[Piece] = []
    for phrase, clause in presupposed_relatives(said):
        head = said[phrase.start : phrase.end]
        if kind is ClaimKind.QUESTION and not head[:1].isupper():
            continue
        stated = f"{head} {said[clause.start : clause.end].strip()}"
        named = _has_specific(stated) or head[:1].isupper()  # "Priya leads the team"
        if not named or classify(stated)[0] is not ClaimKind.FACTUAL:
            continue
        if any(stated.lower() in r.lower() for r in read):
            continue
        a = text.find(head, s_start, s_end)
        b = text.find(said[clause.start : clause.end], max(a, s_start), s_end)
        a, b = (a, b + clause.end - clause.start) if a >= 0 and b >= 0 else (s_start, s_end)
        for piece in _atomic(stated, s_start, s_end, a, b):
            piece.why += f", a relative clause ({clause.frame!r}) in {_IN[kind]}"
            out.append(piece)
    return out


def _reason_claims(
    text: str, clause: str, kind: ClaimKind, s_start: int, s_end: int, c_start: int, c_end: int
) -> list[Piece]:
    """The claims of the reason advice or an opinion gives ("..., since the US region
    was deprecated in March"): a statement of its own, checked like any other."""
    if kind not in (ClaimKind.ADVICE, ClaimKind.OPINION):
        return []
    reason = reason_given(clause)
    if reason is None:
        return []
    inner = clause[reason.start : reason.end]
    if classify(inner)[0] is not ClaimKind.FACTUAL:
        return []
    if (kind is ClaimKind.OPINION or reason.needs_specific) and not _has_specific(inner):
        # "I love Redis because it is fast": a taste and its grounds; "When it breaks,
        # call me": a time that names nothing
        return []
    a = text.find(inner[:16], c_start, c_end)
    a = a if a >= 0 else c_start
    atomic = _atomic(inner, s_start, s_end, a, min(c_end, a + len(inner)))
    for piece in atomic:
        piece.why += f", the reason given ({reason.frame!r}) for {kind.value}"
    return atomic


# Kinds a frame may hide a statement in ("Did you know ...?", "Note: ...").
_MAY_FRAME = frozenset({ClaimKind.QUESTION, ClaimKind.ADVICE})
# ... and kinds that may only lead a statement ("Glad to help, ...", "I'm not sure, but")
_MAY_LEAD = frozenset({ClaimKind.GREETING, ClaimKind.META})
_AFTER_LEAD = re.compile(r"\s*(?:[,:;!]|\s[-–—]\s|[–—])\s*(?:(?:but|though|however|still)\b,?\s*)?")


_THANKS_FOR = re.compile(r"(?:thanks|thank you)(?: so much| very much)? for\s+")
# "Congrats to Dana on becoming CTO": one congratulates on what happened
_CONGRATS_ON = re.compile(
    r"(?:congratulations|congrats|kudos)(?: to ((?:the )?[a-z][\w'-]*(?: [a-z][\w'-]*)?))? on\s+"
)
_CLAUSE_END = re.compile(r"\s*(?:[,;:!?]|\.(?:\s|$)|\s[-–—]\s)")
_AMOUNT = re.compile(r"(?<!\w)[$€£]?\d")  # a number of its own, not a name's ("Inbox3")


def _after_lead(body: str) -> Framed | None:
    """The statement after a pleasantry or a remark about the answer that leads its
    sentence ("Hope this helps: the budget is $5M", "I don't have the exact figure, but
    it is around $5M"), up to 60 characters past the lead's own words."""
    low = body.lower().replace("’", "'")
    lead = _GREETING.match(low) or _META.match(low.rstrip(" .!"))
    if lead is None:
        return None
    congrats = _CONGRATS_ON.match(low)
    if congrats is not None:
        # what one congratulates on is presupposed, with whom: "Dana on becoming CTO";
        # read only when it names a specific ("Congrats on the new role!" names nothing)
        a = congrats.start(1) if congrats.group(1) else congrats.end()
        stop = _CLAUSE_END.search(body, congrats.end())
        b = stop.start() if stop is not None else len(body.rstrip(" .!"))
        frame = body[:a].strip()
        return Framed(a, b, frame, needs_specific=True) if b > a else None
    cut = _AFTER_LEAD.search(low, lead.end(), lead.end() + 60)
    thanks = _THANKS_FOR.match(low)
    if cut is None and thanks is not None and _AMOUNT.search(body, thanks.end()):
        # "Thanks for approving the $5M budget": what one thanks for is presupposed
        rest = body[thanks.end() :].rstrip(" .!")
        return Framed(thanks.end(), thanks.end() + len(rest), body[: thanks.end()].strip())
    if cut is None:
        return None
    rest = body[cut.end() :].rstrip()
    if len(_WORDS.findall(rest)) < 3 or not reads_as_statement(rest):
        return None  # "I hope it has fans, with 18 to 49 year olds ...": the wish goes on
    return Framed(cut.end(), cut.end() + len(rest), body[: lead.end()].strip())


def _framed_span(
    text: str, body: str, framed: Framed | None, start: int, end: int
) -> tuple[int, int, str] | None:
    """Where, in `text`, the statement `framed` in the sentence `body` (which stands at
    text[start:end], citation markers aside) lies, when it is a factual claim: the
    frame's statement is classified as any sentence is."""
    if framed is None:
        return None
    inner = body[framed.start : framed.end]
    if classify(inner)[0] is not ClaimKind.FACTUAL:
        return None
    # markers only add characters, so the statement starts at or after its body offset
    a = text.find(inner[:16], start + framed.start, end)
    if a < 0:
        return None
    tail = body[framed.end :].strip()
    b = text.rfind(tail, a, end) if tail else end
    return (a, b if b > a else end, framed.frame)


# Kinds that describe a whole sentence; advice and opinions are judged per clause ("I
# love Paris, I've been there twice": an opinion, then a checkable claim).
_WHOLE_SENTENCE = frozenset({ClaimKind.QUESTION, ClaimKind.GREETING, ClaimKind.META})


def _atomic(clause: str, s_start: int, s_end: int, c_start: int, c_end: int) -> list[Piece]:
    """One claim per separate quantity of the clause (or the clause itself)."""
    quotes = [q.strip() for q in _QUOTE.findall(clause)]
    phrases = _quantity_phrases(clause)
    variants = (
        [_without(clause, [p for p in phrases if p != keep]) for keep in phrases]
        if phrases
        else [clause]
    )
    why = "a statement of fact" + (
        f" (one of {len(variants)} quantities in its clause)" if phrases else ""
    )
    return [
        Piece(
            variant.rstrip(" ,;"),
            s_start,
            s_end,
            ClaimKind.FACTUAL,
            why,
            _has_specific(variant),
            c_start,
            c_end,
            quotes,
        )
        for variant in variants
    ]
