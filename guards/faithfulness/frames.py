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
* a "why" question about a third party ("Why did Inbox3 slip to Friday?"): it
  presupposes what it asks the reason for (read only when it names a specific);
* a negative yes/no question about a third party ("Doesn't Inbox3 ship on Friday?"):
  it leans on the positive statement (read only when it names a specific);
* an emotive factive ("I love that ...", "I'm glad ...", "Sorry the ...",
  `emotive_statement`): it presupposes its complement.

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

__all__ = ["Framed", "emotive_statement", "framed_statement", "reason_given"]


class Framed(NamedTuple):
    """The statement's span inside the sentence (its offsets) and the frame's words."""

    start: int
    end: int
    frame: str


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
# "why" with an auxiliary, before a subject that is not the user or the speaker
_WHY = re.compile(
    r"^why\s+(?:did|does|do|is|are|was|were|has|have|had)\s+(?!(?:you|i|we|your|my|our)\b)",
    re.IGNORECASE,
)
# a negative yes/no question leans on its positive: "Doesn't Inbox3 ship on Friday?"
_NEGATIVE = re.compile(
    r"^(?:isn't|aren't|wasn't|weren't|doesn't|don't|didn't|hasn't|haven't|hadn't|won't)\s+"
    r"(?!(?:you|i|we|it|that|this|there)\b)",
    re.IGNORECASE,
)
_THAT = re.compile(r"\s+that\s+$", re.IGNORECASE)


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
_OPEN = word_set("who what where when why how which whether if about to of")
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
    return any(w in _PRONOUN_IS for w in words)


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
            return Framed(premise.start(2), premise.end(2), premise.group(1).lower())
        why = _WHY.match(body) or _NEGATIVE.match(body)
        if why is not None:
            # "Why did Inbox3 slip to Friday?" presupposes that it did
            return Framed(why.end(), len(body.rstrip("?!. ")), why.group(0).strip().lower())
        frames: tuple[re.Match[str] | None, ...] = (_QUESTION_FRAME.match(body),)
        end = len(body.rstrip("?!. "))
    else:
        frames = (_INSTRUCTION_FRAME.match(body), _LABEL.match(body))
        end = len(body)
    for frame in frames:
        if frame is None:
            continue
        # after "that" or a label's colon a sentence follows, whatever its verb
        after_that = frame.re is _LABEL or _THAT.search(frame.group(0)) is not None
        if _is_clause(body[frame.end() : end], after_that):
            return Framed(frame.end(), end, " ".join(frame.group(0).split()).rstrip(" :,"))
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


def reason_given(clause: str) -> Framed | None:
    """The statement given as the reason for advice or an opinion, or None. After
    "since" only a clause with a verb counts ("since last year" is a time); a reason
    hedged with a modal ("because you might like it") is a guess, not read."""
    for m in _REASON.finditer(clause):
        rest = clause[m.end() :].rstrip(" .!")
        if _MAYBE.search(rest):  # "because you might like it": a guess, not a fact
            continue
        if _is_clause(rest, after_that=m.group(1).lower() != "since"):
            return Framed(m.end(), m.end() + len(rest), m.group(1).lower())
    return None
