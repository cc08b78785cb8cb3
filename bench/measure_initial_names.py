"""How many given names that are also common English words end as an English abstract
noun does: the number behind `names._ABSTRACT` (docs/grounding.md, a name the source
gives another). A capitalised common word that opens a sentence as a bare subject
("Grace is the CTO") is read as a name unless it ends so ("Security reviewed it").

    pip install faker   # measurement only; not a dependency of the project
    python bench/measure_initial_names.py

The names are Faker's given names of 11 Latin-script locales, folded to ASCII (lists of
real names written for test data, not taken from any grounding data); of those, the
ones `names.common_word` takes for a common word are the names the rule is for. Prints
their count and the ones with an abstract noun's ending. It measures; it asserts nothing
(the rule is tested in tests/unit/guards/grounding/test_initial_names.py).
"""

from __future__ import annotations

import importlib
import unicodedata

from groundwire.guards.grounding.lexical.names import _ABSTRACT, common_word

LOCALES = [
    *("en_US", "en_GB", "en_IE", "de_DE", "fr_FR", "it_IT", "es_ES", "pt_BR", "nl_NL"),
    *("pl_PL", "sv_SE"),
]
ATTRS = ("first_names", "first_names_male", "first_names_female")


def given_names() -> set[str]:
    """Faker's given names of `LOCALES`, folded to ASCII, letters only."""
    out: set[str] = set()
    for locale in LOCALES:
        provider = importlib.import_module(f"faker.providers.person.{locale}").Provider
        for attr in ATTRS:
            for name in getattr(provider, attr, ()) or ():
                folded = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode()
                if folded.isalpha():
                    out.add(folded)
    return out


def main() -> None:
    names = given_names()
    common = sorted(n for n in names if common_word(n.lower()))
    abstract = [n for n in common if n.lower().endswith(_ABSTRACT)]
    print(f"given names: {len(names)}; also common words: {len(common)}")
    print(f"ending as an abstract noun: {len(abstract)} {abstract}")


if __name__ == "__main__":
    main()
