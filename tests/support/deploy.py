"""The deployment checks' question: would groundwire read this environment variable?

Answered from the Settings model itself (`env_name_error`, the same rule the worker
applies at start), so a renamed setting breaks the compose and Helm checks instead of
being refused by every deployed worker.
"""

from __future__ import annotations

from groundwire.streams.settings import env_name_error

settings_env_error = env_name_error
