"""One client for the guards' calls to an OpenAI-compatible chat-completions endpoint.

The grounding verifier (`llm.py`) uses it, and so can any other caller that wants a JSON
answer from a model (an LLM judge): it owns what every such caller needs to get right.

* **Structured output, detected.** Servers differ in what `response_format` they accept:
  OpenAI, vLLM, Ollama and llama.cpp's own server take `{"type": "json_schema", ...}`;
  llama-cpp-python's server answers that with HTTP 500 but takes `{"type":
  "json_object", "schema": ...}` and constrains decoding with it; others only promise
  valid JSON (`{"type": "json_object"}`), and some accept nothing (`prompt`: the prompt
  describes the JSON and the answer is validated). With `structured_output: auto` the
  client probes the endpoint before its first call, in that order, and keeps the first
  mode whose answer obeys the probe's schema (a mode accepted but not enforced only
  counts when none is enforced); the result is re-checked every `capability_ttl_s`. A
  request refused in its mode with HTTP 400/422 falls through to the next mode of the
  chain, and the client keeps the mode that answered.
* **The system role, detected.** Some chat templates have no system role and drop the
  message without a word: llama-cpp-python's `gemma` format does, so the verifier's
  instructions never reached the model. Along with the structured-output probe, the
  client sends one tiny request with a system message and one without; if the server
  counts the same prompt tokens for both, the instructions go at the head of the user
  message instead (`system_role`: True / False pins it).
* **Fixed schemas.** An `OutputSchema` is a module constant: nothing of a claim, a
  source or an answer ever goes into one, and the constructor refuses any string in it
  outside a plain ASCII alphabet (no quotes, backslashes, control or non-ASCII
  characters: an enum value with a `"` crashed llama-cpp-python's grammar compiler, and
  the server with it).
* **Every answer validated.** A cut-off answer (`finish_reason: length`), one that is not
  JSON, or JSON that is not the expected object is an error with a short reason, never a
  guess; the caller turns it into UNKNOWN.
* **A well-behaved caller.** Bounded concurrency (a semaphore), a timeout per request,
  retries with exponential backoff and full jitter on 429, 5xx, timeouts and transport
  errors, and a circuit breaker (`breaker.py`).
* **Cost.** Each call reports its tokens in and out (the server's `usage`, else an
  estimate of four characters a token), its outcome and its wall time to the process's
  observer (`set_observers`; the worker counts them as metrics). `TokenBudget` is a
  per-key token bucket a caller can hold calls against.
"""

from __future__ import annotations

import asyncio
import logging
import math
import random
import re
import time
from collections.abc import Callable, Mapping
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Any, Generic, Literal, TypeVar, get_args

import httpx
import orjson
from pydantic import BaseModel, SecretStr, ValidationError

from groundwire.guards.grounding.breaker import CircuitBreaker
from groundwire.topics.redact import redact_url

log = logging.getLogger(__name__)

StructuredMode = Literal["json_schema", "json_object_schema", "json_object", "prompt"]
STRUCTURED_MODES: tuple[StructuredMode, ...] = get_args(StructuredMode)
ModeSetting = Literal["auto", "json_schema", "json_object_schema", "json_object", "prompt"]

# What one call ended as (a closed set: the metrics label it).
CallOutcome = Literal[
    "ok",
    "truncated",  # finish_reason "length" and the text is not a complete answer
    "invalid_json",  # the answer is not JSON
    "invalid_answer",  # JSON, but not the expected object
    "refused",  # HTTP 4xx other than 429 (in every mode of the chain)
    "server_error",  # HTTP 429 / 5xx after the retries
    "timeout",
    "transport_error",
    "circuit_open",
]
CALL_OUTCOMES: tuple[str, ...] = get_args(CallOutcome)
FAILED_CALLS: frozenset[str] = frozenset(
    {"refused", "server_error", "timeout", "transport_error", "circuit_open"}
)

CHARS_PER_TOKEN = 4  # the estimate when a server reports no usage
_SAFE_SCHEMA_TEXT = re.compile(r"^[A-Za-z0-9_ .,:;()/+-]*$")
_TRANSIENT = frozenset({408, 429, 502, 503, 504})


class UnsafeSchema(ValueError):
    """A schema string outside the allowed alphabet."""


def check_schema_text(schema: object, path: str = "$") -> None:
    """Refuse any key or string value outside a plain ASCII alphabet, recursively."""
    if isinstance(schema, Mapping):
        for key, value in schema.items():
            if not isinstance(key, str) or not _SAFE_SCHEMA_TEXT.match(key):
                raise UnsafeSchema(f"schema key at {path} is not plain ASCII: {key!r}")
            check_schema_text(value, f"{path}.{key}")
    elif isinstance(schema, list | tuple):
        for i, value in enumerate(schema):
            check_schema_text(value, f"{path}[{i}]")
    elif isinstance(schema, str):
        if not _SAFE_SCHEMA_TEXT.match(schema):
            raise UnsafeSchema(f"schema string at {path} is not plain ASCII: {schema!r}")
    elif not (schema is None or isinstance(schema, bool | int | float)):
        raise UnsafeSchema(f"schema value at {path} is a {type(schema).__name__}")


@dataclass(frozen=True, slots=True)
class OutputSchema:
    """A fixed JSON Schema for an answer, in two dialects.

    `portable` stays inside what every schema-enforcing API accepts (types, enums,
    required properties, `additionalProperties: false`, no length or number limits): it
    goes out as `json_schema`. `bounded` may add `maxLength` / `maxItems`, which a
    grammar-constrained server (llama-cpp-python, `json_object_schema`) enforces while
    decoding, so a small model cannot ramble into the token limit; None = `portable`.
    """

    name: str
    portable: Mapping[str, Any]
    bounded: Mapping[str, Any] | None = None

    def __post_init__(self) -> None:
        if not re.fullmatch(r"[a-z][a-z0-9_]{0,63}", self.name):
            raise UnsafeSchema(f"schema name {self.name!r}: a-z, 0-9 and _ only")
        check_schema_text(self.portable)
        if self.bounded is not None:
            check_schema_text(self.bounded)

    def for_mode(self, mode: StructuredMode) -> Mapping[str, Any]:
        if mode == "json_object_schema" and self.bounded is not None:
            return self.bounded
        return self.portable


def response_format(mode: StructuredMode, schema: OutputSchema) -> dict[str, Any] | None:
    """The `response_format` member for `mode` (None: send none)."""
    if mode == "json_schema":
        return {
            "type": "json_schema",
            "json_schema": {"name": schema.name, "strict": True, "schema": schema.portable},
        }
    if mode == "json_object_schema":
        return {"type": "json_object", "schema": schema.for_mode(mode)}
    if mode == "json_object":
        return {"type": "json_object"}
    return None


# The capability probe: a question whose natural answer does not fit the schema, so an
# answer that fits shows the server enforced it. Same keyword set as the real schemas.
PROBE_SCHEMA = OutputSchema(
    name="groundwire_probe",
    portable={
        "type": "object",
        "properties": {"probe": {"type": "string", "enum": ["OK"]}},
        "required": ["probe"],
        "additionalProperties": False,
    },
    bounded={
        "type": "object",
        "properties": {
            "probe": {"type": "string", "enum": ["OK"]},
            "items": {"type": "array", "items": {"type": "string", "maxLength": 8}, "maxItems": 1},
        },
        "required": ["probe", "items"],
        "additionalProperties": False,
    },
)
PROBE_MESSAGES = [
    {"role": "system", "content": "You answer with JSON."},
    {"role": "user", "content": 'Reply with exactly {"hello": "world"}'},
]
PROBE_MAX_TOKENS = 48
# The system-role probe: the same user message with and without a system message, one
# token each; the server's prompt_tokens tell whether the system message reached the model.
SYSTEM_PROBE_MESSAGES = [
    {"role": "system", "content": "You answer in one word, in capital letters."},
    {"role": "user", "content": "Say OK."},
]


@dataclass(frozen=True, slots=True)
class LlmEndpoint:
    """Where and how to call. `api_key` is a SecretStr, so neither a repr nor
    `dataclasses.asdict` shows it; `base_url` is shown only through `redact_url` (it may
    carry `user:password@`)."""

    base_url: str
    model: str
    api_key: SecretStr | None = field(default=None, repr=False)
    timeout_s: float = 10.0
    max_concurrency: int = 8
    max_retries: int = 2
    backoff_base_s: float = 0.25
    backoff_max_s: float = 4.0
    breaker_failures: int = 5
    breaker_cooldown_s: float = 30.0
    max_tokens: int = 512
    structured_output: ModeSetting = "auto"
    capability_ttl_s: float = 600.0
    # Whether the server passes a system message to the model: None = detected with the
    # structured-output mode (auto), kept when that mode is pinned.
    system_role: bool | None = None

    def __post_init__(self) -> None:
        if isinstance(self.api_key, str):  # a library caller's plain key: wrapped at once
            object.__setattr__(self, "api_key", SecretStr(self.api_key))


@dataclass(frozen=True, slots=True)
class LlmCallUsage:
    """One call, as the observer sees it: no text, no tenant, only counts."""

    caller: str
    outcome: CallOutcome
    prompt_tokens: int
    completion_tokens: int
    seconds: float


@dataclass(frozen=True, slots=True)
class LlmClaimUsage:
    """One claim a verifier handled: all its calls together (verdict, rewrite, retries)."""

    outcome: Literal["answered", "unknown", "over_budget"]
    prompt_tokens: int
    completion_tokens: int
    seconds: float


CLAIM_OUTCOMES: tuple[str, ...] = ("answered", "unknown", "over_budget")

CallObserver = Callable[[LlmCallUsage], None]
ClaimObserver = Callable[[LlmClaimUsage], None]
_observers: dict[str, Any] = {"call": None, "claim": None}


def set_observers(
    on_call: CallObserver | None = None, on_claim: ClaimObserver | None = None
) -> None:
    """Where this process's LLM usage goes (the worker: metrics). None: nowhere."""
    _observers["call"] = on_call
    _observers["claim"] = on_claim


class CallTally:
    """One caller's calls, counted in this process while a job runs, for a job whose
    metrics are exported by another process (`groundwire scan` runs as a CronJob or a
    child of the worker: its judge's calls travel in the scan's report, and the memory
    stage counts them). Calls of other callers go on to the observer that was set."""

    SECONDS_KEPT = 1_000  # per-call wall times kept for the histogram; the rest only summed

    def __init__(self, caller: str) -> None:
        self.caller = caller
        self.calls: dict[str, int] = {}
        self.prompt_tokens = 0
        self.completion_tokens = 0
        self.seconds: list[float] = []
        self.seconds_total = 0.0
        self._previous: CallObserver | None = None

    def __enter__(self) -> CallTally:
        self._previous = _observers["call"]
        _observers["call"] = self._on_call
        return self

    def __exit__(self, *_exc: object) -> None:
        _observers["call"] = self._previous

    def _on_call(self, usage: LlmCallUsage) -> None:
        if usage.caller != self.caller:
            if self._previous is not None:
                self._previous(usage)
            return
        self.calls[usage.outcome] = self.calls.get(usage.outcome, 0) + 1
        self.prompt_tokens += max(usage.prompt_tokens, 0)
        self.completion_tokens += max(usage.completion_tokens, 0)
        if usage.seconds >= 0:
            self.seconds_total += usage.seconds
            if len(self.seconds) < self.SECONDS_KEPT:
                self.seconds.append(round(usage.seconds, 4))


def observe_claim(usage: LlmClaimUsage) -> None:
    _notify("claim", usage)


def _notify(kind: str, usage: object) -> None:
    observer = _observers[kind]
    if observer is None:
        return
    try:
        observer(usage)
    except Exception:  # counting must never fail a claim
        log.exception("llm usage observer failed")


def estimate_tokens(*texts: str) -> int:
    return sum(math.ceil(len(t) / CHARS_PER_TOKEN) for t in texts)


M = TypeVar("M", bound=BaseModel)


@dataclass(slots=True)
class LlmResult(Generic[M]):
    """A call's answer (`value`) or why there is none (`error`), with its cost."""

    value: M | None
    outcome: CallOutcome
    error: str = ""
    prompt_tokens: int = 0
    completion_tokens: int = 0
    seconds: float = 0.0
    mode: StructuredMode | None = None

    @property
    def tokens(self) -> int:
        return self.prompt_tokens + self.completion_tokens


class _CircuitOpened(Exception):
    """The breaker opened while this call waited for its turn (or between its retries)."""


# Set for a call admitted while the breaker was closed: such a call gives up as soon as
# the breaker opens, instead of waiting its turn behind the concurrency bound and then
# hitting the endpoint that other calls just found dead (each queued call would otherwise
# wait out its own timeouts and retries: the pile-up the breaker exists to prevent).
_GATED: ContextVar[bool] = ContextVar("groundwire_llm_gated", default=False)


class _CallFailed(Exception):
    def __init__(self, outcome: CallOutcome, reason: str) -> None:
        super().__init__(reason)
        self.outcome: CallOutcome = outcome
        self.reason = reason


@dataclass(slots=True)
class _Reply:
    status: int
    content: str | None = None
    finish_reason: str | None = None
    prompt_tokens: int | None = None
    completion_tokens: int | None = None


def _extract_json_text(text: str) -> str:
    """`prompt` mode only: the object between the first `{` and the last `}` (models
    without constrained decoding like to wrap JSON in prose or code fences)."""
    start, end = text.find("{"), text.rfind("}")
    return text[start : end + 1] if 0 <= start < end else text


class LlmClient:
    """Calls one endpoint for one or more callers; see the module docstring."""

    def __init__(
        self,
        endpoint: LlmEndpoint,
        client: httpx.AsyncClient | None = None,
        *,
        rng: random.Random | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        if not endpoint.base_url or not endpoint.model:
            raise ValueError("an LLM endpoint needs a base URL and a model")
        self.endpoint = endpoint
        self._url = endpoint.base_url.rstrip("/") + "/chat/completions"
        self.shown_url = redact_url(self._url)  # what logs and reprs name
        self._client = client
        self._own_client = client is None
        self._sem = asyncio.Semaphore(max(1, endpoint.max_concurrency))
        self.breaker = CircuitBreaker(endpoint.breaker_failures, endpoint.breaker_cooldown_s)
        self._rng = rng or random.Random()
        self._clock = clock
        self._detect_lock = asyncio.Lock()
        self._probe_settled = asyncio.Condition()
        pinned = endpoint.structured_output
        self._mode: StructuredMode | None = None if pinned == "auto" else pinned
        self._mode_at = 0.0
        self._system_role: bool | None = endpoint.system_role
        if self._system_role is None and pinned != "auto":
            self._system_role = True

    def __repr__(self) -> str:  # never show the key
        return f"LlmClient(url={self.shown_url!r}, model={self.endpoint.model!r})"

    @property
    def mode(self) -> StructuredMode | None:
        """The structured-output mode in use (None: not detected yet)."""
        return self._mode

    @property
    def system_role(self) -> bool | None:
        """Whether instructions go in a system message (None: not detected yet)."""
        return self._system_role

    async def aclose(self) -> None:
        if self._client is not None and self._own_client:
            await self._client.aclose()
            self._client = None

    def _http(self) -> httpx.AsyncClient:
        if self._client is None:
            limits = httpx.Limits(max_connections=max(1, self.endpoint.max_concurrency))
            self._client = httpx.AsyncClient(timeout=self.endpoint.timeout_s, limits=limits)
        return self._client

    # -- the one public call -----------------------------------------------------------

    async def complete_json(
        self,
        caller: str,
        system: str,
        user: str,
        schema: OutputSchema,
        model: type[M],
        *,
        max_tokens: int | None = None,
    ) -> LlmResult[M]:
        """One chat completion whose answer must be a `model` object; never raises."""
        started = self._clock()
        result: LlmResult[M]
        circuit_open = "circuit open: verifier endpoint recently failing"
        if not await self._admitted():
            result = LlmResult(None, "circuit_open", circuit_open)
        else:
            gated = _GATED.set(self.breaker.state == "closed")
            try:
                result = await self._call(system, user, schema, model, max_tokens)
            except _CircuitOpened:  # nothing learnt about the endpoint from this call
                result = LlmResult(None, "circuit_open", circuit_open)
            except _CallFailed as exc:
                self.breaker.record_failure()
                log.warning("llm call (%s) failed: %s", caller, exc.reason)
                result = LlmResult(None, exc.outcome, f"verifier call failed: {exc.reason}")
            except BaseException:  # a bug or a cancellation: never leave a probe hanging
                self.breaker.record_failure()
                raise
            else:
                self.breaker.record_success()  # the endpoint answered, whatever it said
            finally:
                _GATED.reset(gated)
                async with self._probe_settled:
                    self._probe_settled.notify_all()
            if result.prompt_tokens == 0 and result.outcome not in FAILED_CALLS:
                result.prompt_tokens = estimate_tokens(system, user)
        result.seconds = max(0.0, self._clock() - started)
        _notify(
            "call",
            LlmCallUsage(
                caller,
                result.outcome,
                result.prompt_tokens,
                result.completion_tokens,
                result.seconds,
            ),
        )
        return result

    async def _admitted(self) -> bool:
        """The breaker's answer; while its half-open probe is in flight, the probe's: calls
        wait for it (at most one call's worth of time) instead of failing at once, so a
        batch that arrives as the endpoint recovers is verified, not sent to review."""
        if self.breaker.allow():
            return True
        if not self.breaker.probing:
            return False  # open: fail fast
        wait_s = self.endpoint.timeout_s * (self.endpoint.max_retries + 1)
        async with self._probe_settled:
            try:
                await asyncio.wait_for(
                    self._probe_settled.wait_for(lambda: not self.breaker.probing), wait_s
                )
            except TimeoutError:
                return False
        return self.breaker.allow()

    async def _call(
        self,
        system: str,
        user: str,
        schema: OutputSchema,
        model: type[M],
        max_tokens: int | None,
    ) -> LlmResult[M]:
        mode = await self._current_mode()
        if self._system_role is False:  # the server would drop a system message
            messages = [{"role": "user", "content": f"{system}\n\n{user}"}]
        else:
            messages = [{"role": "system", "content": system}, {"role": "user", "content": user}]
        limit = max_tokens or self.endpoint.max_tokens
        while True:
            reply = await self._post_with_retries(messages, mode, schema, limit)
            if reply.status < 400:
                break
            nxt = self._next_mode(mode)
            if nxt is None:
                raise _CallFailed("refused", f"HTTP {reply.status}")
            log.warning(
                "llm endpoint refused structured output %s (HTTP %d); trying %s",
                mode,
                reply.status,
                nxt,
            )
            mode = nxt
        if self.endpoint.structured_output == "auto" and mode != self._mode:
            self._mode, self._mode_at = mode, self._clock()
        return self._parse(reply, mode, model, limit)

    def _next_mode(self, mode: StructuredMode) -> StructuredMode | None:
        if self.endpoint.structured_output != "auto":
            return None
        i = STRUCTURED_MODES.index(mode)
        return STRUCTURED_MODES[i + 1] if i + 1 < len(STRUCTURED_MODES) else None

    def _parse(
        self, reply: _Reply, mode: StructuredMode, model: type[M], limit: int
    ) -> LlmResult[M]:
        text = reply.content or ""
        prompt_tokens = reply.prompt_tokens or 0
        completion_tokens = (
            reply.completion_tokens
            if reply.completion_tokens is not None
            else estimate_tokens(text)
        )

        def result(value: M | None, outcome: CallOutcome, error: str = "") -> LlmResult[M]:
            return LlmResult(value, outcome, error, prompt_tokens, completion_tokens, 0.0, mode)

        raw = _extract_json_text(text) if mode == "prompt" else text
        try:
            data = orjson.loads(raw)
        except orjson.JSONDecodeError:
            if reply.finish_reason == "length":
                return result(None, "truncated", f"verifier answer cut off at max_tokens ({limit})")
            return result(None, "invalid_json", "verifier answer is not valid JSON")
        try:
            value = model.model_validate(data)
        except ValidationError as exc:
            fields = sorted({".".join(str(p) for p in e["loc"]) or "$" for e in exc.errors()})
            if reply.finish_reason == "length":
                return result(None, "truncated", f"verifier answer cut off at max_tokens ({limit})")
            return result(
                None,
                "invalid_answer",
                "verifier answer is not a valid verdict (" + ", ".join(fields[:5])[:200] + ")",
            )
        return result(value, "ok")

    # -- capability detection ------------------------------------------------------------

    async def _current_mode(self) -> StructuredMode:
        if self._mode is not None and (
            self.endpoint.structured_output != "auto"
            or self._clock() - self._mode_at < self.endpoint.capability_ttl_s
        ):
            return self._mode
        async with self._detect_lock:
            if self._mode is not None and self._clock() - self._mode_at < (
                self.endpoint.capability_ttl_s
            ):
                return self._mode  # another call detected it while this one waited
            mode = await self.detect()
            if self._system_role is None:
                self._system_role = await self.detect_system_role()
            self._mode, self._mode_at = mode, self._clock()
            return mode

    async def detect_system_role(self) -> bool:
        """False when the server counts no prompt tokens for a system message (its chat
        template dropped it); True when it does or reports no usage to tell by."""
        try:
            with_system = await self._post_with_retries(
                SYSTEM_PROBE_MESSAGES, "prompt", PROBE_SCHEMA, 1
            )
        except _CallFailed as exc:
            if exc.outcome != "refused":
                raise
            log.warning("llm endpoint %s refuses system messages: none sent", self.shown_url)
            return False  # a template that raises on a system role (HTTP 400)
        without = await self._post_with_retries(
            SYSTEM_PROBE_MESSAGES[1:], "prompt", PROBE_SCHEMA, 1
        )
        a, b = with_system.prompt_tokens, without.prompt_tokens
        if with_system.status >= 400 or without.status >= 400 or a is None or b is None:
            return True
        if a <= b:
            log.warning(
                "llm endpoint %s drops system messages (its chat template has no system"
                " role): instructions go in the user message",
                self.shown_url,
            )
            return False
        return True

    async def detect(self) -> StructuredMode:
        """Probe the endpoint's structured-output modes (see the module docstring).

        Raises `_CallFailed` when the endpoint does not answer at all (transport errors,
        timeouts, 429/502/503/504 after the retries): that says nothing about its modes.
        """
        accepted: list[StructuredMode] = []
        for mode in STRUCTURED_MODES[:-1]:
            reply = await self._post_with_retries(
                PROBE_MESSAGES, mode, PROBE_SCHEMA, PROBE_MAX_TOKENS
            )
            if reply.status >= 400:
                continue  # refused: this server does not do this mode
            try:
                data = orjson.loads(reply.content or "")
            except orjson.JSONDecodeError:
                continue
            if isinstance(data, dict) and data.get("probe") == "OK":
                log.info("llm endpoint %s: structured output %s", self.shown_url, mode)
                return mode
            accepted.append(mode)
        # Nothing enforced a schema: plain JSON mode if the server took it (it promises
        # valid JSON at least), else whatever it took, else no response_format at all.
        chosen: StructuredMode = (
            "json_object" if "json_object" in accepted else (accepted or ["prompt"])[0]
        )
        log.info("llm endpoint %s: no schema enforcement; using %s", self.shown_url, chosen)
        return chosen

    # -- HTTP ------------------------------------------------------------------------------

    async def _post_with_retries(
        self,
        messages: list[dict[str, str]],
        mode: StructuredMode,
        schema: OutputSchema,
        max_tokens: int,
    ) -> _Reply:
        """A reply with status < 400, or a 4xx / 500 refusal (status set) to fall through on.

        Raises `_CallFailed` for timeouts, transport errors and 429/5xx after retries.
        A 500 is retried like any 5xx; if it persists it is returned as a refusal only
        while probing a mode (llama-cpp-python answers an unsupported `response_format`
        with 500), never for the mode in use.
        """
        body: dict[str, Any] = {
            "model": self.endpoint.model,
            "messages": messages,
            "temperature": 0,
            "max_tokens": max_tokens,
        }
        fmt = response_format(mode, schema)
        if fmt is not None:
            body["response_format"] = fmt
        headers = {"Content-Type": "application/json"}
        if self.endpoint.api_key:
            headers["Authorization"] = f"Bearer {self.endpoint.api_key.get_secret_value()}"
        payload = orjson.dumps(body)
        probing = messages is PROBE_MESSAGES
        last: tuple[CallOutcome, str] = ("transport_error", "no attempt")
        async with self._sem:
            for attempt in range(self.endpoint.max_retries + 1):
                if attempt:
                    await asyncio.sleep(self._backoff(attempt))
                if _GATED.get() and self.breaker.state != "closed":
                    raise _CircuitOpened
                try:
                    resp = await self._http().post(self._url, content=payload, headers=headers)
                except httpx.TimeoutException:
                    last = ("timeout", "timeout")
                    continue
                except httpx.TransportError as exc:
                    last = ("transport_error", f"transport error: {type(exc).__name__}")
                    continue
                status = resp.status_code
                if status == 500 and probing and fmt is not None:
                    return _Reply(status)  # llama-cpp-python: response_format not supported
                if status in _TRANSIENT or status >= 500:
                    last = ("server_error", f"HTTP {status}")
                    continue
                if status >= 400:
                    if status in (400, 422) and fmt is not None:
                        return _Reply(status)  # perhaps the mode: the caller falls through
                    raise _CallFailed("refused", f"HTTP {status}")
                return self._reply(resp)
        raise _CallFailed(*last)

    @staticmethod
    def _reply(resp: httpx.Response) -> _Reply:
        try:
            data = resp.json()
            choice = data["choices"][0]
            content = choice["message"]["content"]
        except (ValueError, KeyError, IndexError, TypeError):
            raise _CallFailed("server_error", "malformed chat-completions response") from None
        if not isinstance(content, str):
            raise _CallFailed("server_error", "malformed chat-completions response")
        usage = data.get("usage") if isinstance(data, dict) else None
        usage = usage if isinstance(usage, dict) else {}

        def count(key: str) -> int | None:
            value = usage.get(key)
            return value if isinstance(value, int) and value >= 0 else None

        finish = choice.get("finish_reason") if isinstance(choice, dict) else None
        return _Reply(
            resp.status_code,
            content,
            finish if isinstance(finish, str) else None,
            count("prompt_tokens"),
            count("completion_tokens"),
        )

    def _backoff(self, attempt: int) -> float:
        """Exponential backoff with full jitter, capped."""
        cap = min(self.endpoint.backoff_max_s, self.endpoint.backoff_base_s * (2 ** (attempt - 1)))
        return self._rng.uniform(0.0, cap)


class TokenBudget:
    """Tokens per minute per key (a tenant): a token bucket of one minute's tokens.

    A call reserves its expected tokens before it is sent (`try_reserve`) and settles
    with what it really used (`settle`), so concurrent calls cannot overspend together
    and the bucket ends up charged the real cost. The bucket refills continuously at
    `tokens_per_minute / 60` a second up to `tokens_per_minute`. Keys idle long enough
    to be full again are forgotten, so memory is bounded by the keys active in a minute
    (and at most `max_keys`).
    """

    def __init__(
        self,
        tokens_per_minute: int,
        *,
        clock: Callable[[], float] = time.monotonic,
        max_keys: int = 100_000,
    ) -> None:
        if tokens_per_minute < 1:
            raise ValueError("tokens_per_minute must be at least 1")
        self.capacity = float(tokens_per_minute)
        self.rate = tokens_per_minute / 60.0
        self._clock = clock
        self._max_keys = max_keys
        self._buckets: dict[str, tuple[float, float]] = {}  # key -> (level, at)

    def level(self, key: str) -> float:
        now = self._clock()
        level, at = self._buckets.get(key, (self.capacity, now))
        return min(self.capacity, level + (now - at) * self.rate)

    def try_reserve(self, key: str, tokens: int) -> bool:
        """Take `tokens` if the key's bucket holds them; False (nothing taken) if not."""
        level = self.level(key)
        if level < tokens:
            self._store(key, level)
            return False
        self._store(key, level - tokens)
        return True

    def settle(self, key: str, reserved: int, used: int) -> None:
        """Give back what was reserved and not used, or charge what was used beyond it."""
        self._store(key, self.level(key) + reserved - used)

    def _store(self, key: str, level: float) -> None:
        now = self._clock()
        self._buckets[key] = (level, now)
        if len(self._buckets) > self._max_keys:
            full_after = self.capacity / self.rate
            self._buckets = {
                k: (lv, at) for k, (lv, at) in self._buckets.items() if now - at < full_after
            }
            while len(self._buckets) > self._max_keys:  # all active: drop the oldest
                self._buckets.pop(next(iter(self._buckets)))
