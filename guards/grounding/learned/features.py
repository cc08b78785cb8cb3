"""The learned verifier's features: the lexical signals and what overlap alone misses.

`extract` runs the lexical analysis (`lexical.features.analyze`: coverage, bigrams, the
longest copied run, unsupported numbers and names, negation, antonyms in the same slot,
first/second person, questions, speakers) and adds, per claim:

* **alignment** of each claim content word to its best source word: 1 for the same word,
  0.85 for the same stem, 0.7 for the same WordNet lemma, 0.4 for a shared 4-letter
  prefix (derivations: "decision"/"decide"), 0 for none; the mean, the minimum, the share
  left unaligned, and the same mean over the best window of three sentences of one turn
  (support usually sits in one place, not scattered over a long source);
* **order**: of the claim words found in the best sentence, the share of consecutive
  pairs that keep their order there (who did what to whom: "Ann asks Mike" / "Mike asks
  Ann" share every word);
* **contradictions** counted apart: antonyms in the same slot and swapped specifics
  (`conflicts`), negation flips between aligned clauses;
* **specifics** as shares: the claim's numbers, names and dates (month and weekday names,
  relative days) that the source lacks, over those the claim has;
* **speakers**: whether the claim names a speaker of the transcript, and the share of its
  clause words that the named speaker said against the best other speaker;
* **modality**: a claim that states a plan, a possibility or a hedge (will, may, might,
  plan, ...) against a source that has none of these words;
* **shape**: claim length against its best sentence, and the claim's words missing from
  the best sentence but present elsewhere (a claim stitched from several places).

`EMBED_EXTRA` names the embedding verifier's three signals (cosine to the best sentence,
to the top three, the claim direction); `scripts/train_grounding.py --embedding` appends
them to fit a model with them (not shipped: see docs/grounding.md).

The order of `FEATURES` is part of the fitted model's contract (`data/learned.json`
stores the names and the loader checks them).
"""

from __future__ import annotations

import itertools
import math
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import cast

from groundwire.guards.grounding.lexical.antonyms import lemmas
from groundwire.guards.grounding.lexical.evidence import Evidence, Sentence, evidence_for
from groundwire.guards.grounding.lexical.features import Analysis, analyze
from groundwire.guards.grounding.lexical.model import FEATURES as LEXICAL_FEATURES
from groundwire.guards.grounding.lexical.text import WORD, claim_words, parts_of
from groundwire.topics.records import SourceTurn

__all__ = ["EMBED_EXTRA", "FEATURES", "Extracted", "extract"]


def _words(text: str) -> list[str]:
    return text.split()


# Generic calendar words (not fitted to any data): a date the source does not give.
_DATE_WORDS = frozenset(
    _words(
        """january february march april may june july august september october
        november december monday tuesday wednesday thursday friday saturday sunday today
        tomorrow yesterday tonight weekend"""
    )
)
# Words that make a statement a plan, a possibility or a hedge (English modal verbs and
# their common periphrases).
_MODAL_WORDS = frozenset(
    _words(
        """will would shall should may might could can must going plan plans planning
        planned intend intends want wants wanted wish hope hopes probably maybe perhaps
        possibly likely unlikely expect expects"""
    )
)
_WORD_RE = WORD
_CLAUSE = re.compile(r"[.;!?]|,\s*(?:and|but|while|so)\b")

EXTRA = (
    "align_mean",
    "align_min",
    "align_unaligned",
    "align_window",
    "order_kept",
    "antonym_or_swap",
    "polarity_flips",
    "numbers_missing_share",
    "entities_missing_share",
    "dates_missing",
    "speaker_named",
    "speaker_own_share",
    "modal_unsupported",
    "claim_to_sentence_len",
    "scattered",
    "claim_first_person",
)
FEATURES: tuple[str, ...] = (*LEXICAL_FEATURES, *EXTRA)
EMBED_EXTRA = ("embed_best_sentence", "embed_top3_mean", "embed_claim_direction")


@dataclass(slots=True)
class Extracted:
    """The lexical analysis (spans, conflicts, explanations) and the feature values."""

    analysis: Analysis
    values: list[float]


def _prefixes(stems: set[str]) -> set[str]:
    return {s[:4] for s in stems if len(s) >= 4}


def _lemma_set(lows: set[str]) -> set[str]:
    out: set[str] = set()
    for w in lows:
        out.update(lemmas(w))
    return out


def _source_side(ev: Evidence, key: str) -> set[str]:
    """The 4-letter prefixes of the source stems (`key` "prefixes") or the WordNet lemmas
    of its words ("lemmas"), computed once per evidence: every claim citing the same turns
    would otherwise rebuild them from the whole source (a third of the extra features'
    time)."""
    memo = ev.derived
    if memo is None:
        memo = ev.derived = {}
    got = memo.get(key)
    if got is None:
        got = memo[key] = _prefixes(ev.stems) if key == "prefixes" else _lemma_set(ev.lows)
    return cast("set[str]", got)


def extract(
    claim_text: str,
    turns: Sequence[SourceTurn],
    known_names: set[str],
    aligned_swaps: bool = False,
    analysis: Analysis | None = None,
) -> Extracted:
    """Analyse one claim against its evidence and return the features in `FEATURES`
    order (embedding signals are appended by the verifier when it has them). `analysis`:
    the lexical verifier's own reading of the claim when it has just made one
    (`lexical_view.read`), so the claim is not analysed twice."""
    a = analysis if analysis is not None else analyze(claim_text, turns, known_names, aligned_swaps)
    ev = evidence_for(turns)
    f = a.features
    cw = claim_words(claim_text)  # cached: `analyze` has just read the same text
    raws = cw.raws
    content = [
        (raw, low, st)
        for raw, low, st, c in zip(raws, cw.lows, cw.stems, cw.content, strict=True)
        if c and low not in known_names
    ]
    n = len(content)

    # alignment of each claim word to its best source word
    src_lows, src_stems = ev.lows, ev.stems
    prefixes = _source_side(ev, "prefixes")
    need_lemmas = [low for _, low, st in content if low not in src_lows and st not in src_stems]
    src_lemmas = _source_side(ev, "lemmas") if need_lemmas else set()
    scores: list[float] = []
    for _, low, st in content:
        if low in src_lows:
            scores.append(1.0)
        elif st in src_stems:
            scores.append(0.85)
        elif src_lemmas and not src_lemmas.isdisjoint(lemmas(low)):
            scores.append(0.7)
        elif len(st) >= 4 and st[:4] in prefixes:
            scores.append(0.4)
        else:
            scores.append(0.0)
    align_mean = sum(scores) / n if n else 1.0
    align_min = min(scores) if scores else 1.0
    unaligned = sum(s == 0.0 for s in scores) / n if n else 0.0

    stems = {st for _, _, st in content}
    sentences = ev.sentences
    window, best = _best_window(stems, sentences)
    order = _order_kept([st for _, _, st in content], best)

    n_numbers = sum(num is not None for num in cw.numbers)
    caps = sum(1 for i, r in enumerate(raws) if i > 0 and r[:1].isupper())
    dates = [low for _, low, _ in content if low in _DATE_WORDS]
    dates_missing = sum(1 for d in dates if d not in src_lows)
    named, own_share = _speakers(claim_text, ev)
    lows = set(cw.lows)
    modal_unsupported = float(
        not _MODAL_WORDS.isdisjoint(lows) and _MODAL_WORDS.isdisjoint(src_lows)
    )
    best_len = len(best.stems) if best is not None else 0
    missing_best = stems - best.stems if best is not None else stems
    scattered = len(missing_best & src_stems) / len(stems) if stems else 0.0
    first = float(bool(lows & {"i", "me", "my", "we", "our", "us", "i'm", "i've", "i'd", "i'll"}))

    extra = {
        "align_mean": align_mean,
        "align_min": align_min,
        "align_unaligned": unaligned,
        "align_window": window,
        "order_kept": order,
        "antonym_or_swap": float(min(len(a.conflicts), 3)),
        "polarity_flips": float(min(len(a.polarity_flips), 3)),
        "numbers_missing_share": len(a.missing_numbers) / n_numbers if n_numbers else 0.0,
        "entities_missing_share": len(a.missing_entities) / caps if caps else 0.0,
        "dates_missing": float(min(dates_missing, 3)),
        "speaker_named": named,
        "speaker_own_share": own_share,
        "modal_unsupported": modal_unsupported,
        "claim_to_sentence_len": math.log1p(n) - math.log1p(best_len),
        "scattered": scattered,
        "claim_first_person": first,
    }
    values = [f[name] for name in LEXICAL_FEATURES]
    values += [extra[name] for name in EXTRA]
    return Extracted(a, values)


def _best_window(stems: set[str], sentences: Sequence[Sentence]) -> tuple[float, Sentence | None]:
    """Coverage of the claim stems by the best three consecutive sentences of one turn,
    and the single sentence that holds most of them."""
    if not stems or not sentences:
        return (1.0 if not stems else 0.0), None
    hits = [stems & s.stems for s in sentences]
    best_i = max(range(len(sentences)), key=lambda i: len(hits[i]))
    best = sentences[best_i] if hits[best_i] else None
    top = 0
    for i in range(len(sentences)):
        turn = sentences[i].turn
        union = set(hits[i])
        for j in (i + 1, i + 2):
            if j < len(sentences) and sentences[j].turn is turn:
                union |= hits[j]
        top = max(top, len(union))
    return top / len(stems), best


def _order_kept(stems: Sequence[str], best: Sentence | None) -> float:
    """Share of consecutive claim words (found in the best sentence) whose first positions
    there keep the claim's order; 1.0 when fewer than two are found."""
    if best is None:
        return 1.0
    first: dict[str, int] = {}
    for k, (st, c) in enumerate(zip(best.word_stems, best.content, strict=True)):
        if c and st not in first:
            first[st] = k
    pos = [first[s] for s in dict.fromkeys(stems) if s in first]
    if len(pos) < 2:
        return 1.0
    kept = sum(1 for x, y in itertools.pairwise(pos) if y > x)
    return kept / (len(pos) - 1)


def _speakers(claim_text: str, ev: Evidence) -> tuple[float, float]:
    """(whether the claim names a speaker of the transcript, mean over the clauses that
    name one of own / (own + best other) of the clause's words said by each)."""
    speakers = ev.speakers
    if len(speakers) < 2:
        return 0.0, 0.5
    named_any = False
    shares: list[float] = []
    for clause in _CLAUSE.split(claim_text):
        raws = _WORD_RE.findall(clause)
        named: list[str] = []
        words: set[str] = set()
        for raw, (low, st, content, _) in zip(raws, parts_of(raws), strict=True):
            if low in speakers:
                if raw[:1].isupper():
                    named.append(low)
            elif content:
                words.add(st)
        if not named:
            continue
        named_any = True
        if not words:
            continue
        own = len(words & speakers[named[0]])
        other = max(len(words & said) for who, said in speakers.items() if who != named[0])
        shares.append((own + 0.5) / (own + other + 1.0))
    return float(named_any), (sum(shares) / len(shares) if shares else 0.5)
