"""Compile the hot guard modules unchanged (Cython or mypyc) beside their sources, for A/B runs.

The experiment of bench/results/pipeline.md (session 6, session 15): does compiling
today's pure-Python lexical verifier and hedge scanner, with no edit of the sources, cut
the screen stage's CPU enough to be worth a build step? This script builds the extension
modules into the source folders (where the editable install's import finds them before
the `.py`: extension modules come first in Python's import order), lists them, and
removes them again, so one worktree can alternate the compiled and the interpreted build:

    python bench/compile_modules.py build [--compiler cython|mypyc] [--set lexical-hedge]
    python bench/compile_modules.py status      # which .so files shadow a source now
    python bench/compile_modules.py clean       # back to the interpreted build

Cython runs in pure-Python mode with `annotation_typing=False`, `infer_types=False` and
`language_level=3`: neither the hints nor inference give a local a C type, so ints stay
unbounded, `str` stays `str` and every operation keeps Python's semantics; only the
interpreter's dispatch goes. mypyc does read the hints (checks them at run time and calls
compiled functions directly, past any monkeypatch), and resolves `groundwire.*` through
the typecheck tree of scripts/typecheck.sh. Each compiler's SKIP lists the modules it
cannot take as they are.

Nothing here is part of the shipped build: the generated C goes to build/compiled/
(git-ignored), the `.so` files beside the sources are untracked, and `clean` deletes them
(and the mypyc group library `build` put into site-packages, by its noted name).
Cython is not a dependency of the project: `pip install cython` into the virtualenv
before `build` (mypyc comes with the test extra's mypy).
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
BUILD = REPO / "build" / "compiled"
SUFFIX = sysconfig.get_config_var("EXT_SUFFIX") or ".so"
SITE = Path(sysconfig.get_paths()["purelib"])
HELPERS = BUILD / "mypyc-helpers.txt"  # the shared libraries `build` put into SITE

# Package roots: folder -> import name (setup.py's package_dir).
ROOTS = {"guards": "groundwire.guards"}

SETS: dict[str, tuple[str, ...]] = {
    # the candidates: the lexical verifier and the hedge scanner
    "lexical-hedge": ("guards/grounding/lexical/*.py", "guards/hedge/*.py"),
    "lexical": ("guards/grounding/lexical/*.py",),
    "hedge": ("guards/hedge/*.py",),
    # every other module the screen stage runs per claim, besides the two above
    "screen": (
        "guards/grounding/lexical/*.py",
        "guards/hedge/*.py",
        "guards/canonical.py",
        "guards/artifacts.py",
        "guards/bibrefs.py",
        "guards/cited_text.py",
        "guards/letter_runs.py",
        "guards/provenance.py",
        "guards/screening.py",
        "guards/citations/detect.py",
        "guards/grounder.py",
        "guards/grounding/base.py",
    ),
}


# Modules a compiler rejects as they are (the experiment edits no source), with why.
SKIP: dict[str, dict[str, str]] = {
    "cython": {
        # Cython 3.3.1 types `(True,) if c else (True, False)` as two C tuples of
        # different sizes and stops ("Incompatible types in conditional expression"),
        # with infer_types=False too
        "guards/grounding/lexical/slot_swaps.py": "ctuple conditional",
    },
    "mypyc": {
        # mypy in mypyc's stricter mode: 'Local variable "anchor" has inferred type None;
        # add an annotation' (line 308)
        "guards/grounding/lexical/slot_swaps.py": "needs an annotation",
        # interpreted classes (the learned and embedding verifiers, tests) subclass it
        "guards/grounding/lexical/verifier.py": "subclassed by interpreted classes",
    },
}


def sources(name: str, compiler: str) -> list[Path]:
    """The `.py` files of a set, `__init__.py` and the compiler's SKIP left out."""
    found: list[Path] = []
    for pattern in SETS[name]:
        found += sorted(
            p
            for p in REPO.glob(pattern)
            if p.name != "__init__.py" and str(p.relative_to(REPO)) not in SKIP[compiler]
        )
    return found


def module_name(path: Path) -> str:
    """A source file's import name in the installed layout (guards/ is groundwire.guards)."""
    rel = path.relative_to(REPO).with_suffix("")
    root, *rest = rel.parts
    return ".".join((ROOTS[root], *rest))


def shadowing() -> list[Path]:
    """Every extension module that sits beside a source file of a package root."""
    return sorted(p for root in ROOTS for p in (REPO / root).rglob(f"*{SUFFIX}"))


def build_cython(paths: list[Path], jobs: int) -> None:
    from Cython.Build import cythonize
    from setuptools import Distribution, Extension

    exts = [Extension(module_name(p), [str(p.relative_to(REPO))]) for p in paths]
    modules = cythonize(
        exts,
        build_dir=str(BUILD / "cython"),
        nthreads=jobs,
        quiet=True,
        compiler_directives={
            "language_level": 3,
            "annotation_typing": False,
            "infer_types": False,  # no C types inferred for locals either (C tuples of bools)
            "binding": True,  # functions keep introspection (inspect.signature, __wrapped__)
        },
    )
    dist = Distribution(
        {
            "ext_modules": modules,
            "package_dir": {v: k for k, v in ROOTS.items()},
            "script_name": "compile_modules.py",
        }
    )
    cmd = dist.get_command_obj("build_ext")
    cmd.inplace = True  # type: ignore[attr-defined]
    cmd.parallel = jobs  # type: ignore[attr-defined]
    cmd.build_temp = str(BUILD / "temp")  # type: ignore[attr-defined]
    cwd = os.getcwd()
    os.chdir(REPO)
    try:
        dist.run_command("build_ext")
    finally:
        os.chdir(cwd)


def build_mypyc(paths: list[Path]) -> None:
    # mypyc compiles the typecheck tree (build/typecheck/groundwire -> the real folders)
    # so that `groundwire.guards.*` resolves; the .so files land in a staging folder and
    # are copied beside the sources under their module's file name.
    subprocess.run(["bash", "scripts/typecheck.sh", "--version"], cwd=REPO, check=True)
    tree = REPO / "build" / "typecheck"
    rels = [tree / "groundwire" / p.relative_to(REPO) for p in paths]
    stage = BUILD / "mypyc"
    for p in paths:  # build_ext --inplace copies each module's .so here, by its name
        (stage / "groundwire" / p.relative_to(REPO)).parent.mkdir(parents=True, exist_ok=True)
    # not the project's [tool.mypy]: its warn_unused_* turn notes into a failed build, and
    # the optional extras' untyped imports are errors without its per-module overrides
    config = stage / "mypy.ini"
    config.write_text("[mypy]\nignore_missing_imports = True\n")
    env = dict(os.environ, MYPYPATH=str(tree))
    cmd = [sys.executable, "-m", "mypyc", "--config-file", str(config), *map(str, rels)]
    subprocess.run(cmd, cwd=stage, env=env, check=True)
    for p in paths:
        built = stage / "groundwire" / p.relative_to(REPO).with_suffix(SUFFIX)
        shutil.copy2(built, p.with_suffix(SUFFIX))
    # the group's shared library is imported top level: into site-packages, its name noted
    # so that `clean` removes it and nothing else (mypy itself ships a `*__mypyc` library)
    for helper in stage.glob(f"*__mypyc{SUFFIX}"):
        shutil.copy2(helper, SITE / helper.name)
        noted = HELPERS.read_text() if HELPERS.exists() else ""
        HELPERS.write_text(noted + helper.name + "\n")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("action", choices=("build", "clean", "status"))
    ap.add_argument("--compiler", choices=("cython", "mypyc"), default="cython")
    ap.add_argument("--set", choices=sorted(SETS), default="lexical-hedge")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument(
        "--keep", action="store_true", help="build: keep (and skip) modules built before"
    )
    args = ap.parse_args()
    if args.action == "clean" or (args.action == "build" and not args.keep):
        for so in shadowing():
            so.unlink()
        if HELPERS.exists():
            for name in HELPERS.read_text().split():
                (SITE / name).unlink(missing_ok=True)
            HELPERS.unlink()
    if args.action == "build":
        paths = sources(args.set, args.compiler)
        if args.compiler == "cython":
            build_cython(paths, args.jobs)
        else:
            build_mypyc(paths)
    found = shadowing()
    print(f"{len(found)} compiled modules shadow their sources")
    for so in found:
        print(f"  {so.relative_to(REPO)}")


if __name__ == "__main__":
    main()
