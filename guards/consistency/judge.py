"""The judge: one verdict per suspect cluster (docs/spec.md §Store-time consistency).

| verdict | action |
|---|---|
| equivalent | merge into the canonical memory |
| temporal_evolution | the latest supersedes the others |
| contradiction | flag every member for human review |
| distinct | nothing |
| unknown | nothing now; the cluster is judged again by the next scan |

`RuleJudge` (the default) decides offline:

* a cluster of one subject and predicate (structural / temporal signals): one object
  throughout is equivalent; several objects of a predicate that is not stateful
  (likes, uses) can hold together: distinct; for a stateful predicate, values more than
  `temporal_drift_days` apart are an evolution, and two values within the drift are a
  contradiction (a one-day switch from Supabase to Neon may be a migration or a
  hallucination: a person decides); an object that is another with words added at its
  end ("Munich" / "Munich, Germany") is the same value, more precise: no contradiction,
  and a cluster of only such values is distinct;
* a semantic cluster (similar text, other subject or predicate): two memories about
  different subjects are distinct (unless each is the other's object under one
  predicate: "X reports to Y" / "Y reports to X" contradict); likes and dislikes of
  one object contradict; an
  antonym under a negation ("does not like" / "dislikes") agrees; objects that choose
  one thing over another the other way round ("email over calls" / "calls over
  email") contradict, and so do two that differ in one content word each where they
  state a choice ("prefers tea" / "prefers coffee", "favourite colour is blue" / "is
  green") when the choice is one: the two share a domain beyond their subject ("for
  updates", "seats", "colour") or the values are of one kind by their WordNet
  definitions (kinds.py: "tea" / "coffee", both a beverage); "prefers tea" / "prefers
  email" are two preferences, distinct; opposite wording (a
  number against another number,
  a negation on one side, WordNet antonyms; and, read by the offline grounding
  verifier's rules in both directions, a swapped name or frequency, swapped roles, a
  negative implicative such as "failed to", a statement the other only asks about) is a
  contradiction; a number one of them has and the other lacks ("retries 3 times" /
  "retries several times") makes them distinct, never equivalent (a merge could lose
  it); a negative implicative against a negation ("cannot reach" / "is unable
  to reach") is not a negation on one side, and two comparatives ("than" on both sides)
  skip the word-set antonym test, so a converse ("slower than Postgres" / "Postgres is
  faster than") is left to the grounding rules, which read it as agreement; one that
  only hedges, plans or conditions what the other states is distinct (never merged
  into it); one statement of "X" and of "X's Y" ("The user is a nurse" / "The user's
  sister is a nurse") is a contradiction (a misattribution), distinct when other words
  differ too; two texts that each have a content word the other lacks ("has a dog" /
  "has a cat") are distinct; a contradiction between memories more than the drift
  apart is an evolution when the later one says it changed ("now", "no longer", "new",
  "moved"); the same object, or the same statement in other
  words, is equivalent; anything mixed stays distinct (no automatic merge on doubt).

`LlmJudge` (guards/consistency/llm_judge.py) asks a model the same question; a call that
fails is `unknown`, never a guess.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import timedelta
from itertools import combinations, islice, pairwise
from typing import Protocol

from groundwire.guards.consistency.config import ConsistencyConfig
from groundwire.guards.consistency.extract import object_key, predicate_key, subject_key
from groundwire.guards.consistency.kinds import changed_span, shared_domain, shared_kind
from groundwire.guards.consistency.memory import is_stateful
from groundwire.guards.consistency.signals import Cluster
from groundwire.guards.grounding.lexical import analyze
from groundwire.guards.grounding.lexical.antonyms import antonymous
from groundwire.guards.grounding.lexical.assertion import STRONG
from groundwire.guards.grounding.lexical.text import NUMBER_WORDS, STOPWORDS, has_implicative
from groundwire.topics.memory import MemoryRecord
from groundwire.topics.records import SourceTurn
from groundwire.topics.vocab import ConsistencyVerdict

__all__ = ["Judge", "Judgement", "RuleJudge", "rule_verdict"]

_WORD = re.compile(r"[a-z0-9]+(?:[.'][a-z0-9]+)*")
_NEGATIONS = frozenset({"not", "no", "never", "none", "cannot", "without", "nobody", "nothing"})
_MAX_PAIRS = 200  # pairs compared per semantic cluster (bounded work)
_MAX_DIFF = 12  # words per side compared as antonyms
_CHOICE = frozenset({"prefers", "prefer", "preferred", "favorite", "favourite"})
_OPPOSED = ({"likes", "dislikes"},)  # predicates that deny each other of one object
# Words by which a later memory says the fact changed ("now", "no longer", "moved").
_CHANGE = frozenset(
    {
        "now",
        "longer",
        "anymore",
        "moved",
        "switched",
        "changed",
        "became",
        "become",
        "new",
        "since",
        "stopped",
        "started",
        "recently",
        "nowadays",
    }
)


@dataclass(frozen=True, slots=True)
class Judgement:
    verdict: ConsistencyVerdict
    reason: str


class Judge(Protocol):
    """Classifies suspect clusters; never raises (a failure is UNKNOWN)."""

    name: str

    async def judge_batch(self, clusters: Sequence[Cluster]) -> list[Judgement]: ...

    async def aclose(self) -> None: ...


def _words(text: str) -> set[str]:
    return set(_sequence(text))


def _sequence(text: str) -> list[str]:
    """The words of `text` in order (`_words` as a list)."""
    return _WORD.findall(text.casefold().replace("n't", " not"))


def _one_sided_number(a: str, b: str) -> str | None:
    """A count or measure (digits, or a cardinal number word: "three", "dozen", "half")
    one text has and the other lacks, or None; a frequency word ("daily" beside
    "nightly") is not counted here."""
    wa, wb = _words(a), _words(b)
    for w in sorted(wa ^ wb):
        value = NUMBER_WORDS.get(w)
        if any(c.isdigit() for c in w) or (value is not None and "/" not in value):
            return w
    return None


def _implicative(text: str) -> bool:
    """A negative implicative denies what follows ("failed to sign", "is unable to")."""
    return has_implicative(_WORD.findall(text.casefold()))


def _days(delta: timedelta) -> str:
    return f"{abs(delta).total_seconds() / 86_400:.0f} days"


def _read_against(a: str, b: str) -> tuple[str | None, bool]:
    """`a` read against `b` by the offline grounding verifier's contradiction rules
    (a swapped number or name, an antonym in the slot, a negation flip, swapped roles,
    a name `b` only denies): why they contradict, or None; and whether `b` does not
    simply assert what `a` states (`b` asks, imagines, hedges or plans it)."""
    turn = SourceTurn(id="other", text=b, source="corpus")
    analysis = analyze(a, [turn], set())
    if analysis.conflicts:
        said, other = analysis.conflicts[0]
        return f"{said!r} where the other says {other!r}", False
    if analysis.superseded:
        return f"the other names it only as what changed: {analysis.superseded[0]!r}", False
    if analysis.polarity_flips:
        return f"a negation on one side: {analysis.polarity_flips[0]!r}", False
    strong = [text for text, mood in analysis.unasserted if mood in STRONG]
    if strong:
        return f"one side does not assert it: {strong[0]!r}", False
    return None, bool(analysis.unasserted)


def _unmatched(a: str, b: str) -> list[str]:
    """The content words of `a` the grounding verifier finds nowhere in `b` (a negation
    word aside: "cannot" / "is unable to" are compared above)."""
    turn = SourceTurn(id="other", text=b, source="corpus")
    return [w for w in analyze(a, [turn], set()).missing_words if w not in _NEGATIONS]


def conflicting_text(a: str, b: str) -> str | None:
    """Why two similar texts say opposite things, or None."""
    return _conflict(a, b)[0]


def _conflict(a: str, b: str) -> tuple[str | None, bool]:
    """Why two similar texts say opposite things (or None), and whether one of them only
    hedges, plans or conditions what the other states (so they are not one statement)."""
    wa, wb = _words(a), _words(b)
    only_a, only_b = wa - wb, wb - wa
    nums_a = {w for w in only_a if any(c.isdigit() for c in w)}
    nums_b = {w for w in only_b if any(c.isdigit() for c in w)}
    if nums_a and nums_b:
        return f"different numbers: {sorted(nums_a)[0]} / {sorted(nums_b)[0]}", False
    neg_a, neg_b = wa & _NEGATIONS, wb & _NEGATIONS
    if neg_a != neg_b and not (
        # "cannot reach" / "is unable to reach": a negative implicative denies as well
        (not neg_a and _implicative(a) and neg_b) or (not neg_b and _implicative(b) and neg_a)
    ):
        negated = only_b if neg_b - neg_a else only_a
        plain = only_a if negated is only_b else only_b
        # "dislikes coffee" / "does not like coffee": the antonym is the negation
        if not any(
            antonymous(x, y) for x in sorted(plain)[:_MAX_DIFF] for y in sorted(negated)[:_MAX_DIFF]
        ):
            return "a negation on one side", False
        return None, False
    # two comparatives ("than" on both sides) may be converses ("slower than Postgres" /
    # "Postgres is faster than"): the grounding rules below read which side is which
    if not ("than" in wa and "than" in wb):
        for x in sorted(only_a)[:_MAX_DIFF]:
            for y in sorted(only_b)[:_MAX_DIFF]:
                if antonymous(x, y):
                    return f"opposite words: {x} / {y}", False
    # what word sets cannot see: who did what to whom, "failed to", "weekly" / "nightly"
    why, weaker_b = _read_against(a, b)
    if why is not None:
        return why, False
    why, weaker_a = _read_against(b, a)
    return why, weaker_a or weaker_b


def _refines(a: str, b: str) -> bool:
    """One object is the other with words added at its end ("Munich" / "Munich, Germany",
    "Acme" / "Acme Corp"): the same value, one of them more precise."""
    wa, wb = object_key(a).split(), object_key(b).split()
    short, long = sorted((wa, wb), key=len)
    return bool(short) and len(short) < len(long) and long[: len(short)] == short


def _structural(cluster: Cluster, cfg: ConsistencyConfig) -> Judgement:
    members = cluster.members
    values = {object_key(m.object) for m in members}
    predicate = members[0].predicate
    if len(values) == 1:
        return Judgement(
            ConsistencyVerdict.EQUIVALENT, f"all state {predicate}: {members[0].object}"
        )
    if not is_stateful(predicate, cfg):
        return Judgement(
            ConsistencyVerdict.DISTINCT,
            f"{predicate} is not stateful: its values can hold together",
        )
    drift = timedelta(days=cfg.signals.temporal_drift_days)
    # In time order, two values within the drift anywhere means two neighbours within it
    # (the value changes somewhere between them, closer in time): neighbours suffice.
    for a, b in pairwise(sorted(members, key=lambda m: (m.valid_from, m.memory_id))):
        if _refines(a.object, b.object):
            continue  # "Munich" / "Munich, Germany": one value, more precisely
        if object_key(a.object) != object_key(b.object) and b.valid_from - a.valid_from <= drift:
            gap = _days(b.valid_from - a.valid_from)
            drift_days = cfg.signals.temporal_drift_days
            return Judgement(
                ConsistencyVerdict.CONTRADICTION,
                f"{predicate}: {a.object!r} and {b.object!r} only {gap} apart "
                f"(drift {drift_days:g} days)",
            )
    ordered = sorted(members, key=lambda m: (m.valid_from, m.memory_id))
    if all(_refines(a.object, b.object) for a, b in combinations(members, 2)):
        # never merged (the precise value could be lost) nor superseded (nothing changed)
        return Judgement(
            ConsistencyVerdict.DISTINCT,
            f"{predicate}: one value, more precise in one: "
            + " / ".join(sorted({m.object for m in members})),
        )
    return Judgement(
        ConsistencyVerdict.TEMPORAL_EVOLUTION,
        f"{predicate} changed: "
        + " -> ".join(f"{m.object} ({m.valid_from.date().isoformat()})" for m in ordered),
    )


def _possessor_shift(a: str, b: str) -> tuple[str, bool] | None:
    """One text says of "X's Y" what the other says of "X" ("The user's sister is a nurse"
    / "The user is a nurse"): the possessive, and whether the rest of the words agree
    (the same statement about two people), or None."""
    for x, y in ((a, b), (b, a)):
        tx = _WORD.findall(x.casefold().replace("\u2019", "'"))
        ty = _WORD.findall(y.casefold().replace("\u2019", "'"))
        for i, t in enumerate(tx[:-1]):
            owner, owned = t[:-2], tx[i + 1]
            if owner in STOPWORDS or owner == "let" or owned in ty:
                continue  # "it's" / "let's" are no possessives; "the build cache" is one
            if t.endswith("'s") and t not in ty and owner in ty:
                rest = {*tx[:i], t[:-2], *tx[i + 2 :]}
                return f"{t} {tx[i + 1]}", rest == set(ty)
    return None


def _changed(a: MemoryRecord, b: MemoryRecord, drift: timedelta) -> str | None:
    """Why two conflicting memories read as one fact that changed, or None: they lie more
    than the drift apart and the later one says it changed ("The user now has 3
    children", "no longer likes jazz"); without such a word they stay a contradiction
    (a later hallucination must not silently supersede what was true)."""
    early, late = sorted((a, b), key=lambda m: (m.valid_from, m.memory_id))
    if late.valid_from - early.valid_from <= drift:
        return None
    marker = sorted((_words(late.content) - _words(early.content)) & _CHANGE)
    if not marker:
        return None
    return (
        f"changed after {_days(late.valid_from - early.valid_from)} (the later says {marker[0]!r})"
    )


def _reversed_choice(a: str, b: str) -> str | None:
    """Two objects that prefer one thing over another the other way round ("email over
    phone calls" / "phone calls over email"), or None."""
    for link in (" over ", " rather than ", " instead of ", " to "):
        pa, pb = a.split(link), b.split(link)
        if len(pa) == 2 and len(pb) == 2 and pa == pb[::-1] and pa[0] != pa[1]:
            return f"the preference reversed: {a} / {b}"
    return None


def _pair(
    a: MemoryRecord, b: MemoryRecord, drift: timedelta | None = None
) -> tuple[ConsistencyVerdict, str]:
    shift = _possessor_shift(a.content, b.content)
    if shift is not None:
        whom, same_rest = shift
        if same_rest:
            # a misattribution (the user / the user's sister): a person decides whose it is
            return (
                ConsistencyVerdict.CONTRADICTION,
                f"the same statement about {whom!r} and its owner",
            )
        return ConsistencyVerdict.DISTINCT, f"about {whom!r} on one side only"
    sa, sb = subject_key(a.subject), subject_key(b.subject)
    pa, pb = predicate_key(a.predicate), predicate_key(b.predicate)
    if sa == sb and object_key(a.object) == object_key(b.object) and {pa, pb} in _OPPOSED:
        return ConsistencyVerdict.CONTRADICTION, f"{a.predicate} / {b.predicate} {a.object}"
    if sa and sb and sa != sb:
        if pa == pb and sa == object_key(b.object) and sb == object_key(a.object):
            # "The user reports to Dana" / "Dana reports to the user"
            return ConsistencyVerdict.CONTRADICTION, f"swapped roles: {a.content!r} / {b.content!r}"
        return ConsistencyVerdict.DISTINCT, f"different subjects: {a.subject} / {b.subject}"
    why, weaker = _conflict(a.content, b.content)
    if why is not None:
        changed = _changed(a, b, drift) if drift is not None else None
        if changed is not None:
            return ConsistencyVerdict.TEMPORAL_EVOLUTION, f"{why}; {changed}"
        return ConsistencyVerdict.CONTRADICTION, why
    if weaker:
        why = "one only hedges, plans or conditions what the other states"
        return ConsistencyVerdict.DISTINCT, why
    one_sided = _one_sided_number(a.content, b.content)
    if one_sided is not None:
        # "retries 3 times" / "retries several times": not the same statement; merged,
        # the number could be lost with the memory that is not kept
        return ConsistencyVerdict.DISTINCT, f"a number on one side only: {one_sided}"
    oa, ob = object_key(a.object), object_key(b.object)
    # a word that says it changed ("now prefers") is not one of the values
    only_a: set[str] = _words(a.content) - _words(b.content) - _CHANGE
    only_b: set[str] = _words(b.content) - _words(a.content) - _CHANGE
    # a value of a few words: "prefers email" / "prefers phone calls" (`kinds.changed_span`)
    span = None
    if only_a and only_b and not (len(only_a) == len(only_b) == 1):
        span = changed_span(_sequence(a.content), _sequence(b.content), _CHANGE)
    if (
        (len(only_a) == len(only_b) == 1 or span is not None)
        and not (only_a | only_b) & STOPWORDS
        and _words(a.content) & _CHOICE
    ):
        # "prefers tea" / "prefers coffee", "favourite colour is blue" / "... green":
        # one choice when the two share a domain or the values are of one kind
        x, y = (min(only_a), min(only_b)) if span is None else span
        subject = _words(a.subject) | _words(b.subject)
        domain = shared_domain(_words(a.content), _words(b.content), subject, _CHOICE | _CHANGE)
        kind = [] if domain else shared_kind(x, y)
        if not domain and not kind:
            why = f"two preferences, no domain or kind in common: {x} / {y}"
            return ConsistencyVerdict.DISTINCT, why
        said = f"both {domain[0]!r}" if domain else f"both {'/'.join(kind[:2])}"
        why = f"one choice, two values: {x} / {y} ({said})"
        changed = _changed(a, b, drift) if drift is not None else None
        if changed is not None:
            return ConsistencyVerdict.TEMPORAL_EVOLUTION, f"{why}; {changed}"
        return ConsistencyVerdict.CONTRADICTION, why
    reversed_choice = _reversed_choice(oa, ob)
    if reversed_choice is not None:
        return ConsistencyVerdict.CONTRADICTION, reversed_choice
    if oa and ob and oa != ob:
        return ConsistencyVerdict.DISTINCT, f"different objects: {a.object} / {b.object}"
    missing_a, missing_b = _unmatched(a.content, b.content), _unmatched(b.content, a.content)
    if missing_a and missing_b:
        # "has a dog" / "has a cat": each says something the other does not; never merged
        why = f"words on both sides only: {missing_a[0]} / {missing_b[0]}"
        return ConsistencyVerdict.DISTINCT, why
    if a.predicate and b.predicate and predicate_key(a.predicate) != predicate_key(b.predicate):
        return ConsistencyVerdict.EQUIVALENT, (
            f"the same statement under two predicates: {a.predicate} / {b.predicate}"
        )
    return ConsistencyVerdict.EQUIVALENT, "the same statement in other words"


def _semantic(cluster: Cluster, cfg: ConsistencyConfig) -> Judgement:
    drift = timedelta(days=cfg.signals.temporal_drift_days)
    verdicts: list[tuple[ConsistencyVerdict, str]] = [
        _pair(a, b, drift) for a, b in islice(combinations(cluster.members, 2), _MAX_PAIRS)
    ]
    for verdict, why in verdicts:
        if verdict is ConsistencyVerdict.CONTRADICTION:
            return Judgement(verdict, why)
    if all(v is ConsistencyVerdict.TEMPORAL_EVOLUTION for v, _ in verdicts):
        return Judgement(ConsistencyVerdict.TEMPORAL_EVOLUTION, verdicts[0][1])
    if all(v is ConsistencyVerdict.EQUIVALENT for v, _ in verdicts):
        return Judgement(ConsistencyVerdict.EQUIVALENT, verdicts[0][1])
    distinct = next(why for v, why in verdicts if v is not ConsistencyVerdict.EQUIVALENT)
    return Judgement(ConsistencyVerdict.DISTINCT, distinct)


def rule_verdict(cluster: Cluster, cfg: ConsistencyConfig) -> Judgement:
    """The offline judge's verdict for one cluster (rules in the module docstring)."""
    if cluster.structural:
        return _structural(cluster, cfg)
    return _semantic(cluster, cfg)


class RuleJudge:
    """The default, offline judge."""

    name = "rule"

    def __init__(self, cfg: ConsistencyConfig) -> None:
        self.cfg = cfg

    async def judge_batch(self, clusters: Sequence[Cluster]) -> list[Judgement]:
        return [rule_verdict(c, self.cfg) for c in clusters]

    async def aclose(self) -> None:
        """Nothing to release."""
