"""Subject, predicate and object of a memory, and the keys the consistency checks compare.

A claim may carry `subject` / `predicate` / `object`; when it does not, the offline
extractor reads them from the first sentence of its content with a fixed table of verb
phrases (docs/spec.md §Store-time consistency, "The extractor"):

| verb phrase (examples) | predicate |
|---|---|
| works at, works for, is employed by, joined, works as a <role> at | works_at |
| lives in, resides in, moved to, relocated to | lives_in |
| is based in, is located in, is headquartered in | located_in |
| uses X as/for its database, X's database is Y, stores its data in | uses_database |
| reports to | reports_to |
| prefers, likes, dislikes, uses | prefers, likes, dislikes, uses |
| X's favourite <kind> is Y (session 12) | favourite_<kind> ("favourite_colour") |

Anything else yields no triple: such a memory takes part only in the semantic signal;
so does a denied verb phrase ("The user no longer likes jazz", "Nobody uses Redis"). An
adverb before the verb ("Georgian still lives in Bangalore") is not part of the subject.
The extractor is deterministic and bounded (the first `max_chars` characters), so the
same claim always gets the same triple, on every worker.

Comparison keys: a subject is compared case-folded, with `_`, `-` and runs of spaces
made one space, a leading `ent_` / `ent:` and a leading article dropped, so the entity id
`ent_georgian` and the name "Georgian" are one subject. A predicate is compared in
snake case. An object is compared case-folded without punctuation and leading articles.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

__all__ = [
    "Triple",
    "extract",
    "object_key",
    "parse_valid_from",
    "predicate_key",
    "subject_key",
]

_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z0-9])")
_ARTICLE = re.compile(r"^(?:the|a|an)\s+", re.IGNORECASE)
# Time and manner tails that are not part of the object: "Arrive since April 2026".
_TAIL = re.compile(
    r"\s+(?:since|from|as of|starting|until|till|for now|for the (?:time being|moment)|"
    r"currently|now|today|again|anymore|these days|in (?:19|20)\d\d|on \d|"
    r"(?:as|for) (?:its|their|the|our|his|her) (?:primary |main )?database)\b.*$",
    re.IGNORECASE,
)
# A subject that ends in a negation denies the verb ("The user no longer likes jazz"):
# no triple. An adverb there is not part of the subject ("Georgian still lives in").
_NEGATED = re.compile(r"(?:^|\s)(?:not|no longer|never|no more|nobody|no one)$", re.IGNORECASE)
_ADVERB = re.compile(
    r"\s+(?:still|also|now|currently|always|really|actually|usually|too)$", re.IGNORECASE
)
_SUBJECT_SEP = re.compile(r"[\s_\-]+")
_NON_WORD = re.compile(r"[^\w]+")
_VERB = r"(?:is |are |was |has been |have been )?"

# (regex with named groups s (optional) and o, predicate). Order matters: the first
# match wins, so the specific phrases come before the general ones ("uses X as its
# database" before "uses X").
_PATTERNS: tuple[tuple[re.Pattern[str], str], ...] = tuple(
    (re.compile(rx, re.IGNORECASE), predicate)
    for rx, predicate in (
        (
            r"^(?:(?P<s>.+?)\s+)?(?:works|worked|is working) as (?:an? )?.+? (?:at|for) (?P<o>.+)$",
            "works_at",
        ),
        (
            rf"^(?:(?P<s>.+?)\s+)?{_VERB}(?:works at|works for|working at|working for|"
            r"employed (?:at|by)|joined|now works at)\s+(?P<o>.+)$",
            "works_at",
        ),
        (
            rf"^(?:(?P<s>.+?)\s+)?{_VERB}(?:lives in|living in|resides in|residing in|"
            r"moved to|relocated to|lives at)\s+(?P<o>.+)$",
            "lives_in",
        ),
        (
            r"^(?:(?P<s>.+?)\s+)?(?:is|are) (?:based|located|headquartered) in\s+(?P<o>.+)$",
            "located_in",
        ),
        (
            r"^(?:(?P<s>.+?)\s+)?(?:uses|is using|runs on|is built on|switched to|migrated to)"
            r"\s+(?P<o>.+?)\s+(?:as|for) (?:its|their|the|our) (?:primary |main )?database\b.*$",
            "uses_database",
        ),
        (
            r"^(?P<s>.+?)(?:'s|’s) (?:primary |main )?database is\s+(?P<o>.+)$",
            "uses_database",
        ),
        (
            r"^(?:(?P<s>.+?)\s+)?(?:stores|keeps) (?:its|their) data in\s+(?P<o>.+)$",
            "uses_database",
        ),
        (r"^(?:(?P<s>.+?)\s+)?(?:reports|reported) to\s+(?P<o>.+)$", "reports_to"),
        (r"^(?:(?P<s>.+?)\s+)?(?:prefers|preferred)\s+(?P<o>.+)$", "prefers"),
        (r"^(?:(?P<s>.+?)\s+)?(?:dislikes|hates)\s+(?P<o>.+)$", "dislikes"),
        (r"^(?:(?P<s>.+?)\s+)?(?:likes|loves|enjoys)\s+(?P<o>.+)$", "likes"),
        (r"^(?:(?P<s>.+?)\s+)?(?:uses|is using)\s+(?P<o>.+)$", "uses"),
    )
)


@dataclass(frozen=True, slots=True)
class Triple:
    """What a memory states, as written (empty strings when not known)."""

    subject: str
    predicate: str
    object: str
    source: str  # "claim", "extracted" or "none"

    @property
    def complete(self) -> bool:
        return bool(self.subject and self.predicate and self.object)


def _clean(text: str) -> str:
    return " ".join(text.split()).strip(" \t.,;:!?\"'()[]")


def _object(text: str) -> str:
    text = _TAIL.sub("", _clean(text))
    return _clean(_ARTICLE.sub("", text))


def first_sentence(content: str, max_chars: int) -> str:
    text = " ".join(content[:max_chars].split())
    return _SENTENCE_END.split(text, maxsplit=1)[0].rstrip(".!? ")


# "The user's favourite colour is blue": a favourite names its kind, so the predicate is
# the kind's ("favourite_colour"): one value of that kind at a time
_FAVOURITE = re.compile(
    r"^(?P<s>.+?)(?:'s|’s) (?:all-time |current )?(?P<f>favou?rite) "
    r"(?P<k>[a-z][a-z -]{0,30}?) (?:is|are|was|were|has been)\s+(?P<o>.+)$",
    re.IGNORECASE,
)


def extract_from_text(content: str, max_chars: int = 2_000) -> tuple[str, str, str] | None:
    """(subject, predicate, object) from the first sentence, or None (see the table)."""
    sentence = first_sentence(content, max_chars)
    favourite = _FAVOURITE.match(sentence)
    if favourite is not None and _object(favourite.group("o")):
        kind = "_".join(favourite.group("k").lower().split())
        subject = _clean(favourite.group("s"))
        return subject, f"{favourite.group('f').lower()}_{kind}", _object(favourite.group("o"))
    for pattern, predicate in _PATTERNS:
        match = pattern.match(sentence)
        if match is None:
            continue
        obj = _object(match.group("o"))
        if not obj:
            continue
        subject = _clean(match.group("s") or "")
        if _NEGATED.search(subject):
            return None
        return _ADVERB.sub("", subject), predicate, obj
    return None


def extract(
    content: str,
    subject: str | None,
    predicate: str | None,
    obj: str | None,
    *,
    user_id: str = "",
    max_chars: int = 2_000,
) -> Triple:
    """The memory's triple: the claim's own fields where it has them, the extractor's for
    the missing ones. A sentence without a subject ("Prefers dark mode") is about the
    claim's user."""
    given = (subject or "", predicate or "", obj or "")
    if all(given):
        return Triple(*given, source="claim")
    found = extract_from_text(content, max_chars)
    if found is None:
        return Triple(*given, source="claim" if any(given) else "none")
    found_subject = found[0] or (f"user {user_id}" if user_id else "user")
    s = given[0] or found_subject
    p = given[1] or found[1]
    o = given[2] or found[2]
    return Triple(s, p, o, source="extracted")


def _fold(text: str) -> str:
    if not text.isascii():
        text = unicodedata.normalize("NFKC", text)
    return text.casefold()


def subject_key(subject: str) -> str:
    """`ent_georgian`, `Georgian` and `the georgian` -> "georgian"."""
    text = _SUBJECT_SEP.sub(" ", _fold(subject)).strip()
    if text.startswith(("ent ", "ent:")):
        text = text[4:].strip()
    return _ARTICLE.sub("", text).strip()


def predicate_key(predicate: str) -> str:
    """`Works At`, `works-at` and `works_at` -> "works_at"."""
    return _NON_WORD.sub("_", _fold(predicate)).strip("_")


def object_key(obj: str) -> str:
    """`Supabase.`, `supabase` and `the Supabase` -> "supabase"."""
    text = " ".join(_NON_WORD.sub(" ", _fold(obj)).split())
    return _ARTICLE.sub("", text)


def parse_valid_from(metadata: dict[str, Any], *fallbacks: datetime | None) -> datetime:
    """When the memory starts to hold: `metadata.valid_from` (an ISO 8601 date or time),
    else the first fallback that is set (the claim's created_at, then the decision's
    time). Naive times are UTC."""
    raw = metadata.get("valid_from") if isinstance(metadata, dict) else None
    if isinstance(raw, str) and len(raw) <= 64:
        try:
            parsed = datetime.fromisoformat(raw.replace("Z", "+00:00"))
        except ValueError:
            parsed = None
        if parsed is not None:
            return parsed if parsed.tzinfo else parsed.replace(tzinfo=UTC)
    for value in fallbacks:
        if value is not None:
            return value if value.tzinfo else value.replace(tzinfo=UTC)
    return datetime.now(UTC)
