"""Statements an answer makes inside a frame (docs/spec.md §Read-time faithfulness,
"Atomic claims": framed statements).

A sentence can be a question or an instruction in form and still state a fact: "Did you
know the refund window is 90 days?", "Isn't it great that Inbox3 ships on Friday?",
"Note: the budget is $5M.", "Don't forget the API key expires on Monday.", "Inbox3 ships
on Friday, right?". A reader takes each as the fact it frames, so an answer must not be
able to carry an unsupported fact past the scorer by framing it so. The frames are closed
classes of English, not phrases taken from any data:

* a question with a factive verb or adjective ("did you know", "are you aware", "have
  you heard", "isn't it ... that"): the verb presupposes its complement is true;
* an instruction to know or keep in mind ("note", "remember", "keep in mind", "be aware",
  "don't forget", "you should know"): the speaker asserts what is to be known;
* a label before a colon ("Note:", "Reminder:", "Fun fact:"): a heading, not an order;
* a tag question after a statement (", right?", ", isn't it?", ", correct?"): it asks to
  confirm what the statement before it asserts.
* a premise before a question ("Given that the budget is $5M, what should we cut?"):
  the question rests on it (split.py reads it only when it names a specific);
* a "why", "when", "where", "how (long)" or "in what year" question about a third party
  ("Why did Inbox3 slip to Friday?", "When did Dana become CTO?"): it presupposes what
  it asks the reason, time, place or manner of (read only when it names a specific);
* a hedged suggestion ("Could it be that X?", "Is it possible that X?", "Maybe X?", "I
  wonder if X"): it puts X forward as a belief frame does ("I think X"), and is read as
  one is, when X names a specific and is not about the user;
* a statement asked ("So the Q3 budget is $8M?": no auxiliary or question word in front,
  a clause): it asks to confirm what it states, as a tag question does (read only when
  it names a specific and its subject is not the user or the speaker);
* a negative yes/no question about a third party ("Doesn't Inbox3 ship on Friday?"):
  it leans on the positive statement (read only when it names a specific);
* an emotive factive ("I love that ...", "I'm glad ...", "Sorry the ...",
  `emotive_statement`): it presupposes its complement.

Whatever a sentence does, a definite description in it that names a specific ("the
Monday launch", "the $8M budget", "your trip to Rome") takes the thing as given
(`presupposed_descriptions`): a wish, a request to be told or a question does not assert
its clause, but it does presuppose its descriptions.

Advice and opinions are not checked, but the reason they give is a statement of its
own: "Use the EU region, since the US region was deprecated in March", "I recommend
Redis because it handles 1M ops per second" (`reason_given`: after "because", "given
that", "now that", "seeing that", or "since" when a clause follows).

The complement counts only when it reads as a clause: after "that", or with a finite
auxiliary, copula or modal, or a verb in -ed after a word that is not a determiner
("did you know the answer?" frames no statement; "do you know where the logs are?" asks
where). Whether the complement is then a factual claim is decided by the same
classification as any other sentence.
"""

from __future__ import annotations

import itertools
import re
from typing import NamedTuple

from groundwire.guards.grounding.lexical.text import word_set

__all__ = [
    "Framed",
    "emotive_statement",
    "framed_statement",
    "parenthesised",
    "presupposed_descriptions",
    "presupposed_relatives",
    "reads_as_statement",
    "reason_given",
]


class Framed(NamedTuple):
    """The statement's span inside the sentence (its offsets) and the frame's words;
    `needs_specific`: the frame does not assert its statement by itself (a premise, a
    presupposing or hedged question), so the statement is read only when it names a
    specific ("Since you moved, have you settled in?" reports nothing)."""

    start: int
    end: int
    frame: str
    needs_specific: bool = False


_FACTIVE_VERB = (
    r"(?:know|knew|realize|realise|realized|realised|remember|recall|notice|noticed|hear|"
    r"heard|see|saw)"
)
_QUESTION_FRAME = re.compile(
    r"^(?:(?:did|didn't|do|don't|did you not|do you not)\s+you\s+" + _FACTIVE_VERB + r"|"
    r"(?:are|were|aren't|weren't)\s+you\s+aware(?:\s+of\s+the\s+fact)?|"
    r"(?:have|haven't|had|hadn't)\s+you\s+(?:heard|noticed|realized|realised|seen)|"
    r"(?:isn't|wasn't|is\s+it\s+not|was\s+it\s+not)\s+it\s+(?:[a-z-]+\s+){0,3}?that|"
    r"(?:wouldn't|don't)\s+you\s+agree)"
    r"(?:\s+that)?\s+",
    re.IGNORECASE,
)
_INSTRUCTION_FRAME = re.compile(
    r"^(?:(?:please|just|also|and|but)\s+)?"
    r"(?:(?:you|we)\s+(?:should|need\s+to|must|have\s+to|ought\s+to|might\s+want\s+to|"
    r"may\s+want\s+to)\s+)?"
    r"(?:note|remember|recall|notice|realize|realise|know|understand|keep\s+in\s+mind|"
    r"bear\s+in\s+mind|be\s+aware(?:\s+of\s+the\s+fact)?|be\s+advised|don't\s+forget|"
    r"do\s+not\s+forget|never\s+forget|mind)"
    r"(?:\s*[:,])?(?:\s+that)?\s+",
    re.IGNORECASE,
)
# "Note: ...", "Fun fact: ...", "Heads-up: ...": up to three words and a colon
_LABEL = re.compile(r"^[A-Za-z][\w'-]*(?:\s+[A-Za-z][\w'-]*){0,2}\s*:\s+")
_TAG = re.compile(
    r",\s*(?:(?:is|are|was|were|do|does|did|has|have|had|can|could|will|would|should|wo|ca)"
    r"n't\s+(?:it|they|he|she|we|you|i|there|that|this)|right|correct|yes|no|ok|okay|true|"
    r"eh|huh|no\s+doubt)\s*\?\W*$",
    re.IGNORECASE,
)
# a premise before the question it grounds: "Given that X, ...?", "Since X, ...?"
_PREMISE = re.compile(
    r"^(given\s+that|now\s+that|seeing\s+that|since|because)\s+([^,?]{8,200}),\s+\S",
    re.IGNORECASE,
)
# a question about the reason, time, place or manner of something ("why", "when",
# "where", "how", "how long", "in what year") with an auxiliary, before a subject that
# is not the user or the speaker: it asks about what it takes as given ("When did Dana
# become CTO?" takes it that she did). Not "would": "How would Dana handle it?" supposes.
_WHY = re.compile(
    r"^(?:why|when|where|how|how\s+long|how\s+often|since\s+when|(?:in|on|at|by)\s+what\s+"
    r"(?:year|day|date|time|month)|what\s+(?:year|day|date|time))\s+"
    r"(?:did|does|do|is|are|was|were|has|have|had|will)\s+(?!(?:you|i|we|your|my|our)\b)",
    re.IGNORECASE,
)
# a hedged suggestion: "Could it be that X?", "Is it possible that X?", "Maybe X?" puts X
# forward as what is so, as "I think X" does; it is read as a belief frame is (split.py:
# when X names a specific)
_SUGGESTION = re.compile(
    r"^(?:(?:and|so|but|then|hmm+)\s*,?\s+)?"
    r"(?:(?:could|might|may|would|can|couldn't)\s+it\s+(?:not\s+)?(?:be|have\s+been)\s+"
    r"(?:the\s+case\s+|possible\s+|true\s+)?that|"
    r"(?:is|isn't|was)\s+it\s+(?:possible|likely|plausible|conceivable)\s+that|"
    r"(?:maybe|perhaps|possibly|probably)\s*,?)\s+",
    re.IGNORECASE,
)
# "I wonder if X": a question put as a statement, and a suggestion of X
_WONDER = re.compile(
    r"^(?:(?:i|we)\s+(?:wonder|was\s+wondering|am\s+wondering|'m\s+wondering|were\s+"
    r"wondering|'re\s+wondering)|i'm\s+wondering|we're\s+wondering)\s+(?:if|whether)\s+",
    re.IGNORECASE,
)
# a statement asked ("So the Q3 budget is $8M?"): a question with no auxiliary or
# question word in front, whose words read as a clause, asks to confirm what it states
_ASKED_LEAD = re.compile(
    r"^(?:(?:and|so|but|then|oh|wait|ok|okay|yes|yeah|no|nope|well|hmm+|true|right)"
    r"\s*[,.!]?\s+)*",
    re.IGNORECASE,
)
# a negative yes/no question leans on its positive: "Doesn't Inbox3 ship on Friday?"
_NEGATIVE = re.compile(
    r"^(?:isn't|aren't|wasn't|weren't|doesn't|don't|didn't|hasn't|haven't|hadn't|won't)\s+"
    r"(?!(?:you|i|we|it|that|this|there)\b)",
    re.IGNORECASE,
)
# (a frame that ends in "that": `_ends_in_that`, read without a pattern searched with a
# leading "\s+", which retried a long run of spaces from each of its spaces: quadratic)


_FINITE = word_set(
    """is are was were am be been has have had will would can could may might must shall
    should does did do isn't aren't wasn't weren't hasn't haven't hadn't won't wouldn't
    can't couldn't doesn't didn't don't 's 're 've 'll"""
)
_DETERMINERS = word_set(
    "the a an this that these those my your our their his her its of some any no"
)
# "it's", "there's": the 's of a pronoun is "is"; after a name it may be a possessive
_PRONOUN_IS = word_set("it's that's there's here's he's she's")
_SUBJECTS = word_set("i we you he she it they there")
# the speaker or the user as the subject: a statement about them is not the context's
_PERSONAL = word_set("i we you i'm we're you're i've we've you've i'd you'd we'd")
# irregular past forms, a closed class: "Dana became CTO" reads as a clause as "Dana
# joined Acme" does (forms that are also common nouns or adjectives, "set", "left",
# "cut", "lost", are left out)
_PAST = word_set(
    """became began came went made took got gave grew rose fell won told said met paid
    sent spent built bought sold held ran wrote broke chose drove flew knew saw thought
    brought caught taught kept felt led shut quit"""
)
_OPEN = word_set("who what where when why how which whether if about to of")
_WH = word_set("who what where when why how which whether if")
_WORD = re.compile(r"[A-Za-z][\w'’-]*")


def _is_clause(text: str, after_that: bool) -> bool:
    """Whether `text` reads as a clause (a statement), not a noun phrase or a wh-question."""
    words = [w.lower().replace("’", "'") for w in _WORD.findall(text)]
    if len(words) < 3 or words[0] in _OPEN or words[0] in _FINITE:
        return False  # "where the logs are", "is the budget $5M": asked, not stated
    if after_that or words[0] in _SUBJECTS:  # "since it handles ...": a pronoun's verb
        return True
    for prev, word in itertools.pairwise(words):
        if word in _FINITE or word.endswith(("'re", "'ve", "'ll")):
            return True
        if word.endswith("ed") and len(word) > 4 and prev not in _DETERMINERS:
            return True
        if word in _PAST and prev not in _DETERMINERS:
            return True
    return any(w in _PRONOUN_IS for w in words)


def reads_as_statement(text: str) -> bool:
    """Whether `text`, standing after a lead such as "Glad to help," or a wish, begins a
    statement of its own: three words or more, not opening with a preposition or a
    question word ("with 18 to 49 year olds watching" continues the lead) or an auxiliary
    ("is it ...": a question)."""
    words = _WORD.findall(text)
    if words and words[0].lower() in _PREPOSITIONS:
        return False
    return _is_clause(text, after_that=True)


def _ends_in_that(frame: str) -> bool:
    """Whether `frame` ends in whitespace, "that" (any case) and whitespace ("Note that ")."""
    word = frame.rstrip()
    return (
        len(word) < len(frame)
        and len(word) > 4
        and word[-5].isspace()
        and (word[-4:].lower() == "that")
    )


def framed_statement(sentence: str) -> Framed | None:
    """The statement a question or instruction frames (`Framed`), or None."""
    body = sentence.rstrip()
    if body.endswith("?"):
        tag = _TAG.search(body)
        if tag is not None and _is_clause(body[: tag.start()], after_that=True):
            return Framed(0, tag.start(), tag.group(0).strip(" ,?"))
        premise = _PREMISE.match(body)
        if premise is not None and _is_clause(premise.group(2), after_that=True):
            # "Given that the budget is $5M, what should we cut?": the premise is stated
            frame = premise.group(1).lower()
            return Framed(premise.start(2), premise.end(2), frame, needs_specific=True)
        why = _WHY.match(body) or _NEGATIVE.match(body)
        if why is not None:
            # "Why did Inbox3 slip to Friday?", "When did Dana become CTO?" presuppose it
            frame = " ".join(why.group(0).split()).lower()
            return Framed(why.end(), len(body.rstrip("?!. ")), frame, needs_specific=True)
        end = len(body.rstrip("?!. "))
        suggested = _suggested(body, end)
        if suggested is not None:
            return suggested
        frames: tuple[re.Match[str] | None, ...] = (_QUESTION_FRAME.match(body),)
    else:
        end = len(body.rstrip(" .!"))
        wonder = _WONDER.match(body.replace("’", "'"))
        if wonder is not None and _is_clause(body[wonder.end() : end], after_that=True):
            frame = " ".join(wonder.group(0).split()).lower()
            return Framed(wonder.end(), end, frame, needs_specific=True)
        frames = (_INSTRUCTION_FRAME.match(body), _LABEL.match(body))
        end = len(body)
    for frame in frames:
        if frame is None:
            continue
        # after "that" or a label's colon a sentence follows, whatever its verb
        after_that = frame.re is _LABEL or _ends_in_that(frame.group(0))
        if _is_clause(body[frame.end() : end], after_that):
            return Framed(frame.end(), end, " ".join(frame.group(0).split()).rstrip(" :,"))
    return None


def _after_commas(text: str) -> list[int]:
    """The indices, among the words of `text`, of the words that follow a comma."""
    out: list[int] = []
    for m in re.finditer(r",", text):
        out.append(len(_WORD.findall(text[: m.start()])))
    n = len(_WORD.findall(text))
    return [i for i in out if i < n]


def _suggested(body: str, end: int) -> Framed | None:
    """The statement a hedged question puts forward ("Could it be that X?", "Maybe X?"),
    or the one a question without an auxiliary or a question word in front asks to
    confirm ("So the budget is $8M?"); read only when it names a specific."""
    hedge = _SUGGESTION.match(body)
    if hedge is not None:
        # after "that" or an adverb of doubt a statement follows ("Perhaps the API allows
        # 500 requests?"), whatever its verb
        after_that = True
        said = _WORD.findall(body[hedge.end() : end])
        if said and said[0].lower().replace("’", "'") in _PERSONAL:
            return None  # "Could it be that you need a new key?": about the user
        if _is_clause(body[hedge.end() : end], after_that):
            frame = " ".join(hedge.group(0).split()).lower().rstrip(" ,")
            return Framed(hedge.end(), end, frame, needs_specific=True)
        return None
    lead = _ASKED_LEAD.match(body)
    start = lead.end() if lead is not None else 0
    words = [w.lower().replace("’", "'") for w in _WORD.findall(body[start:end])]
    if not words or words[0] in _PERSONAL or words[0] in _OPEN:
        return None  # "You moved to Paris?" asks the user; "what ...?" asks
    if any(w in _WH for w in words[:4]):
        return None  # "Any idea when the launch is?": a question word asks all the same
    if any(words[i] in _FINITE for i in _after_commas(body[start:end])):
        return None  # "Because of Dana, did Inbox3 slip?": asked after a fronted phrase
    if _is_clause(body[start:end], after_that=False):
        return Framed(start, end, "a statement asked", needs_specific=True)
    return None


# "I love that ...", "I'm glad ...", "Sorry the ...", "It's great that ...": an emotive
# factive presupposes its complement, so the complement is stated
_EMOTIVE = re.compile(
    r"^(?:(?:i|we)\s+(?:really\s+|truly\s+|just\s+|also\s+)?(?:love|like|hate|enjoy|"
    r"appreciate)\s+that|(?:i'm|i\s+am|we're|we\s+are)\s+(?:so\s+|really\s+|very\s+)?"
    r"(?:glad|happy|sorry|sad|pleased|thrilled|excited|relieved|surprised)(?:\s+that)?|"
    r"(?:sorry|glad|happy)(?:\s+that)?|it's\s+(?:so\s+|really\s+)?(?:great|good|nice|sad|"
    r"cool|awesome|wonderful|a\s+shame|a\s+pity)\s+that)\s+",
    re.IGNORECASE,
)


def emotive_statement(sentence: str) -> Framed | None:
    """The statement an emotive factive frames ("I love that Dana is the CTO", "Sorry the
    launch slipped to Friday"), when what follows reads as a clause; or None."""
    body = sentence.replace("’", "'")
    frame = _EMOTIVE.match(body)
    if frame is None or not _is_clause(body[frame.end() :], after_that=True):
        return None
    return Framed(frame.end(), len(body), " ".join(frame.group(0).split()))


_MAYBE = re.compile(r"\b(?:might|may|could|would|probably|perhaps|maybe)\b", re.I)
_REASON = re.compile(r"\b(because|given that|now that|seeing that|since)\s+(?!of\b)", re.I)


# a clause of time before advice takes its event as given: "After Dana became CFO in
# 2023, ask her about it", "Once the $8M budget is approved, tell Dana" ("if", "unless"
# and "before" do not: what they name may never happen)
_WHEN = re.compile(
    r"^(when|whenever|once|after|as soon as|ever since|now that)\s+([^,;]{8,200}),\s+\S",
    re.IGNORECASE,
)


def reason_given(clause: str) -> Framed | None:
    """The statement given as the reason for advice or an opinion, or None. After
    "since" only a clause with a verb counts ("since last year" is a time); a reason
    hedged with a modal ("because you might like it") is a guess, not read. A clause of
    time that opens the advice ("When Dana became CFO, ...", session 12) is read the same
    way, when it names a specific (`needs_specific`)."""
    when = _WHEN.match(clause)
    if (
        when is not None
        and not _MAYBE.search(when.group(2))
        and _is_clause(when.group(2), after_that=True)
    ):
        frame = " ".join(when.group(1).lower().split())
        return Framed(when.start(2), when.end(2), frame, needs_specific=True)
    for m in _REASON.finditer(clause):
        rest = clause[m.end() :].rstrip(" .!")
        if _MAYBE.search(rest):  # "because you might like it": a guess, not a fact
            continue
        if _is_clause(rest, after_that=m.group(1).lower() != "since"):
            return Framed(m.end(), m.end() + len(rest), m.group(1).lower())
    return None


# -- definite descriptions ---------------------------------------------------------------

_TOKEN = re.compile(r"[$€£]?[A-Za-z0-9][\w'’%&-]*(?:[.,]\d[\w%]*)*|[^\w\s]")
_DEFINITE = word_set("the your our their his her its this these those")
_PREPOSITIONS = word_set("on in at of for from to with by")
# words that end a noun phrase rather than head it: a verb of being or having, a modal,
# a conjunction, a pronoun, a determiner, a preposition, a question word
_NOT_HEAD = (
    _FINITE
    | _DETERMINERS
    | _PREPOSITIONS
    | _OPEN
    | _SUBJECTS
    | word_set("and or but nor so than as if that which who me him them us")
    | word_set("now then here there today tomorrow too also again already still yet soon")
)


def _specific_token(token: str) -> bool:
    """A token that names something: it holds a digit, is an amount, or is capitalised
    (not the pronoun "I")."""
    return (
        any(c.isdigit() for c in token)
        or token[:1] in "$€£"
        or (token[:1].isupper() and token.lower() not in ("i", "i'm", "i've", "i'd", "i'll"))
    )


def _plain(token: str) -> bool:
    """A lower-case word that is not a function word: a modifier or a head noun."""
    return token[:1].isalpha() and token.islower() and token.lower() not in _NOT_HEAD


def presupposed_descriptions(text: str) -> list[Framed]:
    """The definite descriptions of `text` that name a specific ("the Monday launch",
    "the $8M budget", "your trip to Rome", "the launch on Friday", "Dana's move to
    CFO"): whatever the
    sentence around one does (a wish, a request to be told, a question), it takes the
    thing it describes as given, so the description states that it exists as described.

    A description is a possessive (a pronoun, or a name with "'s" inside the sentence:
    "Dana's move to CFO" takes the move as given as "her move to CFO" does) or "the" /
    "this" / "these" / "those" (not "that",
    which also joins clauses), up to two plain words, then a run of specific tokens and at
    most one plain head word ("the new Q3 budget"), or a plain head and a preposition
    before a run of specific tokens ("the launch on Friday", "the budget of $8M"); a
    prepositional phrase with a specific may follow the first form too ("your June trip
    to Madrid"). A description that is only a name ("the NFL", "the Beatles") presupposes
    no more than that the name refers, which no question or wish is checked for ("Do you
    like Paris?"), so a plain word must say what the thing is."""
    tokens = [(m.group(0), m.start(), m.end()) for m in _TOKEN.finditer(text)]
    out: list[Framed] = []
    i = 0
    while i < len(tokens):
        word, start, _ = tokens[i]
        if word.lower() not in _DEFINITE and not _possessive_name(word, i):
            i += 1
            continue
        j, end, named = i + 1, 0, False
        while j < len(tokens) and j - i <= 2 and _plain(tokens[j][0]):
            j += 1  # "the new ...", "the launch ..."
        described = j > i + 1  # a plain word says what the thing is, beyond its name
        k = j
        while k < len(tokens) and _specific_token(tokens[k][0]):
            k += 1
        if k > j:  # "the (new) Q3", then a head: "the new Q3 budget"
            named, end = True, tokens[k - 1][2]
            if k < len(tokens) and _plain(tokens[k][0]):
                end, k, described = tokens[k][2], k + 1, True
            elif described and not tokens[j][0][:1].isalpha():
                # "Is the budget $5M?": an amount after a noun is what is asked of it,
                # where a name after one is a name ("the movie Shape of Water")
                named = False
        elif j == i + 1:
            i += 1  # "the" before nothing plain or specific: "the $" or "the is"
            continue
        else:
            end = tokens[j - 1][2]
        # "... on Friday", "... to Madrid", "... of the Q3 plan"
        p = k if named else j
        if p < len(tokens) and tokens[p][0].lower() in _PREPOSITIONS:
            q = p + 1
            if q < len(tokens) and tokens[q][0].lower() in _DEFINITE:
                q += 1
            r = q
            while r < len(tokens) and _specific_token(tokens[r][0]):
                r += 1
            if r > q:
                named, end = True, tokens[r - 1][2]
                if q > p + 1 and r < len(tokens) and _plain(tokens[r][0]):
                    # "... in the Q3 plan" (a noun phrase of its own); "on Friday start"
                    # goes on with a verb
                    end, r = tokens[r][2], r + 1
                p = r
        if named and described:
            out.append(Framed(start, end, "a definite description"))
        i = max(i + 1, p if named else i + 1)
    return out


def _possessive_name(token: str, index: int) -> bool:
    """A name with "'s" inside a sentence ("Dana's", "Acme's"): a possessive that makes a
    definite description as "her" does. Not the first word, where any word has a capital
    and "It's", "That's" are "it is"."""
    low = token.lower().replace("\u2019", "'")
    return index > 0 and token[:1].isupper() and low.endswith("'s") and len(low) > 3


# -- relative clauses --------------------------------------------------------------------

# "X, which ...", "X who ...", "X that moved ...", "X being moved ...": the clause that
# describes X, after a noun phrase
_RELATIVE = re.compile(r"(,\s*)?\b(which|who|that|being)\s+", re.IGNORECASE)
# What ends a non-restrictive relative clause; the whitespace before it is left out by
# hand (`_relative_end`), not by a leading "\s*": searched, that pattern retried the
# whole run of spaces from each of its spaces (quadratic: seconds on one long run).
_RELATIVE_END = re.compile(r"[,;:!?()]|\.(?:\s|$)|\s[-\u2013\u2014]\s|[\u2013\u2014]")
# words that cannot end the noun phrase a relative clause describes: a verb of saying or
# thinking takes "that" as a conjunction ("I hope that ...", "glad that ..."), and so does
# an adjective of feeling or a function word
_NOT_ANTECEDENT = _NOT_HEAD | word_set(
    """hope hoped hoping wish think thought believe know knew say said glad happy sorry
    sure certain great good nice true so such way fact news"""
)


def presupposed_relatives(text: str) -> list[tuple[Framed, Framed]]:
    """The relative clauses of `text` and the noun phrases they describe, as (phrase,
    clause) spans: "the vendor, which raised prices by 40%", "Dana, who became CFO last
    year", "the launch that moved to Monday", "the launch being moved to Monday". A wish,
    an opinion, advice or a question does not assert its own clause, but a relative
    clause in it describes its noun phrase as the speaker takes it to be ("Hope the
    launch that moved to Monday works for everyone" takes it that the launch moved): the
    phrase and the clause read together ("the launch moved to Monday") are a statement.

    The phrase is a name (a run of capitalised words) or up to three plain words after a
    determiner, right before the relative word. A non-restrictive clause (after a comma)
    runs to the next comma or the sentence's end; a restrictive one ("that", "being",
    "which" without a comma) runs to the end of the first run of specific tokens after
    its verb ("that moved to Monday works for everyone": "moved to Monday"), since where
    it ends and the main verb begins is not marked; one without a specific is not read.
    "that" counts only after a noun phrase and before a verb (not "hope that")."""
    tokens = [(m.group(0), m.start(), m.end()) for m in _TOKEN.finditer(text)]
    out: list[tuple[Framed, Framed]] = []
    for m in _RELATIVE.finditer(text):
        word = m.group(2).lower()
        commas = m.group(1) is not None
        if word == "being" and commas:
            continue  # "..., being new to the team": an adjunct, not a relative
        ante = _antecedent(tokens, m.start())
        if ante is None:
            continue
        a, first = ante
        if word in ("that", "being") and not _verb_first(text[m.end() :], word):
            continue  # "the fact that X", "the same that": no clause of a noun's own
        b: int | None
        if commas and word in ("which", "who"):
            b = _relative_end(text, m.end())
        else:
            b = _restrictive_end(tokens, m.end())
        if b is None or b - m.end() < 3:
            continue
        out.append((Framed(a, first, "a noun phrase"), Framed(m.end(), b, word)))
    return out


def _relative_end(text: str, at: int) -> int:
    """Where a non-restrictive relative clause starting at offset `at` ends: before the
    whitespace before its first mark (`_RELATIVE_END`), or at the text's end without its
    closing stops."""
    stop = _RELATIVE_END.search(text, at)
    if stop is None:
        return len(text.rstrip(" .!?"))
    b = stop.start()
    while b > at and text[b - 1].isspace():
        b -= 1
    return b


def _antecedent(tokens: list[tuple[str, int, int]], at: int) -> tuple[int, int] | None:
    """The span of the noun phrase right before offset `at`: a run of capitalised names
    ("Priya Nair"), or a determiner and up to three plain or specific words ("the new
    API", "Dana's move"); None when the word before is no noun's."""
    k = max((i for i, t in enumerate(tokens) if t[2] <= at), default=-1)
    if k < 0:
        return None
    last = tokens[k][0]
    if last.lower().replace("\u2019", "'") in _NOT_ANTECEDENT or not last[:1].isalnum():
        return None
    if _specific_token(last) and last[:1].isupper():
        j = k
        while j > 0 and tokens[j - 1][0][:1].isupper() and tokens[j - 1][0].isalpha():
            j -= 1
        if j == 0 and j < k:
            j = 1  # the sentence's first word has a capital whatever it is
        if tokens[j][0].lower() in _DEFINITE or tokens[j][0].lower() in _NOT_HEAD:
            return None
        return tokens[j][1], tokens[k][2]
    j = k
    while j > 0 and k - j < 3 and (_plain(tokens[j - 1][0]) or _specific_token(tokens[j - 1][0])):
        j -= 1
    det = tokens[j - 1][0] if j > 0 else ""
    if det and (det.lower() in _DEFINITE or _possessive_name(det, j - 1)):
        return tokens[j - 1][1], tokens[k][2]
    return None


def _verb_first(rest: str, word: str) -> bool:
    """Whether the clause after "that" or "being" opens with a verb ("that moved", "that
    is", "being moved"): a subject relative, not "that" as a conjunction."""
    words = [w.lower().replace("\u2019", "'") for w in _WORD.findall(rest)[:2]]
    if not words:
        return False
    first = words[0]
    if word == "being":
        return first.endswith("ed") or first in _PAST
    return (
        first in _FINITE
        or (first.endswith(("ed", "es")) and len(first) > 3)
        or first in _PAST
        or (first.endswith("s") and not first.endswith("ss") and first not in _NOT_HEAD)
    )


def _restrictive_end(tokens: list[tuple[str, int, int]], at: int) -> int | None:
    """Where a restrictive relative clause starting at offset `at` ends: after the first
    run of specific tokens, within eight tokens; None when there is none (or a comma
    comes first)."""
    start = next((i for i, t in enumerate(tokens) if t[1] >= at), len(tokens))
    for i in range(start, min(start + 8, len(tokens))):
        word = tokens[i][0]
        if not word[:1].isalnum():
            return None  # a comma or a stop before any specific
        if _specific_token(word):
            j = i
            while j + 1 < len(tokens) and _specific_token(tokens[j + 1][0]):
                j += 1
            return tokens[j][2]
    return None


_PARENTHESIS = re.compile(r"\(([^()]{3,160})\)")


def parenthesised(text: str) -> list[tuple[Framed | None, Framed]]:
    """The asides in parentheses of `text`, as (the noun phrase right before one, or
    None; its content): "Try the API (it allows 500 requests per minute)" states a clause
    of its own, "Hope the launch (now on Monday) goes well" says of the launch that it is
    now on Monday, "Ask Dana (our CFO)" that Dana is the CFO. A wish or advice does not
    assert its own clause, but an aside in it is the speaker's statement, set apart."""
    tokens = [(m.group(0), m.start(), m.end()) for m in _TOKEN.finditer(text)]
    out: list[tuple[Framed | None, Framed]] = []
    for m in _PARENTHESIS.finditer(text):
        inner = Framed(m.start(1), m.end(1), "an aside in parentheses")
        if _is_clause(m.group(1), after_that=False):  # "(it allows ...)": a verb of its own
            out.append((None, inner))
            continue
        ante = _antecedent(tokens, m.start())
        phrase = Framed(ante[0], ante[1], "a noun phrase") if ante is not None else None
        out.append((phrase, inner))
    return out
