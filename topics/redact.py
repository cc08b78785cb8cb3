"""Credentials out of URLs before a URL is shown anywhere.

A URL a deployment configures (the LLM endpoint's base URL, the issue tracker's API base,
the regeneration webhook, Prometheus, Redis, a Kafka bootstrap list) may carry a user and
password (`https://user:pass@host/`, `redis://:pass@host:6379/0`) or a credential in its
query (`?password=...`, `?token=...`). The client that connects needs the URL as it is;
nothing that shows it (a log line, an exception's message, `/healthz`, a CLI error, a
repr) may. `redact_url` is the one helper every such place calls.

It works on free text, not on one parsed URL, because what is shown is usually a message
around the URL (an httpx error, a librdkafka error naming its brokers, a comma-separated
bootstrap list): every `scheme://userinfo@` in the text loses its userinfo. The userinfo
ends at the last `@` before the first `/`, `?`, `#` or whitespace, which is where URL
parsers (httpx, urllib, redis-py) end the authority, so a password holding an `@` is
removed whole. It lives in `topics`, the one layer every other may import.
"""

from __future__ import annotations

import re

__all__ = ["REDACTED", "redact_url"]

REDACTED = "***"

# scheme://userinfo@ : the greedy run backtracks to the authority's last '@'; '_' is
# allowed in the scheme for librdkafka's SASL_SSL://host forms
_USERINFO = re.compile(r"(?P<scheme>[A-Za-z][A-Za-z0-9+._\-]*://)[^\s/?#]*@")
# ?password=... / &token=... : query parameters that carry a credential (redis-py reads
# `password` from the query; tokens in query strings are common for webhooks)
_QUERY_SECRET = re.compile(
    r"(?P<name>[?&](?:password|passwd|pass|pwd|token|access_token|api_key|apikey|key|secret"
    r"|auth|sig|signature)=)[^&#\s'\"]*",
    re.IGNORECASE,
)


def redact_url(text: str) -> str:
    """`text` with the userinfo of every URL in it replaced by `***`, and the values of
    credential-named query parameters too. Text without such parts is returned as is."""
    if "@" in text:
        text = _USERINFO.sub(lambda m: f"{m.group('scheme')}{REDACTED}@", text)
    if "=" in text:
        text = _QUERY_SECRET.sub(lambda m: f"{m.group('name')}{REDACTED}", text)
    return text
