"""Build guards/grounding/data/given_names.txt, the given names of Faker's person
providers, so that the lexical verifier can tell a person's given name from a family
name (`lexical/given_names.py`).

    pip install faker==40.54.0            # build-time only; not a dependency
    python scripts/build_given_names.py           # write the table
    python scripts/build_given_names.py --check   # rebuild in memory, compare, exit 1 on drift

Source: the `first_names` (and `first_names_male` / `first_names_female`) lists of
Faker's person providers for the 26 Latin-script locales `bench/measure_name_slips.py`
measures with (lists of real names written for test data, MIT licence; nothing taken
from any grounding data, nothing added by hand; Faker's licence is shipped beside the
table as guards/grounding/data/FAKER-LICENSE.txt). Each name is folded to lower-case
ASCII; names of letters only are kept. A name Faker also lists as a family name in any
of those locales ("Jordan", "Thomas") is kept too: it is a given name as well, and the
rule reading the table only asks whether a word may be one. One name a line, sorted,
after `#` comments and a blank line, so a rebuild is byte-identical.
"""

from __future__ import annotations

import argparse
import importlib
import sys
import unicodedata
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "guards" / "grounding" / "data" / "given_names.txt"
FAKER_VERSION = "40.54.0"
LOCALES = [
    *("en_US", "en_GB", "en_IE", "de_DE", "fr_FR", "it_IT", "es_ES", "pt_BR", "pt_PT"),
    *("nl_NL", "pl_PL", "cs_CZ", "sv_SE", "da_DK", "no_NO", "fi_FI", "hu_HU", "ro_RO"),
    *("hr_HR", "sk_SK", "sl_SI", "lt_LT", "lv_LV", "et_EE", "tr_TR", "id_ID"),
]
ATTRS = ("first_names", "first_names_male", "first_names_female")


def _fold(word: str) -> str:
    return unicodedata.normalize("NFKD", word).encode("ascii", "ignore").decode().lower()


def build() -> tuple[str, int]:
    """The table's text and its number of names."""
    # imported by name: a build-time tool, not a dependency the type checker sees
    version = str(importlib.import_module("faker").VERSION)
    if version != FAKER_VERSION:
        raise SystemExit(f"faker {version}; the table is built from {FAKER_VERSION}")
    names: set[str] = set()
    for locale in LOCALES:
        provider = importlib.import_module(f"faker.providers.person.{locale}").Provider
        for attr in ATTRS:
            for raw in getattr(provider, attr, ()) or ():
                folded = _fold(raw)
                if folded.isalpha() and folded.isascii():
                    names.add(folded)
    head = [
        "# Given names of Faker's person providers (MIT licence, FAKER-LICENSE.txt), 26",
        f"# Latin-script locales, faker {FAKER_VERSION}, folded to lower-case ASCII;",
        "# built by scripts/build_given_names.py; do not edit.",
        "",
    ]
    return "\n".join([*head, *sorted(names)]) + "\n", len(names)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--check", action="store_true", help="compare with the shipped file")
    args = ap.parse_args()
    table, n = build()
    if args.check:
        same = OUT.read_text("utf-8") == table
        print("up to date" if same else f"{OUT} differs from a rebuild")
        return 0 if same else 1
    OUT.write_text(table, "utf-8")
    print(f"wrote {OUT.relative_to(ROOT)}: {n} names, {OUT.stat().st_size} bytes")
    return 0


if __name__ == "__main__":
    sys.exit(main())
