"""What the source asserts: a clause it asks, imagines, denies or only hedges is not a
fact it states (docs/grounding.md §What the source asserts).

Word overlap reads "Should we use Redis for the session store?" as support for "We use
Redis for the session store": every word is there. So do the quote check and the
negation check, since nothing is negated. This module reads each source clause's mood
from closed classes of English function words, and a claim clause aligned with a clause
the source does not assert (and stated without such a word itself) is reported:

* **not asserted at all** (the claim is NOT_SUPPORTED): a question ("Should we ...?";
  not "Did you know that ...?" nor "Why / when / where / how did we ...?", which take
  what follows as given), a hypothetical frame
  and what follows it ("Let's pretend ...", "Suppose ...", "Imagine ..."), a clause the
  same sentence calls false ("..., but that's wrong", "It is false that ..."), and a
  habit given up ("I used to live in Berlin" against "I live in Berlin");
* **asserted only weakly** (the claim is at most PARTIAL, with the largest penalty, as
  docs/spec.md's "I think I should be done with the MVP by end of April" is): a hedge or
  modal in the clause ("might", "probably", "I think"), an intention or wish ("we plan
  to", "I want to", "we should"), a condition ("if", "unless") in the clause or opening
  the clause before it.

A clause is aligned as `polarity.py` aligns them (shared content words, `ALIGN` of the
claim clause's and `ALIGN_SOURCE` of the source clause's), and only when no asserting
source clause aligns with it at least as well: a plan stated and then confirmed is a fact.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Sequence, Set

from groundwire.guards.grounding.lexical.attempts import ATTEMPTS, attempts_at
from groundwire.guards.grounding.lexical.dropped_modal import Frame, modal_frames, struck_modal
from groundwire.guards.grounding.lexical.elliptical_denials import OPENERS as ELLIPSIS_OPENERS
from groundwire.guards.grounding.lexical.elliptical_denials import elliptical_denial_at
from groundwire.guards.grounding.lexical.ended_states import CEASING, ceased_at, tells_ended
from groundwire.guards.grounding.lexical.evidence import ClaimClauses, Evidence, Sentence
from groundwire.guards.grounding.lexical.plan_nouns import names_a_plan
from groundwire.guards.grounding.lexical.polarity import ALIGN, ALIGN_SOURCE, same_specifics
from groundwire.guards.grounding.lexical.scheduled import SCHEDULING, scheduled_at
from groundwire.guards.grounding.lexical.text import (
    AUXILIARIES,
    CONJUNCTIONS,
    COORDINATORS,
    NEGATIONS,
    ClaimWords,
    implicative_at,
    number_value,
    word_set,
)
from groundwire.guards.month_may import month_by_next

__all__ = [
    "SPEAKER_WORDS",
    "STRONG",
    "asks_only",
    "may_speak_of_itself",
    "sentence_moods",
    "speaks_of_itself",
    "unasserted",
    "unasserted_outside",
    "word_moods",
]

# the moods that leave nothing asserted: a claim aligned only with them is NOT_SUPPORTED
# ("done": a plan, hedge or condition of the source told as done, `_told_as_done`)
STRONG: frozenset[str] = frozenset(
    ("question", "hypothetical", "denied", "past", "unrealised", "done")
)

_HEDGES = word_set(
    """might may could maybe perhaps possibly probably likely unlikely presumably
    supposedly allegedly think guess believe suspect reckon doubt thinks thought believes
    believed suspects suspected guesses guessed reckons doubts doubted"""
)
_INTENT = word_set(
    """want wants wanted wanting hope hopes hoped hoping wish wishes wished plan plans
    planned planning intend intends intended intending should would considering consider
    considers considered propose proposes proposed proposal will"""
)
# "almost" and "nearly" before what they qualify say it did not (quite) happen or hold:
# "we almost chose Kafka", "the migration is nearly done". Not before an amount, a
# quantifier or an adverb, where they only round it ("almost 50 users", "nearly all",
# "almost always", "almost certainly").
_UNREALISING = frozenset(("almost", "nearly"))
_ROUNDED = word_set(
    """all every each any no none half a an the twice double always never everyone
    everybody everything everywhere nobody nothing"""
)
_FRAMES = word_set(
    "pretend pretending suppose supposing imagine imagining hypothetically assume assuming"
)
_CONDITIONS = frozenset(("if", "unless", "whether"))
# said of a statement: "that's wrong", "is false", "is a myth"
_DENIALS = word_set("false untrue wrong incorrect inaccurate myth mistaken bogus")
_BE = word_set("is was are were be been that's it's which's")
_DEGREE = word_set("a an completely totally simply just plainly entirely")
# "Did you know (that) ...?" presupposes what follows: not a question about it
_FACTIVE = word_set("know knew realize realise remember aware notice noticed")
# a claim that reports the conversation ("Caroline asks for ...") restates a speech act,
# whatever its mood: not a fact drawn from the clause (verbs of speaking, asking,
# advising and deliberating, in the forms that are not also nouns: "asked", not "question")
_REPORTING = word_set(
    """ask asks asked asking inquire inquires inquired wonders wondered questioned discuss
    discusses discussed talked mention mentions mentioned suggest suggests suggested
    propose proposes proposed say says said tell tells told claimed considers considered
    advise advises advised recommend recommends recommended urge urges urged remind
    reminds reminded warn warns warned offered replied answered demanded insist insists
    insisted requested chatted converse converses conversed debated argue argues argued
    negotiate negotiates negotiated contemplate contemplates contemplated"""
)
_CLOSERS = " \t\"'”’)]»"
_SUBJECTS = word_set("i we you he she they it")
# the first word of the sentence after a question, when it answers it
_YES = word_set("yes yeah yep yup right correct exactly indeed true sure absolutely")
_NO = word_set("no nope nah wrong incorrect false")
_FILLERS = word_set("well oh um uh hmm so")
# "Why do we use Postgres?", "When did we migrate?": the question takes what it asks
# about as given (a presupposition), so the sentence does not stop asserting it
_PRESUPPOSING = word_set("why when where how")
# a sentence that opens with one of these asks all it says ("Is the cache on Redis, or
# on Memcached?"); otherwise only its last clause is the question ("153 minutes of ...,
# has the definition changed?")
_INTERROGATIVE = word_set(
    """do does did is are was were am can could will would should shall may might must
    have has had what where who whom whose why how when which isn't aren't don't doesn't
    didn't won't can't"""
)

# the strongest mood wins when a clause has two
_RANK = {m: r for r, m in enumerate(("conditional", "intended", "hedged", *sorted(STRONG)))}
_WEAK = frozenset(("conditional", "intended"))  # moods a claim may state of its own


def _denial_at(lows: Sequence[str], k: int) -> bool:
    """The denial word at k is said of a statement ("that's wrong", "is a myth"), not of
    a thing ("the wrong config", "a false alarm"): a form of "be" comes before it."""
    j = k - 1
    while j >= 0 and lows[j] in _DEGREE:
        j -= 1
    return j >= 0 and lows[j] in _BE


def _cue(raws: Sequence[str], lows: Sequence[str], k: int) -> str | None:
    """The mood the word at k marks, or None."""
    low = lows[k]
    nxt = lows[k + 1] if k + 1 < len(lows) else ""
    if low in _HEDGES:
        if low == "may" and ((k > 0 and raws[k][:1] == "M") or month_by_next(nxt)):
            return None  # the month ("May saw prices rise": no modal, `month_may.py`)
        if low == "could" and nxt == "not":
            return None  # "could not read": a past fact, not a possibility
        return "hedged"
    if low in _INTENT or (low[-2:] == "'d" and low[:-2] in _SUBJECTS and _would(nxt)):
        if names_a_plan(lows, k):
            return None  # "pay for the enterprise plan": a thing named (`plan_nouns.py`)
        return "intended"  # "I'd love to live in Berlin": would, a wish
    if attempts_at(lows, k):
        return "intended"  # "we tried to fix it": undertaken, not done (`attempts.py`)
    if low in CEASING and ceased_at(lows, k):
        return "past"  # "we stopped using Jenkins", as "we used to use" (`ended_states.py`)
    if low in SCHEDULING and scheduled_at(lows, k):
        return "intended"  # "it is scheduled to ship": not yet done (`scheduled.py`)
    if low in _CONDITIONS:
        return "conditional"
    if low in _FRAMES:
        return "hypothetical"
    if low in _DENIALS:
        return "denied" if _denial_at(lows, k) else None
    if low in ELLIPSIS_OPENERS:  # "..., but it isn't" (`elliptical_denials.py`)
        return "denied" if elliptical_denial_at(lows, k) else None
    if (
        low == "used"
        and nxt == "to"
        and k
        and (lows[k - 1] in _SUBJECTS or _named(raws, lows, k - 1))
    ):
        return "past"  # "we used to deploy", "Alice used to", not "a device used to measure"
    if low == "let's" and nxt == "say":
        return "hypothetical"
    if low in _UNREALISING and nxt and nxt not in _ROUNDED and not nxt.endswith("ly"):
        return None if number_value(nxt) is not None else "unrealised"
    if low in _UNTIL and _past_before(lows, k):
        return "past"  # "Alice owned the service until March": no longer so
    return None


def _named(raws: Sequence[str], lows: Sequence[str], k: int) -> bool:
    """Whether the word at k is a name opening its clause, so a subject: a capital, then
    lower case ("Alice"; not "API", "The"), first in the sentence or after a coordinator
    ("The tool Alice used to approve it": a relative clause, no habit)."""
    raw = raws[k]
    if not (len(raw) > 1 and raw[0].isupper() and raw[1:].isalpha() and raw[1:].islower()):
        return False
    return k == 0 or lows[k - 1] in COORDINATORS


# after "I'd", "we'd": the past participles (and adverbs) that make it "had", not "would"
_HAD = word_set("been had done gone got made seen already never just ever not")


def _would(nxt: str) -> bool:
    """Whether a subject's "'d" before `nxt` is "would" (a base verb: "I'd love to", "we'd
    prefer"), not "had" ("I'd moved", "I'd been", "I'd already"): the regular and -en/-wn
    participles by their ending, the common irregular ones listed."""
    return bool(nxt) and nxt not in _HAD and not nxt.endswith(("ed", "en", "wn"))


# "until" after a verb in the past tense ends what the clause says: "Alice was the lead
# until 2023" is over. Not after the present ("the cache is warm until midnight").
_UNTIL = frozenset(("until", "till"))
_PAST_VERBS = frozenset(("was", "were", "had", "did", "used"))


_PRESENT_AUX = frozenset(("is", "are", "am", "be", "been", "being", "has", "have", "'s"))


def _past_form(lows: Sequence[str], k: int) -> bool:
    """Word k is a verb in the past tense: "was", "had", "did", "used", or a word in -ed
    that no present auxiliary makes a passive or a perfect ("owned", not "is warmed")."""
    low = lows[k]
    if low in _PAST_VERBS:
        return True
    return len(low) > 4 and low.endswith("ed") and (k == 0 or lows[k - 1] not in _PRESENT_AUX)


def _in_past(lows: Sequence[str], positions: Sequence[int]) -> bool:
    """Whether a claim clause tells of the past (`_past_form`)."""
    return any(_past_form(lows, k) for k in positions)


def _past_before(lows: Sequence[str], k: int) -> bool:
    """Whether a verb in the past tense stands in the eight words before position k."""
    return any(_past_form(lows, j) for j in range(max(0, k - 8), k))


_WEAK_OR_HEDGED = frozenset(("conditional", "intended", "hedged"))
# "has migrated", "have switched": a perfect tells of a thing done, like the past tense
_PERFECT_AUX = frozenset(("has", "have", "had", "'ve"))


def _done_words(lows: Sequence[str], positions: Sequence[int]) -> list[str]:
    """The verbs of a clause that tell of a thing done: the past tense (`_past_form`) or
    a perfect ("has migrated", "may have been practiced")."""
    return [
        lows[k]
        for k in positions
        if _past_form(lows, k)
        or (
            k
            and (
                lows[k - 1] in _PERFECT_AUX
                or (lows[k - 1] == "been" and k > 1 and lows[k - 2] in _PERFECT_AUX)
            )
            and len(lows[k]) > 4
            and lows[k].endswith("ed")
        )
    ]


def _told_as_done(
    lows: Sequence[str],
    positions: Sequence[int],
    mood: str,
    source_past: bool,
    source_lows: Set[str],
) -> bool:
    """Whether a claim clause tells as done what the source clause aligned with it only
    plans, hedges or conditions: a verb of the clause in the past tense (`_past_form`) or
    a perfect ("has migrated"). An intention is never a deed, whatever its tense ("we
    planned to migrate"); a hedge or a condition only when the source clause is not in
    the past itself ("we probably migrated it" / "we migrated it" drops a hedge, as
    docs/spec.md's sharpened plan does: partial)."""
    done = _done_words(lows, positions)
    # the deed told elsewhere in the source ("we planned to migrate it, and migrated it in
    # May"): the plan was confirmed, whatever clause says so
    if not done or not source_lows.isdisjoint(done):
        return False
    return mood == "intended" or not source_past


def _told_deeds(ev: Evidence) -> frozenset[str]:
    """The source's words that tell of a thing done (`_done_words` of each sentence):
    what confirms a plan ("we planned to migrate it, and migrated it in May"). Session
    16: not any source word, since the plan's own participle ("will be decommissioned")
    confirmed "was decommissioned" and a future told as past was read as partial."""
    return frozenset(w for s in ev.sentences for w in _done_words(s.lows, range(len(s.lows))))


# Session 15: a modal auxiliary before the verb it governs ("will be", "might become", "may
# lead"): the source puts the state or the act in the future or among possibilities
_MODAL_AUX = word_set("will might may could would shall")
# the present of "be", which states a state now ("is the tech lead")
_PRESENT_BE = word_set("is are am 's")
# verbs of becoming: "might become the lead" / "is the lead" tells the state as reached
_BECOMING = word_set("be become get")


_POSSIBILITY = word_set("might may could")


def _modal_verbs(lows: Sequence[str], positions: Sequence[int]) -> frozenset[str]:
    """The verbs right after a modal auxiliary in a source clause ("will *be*", "might
    *become*"; past one adverb in -ly: "will probably *be*"), bare as the modal leaves
    them."""
    found: set[str] = set()
    inside = set(positions)
    for k in positions:
        if lows[k] not in _MODAL_AUX:
            continue
        nxt = k + 1
        if nxt in inside and lows[nxt].endswith("ly"):
            nxt += 1
        if nxt in inside and lows[nxt] != "not" and lows[nxt] != "have":
            found.add(lows[nxt])
    return frozenset(found)


def _told_as_present(
    lows: Sequence[str], positions: Sequence[int], modal_verbs: Set[str], possible: bool
) -> bool:
    """Whether a claim clause states in the present what the source clause aligned with
    it only puts under a modal ("The billing service is on Postgres 16" / "will be", "Kai
    is the new lead" / "might become", "Ravi leads the team" / "may lead"): the present of
    "be" where the source's modal governs "be" or a verb of becoming, or, where the modal
    is one of possibility (`possible`: might, may, could), the source's own verb with the
    present's -s. "Will" with another verb is as often the generic present of an
    encyclopedia ("The Sun will set due west at the equator" / "The Sun sets due west")
    and is not read. A hedge adverb or an attitude dropped ("we probably use
    Redis" / "we use Redis") has no modal verb and stays a partial grounding, as
    docs/spec.md's sharpened plan does. The caller has checked the claim clause has no
    cue of its own."""
    if not modal_verbs:
        return False
    words = {lows[k] for k in positions}
    if not _MODAL_AUX.isdisjoint(words):
        return False
    if not _BECOMING.isdisjoint(modal_verbs) and not _PRESENT_BE.isdisjoint(words):
        return True
    if not possible:
        return False
    return any(v + "s" in words or v + "es" in words for v in modal_verbs if v not in _BECOMING)


_CUE_WORDS = (
    _HEDGES
    | _INTENT
    | _CONDITIONS
    | _FRAMES
    | _DENIALS
    | _UNREALISING
    | {"used", "let's"}
    | _UNTIL
    | ATTEMPTS
    | ELLIPSIS_OPENERS
    | SCHEDULING
    | CEASING
) | {f"{subject}'d" for subject in _SUBJECTS}


def word_moods(raws: Sequence[str], lows: Sequence[str], clause: Sequence[int]) -> dict[int, str]:
    """Clause number -> the mood of the strongest cue bearing on it (clauses with none
    are absent). A hedge, intention or given-up habit bears on its own clause, a frame on
    its clause and those after it, a condition on its clause (and the next one when it
    opens its clause), a denial on the whole sentence. Questions are the caller's (they
    need the text's punctuation)."""
    out: dict[int, str] = {}
    if _CUE_WORDS.isdisjoint(lows):
        return out
    last = clause[-1]
    for k in range(len(lows)):
        mood = _cue(raws, lows, k)
        if mood is None:
            continue
        c = clause[k]
        if mood == "denied":
            reach: Sequence[int] = range(last + 1)
        elif mood == "conditional":
            # the condition's clause, and the one after it when the condition opens its
            # clause ("If the budget allows, we move ..."); not the rest of the sentence
            opens = k == 0 or clause[k - 1] != c
            reach = (c, c + 1) if opens and c < last else (c,)
        elif mood == "hypothetical":
            reach = range(c, last + 1)
        else:
            reach = (c,)
        for d in reach:
            if d not in out or _RANK[mood] > _RANK[out[d]]:
                out[d] = mood
    return out


def _own_cues(words: ClaimWords, lo: int, hi: int) -> frozenset[str]:
    """The stems of the intention and condition words a claim clause has of its own
    ("plans", "planning", "intends"): such a claim is held to a source that asks about
    that very intention ("Should I plan a trip to Japan?"), not to one that asks about
    the thing intended ("Should we meet at 6?" proposes the plan "planned to meet")."""
    return frozenset(
        words.stems[k]
        for k in range(lo, hi)
        if words.lows[k] in _CUE_WORDS and _cue(words.raws, words.lows, k) in _WEAK
    )


def _is_question(text: str, lows: Sequence[str]) -> bool:
    return text.rstrip(_CLOSERS).endswith("?") and _FACTIVE.isdisjoint(lows)


def asks_only(words: ClaimWords, text: str) -> bool:
    """Whether every sentence of a claim is a question, read as a source sentence is
    (`sentence_moods`): it ends in a question mark, has no factive word ("Did you know
    that ...?" tells what follows) and does not open with why/when/where/how (which take
    what they ask about as given). Such a claim states nothing the source could support:
    "Do you listen to the radio?" against an article about radio."""
    if not text.rstrip(_CLOSERS).endswith("?"):
        return False  # the cheap test first: most claims end as statements
    cuts = [0]
    for k in range(1, len(words.raws)):
        gap = text[words.spans[k - 1][1] : words.spans[k][0]]
        if any(c in gap for c in ".!?"):
            cuts.append(k)
    cuts.append(len(words.raws))
    for a, b in itertools.pairwise(cuts):
        lows = words.lows[a:b]
        end = words.spans[b][0] if b < len(words.raws) else len(text)
        piece = text[words.spans[a][0] : end].rstrip()
        if not lows or lows[0] in _PRESUPPOSING or not _is_question(piece, lows):
            return False
    return True


# The speaker as the subject ("I", "I'm", "I 've" as some transcripts split it), what may
# stand between it and its verb, and the verbs (and "sure", "aware") that frame what
# follows as known, heard or believed rather than say what the speaker did or likes.
_I = word_set("i i'm i've i'd i'll")
# A source with one of these has someone speak of themselves (a user's turn, an
# interview), so it may attest what a claim's "I" likes or did; "us" and "our" alone do
# not ("the story wants us to care" in a review, "our mission" on a company page).
SPEAKER_WORDS = _I | word_set("me my mine myself we we're we've we'd we'll")
_PUNCT = re.compile(r"[,.;:!?]")
_BETWEEN = (
    AUXILIARIES
    | NEGATIONS
    | word_set(
        """m ve d ll also really just too actually honestly still never always even
    definitely certainly so quite pretty very entirely totally kind sort of not"""
    )
)
_KNOWING = (
    _HEDGES
    | _FACTIVE
    | word_set(
        """sure unsure aware heard hear hears read learned learnt wonder wondered agree
        mean see saw understand bet afraid recall forgot forget"""
    )
)


# "I" as a word, as the claim's words are read (`text.WORD`: "I", "I'm", "I 've"): the
# cheap test that most claims fail before their words are read.
# `(?<![A-Za-z0-9])[Ii](?![A-Za-z0-9])` with the look-behind moved after the letter (the
# same matches), so the regex engine skips ahead to an "i" instead of trying the
# look-behind at every character.
_I_WORD = re.compile(r"[Ii](?<![A-Za-z0-9][Ii])(?![A-Za-z0-9])")


def may_speak_of_itself(text: str) -> bool:
    """Whether the claim has "I" as a word at all (`speaks_of_itself` needs it)."""
    return _I_WORD.search(text) is not None


def speaks_of_itself(words: ClaimWords, text: str) -> bool:
    """Whether the claim says something of its own speaker: "I" as the subject of a
    verb other than one of knowing, hearing or believing ("I love cats", "I watched it",
    "I am a big fan"), not "I think ...", "I heard that ...", "I'm not sure" (which
    frame what follows) nor a bare answer ("I do!", "No, I don't, but ..."). A source
    written in the third person cannot attest the speaker's own tastes or doings."""
    lows, spans = words.lows, words.spans
    n = len(lows)
    for k, low in enumerate(lows):
        if low not in _I:
            continue
        j = k + 1
        while (
            j < n and lows[j] in _BETWEEN and not _PUNCT.search(text, spans[j - 1][1], spans[j][0])
        ):
            j += 1
        if j == n or _PUNCT.search(text, spans[j - 1][1], spans[j][0]):
            continue  # a bare answer: "I do!", "I don't, but ..."
        if j > k + 1 and lows[j] in CONJUNCTIONS | COORDINATORS:
            continue  # the same, joined on: "I do and ...", "No I don't but ..."
        if lows[j] not in _KNOWING:
            return True
    return False


def _may_have_moods(ev: Evidence) -> bool:
    """Whether some sentence of the evidence may not simply assert: it has a cue word or
    a question mark (most sources have neither)."""
    return ev.question or not _CUE_WORDS.isdisjoint(ev.lows)


def sentence_moods(s: Sentence) -> dict[int, str]:
    """The moods of a source sentence's clauses (cached on the sentence)."""
    if s._moods is None:
        if _CUE_WORDS.isdisjoint(s.lows) and "?" not in s.text[s.start : s.end]:
            s._moods = {}
            return s._moods
        clause = s.clause_of()
        moods = word_moods(s.raws, s.lows, clause)
        opening = _opening(s)
        if opening not in _PRESUPPOSING and _is_question(s.text[s.start : s.end], s.lows):
            last = clause[-1]
            asked = range(last + 1) if opening in _INTERROGATIVE else (last,)
            moods.update(dict.fromkeys(asked, "question"))
        s._moods = moods
    return s._moods


def _opening(s: Sentence) -> str:
    """The sentence's first word after a speaker label and a filler ("Ben: Well, yes,
    we do." -> "yes")."""
    lows = s.lows
    k = 1 if len(lows) > 1 and s.text.startswith(":", s.start + len(s.raws[0])) else 0
    if k + 1 < len(lows) and lows[k] in _FILLERS:
        k += 1
    return lows[k]


def _with_answer(moods: dict[int, str], sentences: Sequence[Sentence], i: int) -> dict[int, str]:
    """The moods of sentence i once the next sentence is read: a question it answers
    "yes" is stated ("Is it Redis? Yes."), one it answers "no" is denied."""
    if "question" not in moods.values():
        return moods
    answer = _answered(sentences, i)
    if answer is None:
        return moods
    if answer == "no":
        return {d: "denied" if m == "question" else m for d, m in moods.items()}
    return {d: m for d, m in moods.items() if m != "question"}


def _answered(sentences: Sequence[Sentence], i: int) -> str | None:
    """ "yes" or "no" when the sentence after question i opens with an answer to it."""
    if i + 1 >= len(sentences):
        return None
    first = _opening(sentences[i + 1])
    return "yes" if first in _YES else "no" if first in _NO else None


def unasserted_outside(s: Sentence, lo: int, hi: int) -> bool:
    """Whether something outside turn offsets lo:hi of sentence `s` may stop it asserting
    what lies inside, so a quote of the claim must be read, not taken as support ("Nobody
    on the team uses Windows"): the sentence is a question, a mood cue stands outside
    the quote, or a negation (or "failed to") comes before it in its clause ("..., but
    not Redis outages" after the quote denies something else)."""
    if not s.any_negation and not sentence_moods(s):
        return False
    if _is_question(s.text[s.start : s.end], s.lows):
        return True
    raws, lows, clause = s.raws, s.lows, s.clause_of()
    spans = s.word_spans()
    first = next((k for k, (a, _) in enumerate(spans) if a >= lo), len(spans))
    for k, (a, _) in enumerate(spans):
        if lo <= a < hi:
            continue
        if _cue(raws, lows, k) is not None:
            return True
        before = a < lo and first < len(spans) and clause[k] == clause[first]
        if before and (lows[k] in NEGATIONS or implicative_at(lows, k)):
            return True
    return False


def _may_have_mood(s: Sentence) -> bool:
    """Whether the sentence may not simply assert (a cue word or a question mark): the
    cheap test before its clauses are split."""
    if s._moods is not None:
        return bool(s._moods)
    return not _CUE_WORDS.isdisjoint(s.lows) or s.text.find("?", s.start, s.end) != -1


def _may_align(s: Sentence, stems: set[str] | frozenset[str]) -> bool:
    """Some clause of the sentence that does not simply assert shares two content words
    with the claim (`stems`: the claim's stems the sentence holds)."""
    moods = sentence_moods(s)
    if not moods:
        return False
    return any(
        d_id in moods and len(d_pos) >= 3 and len(stems.intersection(d_stems)) >= 2
        for d_id, d_pos, d_stems in s.clauses()
    )


def unasserted(
    words: ClaimWords,
    claim_text: str,
    ev: Evidence,
    shared: Sequence[set[str] | frozenset[str]],
    clauses: ClaimClauses,
) -> list[tuple[str, str]]:
    """(source clause, mood) for each claim clause whose best-aligned source clause is not
    asserted and that states it without a mood word of its own.

    Most claims stop at one of the cheap tests, in order: no source sentence with a cue
    word or a question mark shares two content words with the claim; none of the
    clauses of those sentences that do not simply assert does (their clauses are kept
    with the sentence); no claim clause could be aligned with one (set operations on the
    claim's clauses). Only then are the source sentences that share enough with a claim
    clause split into clauses."""
    if not shared or not _may_have_moods(ev):
        return []
    if claim_text.rstrip(_CLOSERS).endswith("?"):
        return []
    sentences = ev.sentences
    # the sentences sharing two content words with the claim (C-level passes pick them)
    hits = [
        (i, sentences[i], shared[i])
        for i in itertools.compress(range(len(shared)), map((1).__lt__, map(len, shared)))
    ]
    mooded = [(s, hit) for _, s, hit in hits if _may_have_mood(s)]
    if not mooded or not any(_may_align(s, hit) for s, hit in mooded):
        return []  # (the claim's clauses are not split for these)
    lows = words.lows
    claim_moods = word_moods(words.raws, lows, clauses.ids())
    bounds = clauses.bounds()
    candidates = []
    for c_id, c_stems in enumerate(clauses.stem_sets()):
        cues: frozenset[str] = frozenset()
        c_pos = range(bounds[c_id], bounds[c_id + 1])
        # a cue next door bears on a fragment too ("By end of April, Georgian should ...")
        near = c_id in claim_moods or c_id - 1 in claim_moods or c_id + 1 in claim_moods
        # ... but a claim's "will" only keeps it from being held to a plan: "we will
        # migrate" against "we might migrate" still states more than the source
        rank = -1
        if near:
            lo = bounds[max(0, c_id - 1)]
            hi = bounds[min(len(bounds) - 1, c_id + 2)]
            if any(lows[k] in _CUE_WORDS and lows[k] != "will" for k in range(lo, hi)):
                cues = _own_cues(words, lo, hi)
                if not cues:
                    continue
                rank = len(_RANK)  # held only to a strong mood of the same cue (below)
            else:
                rank = _RANK["intended"]
        if len(c_stems) < 2 or any(lows[k] in _REPORTING for k in c_pos):
            continue
        need = max(2.0, ALIGN * len(c_stems))
        if any(len(c_stems.intersection(hit)) >= need for _, hit in mooded):
            candidates.append((c_pos, c_stems, need, rank, cues))
    if not candidates:
        return []
    out: list[tuple[str, str]] = []
    for c_pos, c_stems, need, rank, cues in candidates:
        # the best-aligned source clause; an asserting one wins a tie
        best_key, best_text, best_mood = (0, False), "", None
        best_past = False
        best_modal: frozenset[str] = frozenset()
        best_possible = False
        best_frames: frozenset[Frame] = frozenset()
        asks_cue = False  # the best clause asks (denies, ...) the claim's own intention
        for i, s, hit in hits:
            if len(c_stems.intersection(hit)) < need:
                continue  # no clause of it can align: not split
            moods = _with_answer(sentence_moods(s), sentences, i)
            for d_id, d_pos, d_stems in s.clauses():
                if len(d_pos) < 3:
                    continue  # "Whitsunday Island?": a name asked about, no statement
                common = len(c_stems.intersection(d_stems))
                if common < 2 or common < ALIGN * len(c_stems):
                    continue
                if common < ALIGN_SOURCE * len(d_stems):
                    continue
                if not same_specifics(words, c_pos, s, d_pos):
                    continue  # the same frame, another value: not the clause restated
                mood = moods.get(d_id)
                key = (common, mood is None)
                if key > best_key:
                    best_key, best_mood = key, mood
                    best_text = " ".join(s.raws[k] for k in d_pos)
                    best_past = bool(_done_words(s.lows, d_pos))
                    best_modal = _modal_verbs(s.lows, d_pos)
                    best_possible = any(s.lows[k] in _POSSIBILITY for k in d_pos)
                    best_frames = modal_frames(s.lows, d_pos)
                    asks_cue = mood in STRONG and any(s.word_stems[k] in cues for k in d_pos)
        # a claim in the past tense is not held to a state the source says has ended
        # ... nor one that says it has ended itself ("no longer works": `ended_states.py`)
        if best_mood == "past" and (_in_past(lows, c_pos) or tells_ended(lows, c_pos)):
            continue
        # a plan, hedge or condition told as done ("We migrated" / "we plan to migrate",
        # "we might migrate"): not the source's weak assertion, another fact
        if (
            best_mood in _WEAK_OR_HEDGED
            and rank < 0
            and (
                _told_as_done(lows, c_pos, best_mood, best_past, _told_deeds(ev))
                or _told_as_present(lows, c_pos, best_modal, best_possible)
                or struck_modal(lows, c_pos, best_frames)  # "we use" / "we might use"
            )
        ):
            best_mood = "done"
        # a claim with only "will" of its own is held to what is stronger than a plan
        if (
            best_mood is not None
            and (_RANK[best_mood] > rank or asks_cue)
            and ((best_text, best_mood) not in out)
        ):
            out.append((best_text, best_mood))
    return out
