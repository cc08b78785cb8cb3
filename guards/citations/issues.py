"""Issue citations: does the configured tracker know issue #N?

Three trackers: a local file (a JSON export or one number per line, re-read when it
changes), GitHub and GitLab over their REST APIs. A tracker answers True, False, or None
when it cannot tell (unreachable, rate-limited, unreadable file); None is transient, so
an outage is retried soon rather than remembered as "issue not found". Tokens only
authorise: a tracker's repr never shows them.

A REST lookup is bounded like a URL check (`url.py`): `timeout_s` bounds the whole
request (connect, headers and body together, `deadline.py`), not each read, so a tracker
or a proxy in front of it that drips its answer cannot hold the screen batch; and only
the status decides, so at most `BODY_DRAIN_BYTES` of the body are read (after inflating,
by the verifier's own bounded reader: httpx would inflate a whole gzip chunk at once), just
enough for a small answer to leave the connection reusable.
"""

from __future__ import annotations

import contextlib
import json
import re
import threading
from pathlib import Path
from typing import Protocol
from urllib.parse import quote

import httpx
from pydantic import SecretStr

from groundwire.guards.citations.cache import CitationVerdict
from groundwire.guards.citations.deadline import within
from groundwire.guards.citations.url import outbound_client, read_bounded
from groundwire.guards.config import CitationConfig

__all__ = [
    "FileIssueTracker",
    "GitHubIssueTracker",
    "GitLabIssueTracker",
    "IssueTracker",
    "build_issue_tracker",
]

_GITHUB_REPO = re.compile(r"^[A-Za-z0-9_.-]{1,100}/[A-Za-z0-9_.-]{1,100}$")
# Body bytes read after the status: an issue's JSON is a few KiB; reading a small one to
# its end lets the pooled connection serve the next lookup, a larger one is cut off.
BODY_DRAIN_BYTES = 65_536


class IssueTracker(Protocol):
    """Answers "does issue N exist?": True, False, or None when it cannot tell."""

    def exists(self, number: int) -> CitationVerdict: ...


class FileIssueTracker:
    """Issue numbers from a local file: a JSON list (ints or objects with number/iid/id)
    or one number per line ("123" or "#123"). Re-read when the file changes."""

    def __init__(self, path: Path) -> None:
        self._path = path
        self._mtime: float | None = None
        self._numbers: frozenset[int] = frozenset()
        self._lock = threading.Lock()

    def _load(self) -> frozenset[int]:
        mtime = self._path.stat().st_mtime
        with self._lock:
            if mtime != self._mtime:
                text = self._path.read_text(encoding="utf-8")
                self._numbers = frozenset(_parse_issue_numbers(text))
                self._mtime = mtime
            return self._numbers

    def exists(self, number: int) -> CitationVerdict:
        try:
            numbers = self._load()
        except (OSError, ValueError) as exc:
            return CitationVerdict(
                None, f"issue file unreadable: {type(exc).__name__}", transient=True
            )
        if number in numbers:
            return CitationVerdict(True, "issue listed")
        return CitationVerdict(False, "issue not found")


def _parse_issue_numbers(text: str) -> list[int]:
    stripped = text.lstrip()
    if stripped.startswith("["):
        out: list[int] = []
        for item in json.loads(stripped):
            if isinstance(item, int):
                out.append(item)
            elif isinstance(item, dict):
                for key in ("number", "iid", "id"):
                    if isinstance(item.get(key), int):
                        out.append(item[key])
                        break
        return out
    return [
        int(line.strip().lstrip("#"))
        for line in text.splitlines()
        if line.strip().lstrip("#").isdigit()
    ]


class _RestIssueTracker:
    """Shared HTTP handling: 200 exists, 404/410 does not, anything else is unknown."""

    def __init__(self, token: str | SecretStr | None, timeout_s: float) -> None:
        self._token = token if isinstance(token, SecretStr) or token is None else SecretStr(token)
        self._timeout_s = timeout_s
        limits = httpx.Limits(max_connections=16, max_keepalive_connections=4)
        self._client = outbound_client(timeout_s, limits)

    def __repr__(self) -> str:  # never show the token
        return f"{type(self).__name__}(token={'***' if self._token else None})"

    def _secret(self) -> str | None:
        return self._token.get_secret_value() if self._token else None

    def _get(self, url: str, headers: dict[str, str]) -> CitationVerdict:
        try:
            # the deadline bounds the whole request, however slowly it drips
            with within(self._timeout_s), self._client.stream("GET", url, headers=headers) as r:
                status = r.status_code
                # the status is the answer; a body cut off by the deadline is not
                with contextlib.suppress(httpx.HTTPError):
                    read_bounded(r, BODY_DRAIN_BYTES)
        except httpx.HTTPError as exc:
            return CitationVerdict(
                None, f"tracker unreachable: {type(exc).__name__}", transient=True
            )
        if status == 200:
            return CitationVerdict(True, "issue exists")
        if status in (404, 410):
            return CitationVerdict(False, "issue not found")
        return CitationVerdict(None, f"tracker answered HTTP {status}", transient=True)

    def close(self) -> None:
        self._client.close()


class GitHubIssueTracker(_RestIssueTracker):
    def __init__(
        self,
        repo: str,
        token: str | SecretStr | None = None,
        api_base: str | None = None,
        timeout_s: float = 5.0,
    ) -> None:
        if not _GITHUB_REPO.match(repo):
            raise ValueError("GitHub repo must look like owner/name")
        super().__init__(token, timeout_s)
        self._base = (api_base or "https://api.github.com").rstrip("/")
        self._repo = repo

    def exists(self, number: int) -> CitationVerdict:
        headers = {"Accept": "application/vnd.github+json"}
        token = self._secret()
        if token:
            headers["Authorization"] = f"Bearer {token}"
        return self._get(f"{self._base}/repos/{self._repo}/issues/{int(number)}", headers)


class GitLabIssueTracker(_RestIssueTracker):
    def __init__(
        self,
        project: str,
        token: str | SecretStr | None = None,
        api_base: str | None = None,
        timeout_s: float = 5.0,
    ) -> None:
        super().__init__(token, timeout_s)
        self._base = (api_base or "https://gitlab.com/api/v4").rstrip("/")
        self._project = quote(project, safe="")

    def exists(self, number: int) -> CitationVerdict:
        token = self._secret()
        headers = {"PRIVATE-TOKEN": token} if token else {}
        return self._get(f"{self._base}/projects/{self._project}/issues/{int(number)}", headers)


def build_issue_tracker(cfg: CitationConfig) -> IssueTracker | None:
    """The tracker the config names, or None (issues then stay unverified)."""
    if cfg.issue_tracker == "file" and cfg.issue_file is not None:
        return FileIssueTracker(cfg.issue_file)
    if cfg.issue_tracker == "github" and cfg.issue_repo:
        return GitHubIssueTracker(
            cfg.issue_repo, cfg.issue_token, cfg.issue_api_base, cfg.url_timeout_s
        )
    if cfg.issue_tracker == "gitlab" and cfg.issue_repo:
        return GitLabIssueTracker(
            cfg.issue_repo, cfg.issue_token, cfg.issue_api_base, cfg.url_timeout_s
        )
    return None
