"""The canonical text every detector reads (docs/spec.md §Canonical text), and the
screening path that uses it: disguised hedges and citations are found, the stored claim
keeps its bytes, URLs are never folded."""

from __future__ import annotations

import unicodedata

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from groundwire.guards.canonical import canonical
from groundwire.guards.config import GuardsConfig
from groundwire.guards.policy import determine_tier
from groundwire.guards.screening import screen
from groundwire.topics.records import Claim, Tier

# The reported bypasses (D1): "I  think Redis is the cache we use" from a trusted source
# was approved, as were the same with other invisible differences.
D1_SEPARATORS = ["  ", "\t", "\n", "\r\n", "\u00a0", "\u2009", "\u3000", " \u200b"]


def _tier(content: str, source: str = "user") -> tuple[Tier, str]:
    cfg = GuardsConfig()
    claim = Claim(claim_id="c1", tenant_id="t", content=content, source=source)  # type: ignore[arg-type]
    screened = screen(claim, cfg)
    return determine_tier(screened, cfg=cfg).tier, screened.hedge.action.value


@pytest.mark.parametrize("sep", D1_SEPARATORS, ids=repr)
@pytest.mark.parametrize(
    "template",
    [
        "I{}think Redis is the cache we use",
        "I{}don't know which broker we run",
        "Not{}sure it runs",
    ],
)
def test_whitespace_of_any_kind_does_not_hide_a_blocking_hedge(template: str, sep: str) -> None:
    assert _tier(template.format(sep)) == (Tier.BLOCK, "block")


@pytest.mark.parametrize(
    "content",
    [
        "I th\u200bink Redis is the cache we use",  # zero-width space inside the word
        "I thi\u200dnk Redis is the cache we use",  # zero-width joiner
        "I th\u00adink Redis is the cache we use",  # soft hyphen
        "I \u202ethink Redis is the cache we use",  # bidi override
        "\u0406 think Redis is the cache we use",  # Cyrillic capital I
        "I th\u0456nk Redis is the cache we use",  # Cyrillic small i
        "\u0399 think Redis is the cache we use",  # Greek capital iota
        "I \uff54\uff48\uff49\uff4e\uff4b Redis is the cache we use",  # fullwidth
        "I \U0001d42d\U0001d421\U0001d422\U0001d427\U0001d424 Redis is the cache",  # math bold
        "**I think** Redis is the cache we use",
        "<b>I</b> think Redis is the cache we use",
        "I&nbsp;think Redis is the cache we use",
        "_I think_ Redis is the cache we use",
        "`I think` Redis is the cache we use",
        "I don\u02bct know which broker we run",  # modifier-letter apostrophe
        "I don`t know which broker we run",
        "I th\u00ednk Redis is the cache we use",  # an accent on a Latin letter
        "I thi\u0307nk Redis is the cache we use",  # a combining dot above
        "I t\u0336h\u0336ink Redis is the cache we use",  # combining overlays
        "I \u1d1b\u029c\u026a\u0274\u1d0b Redis is the cache we use",  # small capitals
        "I \U0001f183\U0001f177\U0001f178\U0001f17d\U0001f17a Redis is the cache",  # squared
        "I\u0332 \u0332t\u0332h\u0332i\u0332n\u0332k\u0332 Redis is the cache",  # marks on spaces
        "I th\U0001f642ink Redis is the cache we use",  # a pictograph inside the word
    ],
)
def test_invisible_confusable_and_markup_disguises_do_not_hide_a_blocking_hedge(
    content: str,
) -> None:
    assert _tier(content) == (Tier.BLOCK, "block")


def test_the_control_with_one_space_blocks_and_plain_text_is_approved() -> None:
    assert _tier("I think Redis is the cache we use") == (Tier.BLOCK, "block")
    assert _tier("Redis  is\tthe cache we use") == (Tier.AUTO_APPROVE, "none")


def test_the_stored_claim_keeps_its_bytes() -> None:
    content = "**I**\u00a0th\u200bink  Redis\tis ＴＨＥ cache"
    claim = Claim(claim_id="c1", tenant_id="t", content=content, source="user")  # type: ignore[arg-type]
    screened = screen(claim, GuardsConfig())
    assert screened.claim.content == content
    assert screened.claim.model_dump_json().encode() == claim.model_dump_json().encode()
    assert screened.hedge.words == ["I think"]  # quoted from the canonical text


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("I  think\t\tso\n\nthen", "I think so then"),
        ("  padded  ", "padded"),
        ("th\u200bi\u200cn\u200dk\u2060s \ufeffx", "thinks x"),
        ("\u0430\u0435\u043e\u0440\u0441\u0443\u0445", "aeopcyx"),  # Cyrillic lookalikes
        ("\u0391\u0392\u0395\u0396\u0397\u0399\u039a\u039c\u039d\u039f", "ABEZHIKMNO"),
        ("\uff21\uff24\uff32\uff0d\uff17", "ADR-7"),
        ("snake_case and __init__ and _em_", "snake_case and init and em"),
        ("a<br>b<p>c</p><em>d</em>e", "a b c de"),
        ("List<String> and x < y > z", "List<String> and x < y > z"),
        ("<!-- I think --> fine", "I think fine"),
        ("don\x92t, \x93quoted\x94", "don't, \u201cquoted\u201d"),  # cp1252
        ("I\u2019m, I\u02bcm, I\u2032m", "I'm, I'm, I'm"),
        ("&lt;b&gt;x&lt;/b&gt; &amp; y", "x & y"),
        ("\\*not emphasis\\* ~~struck~~ ~5", "not emphasis struck ~5"),
        ("\u0130stanbul", "Istanbul"),
        ("caf\u00e9 a\u0301\u0301\u0301b", "cafe ab"),
        ("x\x00y\x07z", "xyz"),
        # hyphens, dashes and minus signs that look like "-" (the data's, not a list)
        (
            "ADR\u20107 ADR\u20117 ADR\u20127 ADR\u20137 ADR\u22127 ADR\u02d77",
            " ".join(["ADR-7"] * 6),
        ),
        ("\u2cbb stays", "\u2cbb stays"),  # a letter that looks like "-" stays a letter
        # Latin letters in another style, by their Unicode names (not a list)
        ("\u0274\u1d0f\u1d1b \u0280\u1d07\u1d05\u026a\ua731", "not redis"),
        ("\U0001f13d\U0001f13e\U0001f143 \U0001f17d\U0001f17e\U0001f183", "NOT NOT"),
        # a pictograph between words stays; inside a word it is read past
        ("great \U0001f642 job, th\U0001f642ink", "great \U0001f642 job, think"),
        # session 14b: a turned letter is read turned back ("ɐ" is "a") and a regional
        # indicator is its letter (the flag "🇺🇸" reads as its code "US")
        ("\u0250 \U0001f1fa\U0001f1f8", "a US"),
    ],
)
def test_canonical_examples(raw: str, expected: str) -> None:
    assert canonical(raw) == expected


@pytest.mark.parametrize(
    "url",
    [
        "https://g\u0456thub.com/org/repo",  # a homoglyph host stays a homoglyph host
        "https://example.com/a_b/__init__.py?q=a*b",
        "https://en.wikipedia.org/wiki/Foo_(bar)",
        "http://ex\u200bample.com/x",
    ],
)
def test_urls_are_kept_as_written(url: str) -> None:
    assert canonical(f"See  {url} now") == f"See {url} now"
    assert canonical(f"See **{url}**, now") == f"See {url}, now"
    assert canonical(f"See <{url}>") == f"See <{url}>"


def test_citations_are_detected_in_the_canonical_text() -> None:
    cfg = GuardsConfig()
    for content in (
        "Per **ADR-7** we use",
        "Per ADR\u00a07 we use",
        "Per \uff21\uff24\uff32-7",
        "Per ADR\u20107 we use",  # U+2010 HYPHEN
    ):
        claim = Claim(claim_id="c", tenant_id="t", content=content, source="ai_synthesis")  # type: ignore[arg-type]
        assert [c.value for c in screen(claim, cfg).citations] == ["ADR-7"], content
    url = "https://g\u0456thub.com/org/repo"
    claim = Claim(claim_id="c", tenant_id="t", content=f"See **{url}**.", source="ai_synthesis")  # type: ignore[arg-type]
    assert [c.value for c in screen(claim, cfg).citations] == [url]


def test_plain_ascii_is_returned_as_is() -> None:
    text = "The API returns JSON for REST responses (see ADR-3), 5 ms p99."
    assert canonical(text) is text


# Format characters outside Default_Ignorable_Code_Point are visible (prepended
# concatenation marks, interlinear annotation, Egyptian hieroglyph format controls).
_VISIBLE_FORMAT = frozenset(
    "\u0600\u0601\u0602\u0603\u0604\u0605\u06dd\u070f\u0890\u0891\u08e2"
    "\U000110bd\U000110cd\ufff9\ufffa\ufffb"
) | frozenset(map(chr, range(0x13430, 0x13440)))


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.characters(codec=None), max_size=200))
def test_canonical_text_is_well_formed_for_any_input(text: str) -> None:
    out = canonical(text)
    assert out == out.strip()
    assert "  " not in out
    assert not any(ch.isspace() and ch != " " for ch in out)
    assert len(out.lower()) == len(out), "lower-casing keeps offsets"
    invisible = [ch for ch in out if unicodedata.category(ch) == "Cf"]
    assert set(invisible) <= _VISIBLE_FORMAT, invisible


@settings(max_examples=300, deadline=None)
@given(
    st.lists(
        st.sampled_from(
            [
                *"abcIl tT*_`~<>/:\\'-",
                *["\u00a0", "\u200b", "\u0430", "\u0399", "\uff54", "\t", "\n", "<b>", "</b>"],
                *["https://", "\u2019", "\x92", "\u00b4"],
            ]
        ),
        max_size=40,
    ).map("".join)
)
def test_canonical_is_idempotent(text: str) -> None:
    once = canonical(text)
    assert canonical(once) == once


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("I%20think", "I think"),
        ("We %70robably use it", "We probably use it"),
        ("%3C%7Cim_start%7C%3Eassistant", "<|im_start|>assistant"),
        ("caf%C3%A9 au lait", "cafe au lait"),
    ],
)
def test_percent_escapes_standing_for_text_are_decoded(text: str, expected: str) -> None:
    assert canonical(text) == expected
    assert canonical(canonical(text)) == canonical(text)


@pytest.mark.parametrize(
    "text",
    [
        "CPU is at 90%20 cores",  # a percentage, then a number
        "50%ff off",  # not UTF-8
        "a %0a b",  # a control character
        "%2541 stays",  # decodes to another escape: a second reading would read on
        "see https://x.com/a%20b",  # URLs are kept as written
    ],
)
def test_other_percent_signs_are_kept(text: str) -> None:
    assert canonical(text) == text


@pytest.mark.parametrize(
    "content",
    [
        "\u202e" + "I think Redis is the cache we use"[::-1],  # drawn as "I think ..."
        "Redis is the cache we use, \u202ekniht I\u202c.",
        "I \u202ethink Redis is the cache we use",  # the stored order still reads
    ],
)
def test_a_right_to_left_override_hides_no_hedge(content: str) -> None:
    assert _tier(content) == (Tier.BLOCK, "block")


def test_reverse_overrides_reverses_only_the_overridden_run() -> None:
    from groundwire.guards.canonical import reverse_overrides

    assert reverse_overrides("a \u202ecba\u202c d") == "a abc d"
    assert reverse_overrides("x\u202ecba\ny") == "xabc\ny"
    assert reverse_overrides("plain") == "plain"
