"""The README's "Use it as a library" example runs and prints what the README says it prints.

The code is taken from README.md as it stands (the section's `python` block) and run in a
fresh interpreter; its output must equal the section's `text` block. A change to the
guards that alters the example's outcome, or an edit of the example that breaks it, fails
here instead of in a reader's hands.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

README = Path(__file__).resolve().parents[2] / "README.md"
SECTION = "## Use it as a library"


def _blocks(language: str) -> list[str]:
    text = README.read_text(encoding="utf-8")
    start = text.index(f"\n{SECTION}\n")
    end = text.find("\n## ", start + 1)
    section = text[start : end if end != -1 else len(text)]
    return re.findall(rf"^```{language}\n(.*?)^```$", section, flags=re.DOTALL | re.MULTILINE)


def test_the_section_has_one_example_and_its_output() -> None:
    assert len(_blocks("python")) == 1
    assert len(_blocks("text")) == 1


def test_the_library_example_runs_and_prints_the_documented_output(tmp_path: Path) -> None:
    (code,) = _blocks("python")
    (expected,) = _blocks("text")
    assert "from groundwire import" in code
    script = tmp_path / "example.py"
    script.write_text(code, encoding="utf-8")
    proc = subprocess.run(
        [sys.executable, str(script)],
        cwd=tmp_path,  # not the repository: the installed package is what is imported
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == expected
    assert "c-1 block" in proc.stdout and "c-2 auto_approve" in proc.stdout
