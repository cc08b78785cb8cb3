"""The root of every name a test run gives to what it writes on the shared broker and
Redis: topic prefixes (`RUN.` ...) and Redis key prefixes (`RUN:` ...).

One per pytest session, so that the session's cleanup (tests/conftest.py) unlinks its
own keys and never those of another run that shares the services at the same time (a
second checkout, a helper's run): a broad `gwtest*` cleanup at the end of one session
once deleted the answer-cache entries a concurrent session's test was about to read.
"""

from __future__ import annotations

import uuid

__all__ = ["RUN", "STALE_ROOT"]

RUN = f"gwtest{uuid.uuid4().hex[:8]}"
# what every run's names start with: keys under it that nobody has touched for hours were
# left by a run that could not clean up (killed), and are unlinked by the next one
STALE_ROOT = "gwtest"
