"""What a claim's citations and named references are backed by (docs/spec.md §Citations).

A citation that exists is not yet support: models cite real ADRs, commits and pages that
say something else. Two checks run once the citations are verified, in the same process
that read the artifacts (the screen stage, `groundwire check`, a library caller):

* **artifact support.** Where the citation verifier could read what a verified artifact
  says (an ADR's body, a commit's message, a page's text: `CitationReport.artifact_text`),
  the claim, without the reference itself ("Per ADR-3,", "fixed in commit abc1234"), is
  checked against that text with the offline grounding verifier (`LexicalVerifier`):
  `supported` — the citation counts as support (also when every word of the claim is in
  the artifact and nothing denies it: a short claim scores low, it is not weak);
  `partial` — the artifact holds the core but not all of it; `unrelated` — it does not
  say it; `contradicted` — an antonym, a negation or a swapped name or number against it
  (here also a name the record mentions elsewhere, say as a rejected option, when the
  sentence that matches the claim names another one in its place).
  The tier policy blocks a contradicted claim and sends a partial or unrelated one to
  review. A claim that is nothing but the reference ("See <url>") has nothing to check:
  its support stays unset.
* **phantom references.** File paths, file names, fields and parameters the claim names
  (and, `bibrefs.py`, footnotes, author-year citations and standards it cites)
  (`src/worker/retry_policy.py`, `max_retries`, `maxRetries`, `--timeout`, `` `name` ``,
  `retry()`) that no admissible source turn and no cited artifact contains are listed in
  `ScreenedClaim.phantoms`; the policy never approves such a claim. The check runs only
  when there is something to check against (an admissible turn or an artifact's text),
  and never counts the claim's owner (`user_id`, `subject`) as a phantom.

Both are pure CPU (the lexical verifier: no model, no network) and bounded: the claim is
read up to `MAX_CLAIM_CHARS`, an artifact up to `citation.artifact_max_chars`, the
evidence up to `grounding.max_evidence_chars`.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from groundwire.guards.bibrefs import phantom_bibrefs
from groundwire.guards.citations import detect
from groundwire.guards.config import GuardsConfig
from groundwire.guards.grounding.lexical import LexicalVerifier, tokenize
from groundwire.guards.grounding.lexical.features import Analysis
from groundwire.guards.protocols import GroundingRequest
from groundwire.guards.provenance import eligible_turns
from groundwire.topics.records import CitationReport, Claim, ScreenedClaim, SourceTurn
from groundwire.topics.vocab import CitationSupport, GroundingVerdict

__all__ = [
    "MAX_PHANTOMS",
    "check_artifacts",
    "claim_without_references",
    "named_references",
    "phantom_references",
]

MAX_CLAIM_CHARS = 20_000
MAX_PHANTOMS = 10
DETAIL_CHARS = 300

# What introduces a citation ("per ADR-3", "see the page", "fixed in commit", "according
# to issue"): removed with the citation, so the support check reads only what the claim
# asserts. Anchored at the end of the text before the citation.
_LEAD_IN = re.compile(
    r"(?:\b(?:per|see|cf\.?|in|from|via|by|at|according\s+to|as\s+(?:stated|described|"
    r"decided|noted|documented)\s+in)\s+)?"
    r"(?:\b(?:the\s+)?(?:commit|adr|issue|pull\s+request|pr|page|link|url|ticket|"
    r"document|doc|docs)\s+)?$",
    re.IGNORECASE,
)

# Named references, by shape. A path: segments joined by "/" (or "\"): three or more,
# or two when the last has a file extension or the path is anchored ("/etc/hosts",
# "./run.sh", "C:\app"); "and/or", "I/O", "km/h" and "24/7" are none. A file name: a
# name of two or more characters, a dot and a lower-case extension ("retry.py",
# "guards.example.yaml"; not "e.g.", "3.11" or "U.S."). Fields and
# parameters: snake_case and SCREAMING_SNAKE (an underscore between letters or digits),
# camelCase (a lower-case run, then capitalised runs), `--long-flags`, `backticked` text,
# and calls written with parentheses ("retry()").
_PATH = re.compile(
    r"(?<![\w./\\-])(?:\.{1,2}[/\\]|[A-Za-z]:[/\\]|/)?(?:[\w.-]+[/\\])+[\w.-]*\w"
    r"|(?<![\w./\\-])(?:\.{1,2}[/\\]|[A-Za-z]:[/\\])?[\w.-]+[/\\][\w-]+\.[a-z][a-z0-9]{0,5}"
    r"(?![\w/\\])(?!\.\w)"
)
# (a full stop after the name ends the sentence: "It is in retry.py.")
_FILE = re.compile(r"(?<![\w./\\-])[\w-]{2,}(?:\.[\w-]+)*\.[a-z][a-z0-9]{0,5}(?![\w/\\-])(?!\.\w)")
_SNAKE = re.compile(r"(?<![\w-])[A-Za-z][A-Za-z0-9]*(?:_[A-Za-z0-9]+)+(?![\w-])")
_CAMEL = re.compile(r"(?<![\w-])[a-z][a-z0-9]*(?:[A-Z][a-z0-9]+)+(?![\w-])")
_FLAG = re.compile(r"(?<![\w-])--[A-Za-z][\w-]*\w")
_BACKTICK = re.compile(r"`([^`\s]{1,120})`")
_CALL = re.compile(r"(?<![\w.])[A-Za-z_][\w.]*\w\(\)")
# Cheap markers: a dot followed by a file extension's first letter, and a lower-case
# letter followed by an upper-case one (camelCase). Only whether they occur is read, so
# each starts at its rarer character and looks behind for the rest ("\w\.[a-z]" and
# "[a-z][A-Z]" occur exactly when these do): the regex engine then skips to candidate
# characters instead of trying every position (measured ~13x and ~2x cheaper on prose).
_DOT_EXT = re.compile(r"\.(?<=\w\.)[a-z]")
_LOWER_UPPER = re.compile(r"[A-Z](?<=[a-z][A-Z])")
_CAMEL_SPLIT = re.compile(r"(?<=[a-z0-9])(?=[A-Z])")
_SEPARATORS = re.compile(r"[-_]")
_SPACES = re.compile(r"\s+")
_EMPTY_BRACKETS = re.compile(r"\(\s*\)|\[\s*\]")

_verifiers: dict[int, tuple[object, LexicalVerifier]] = {}


def _verifier(cfg: GuardsConfig) -> LexicalVerifier:
    """One offline verifier per grounding settings object (cheap to build, kept anyway)."""
    key = id(cfg.grounding)
    hit = _verifiers.get(key)
    if hit is None or hit[0] is not cfg.grounding:
        if len(_verifiers) > 64:
            _verifiers.clear()
        hit = (cfg.grounding, LexicalVerifier(cfg.grounding, aligned_swaps=True))
        _verifiers[key] = hit
    return hit[1]


def claim_without_references(text: str) -> str:
    """The claim with its citations, and the words that introduce them, removed."""
    text = text[:MAX_CLAIM_CHARS]
    out: list[str] = []
    pos = 0
    for c in detect(text):
        before = text[pos : c.start]
        lead = _LEAD_IN.search(before)
        out.append(before[: lead.start()] if lead else before)
        pos = c.end
    out.append(text[pos:])
    core = _EMPTY_BRACKETS.sub(" ", " ".join(out))
    return _SPACES.sub(" ", core).strip(" ,;:.-")


def artifact_support(
    claim: Claim, artifact: str, cfg: GuardsConfig, label: str = "artifact"
) -> tuple[CitationSupport | None, str]:
    """Does `artifact` say what `claim` says? (None, why) when there is nothing to check."""
    core = claim_without_references(claim.content)
    if not any(t.content for t in tokenize(core)):
        return None, "the claim only points at the artifact"
    turn = SourceTurn(id=label, text=artifact, source="corpus")
    request = GroundingRequest(claim.model_copy(update={"content": core}), [turn])
    report, analysis = _verifier(cfg).verify_with_analysis(request)
    detail = report.reasoning[:DETAIL_CHARS]
    verdict = report.verdict
    if verdict is GroundingVerdict.SUPPORTED:
        return CitationSupport.SUPPORTED, detail
    if verdict is GroundingVerdict.PARTIAL:
        if analysis is not None and _fully_covered(analysis):
            # every word of the claim is in the artifact the claim itself points at, and
            # nothing denies it: a short claim ("Fixed in commit ...") scores low, not weak
            return CitationSupport.SUPPORTED, detail
        return CitationSupport.PARTIAL, detail
    if verdict is GroundingVerdict.NOT_SUPPORTED:
        if analysis is not None and (analysis.conflicts or analysis.polarity_flips):
            return CitationSupport.CONTRADICTED, detail
        return CitationSupport.UNRELATED, detail
    return None, detail  # the check itself failed: it neither helps nor hurts


def _fully_covered(a: Analysis) -> bool:
    return (
        a.features["coverage"] >= 1.0
        and not (a.missing_numbers or a.missing_entities or a.conflicts or a.polarity_flips)
        and not a.negation_flip
    )


def _named(text: str) -> list[tuple[str, str]]:
    """(kind, name) of every named reference in `text`, in order, without repeats; URLs
    and other citations are not names (they are checked as citations)."""
    # Most claims are prose with none of the characters a name needs: each pattern runs
    # only when its marker is in the text (measured: the scans were ~80 % of screening).
    # The usual answer, no marker at all, is found without building the table below.
    if not (
        "/" in text
        or "\\" in text
        or "--" in text
        or "`" in text
        or "()" in text
        or "_" in text
        or _DOT_EXT.search(text) is not None
        or _LOWER_UPPER.search(text) is not None
    ):
        return []
    markers = {
        "path": "/" in text or "\\" in text,
        "file": _DOT_EXT.search(text) is not None,
        "flag": "--" in text,
        "code": "`" in text,
        "call": "()" in text,
        "snake": "_" in text,
        "camel": _LOWER_UPPER.search(text) is not None,
    }
    for c in reversed(detect(text)):
        text = text[: c.start] + " " * (c.end - c.start) + text[c.end :]
    found: list[tuple[int, str, str]] = []
    taken: list[tuple[int, int]] = []
    for kind, marker, pattern in (
        ("path", "path", _PATH),
        ("file", "file", _FILE),
        ("flag", "flag", _FLAG),
        ("code", "code", _BACKTICK),
        ("call", "call", _CALL),
        ("field", "snake", _SNAKE),
        ("field", "camel", _CAMEL),
    ):
        if not markers[marker]:
            continue
        for m in pattern.finditer(text):
            start, end = m.span(1) if kind == "code" else m.span()
            if any(a <= start < b or a < end <= b for a, b in taken):
                continue  # part of a longer reference already taken ("retry_policy.py")
            name = text[start:end]
            if kind == "path" and not _is_path(name):
                continue
            taken.append(m.span())
            found.append((start, kind, name))
    seen: set[str] = set()
    out: list[tuple[str, str]] = []
    for _, kind, name in sorted(found):
        if name.lower() not in seen:
            seen.add(name.lower())
            out.append((kind, name))
    return out


def _is_path(name: str) -> bool:
    parts = [p for p in re.split(r"[/\\]", name) if p not in ("", ".", "..")]
    if any(p.isdigit() for p in parts):
        return False  # a date or a ratio, not a path
    has_ext = re.search(r"\.[a-z][a-z0-9]{0,5}$", parts[-1]) is not None if parts else False
    anchored = name.startswith((".", "/", "\\")) or re.match(r"[A-Za-z]:", name) is not None
    return len(parts) >= 3 or (len(parts) == 2 and (has_ext or anchored)) or (has_ext and anchored)


def _plain(text: str) -> str:
    return _SPACES.sub(" ", text.lower().replace("\\", "/"))


def _found(kind: str, name: str, plain: str, joined: str, spaced: str) -> bool:
    """Whether a source names it: paths, files and flags as written (case aside); fields
    also with other separators ("max_retries", "maxRetries", "max-retries", "max retries")."""
    low = _plain(name)
    if kind in ("path", "file", "flag") or "/" in low:
        return low in plain
    words = _CAMEL_SPLIT.sub(" ", name.strip("()")).lower()
    return (
        low in plain
        or _SEPARATORS.sub("", low.strip("()")) in joined
        or _SPACES.sub(" ", _SEPARATORS.sub(" ", words)).strip() in spaced
    )


def named_references(text: str) -> list[str]:
    """Every file path, file name, field, parameter, flag and call `text` names, in order,
    without repeats (what `phantom_references` checks; read-time faithfulness counts them
    for its `fields_total`)."""
    return [name for _, name in _named(text[:MAX_CLAIM_CHARS])]


def phantom_references(
    claim: Claim, sources: Iterable[str], owner: Sequence[str] = ()
) -> list[str]:
    """Names in the claim that none of `sources` contains (at most `MAX_PHANTOMS`)."""
    names = _named(claim.content[:MAX_CLAIM_CHARS])
    if not names:
        return []
    plain = " ".join(_plain(s) for s in sources)
    joined = _SEPARATORS.sub("", plain)
    spaced = _SPACES.sub(" ", _SEPARATORS.sub(" ", plain))
    mine = {o.lower() for o in owner if o}
    out: list[str] = []
    for kind, name in names:
        if name.lower() in mine or _found(kind, name, plain, joined, spaced):
            continue
        out.append(name)
        if len(out) == MAX_PHANTOMS:
            break
    return out


def check_artifacts(screened: ScreenedClaim, cfg: GuardsConfig) -> ScreenedClaim:
    """Fill in each verified citation's `support` and the claim's `phantoms`, in place."""
    claim = screened.claim
    texts: list[str] = []
    for report in screened.citations:
        text = report.artifact_text() if report.verified else None
        if not text:
            continue
        texts.append(text)
        _support(report, claim, text, cfg)
    turns = eligible_turns(claim, screened.provenance)
    budget = cfg.grounding.max_evidence_chars
    sources = [t.text[:budget] for t in turns] + texts
    if any(sources):
        owner = [claim.user_id, claim.subject or ""]
        # and citations of documents no source gives ("[1]", "RFC 9999": `bibrefs.py`);
        # write path only: an answer's own citations are read by `faithfulness/citations`
        found = phantom_references(claim, sources, owner)
        found += phantom_bibrefs(claim.content[:MAX_CLAIM_CHARS], sources)
        screened.phantoms = found[:MAX_PHANTOMS]
    return screened


def _support(report: CitationReport, claim: Claim, text: str, cfg: GuardsConfig) -> None:
    support, detail = artifact_support(claim, text, cfg, label="artifact")
    report.support = support
    report.support_detail = detail if support is not None else ""
