"""Attitude verbs written with TH-fronting ("I fink we use Redis", "..., I fink."), and
the archaic "methinks" written as two words ("Me thinks the cache is Redis") (session 15).

TH-fronting (the "th" of "think" said and written as "f") is a common eye-dialect and
chat spelling. `dialect.py` reads respellings that keep a word's consonants; this one
changes them, and its forms are English words of their own ("fink", "fought"), which
`dialect.py` leaves alone by rule. So they are read back only where the attitude verb's
own frame is: right after a first-person subject ("I", "we") that opens a sentence or a
clause, and followed by the clause the attitude is about (a pronoun that is only ever a
subject: "I fought we used Redis", where a fight would take an object, "us") or, after a comma, by
the end of the sentence ("..., I fink."). "We fought the fire", "Mike Fink owns it" and
"we fought." stay as written.

The forms come from the attitude verbs that begin with "th" ("think", its -s form and its
past), with "th" written "f"; no list of respellings is kept.

"Me thinks" opening a sentence or following a comma is the hedge pattern "methinks" cut
in two (`split.py` rejoins cut hedge words the same way); "give me thinks" is not read.
"""

from __future__ import annotations

import re

__all__ = ["needs_unfronting", "unfront"]

# the attitude verbs of the hedge patterns that start with "th", in the forms they take
_TH_FORMS = ("think", "thinks", "thought")
_FRONTED: dict[str, str] = {"f" + form[2:]: form for form in _TH_FORMS}
_HINTS = tuple(sorted({form[:4] for form in _FRONTED}))  # "fink", "foug": a substring test
_FORMS = "|".join(sorted(_FRONTED, key=len, reverse=True))
_SUBJECT = r"(?:i|we)"
# pronouns that can only be subjects (not "you", "it", "that": "we fought it", "I fought
# that battle"), so what follows is a clause, which "fight" never takes
_CLAUSE = r"(?:i|we|they|he|she|it's|there's|you're|they're|we're)"
# a first-person subject opening a sentence or a clause, the fronted verb, and the clause
# it governs; or ", I fink" closing the sentence
_PATTERN = re.compile(
    rf"(?<![\w'])({_SUBJECT})(\s+)({_FORMS})(?=\s+{_CLAUSE}\b)"
    rf"|(?<=,\s)({_SUBJECT})(\s+)({_FORMS})(?=\s*(?:[.!?]|$))",
    re.IGNORECASE,
)


# "me thinks" where a sentence or a clause after a comma opens
_METHINKS = re.compile(r"(?:^|(?<=[.!?,;:] ))(me) (thinks)\b", re.IGNORECASE)


def needs_unfronting(lower: str) -> bool:
    """Whether `lower` (lower-cased text) may hold a fronted attitude verb or a cut
    "methinks": substring tests first, so nearly every claim pays a few hundred
    nanoseconds."""
    if "me thinks" in lower and _METHINKS.search(lower) is not None:
        return True
    return any(hint in lower for hint in _HINTS) and _PATTERN.search(lower) is not None


def _plain(m: re.Match[str]) -> str:
    subject, space, verb = m.group(1, 2, 3) if m.group(1) is not None else m.group(4, 5, 6)
    plain = _FRONTED[verb.lower()]
    return subject + space + (plain.capitalize() if verb[:1].isupper() else plain)


def unfront(text: str) -> str:
    """`text` with each fronted attitude verb in its frame written with "th", and a cut
    "methinks" joined."""
    text = _METHINKS.sub(lambda m: m.group(1) + m.group(2), text)
    return _PATTERN.sub(_plain, text)
