"""Package discovery for the repository's layout.

The four top-level folders (guards/, topics/, streams/, metrics/) install as
`groundwire.guards`, `groundwire.topics`, ... under one import namespace. Every folder
with an `__init__.py` below them is found here, so a new subpackage needs no edit of a
package list (tests/unit/test_packaging.py checks that none is left out).
"""

from setuptools import find_packages, setup

ROOTS = ("guards", "topics", "streams", "metrics")


def packages() -> list[str]:
    found = ["groundwire"]
    for root in ROOTS:
        found.append(f"groundwire.{root}")
        found += [f"groundwire.{root}.{sub}" for sub in find_packages(where=root)]
    return found


setup(
    packages=packages(),
    package_dir={"groundwire": "groundwire", **{f"groundwire.{r}": r for r in ROOTS}},
)
