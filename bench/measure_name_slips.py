"""How often a spelling rule reads two different people's names as one name, and how
many typos it keeps: the numbers behind `spelling.one_name` (docs/grounding.md, a name
written differently).

    pip install faker   # measurement only; not a dependency of the project
    python bench/measure_name_slips.py

The names are Faker's given and family names of 26 Latin-script locales, folded to ASCII
(lists of real names written for test data, not taken from any grounding data). Every
ordered pair of two different names within one edit of each other (insertion, deletion,
substitution, swap of neighbours; the claim's word of six letters or more) is a pair of
different people: a rule that accepts it would approve a swapped person. Typos are all
the one-letter slips of each name and place name of six letters or more (first letter
kept): a letter dropped, a letter doubled, a neighbouring key for a letter, two
neighbours swapped. Rules compared:

* `edits`: the rule before session 11's fix (one edit from six letters, two from nine),
* `ending kept`: the same, with the first letter and the last two letters unchanged,
* `one_name`: what the verifier uses (ending kept, and only a doubled letter written
  once or two neighbours swapped),
* `long edits`: `ending kept` for words of nine letters or more only.

It measures; it asserts nothing (the rule is tested in
tests/unit/guards/grounding/test_spelling_questions.py).
"""

from __future__ import annotations

import collections
import importlib
import itertools
import unicodedata
from collections.abc import Callable, Iterable

from groundwire.guards.grounding.lexical.spelling import one_name

LOCALES = [
    *("en_US", "en_GB", "en_IE", "de_DE", "fr_FR", "it_IT", "es_ES", "pt_BR", "pt_PT"),
    *("nl_NL", "pl_PL", "cs_CZ", "sv_SE", "da_DK", "no_NO", "fi_FI", "hu_HU", "ro_RO"),
    *("hr_HR", "sk_SK", "sl_SI", "lt_LT", "lv_LV", "et_EE", "tr_TR", "id_ID"),
]
KEYS = ["qwertyuiop", "asdfghjkl", "zxcvbnm"]
_AT = {c: (r, i) for r, row in enumerate(KEYS) for i, c in enumerate(row)}


def _fold(word: str) -> str:
    return unicodedata.normalize("NFKD", word).encode("ascii", "ignore").decode().lower()


def _words(kind: str, attrs: Iterable[str]) -> set[str]:
    out: set[str] = set()
    for locale in LOCALES:
        try:
            provider = importlib.import_module(f"faker.providers.{kind}.{locale}").Provider
        except ImportError:
            continue
        for attr in attrs:
            for word in getattr(provider, attr, ()) or ():
                folded = _fold(word)
                if folded.isalpha():
                    out.add(folded)
    return out


def edits_within(a: str, b: str, limit: int) -> bool:
    """Optimal string alignment distance of `a` and `b` at most `limit`."""
    if abs(len(a) - len(b)) > limit:
        return False
    before: list[int] = []
    prev = list(range(len(b) + 1))
    for i in range(1, len(a) + 1):
        cur = [i] + [0] * len(b)
        for j in range(1, len(b) + 1):
            cur[j] = min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] != b[j - 1]))
            if i > 1 and j > 1 and a[i - 1] == b[j - 2] and a[i - 2] == b[j - 1]:
                cur[j] = min(cur[j], before[j - 2] + 1)
        before, prev = prev, cur
    return prev[-1] <= limit


def _edits(a: str, b: str) -> bool:
    return len(a) >= 6 and a[0] == b[0] and edits_within(a, b, 1 if len(a) < 9 else 2)


def _ending_kept(a: str, b: str) -> bool:
    return (
        len(a) >= 6
        and a[0] == b[0]
        and a[-2:] == b[-2:]
        and edits_within(a[1:-2], b[1:-2], 1 if len(a) < 9 else 2)
    )


def _long_edits(a: str, b: str) -> bool:
    return min(len(a), len(b)) >= 9 and _ending_kept(a, b)


RULES: dict[str, Callable[[str, str], bool]] = {
    "edits": _edits,
    "ending kept": _ending_kept,
    "one_name": one_name,
    "long edits": _long_edits,
}


def near_pairs(words: set[str]) -> set[tuple[str, str]]:
    """The pairs of different words within one edit (shared single deletions)."""
    index: dict[str, set[str]] = collections.defaultdict(set)
    for w in words:
        index[w].add(w)
        for k in range(len(w)):
            index[w[:k] + w[k + 1 :]].add(w)
    out: set[tuple[str, str]] = set()
    for group in index.values():
        out.update(itertools.permutations(sorted(group), 2))
    return out


def typos(word: str) -> list[str]:
    """The one-letter slips of `word`, first letter kept."""
    out = []
    for k in range(1, len(word)):
        out.append(word[:k] + word[k + 1 :])
        out.append(word[:k] + word[k] + word[k:])
        r, i = _AT.get(word[k], (9, 99))
        out += [word[:k] + c + word[k + 1 :] for c, (rr, ii) in _AT.items() if c != word[k]
                and abs(rr - r) <= 1 and abs(ii - i) <= 1]  # fmt: skip
        if k + 1 < len(word):
            out.append(word[:k] + word[k + 1] + word[k] + word[k + 2 :])
    return [t for t in out if t != word and len(t) >= 6]


def main() -> None:
    given = _words("person", ("first_names", "first_names_male", "first_names_female"))
    family = _words("person", ("last_names",))
    places = _words("address", ("countries", "cities", "city_names"))
    print(f"given names {len(given)}, family names {len(family)}, place words {len(places)}")
    for label, words in (("given", given), ("family", family)):
        pairs = [(a, b) for a, b in near_pairs(words) if len(a) >= 6]
        counts = {name: sum(rule(a, b) for a, b in pairs) for name, rule in RULES.items()}
        print(f"{label} names: {len(pairs)} ordered pairs of different names; read as one:")
        print("   " + ", ".join(f"{name} {n}" for name, n in counts.items()))
    for label, words in (("names", given | family), ("places", places)):
        slips = [(t, w) for w in words if len(w) >= 6 for t in typos(w)]
        kept = {n: sum(rule(t, w) for t, w in slips) / len(slips) for n, rule in RULES.items()}
        print(f"{label}: {len(slips)} typos; share read as the same name:")
        print("   " + ", ".join(f"{name} {share:.3f}" for name, share in kept.items()))


if __name__ == "__main__":
    main()
