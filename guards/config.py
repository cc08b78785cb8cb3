"""Thresholds and switches of every guard, as plain pydantic models.

They live in `guards` (not in the streaming settings) so the guards stay usable without
Kafka; `groundwire.streams.settings.Settings` nests them and fills them from
`GROUNDWIRE_*` environment variables or a YAML file. Each guard's owner extends its own
section; defaults follow docs/spec.md.
"""

from __future__ import annotations

from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, SecretStr, model_validator

# Store-time consistency's settings live with its code (guards/consistency/config.py).
from groundwire.guards.consistency.config import ConsistencyConfig


class Section(BaseModel):
    """A settings section: an unknown key is an error, never silently ignored (a typo in
    a threshold would otherwise leave the default in force without a word)."""

    model_config = ConfigDict(extra="forbid")


class HedgeConfig(Section):
    enabled: bool = True
    # Frequency adverbs (typically, usually, often, ...) are technical hedges -> review
    # (spec: Hedges); a deployment whose claims are mostly documentation may turn them off.
    frequency_adverbs_review: bool = True
    # Bounded input: text beyond this many characters is not scanned.
    max_chars: int = Field(default=20_000, ge=1)
    max_words: int = Field(default=20, ge=1)


class CitationConfig(Section):
    verify: bool = True
    adr_dirs: list[Path] = Field(default_factory=lambda: [Path("docs/adrs")])
    git_repos: list[Path] = Field(default_factory=list)
    url_timeout_s: float = 5.0
    url_max_redirects: int = 3
    # Hosts or CIDRs that may be fetched even though they resolve to private ranges.
    url_allowlist: list[str] = Field(default_factory=list)
    issue_tracker: Literal["none", "file", "github", "gitlab"] = "none"
    issue_file: Path | None = None
    issue_api_base: str | None = None
    issue_repo: str | None = None  # owner/name (GitHub) or project id/path (GitLab)
    # Credentials are SecretStr: shown as ********** by repr, str() and model_dump(), read
    # with get_secret_value() only where a request is built (env and YAML give plain text).
    issue_token: SecretStr | None = Field(default=None, repr=False)
    # Characters of a verified artifact's text (an ADR's body, a commit's message, a page's
    # text) read to check that it says what the claim says (spec: Citations); 0 = existence
    # only, as before (then a verified citation counts as support without that check).
    # Verdicts keep the text, so a process's cache holds at most cache_max_entries times
    # this many characters.
    artifact_max_chars: int = Field(default=8_000, ge=0, le=1_000_000)
    cache_ttl_s: float = 3600.0
    cache_max_entries: int = Field(default=10_000, ge=1)
    # "redis": verdicts are also shared through Redis (settings.redis_url) by every screen
    # worker and survive restarts; "memory": each process keeps its own. A Redis failure
    # never fails a claim: the citation is then checked directly.
    cache_backend: Literal["memory", "redis"] = "redis"
    redis_prefix: str = Field(default="gw:cite", min_length=1, max_length=64)
    redis_timeout_s: float = Field(default=0.5, gt=0.0)


# "written by GPT-4o", "generated with ChatGPT": the pattern starts with the literal " by "
# (" with ", " using ") and reads the verb behind it, so a turn without that literal never
# runs it (a verb alternation first cost ~4 us a turn on the dev file, this ~1).
_MODEL_NAMES = (
    r"(?:an? )?(?:ai|llm|language model|assistant|chatgpt|gpt-?[0-9o]?[\w.-]*|claude|gemini"
    r"|copilot|bard|llama[\w.-]*|mistral|mixtral|qwen[\w.-]*|deepseek|grok)\b"
)
_WROTE = (
    "generated",
    "written",
    "produced",
    "created",
    "drafted",
    "summarized",
    "summarised",
    "authored",
)


def _written_with(preposition: str) -> str:
    behind = "|".join(f"(?<={verb} {preposition} )" for verb in _WROTE)
    return f" {preposition} (?:{behind}){_MODEL_NAMES}"


class ProvenanceConfig(Section):
    # Source tags whose turns may ground a claim (spec: Provenance and re-entry); compared
    # after NFKC, case folding and trimming. A turn without a source never grounds.
    allowed_sources: list[str] = Field(default_factory=lambda: ["corpus"])
    # Turn-id namespaces of UI and model artefacts; an id is normalised (NFKC, case-folded,
    # whitespace and invisible characters removed) before it is compared with them.
    reserved_prefixes: list[str] = Field(
        default_factory=lambda: ["chat:", "draft:", "tmp:", "gen:", "assistant:"]
    )
    # Regexes marking text as model output or prompt-template residue (spec: Provenance and
    # re-entry, the content-signature check). They are matched against the LOWER-CASED
    # text, so write them in lower case; start them with a literal, not \b. An escaped
    # bracket the pattern does not close (the "\[" that opens a citation list) is matched
    # with or without it, and as any of ( [ { <; paired brackets stay required.
    template_signatures: list[str] = Field(
        default_factory=lambda: [
            r"citations\s*:\s*\[",
            # (session 10: in any bracket, "{assistant}:", "[AI]:")
            r"^\s*[\[({<]?(?:assistant|ai|model|llm)[\])}>]?\s*:",
            r"\((?:assistant|ai|model|llm)\)",
            # chat-template tokens: ChatML, and (session 9) Llama 3's; (session 10) with
            # spaces inside the token or in place of its underscores ("< | im_start | >",
            # "<|im start|>", "[ /INST ]"), which a reader still sees as the token
            r"<\s*\|\s*(?:im[ _]start|im[ _]end|im[ _]sep|end|system|user|assistant|endoftext"
            r"|start[ _]header[ _]id|end[ _]header[ _]id|eot[ _]id|begin[ _]of[ _]text"
            r"|end[ _]of[ _]text)\s*\|\s*>",
            # (session 10: "[iI]" and the like keep the word out of the prefilter literal,
            # `provenance._required_literal`, which is then "[" or "<<", not the "inst" of
            # "instance" or the "sys" of "system"; the text is lower-cased anyway)
            r"\[\s*/?\s*[iI][nN][sS][tT]\s*\]",
            # session 13: the dotted acronym ("as an A.I. language model"), and "Al" (a
            # lower-case L for the I) only in the full frame, so "as an Al Gore fan" is not
            r"(?<![a-z])as an (?:ai\b|a\.i\.|al language model\b)(?: language)?(?: model\b)?",
            r"assistant_summary\s*:",
            r"generated by (?:an? )?(?:ai|llm|model|assistant|chatgpt|gpt-?\d?)\b",
            # session 9: a model or assistant named as the speaker of a line, in markdown
            # too ("**Assistant:**", "### Assistant:", "ChatGPT:", "GPT-4o:"), or of a
            # sentence inside a pasted transcript ("... ? ai: yes ..."). Each pattern has a
            # rare literal (`provenance._required_literal`), so most turns skip its regex.
            # Session 10: also the assistant named in other languages and scripts, matched
            # on the text as written, lower-cased ("Ассистент:", "助手：" read as "助手:"
            # in the canonical form, "Asistente:").
            # Session 10 too: after a list marker or a timestamp ("- Assistant:",
            # "[12:01] Assistant:", "2024-01-01 10:02 Assistant:"), and with the model in
            # brackets after the name ("Assistant (GPT-4o):").
            # Session 13: the name in quotation marks of any script ("«Assistant»:",
            # "“ChatGPT”:") and a speech verb before the colon ("Assistant said:").
            r"^[\s#*>_+-]*(?:\[[^\]\n]{1,24}\]\s*|\d[\d:./ -]{3,24}\s)?[*_\"'«‹“„「『]*"
            r"(?:ai assistant|chatbot|bot|chatgpt|gpt-?[0-9o][\w.-]*|claude|gemini"
            r"|copilot|bard|llama[\w.-]*|mistral|mixtral|qwen[\w.-]*|deepseek|grok"
            r"|assistant|ai|llm|ассистент|асистент|помощник|помічник|助手|助理"
            r"|アシスタント|어시스턴트|सहायक|مساعد|asistente|assistente|assistent|asystent"
            r"|asistent|asistan|assistentti|asszisztens|trợ lý)"
            r"(?:\s*\([^)\n]{1,24}\))?[*_\"'»›”」』]*"
            r"(?: (?:said|says|wrote|writes|replied|replies|answered|answers|responded))?\s*:",
            r"[.?!] ai:",
            # session 10: a robot face as the speaker ("🤖:"; "🤖 Assistant:" is read with
            # its pictographs removed)
            r"^[\s#*>_]*\U0001f916[\ufe0f\s*_]*[:：]",
            # session 10: a role field of a chat transcript pasted as JSON or YAML
            # ('"role": "assistant"', "role: model", "- role: assistant") and ShareGPT's
            # '"from": "gpt"'; each starts with its field name, a rare literal
            r"role\\?[\"']?\s*[:=]\s*\\?[\"']?(?:assistant|model|chatbot|bot|ai|llm|chatgpt"
            r"|gpt-?[0-9o]?[\w.-]*)(?![\w-])",
            r"\"from\"\s*:\s*\"(?:gpt|chatgpt|assistant|bot|model)\"",
            # Gemma's turn markers and Llama 2's system block (session 10: spaces inside)
            r"<\s*(?:start|end)_of_turn\s*>",
            r"<<\s*[sS][yY][sS]\s*>>",
            # an assistant's line in a pasted transcript, or its tag
            # (session 14: spaces inside the tag, "< assistant >", "[ /assistant ]")
            r"(?:[.?!]\s+|[\[<]\s*/?\s*)assistant(?:\s*:|\s*[\]>])",
            r"[\[<]/?model[\]>]",
            # a text that speaks as a model, or says one wrote it ("written by GPT-4o",
            # "generated with ChatGPT": the verb is read behind the literal " by ")
            r"(?<![a-z])as an? (?:large )?language model\b",
            r"\bi(?:'m| am) (?:just |only )?an (?:ai\b|a\.i\.)",
            *(_written_with(preposition) for preposition in ("by", "with", "using")),
            r"\bai[- ]generated\b",
            r"^\s*model output\s*:",
            # session 12: model families beyond the first five as a line's speaker or
            # author (above: "Bard:", "Llama-3:", "written by Mistral"); a model's reply
            # named as such ("Response from GPT-4:", "Output of Claude:"); and a markdown
            # heading that is only the assistant's name ("### Assistant" on a line of its
            # own, a transcript's turn header with no colon)
            r"(?:response|reply|answer|output|message|completion) (?:from|of|by) "
            + _MODEL_NAMES
            + r"\s*:",
            r"^#{1,6}\s*(?:assistant|ai assistant|chatbot|chatgpt|gpt-?[0-9o][\w.-]*|claude"
            r"|gemini|copilot|bard)\s*$",
            # Session 14 (red team of the write path):
            # a model's output labelled as such, in brackets ("[model output]", "(LLM
            # output)") or opening a line before any separator ("Model output - ...",
            # "AI output: ...")
            r"[\[(]\s*(?:ai|llm|model|assistant|chatbot|chatgpt|gpt-?[0-9o]?[\w.-]*)[- ]output"
            r"\s*[\])]",
            r"^[\s#*>_-]*(?:ai|llm|model|assistant|chatbot|chatgpt|gpt-?[0-9o]?[\w.-]*)[- ]output"
            r"\s*(?::|-|\u2013|\u2014|->|=>)",
            # the assistant as a line's speaker with an arrow or a dash for the colon
            # ("Assistant -> ...", "ChatGPT \u2014 ..."); only the names that are no person's
            # and no component's ("LLM -> vector store" draws an architecture)
            # (one pattern a separator, so that each has its separator as a literal and
            # most turns skip its line-by-line search)
            *(
                r"^[\s#*>_+-]*[\[(]?\s*(?:assistant|ai assistant|chatbot|chatgpt"
                r"|gpt-?[0-9o][\w.-]*)\s*[\])]?\s*" + separator
                for separator in (r"[-=]>", "\u2013", "\u2014")
            ),
            # a model named as the source of what follows ("According to ChatGPT, ...",
            # "GPT-4 suggested ...", "ChatGPT told me ..."): the names no person has
            r"according to (?:chatgpt|gpt-?[0-9o][\w.-]*|copilot|an? (?:ai|llm|chatbot)\b"
            r"|the (?:ai|llm|chatbot|ai assistant|language model)\b|an? (?:large )?language model)",
            r"(?<![\w-])(?:chat)?gpt(?:-?[0-9o][\w.-]*)?(?:'s)? (?:says|said|told|tells|suggested"
            r"|suggests|claims|claimed|answered|replied|responded|wrote|writes|stated|states"
            r"|thinks|believes|recommended|recommends|confirmed|confirms)\b",
            # a model's answer named with a possessive ("Claude's answer:", "ChatGPT's
            # response:"), one pattern a noun so that each has a rare literal
            *(
                _MODEL_NAMES + rf"'s {noun}\s*:"
                for noun in ("response", "reply", "answer", "output", "completion")
            ),
            # more self-descriptions of a model ("Being an AI language model", "As an LLM,",
            # "As an A I language model", "As an artificial intelligence, ...", "I am a
            # language model"); "As an AI researcher" is matched above already
            r"(?<![a-z])being an? (?:ai|a\.i\.|llm|(?:large )?language model)\b",
            # "as an LLM", "I'm (just) an LLM": one pattern whose literal is " llm" ("as a"
            # is everywhere), the frames read behind it (each lookbehind of a fixed width)
            r" llm\b(?:"
            + "|".join(
                f"(?<={before}{article} llm)"
                for before in (
                    "[^a-z]as",
                    "^as",
                    "i'm",
                    "i am",
                    "i'm just",
                    "i am just",
                    "i'm only",
                    "i am only",
                )
                for article in (" an", " a")
            )
            + ")",
            # (two patterns: each has a rare literal, where one would have "as an a")
            r"(?<![a-z])as an a i (?:language )?model",
            r"(?<![a-z])as an artificial intelligence(?:(?: language)? model|(?=\s*,))",
            r"(?:i'm|i am) (?:just |only )?an? (?:large )?language model\b",
            # an assistant's disclaimers about its own training ("As of my last knowledge
            # update", "my knowledge cutoff", "I don't have access to real-time data")
            r"as of my (?:last )?(?:knowledge|training)(?: data)?(?: cut-?off| update)\b",
            r"my knowledge cut-?off\b",
            r"i (?:don't|do not) have (?:access to )?real-time\b",
        ]
    )
    # Evidence newer than the claim cannot be what it was extracted from. A claim without
    # created_at is compared with the time it is screened.
    max_clock_skew_s: float = Field(default=0.0, ge=0.0)


class DedupConfig(Section):
    enabled: bool = True
    # A claim is a duplicate when its word Jaccard to a memory EXCEEDS this; a pair exactly
    # at the threshold is not a duplicate (spec: Near-duplicates).
    threshold: float = Field(default=0.92, ge=0.0, le=1.0)
    num_perm: int = Field(default=128, ge=1, le=1024)
    backend: Literal["memory", "redis"] = "redis"
    # MinHash permutation seed (numpy's RandomState takes 0 .. 2^32-1); changing it
    # invalidates an existing index
    seed: int = Field(default=1, ge=0, le=2**32 - 1)
    # LSH layout: bands/rows derived from `threshold` so a pair at the threshold is missed
    # by LSH with probability <= lsh_max_miss (docs/dedup.md); set both to override.
    lsh_max_miss: float = Field(default=1e-5, gt=0.0, lt=1.0)
    lsh_bands: int | None = Field(default=None, ge=1)
    lsh_rows: int | None = Field(default=None, ge=1)
    # Bounded input: a text with more distinct words fails closed (review), never indexed.
    max_tokens: int = Field(default=4096, ge=1, le=16_000)
    redis_prefix: str = Field(default="gw:dedup", min_length=1, max_length=64)
    # Mean band entries per Redis hash shard before one splits; keep well under Redis'
    # hash-max-listpack-entries (128) so shards stay in the compact encoding.
    redis_shard_load: int = Field(default=40, ge=1, le=10_000)
    redis_socket_timeout_s: float = Field(default=2.0, gt=0.0)
    redis_connect_timeout_s: float = Field(default=1.0, gt=0.0)
    redis_retries: int = Field(default=1, ge=0, le=5)
    # Upper bound on one batch's Redis work including retries: past it the batch fails closed.
    redis_batch_timeout_s: float = Field(default=5.0, gt=0.0)
    # Which memories a claim is compared with (spec: Near-duplicates): every memory of its
    # tenant, those of the same user, or those of the same user and memory_type. Changing
    # it invalidates an existing index (docs/dedup.md).
    scope: Literal["tenant", "user", "user_and_type"] = "tenant"
    # A claim queued for review is a *pending* entry, not a memory, until it is approved
    # (`Validator.admit`); an entry not approved within this time is dropped (14 days).
    pending_retention_s: float = Field(default=1_209_600.0, gt=0.0)


GroundingVerifierName = Literal["lexical", "learned", "embedding", "nli", "llm"]
NliLabel = Literal["entailment", "neutral", "contradiction", "not_supported"]
_MNLI_LABELS: tuple[NliLabel, ...] = ("entailment", "neutral", "contradiction")


class GroundingConfig(Section):
    enabled: bool = True
    # One verifier, or several combined (docs/grounding.md §Ensembles): `[learned, nli]`.
    verifier: GroundingVerifierName | list[GroundingVerifierName] = "lexical"
    # Memory types that are not grounded (spec: Grounding): entity records carry no
    # statement to check. A preference IS grounded, so one its source contradicts is
    # blocked; ["preference"] skips preferences as an earlier default did.
    skip_for_types: list[str] = Field(default_factory=lambda: ["entity"])
    min_confidence_after_penalty: float = Field(default=0.3, ge=0.0, le=1.0)
    on_verifier_failure: Literal["block", "allow_with_flag", "queue"] = "queue"
    # Offline verifiers score P(supported) in [0, 1]: at or above `supported_threshold`
    # -> SUPPORTED, at or above `partial_threshold` -> PARTIAL, below -> NOT_SUPPORTED.
    # None = the verifier's own calibrated default (see docs/grounding.md).
    supported_threshold: float | None = Field(default=None, ge=0.0, le=1.0)
    partial_threshold: float | None = Field(default=None, ge=0.0, le=1.0)
    # A PARTIAL verdict costs 0.10-0.30 confidence, more the weaker the support (spec:
    # Grounding).
    penalty_min: float = Field(default=0.10, ge=0.0, le=1.0)
    penalty_max: float = Field(default=0.30, ge=0.0, le=1.0)
    # Bounded input: evidence text beyond this many characters per claim is not read.
    max_evidence_chars: int = Field(default=50_000, ge=1)
    # Optional local model file (ONNX) for verifier="embedding"; None = the packaged one.
    embedding_model_path: Path | None = None
    # verifier="learned": the model file (None = the packaged data/learned.json).
    learned_model_path: Path | None = None
    # verifier="nli": an ONNX sequence-classification cross-encoder and its tokenizer.json
    # (None = tokenizer.json beside the model); `nli_labels` names each output in order:
    # entailment (= supported), neutral, contradiction, or not_supported for a binary model.
    nli_model_path: Path | None = None
    nli_tokenizer_path: Path | None = None
    nli_labels: list[NliLabel] = Field(default_factory=lambda: list(_MNLI_LABELS), min_length=1)
    nli_max_length: int = Field(default=512, ge=16, le=8192)  # tokens per (window, claim)
    nli_windows: int = Field(default=3, ge=1, le=32)  # source windows scored per claim
    nli_window_sentences: int = Field(default=3, ge=1, le=50)
    nli_batch_size: int = Field(default=16, ge=1, le=1024)
    nli_threads: int = Field(default=1, ge=1, le=64)
    nli_timeout_s: float = Field(default=10.0, gt=0.0)  # per verify_batch call
    # Ensembles: the later verifier (NLI) decides where its P(supported) is at least
    # `ensemble_high` or at most `ensemble_low`; the first decides elsewhere.
    ensemble_high: float = Field(default=0.9, ge=0.0, le=1.0)
    ensemble_low: float = Field(default=0.1, ge=0.0, le=1.0)
    llm_base_url: str | None = None
    llm_model: str | None = None
    llm_api_key: SecretStr | None = Field(default=None, repr=False)
    llm_timeout_s: float = 10.0
    llm_max_concurrency: int = 8
    llm_max_retries: int = 2
    llm_backoff_base_s: float = Field(default=0.25, gt=0.0)
    llm_backoff_max_s: float = Field(default=4.0, gt=0.0)
    llm_breaker_failures: int = Field(default=5, ge=1)
    llm_breaker_cooldown_s: float = Field(default=30.0, gt=0.0)
    llm_max_tokens: int = Field(default=512, ge=16)
    # How the answer's JSON is requested (docs/grounding.md §Structured output): "auto"
    # probes the endpoint (json_schema, then json_object with a schema, then json_object,
    # then plain prompt) and re-checks every llm_capability_ttl_s; a mode pins it.
    llm_structured_output: Literal[
        "auto", "json_schema", "json_object_schema", "json_object", "prompt"
    ] = "auto"
    llm_capability_ttl_s: float = Field(default=600.0, gt=0.0)
    # Whether the endpoint passes a system message to the model (some chat templates drop
    # it): None detects it with llm_structured_output auto (kept when a mode is pinned);
    # false puts the instructions at the head of the user message.
    llm_system_role: bool | None = None
    # Tokens (in + out) per minute each tenant may spend on the LLM verifier; beyond it
    # the tenant's claims are grounded by the offline lexical verifier. None: no budget.
    llm_tenant_tokens_per_minute: int | None = Field(default=None, ge=1)
    # A PARTIAL claim also gets `rewritten_content`: the claim restated to keep only what
    # the evidence supports (offline verifiers by rule, the LLM verifier by a second call).
    # The claim's `content` is never replaced.
    rewrite_partial: bool = True


class PolicyConfig(Section):
    trusted_sources: list[str] = Field(
        default_factory=lambda: ["user", "documentation", "adr", "commit", "manual"]
    )
    # Decisions stated in a conversation, preferences stated by the user (spec: Tier policy).
    decision_sources: list[str] = Field(default_factory=lambda: ["conversation"])
    preference_sources: list[str] = Field(default_factory=lambda: ["conversation", "chat"])
    # PARTIAL grounding whose adjusted confidence clears the minimum keeps the claim: it is
    # stored with tag grounding_partial and the penalty applied (spec: Grounding, the
    # sharpened-plan example). False: it goes to review unless another rule approves it.
    approve_partial: bool = True
    # The auditor rule (spec: Provenance and re-entry): a claim citing any source turn that
    # fails provenance is blocked. False: such turns are only removed before grounding and
    # reported, and the claim is judged on the turns that are left.
    block_on_rejected_turn: bool = True


class ProducerAuthConfig(Section):
    """Which producers may claim which sources (spec: Producer authentication).

    A claim may carry `key_id` and an HMAC-SHA256 `signature` (topics/signing.py). A claim
    of a trusted source that is not authenticated for it is screened as ai_synthesis
    (`mode: downgrade`) or dead-lettered as unauthenticated_source (`mode: strict`)."""

    # "when_keys_configured" (default): signatures are enforced once `keys` names at least
    # one key; without a registry a source is taken on the producer's word, as before.
    # "always": trusted sources need a valid signature even with no key configured.
    require_signature: Literal["when_keys_configured", "always"] = "when_keys_configured"
    mode: Literal["downgrade", "strict"] = "downgrade"
    # Sources a claim may only keep when authenticated; None = policy.trusted_sources.
    trusted_sources: list[str] | None = None
    # The key registry: key id -> the sources a claim signed with that key may claim.
    keys: dict[str, list[str]] = Field(default_factory=dict)
    # Key id -> the tenants whose claims it may authenticate. The key registry is shared by
    # every tenant: without this, one tenant's producer key could label claims it writes
    # into ANOTHER tenant as `user`/`documentation` and have them approved there. A key
    # not named here may sign for any tenant (one producer serving all of them).
    key_tenants: dict[str, list[str]] = Field(default_factory=dict)
    # The keys' HMAC secrets (UTF-8 bytes of the value): key id -> secret, here or, better,
    # in `secrets_file` (a YAML/JSON mapping of key id -> secret). Never logged.
    secrets: dict[str, SecretStr] = Field(default_factory=dict, repr=False)
    secrets_file: Path | None = None


RiskName = Literal["none", "low", "medium", "high"]
PolicyName = Literal["warn", "regenerate", "block"]


class RiskThresholds(Section):
    """Faithfulness at or below `high` is high risk, at or below `medium` medium risk
    (spec: Read-time faithfulness; the defaults are the guard design's)."""

    medium: float = Field(default=0.7, ge=0.0, le=1.0)
    high: float = Field(default=0.5, ge=0.0, le=1.0)

    @model_validator(mode="after")
    def _ordered(self) -> RiskThresholds:
        if self.high > self.medium:
            raise ValueError("risk_thresholds.high cannot exceed risk_thresholds.medium")
        return self


class RegenerateConfig(Section):
    """The `regenerate` policy: who is asked for a new answer, and how often."""

    # Regenerations asked for before the block text is returned instead.
    max_attempts: int = Field(default=2, ge=1, le=5)
    # POSTed the answer, its context and its unsupported claims; answers {"answer": "..."}.
    # Fetched through the SSRF guard of citation checks (public addresses only unless
    # allow-listed, pinned to the checked address, no redirects). None: library callers
    # pass a callback; the stage and the HTTP endpoint refuse to start with `regenerate`.
    webhook_url: str | None = None
    webhook_timeout_s: float = Field(default=5.0, gt=0.0, le=60.0)
    webhook_allowlist: list[str] = Field(default_factory=list)  # hosts or CIDRs
    webhook_max_response_bytes: int = Field(default=262_144, ge=1_024, le=4_194_304)
    webhook_token: SecretStr | None = Field(default=None, repr=False)  # sent as a bearer token


class AnswerCacheConfig(Section):
    """Validated scores cached by (context hash, answer hash), per tenant, in Redis."""

    enabled: bool = True
    ttl_s: float = Field(default=300.0, gt=0.0)  # ADR-0031's standard-mode TTL
    # Only answers that validated are cached (ADR-0031): confidence at least this, no
    # unverified field, the configured verifier answered (not degraded).
    min_confidence: float = Field(default=0.3, ge=0.0, le=1.0)
    redis_prefix: str = Field(default="gw:faith", min_length=1, max_length=64)
    redis_timeout_s: float = Field(default=0.5, gt=0.0)
    max_entry_bytes: int = Field(default=262_144, ge=1_024)


class FaithfulnessConfig(Section):
    """Read-time faithfulness, guard 3 (spec: Read-time faithfulness). Opt-in: the HTTP
    endpoint exists only when enabled; the `answers` stage runs only when named."""

    enabled: bool = False
    # None: the grounding verifier (grounding.verifier and its llm_* settings).
    verifier: Literal["lexical", "embedding", "llm"] | None = None
    risk_thresholds: RiskThresholds = Field(default_factory=RiskThresholds)
    # The policy for tenants not in `tenant_policies` ("warn" is the design's start).
    on_hallucination: PolicyName = "warn"
    tenant_policies: dict[str, PolicyName] = Field(default_factory=dict)
    # The least risk at which each policy acts (the design: warn on medium or high,
    # regenerate on high, block on any unsupported claim).
    warn_min_risk: RiskName = "medium"
    regenerate_min_risk: RiskName = "high"
    block_min_risk: RiskName = "low"
    block_text: str = Field(
        default="I don't have enough reliable information to answer that.",
        min_length=1,
        max_length=2_000,
    )
    regenerate: RegenerateConfig = Field(default_factory=RegenerateConfig)
    # When the verifier fails on a claim: "lexical" scores it with the offline verifier
    # and says so (degraded); "block" answers with block_text.
    on_verifier_failure: Literal["lexical", "block"] = "lexical"
    # Uncited claims are flagged as warnings only in answers that cite something (the
    # model was citing and missed one); true: in every answer.
    require_citations: bool = False
    cache: AnswerCacheConfig = Field(default_factory=AnswerCacheConfig)
    # Bounded input: answers longer than this are refused (dlq / HTTP 413); claims past
    # max_claims are not checked and count as unsupported (fail closed).
    max_answer_chars: int = Field(default=20_000, ge=1, le=1_000_000)
    max_claims: int = Field(default=200, ge=1, le=10_000)
    max_context_sources: int = Field(default=256, ge=1, le=10_000)
    max_citations: int = Field(default=256, ge=0, le=10_000)
    # POST /v1/answers:score (the review service): request bodies up to this size.
    http_max_body_bytes: int = Field(default=524_288, ge=1_024, le=16_777_216)


class GuardsConfig(Section):
    hedge: HedgeConfig = Field(default_factory=HedgeConfig)
    citation: CitationConfig = Field(default_factory=CitationConfig)
    provenance: ProvenanceConfig = Field(default_factory=ProvenanceConfig)
    dedup: DedupConfig = Field(default_factory=DedupConfig)
    grounding: GroundingConfig = Field(default_factory=GroundingConfig)
    policy: PolicyConfig = Field(default_factory=PolicyConfig)
    producer_auth: ProducerAuthConfig = Field(default_factory=ProducerAuthConfig)
    faithfulness: FaithfulnessConfig = Field(default_factory=FaithfulnessConfig)
    # Store-time consistency: the memory view, write-time supersession, the scan.
    consistency: ConsistencyConfig = Field(default_factory=ConsistencyConfig)
