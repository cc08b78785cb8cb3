"""Commit citations: is the cited hash a commit in one of the configured git repositories?

The hash comes from an untrusted claim, so it is validated as hex first and passed to
`git cat-file` as one element of an argument list: it never reaches a shell, and it cannot
land in an option slot. Git is told never to prompt and never to take optional locks (the
check must not block or disturb a repository in use). The same call returns the commit's
message (bounded), for the check that the commit says what the claim says.
"""

from __future__ import annotations

import os
import re
import subprocess
from collections.abc import Sequence
from pathlib import Path

from groundwire.guards.citations.cache import CitationVerdict

__all__ = ["verify_commit"]

_COMMIT_HASH = re.compile(r"^[0-9a-f]{7,40}$")


def verify_commit(
    sha: str, repos: Sequence[Path], timeout_s: float = 5.0, max_text: int = 0
) -> CitationVerdict:
    """`git cat-file -p <sha>^{commit}` in each configured repository (argument list, the
    hash validated first, so nothing from the claim reaches a shell or an option slot).

    With `max_text`, the verdict carries the commit's message (its first `max_text`
    characters), so the claim can be checked against what the commit says."""
    sha = sha.lower()
    if not _COMMIT_HASH.match(sha):
        return CitationVerdict(False, "not a commit hash")
    if not repos:
        return CitationVerdict(None, "no git repository configured")
    env = {**os.environ, "GIT_TERMINAL_PROMPT": "0", "GIT_OPTIONAL_LOCKS": "0"}
    for repo in repos:
        try:
            proc = subprocess.run(
                ["git", "-C", str(repo), "cat-file", "-p", f"{sha}^{{commit}}"],
                capture_output=True,
                text=True,
                encoding="utf-8",
                errors="replace",
                timeout=timeout_s,
                env=env,
                check=False,
            )
        except (OSError, subprocess.TimeoutExpired) as exc:
            return CitationVerdict(False, f"git failed: {type(exc).__name__}", transient=True)
        if proc.returncode == 0 and proc.stdout.startswith("tree "):
            # a commit object: headers, a blank line, the message
            message = proc.stdout.partition("\n\n")[2].strip()
            text = message[:max_text] if max_text > 0 else None
            return CitationVerdict(True, f"commit exists in {repo.name}", text=text)
    return CitationVerdict(False, "unknown commit")
