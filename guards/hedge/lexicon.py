"""The hedge lexicon: what counts as a hedge, and the index that finds candidates fast.

Five tables, one per category (docs/spec.md §Hedges): personal speculation, admitted
uncertainty and suggestions (these block), technical hedges and approximations (these
send to review).
The word lists follow the linguistics of hedging (epistemic modals, epistemic
adverbs/verbs, first-person propositional-attitude verbs, approximators of quantity), not
any dataset.

Each table entry is compiled into one or more `HedgePattern`s, which record their trigger
words and which post-match filter applies; `candidates` then picks, from a claim's word
set, the few patterns worth running.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from groundwire.topics.vocab import HedgeCategory

__all__ = [
    "CARDINALS",
    "CATEGORY_ORDER",
    "CHECK_BELIEVE",
    "CHECK_DISJUNCTION",
    "CHECK_FREQUENCY",
    "CHECK_MODAL",
    "CHECK_NONE",
    "CHECK_WHOSE",
    "PATTERNS",
    "TO_SPACE_BYTES",
    "TRIGGER_WORDS",
    "UNITS",
    "HedgePattern",
    "byte_words",
    "candidates",
]

# Each pattern comes with the words one of which it cannot match without ("" = always
# try). A claim's word set is computed once; a pattern whose trigger words are all absent is
# never run, so most claims pay for a set intersection, not for ~40 regex scans. Patterns
# start with a literal (never \b: the regex engine then cannot skip ahead to the first
# letter, measured ~10x slower); `HedgeDetector.hits` checks the left word boundary in
# Python instead.
_ATTITUDE_WORDS = "think guess believe assume suppose suspect reckon imagine presume bet"
_ATTITUDE = "(?:" + _ATTITUDE_WORDS.replace(" ", "|") + ")"
_Spec = tuple[str, str]  # (trigger words, regex)
# A sentence's start: the text's or after ".", "!" or "?" and a space, but not after a
# title's full stop ("Dr. Guess reviews ...": a surname, session 16), which ends no
# sentence; the titles are a closed class of English written before a name.
_OPENS = (
    r"(?:^|(?<=[.!?] )"
    + "".join(
        rf"(?<!\b{title}\. )" for title in ("dr", "mr", "mrs", "ms", "mx", "prof", "rev", "fr")
    )
    + ")"
)
_PERSONAL: tuple[_Spec, ...] = (
    # First-person propositional-attitude verbs: the speaker reports a belief, not a fact.
    (
        _ATTITUDE_WORDS,
        r"i(?: \w+ly| do| don't| do not| did| didn't| really| kind of| sort of| just|'d| would|"
        r" even| also| still| sometimes)?"
        rf" {_ATTITUDE}\b",
    ),
    (
        "guessing assuming thinking supposing betting speculating",
        r"i(?:'m| am| was) (?:guessing|assuming|thinking|supposing|betting|speculating)\b",
    ),
    (
        "think guess assume suspect reckon",
        r"we(?: \w+ly| do| really| kind of| sort of| just)?"
        r" (?:think|guess|assume|suspect|reckon)\b",
    ),
    ("feel", r"i feel (?:like|that)\b"),
    # Informal subject drop at the start of a sentence ("Guess it's just me", "Suppose
    # so"): still the writer's attitude. Not "think"/"believe", whose sentence-initial
    # uses are imperatives ("Think about it", "Believe me"); not "Guess what".
    # Session 16: after a title ("Dr. Guess reviews ...") it is a surname, unless a clause of
    # its own follows ("Dr. Guess we use Redis": a subject pronoun or determiner next).
    (
        "guess suppose reckon",
        r"(?:" + _OPENS + r"(?:guess|suppose|reckon)\b(?! what\b)"
        r"|(?<=[.!?] )(?:guess|suppose|reckon)(?=,? (?:i|we|they|he|she|it's|the|our|my"
        r"|their|this|these|those)\b))",
    ),
    (
        "thought guessed assumed imagined",
        r"i(?:'d| would) have (?:thought|guessed|assumed|imagined)\b",
    ),
    # "X leads me to believe Y": the writer's own inference, stated as such.
    ("believe think suspect", r"(?:leads?|led) me to (?:believe|think|suspect)\b"),
    # "pretty sure" is a commitment short of certainty; "quite sure" (British: fully) is not.
    (
        "sure certain confident",
        r"(?:i'm|i am|we're|we are) (?:pretty|fairly|reasonably|almost|mostly) "
        r"(?:sure|certain|confident)\b",
    ),
    (
        "guess hunch gut impression sense feeling assumption bet",
        r"my (?:guess|hunch|gut feeling|gut|impression|sense|feeling|assumption|bet)"
        r"(?: (?:is|was|says)\b|:)",
    ),
    # Session 13: "my guess" / "my hunch" as a note of its own: opening a sentence before
    # a mark ("My guess, ...", "My hunch? ..."), closing one after a comma ("..., my
    # guess."), or in brackets ("(my guess)"). "The answer matched my guess." reports one.
    (
        "guess hunch",
        r"(?:(?:^|(?<=[.!?] ))my (?:guess|hunch)(?=\s*[,?!\u2014-])"
        r"|(?:(?<=, )|(?<=[(\[]))my (?:guess|hunch)(?=\s*(?:[.!?;)\]]|$)))",
    ),
    # A guess named as one, and the writer's gut ("wild guess:", "gut feeling: ...").
    ("guess", r"(?:wild|educated|rough|blind) guess\b"),
    ("gut", r"gut (?:feeling|says|tells me)\b"),
    ("guess", r"if i (?:had|have) to guess\b"),
    # The claim labelled as the writer's conjecture ("Speculation: ...", "Hypothesis: ...").
    (
        "speculation hypothesis conjecture assumption",
        r"(?:speculation|hypothesis|conjecture|assumption):",
    ),
    # Session 13: the same label as a sentence or a bracketed note of its own ("...
    # (Speculation.)", "... Conjecture."); "The hypothesis was verified" is a topic.
    (
        "speculation hypothesis conjecture assumption",
        r"(?:^|(?<=[.!?] )|(?<=[(\[]))(?:speculation|hypothesis|conjecture|assumption)"
        r"(?=[.!]?\s*(?:[)\]]|$))",
    ),
    ("methinks", r"methinks\b"),
    # session 9: the same commitment with its subject dropped ("Pretty sure the cache is
    # Redis"), a confidence short of certain put as a number ("I'm 90% sure"), a guess
    # named by its blend ("my guesstimate")
    (
        "sure certain confident",
        r"(?:^|(?<=[.!?] ))(?:pretty|fairly|reasonably|almost|mostly) (?:sure|certain|confident)\b",
    ),
    (
        "sure certain confident",
        r"(?:i'm|i am|we're|we are) [1-9][0-9](?:\.[0-9]+)? ?% (?:sure|certain|confident)\b",
    ),
    ("guesstimate", r"guesstimate\b"),
    ("feeling hunch impression sense", r"i have (?:a|the) (?:feeling|hunch|impression|sense)\b"),
    ("impression", r"i(?:'m| am| was) under the impression\b"),
    ("guess", r"best guess\b"),
    # The writer's own understanding, offered as such.
    ("understanding", r"my understanding (?:is|was)\b"),
    ("understanding", r"(?:it's|it is|it was) my understanding\b"),
    ("understand", r"as i understand it\b"),
    ("gather", r"i gather\b"),
    ("guess wager imagine", r"i'd (?:guess|wager|imagine)\b"),
    # "I doubt that X" is the speaker's disbelief; "no doubt" / "without a doubt" assert
    # and never match, because the pattern needs the first-person subject.
    ("doubt", r"i(?: \w+ly| do| really)? doubt\b"),
    # Bare "maybe"/"perhaps": docs/spec.md §Hedges lists them as personal speculation.
    # ... except before a quantity ("maybe 15k", "perhaps ~.5": session 14, a number
    # may start with its decimal point), where it approximates a number (below).
    ("maybe perhaps", r"(?:maybe|perhaps)\b(?! [~$€£]?\.?\d)"),
    ("mayhaps perchance", r"(?:mayhaps|perchance)\b"),
)
_ADMITTED: tuple[_Spec, ...] = (
    (
        "know remember recall",
        r"i (?:don't|do not|didn't|did not) (?:really |actually )?(?:know|remember|recall)\b",
    ),
    (
        "sure certain positive convinced",
        r"(?:not|never) (?:entirely |completely |totally |really |quite |100% )?"
        r"(?:sure|certain|positive|convinced)\b",
    ),
    ("unsure", r"unsure\b"),
    ("uncertain", r"(?:i'm|i am|we're|we are|it's|it is|it remains) (?:still )?uncertain\b"),
    ("uncertain", r"uncertain (?:whether|if|about|how|what|why|when|where|who)\b"),
    (
        "wrong mistaken misremembering",
        r"i (?:could|might|may) (?:be|have been) (?:wrong|mistaken|misremembering)\b",
    ),
    (
        "idea clue",
        r"(?:no|not much of an?) (?:idea|clue) (?:whether|if|what|why|how|where|when|who)\b",
    ),
    ("remember recall", r"i (?:can't|cannot|can not) (?:remember|recall)\b"),
    ("correctly right", r"if i (?:recall|remember|understand) (?:correctly|right)\b"),
    # (session 14: "iinm", "if I'm not mistaken" below; "afaiu", "as far as I understand")
    ("iirc afaik afaict iinm afaiu afaiui", r"(?:iirc|afaik|afaict|iinm|afaiui|afaiu)\b"),
    # The chat forms of "I don't know" ("idk", "dunno").
    ("idk dunno", r"(?:idk|dunno)\b"),
    # Session 12: the shrug, "I don't know" drawn: the kaomoji's face "(ツ)" (what the
    # canonical text keeps of "¯\_(ツ)_/¯") and the emoji U+1F937 (any modifier after it)
    ("(ツ) 🤷", r"(?:\(ツ\)|🤷)"),
    # Session 13: the thinking face U+1F914 closing the claim or a sentence of it ("We use
    # Redis 🤔"): the writer's doubt about what they just wrote, as "I wonder" is. Not
    # elsewhere ("I 🤔 think" is read as "I think"; "🤔 Why?" opens a question).
    ("🤔", r"🤔(?=\s*(?:[.!?]|$))"),
    ("quote", r"(?:don't|do not) quote me\b"),
    ("top", r"off the top of my head\b"),
    ("know tell remember", r"as far as i (?:know|can tell|remember)\b"),
    ("knows", r"who knows\b"),
    ("say tell", r"hard to (?:say|tell)\b"),
    ("wonder", r"i wonder\b"),
    ("mistaken", r"if i'm not mistaken\b"),
    ("mistaken wrong", r"unless i(?:'m| am) (?:mistaken|wrong)\b"),
    ("serves", r"if (?:my )?memory serves\b"),
    # session 9: the writer asks to be corrected, says it is recalled, asks for a check
    ("wrong", r"correct me if i(?:'m| am) wrong\b"),
    ("memory", r"(?:^|(?<=[.!?] ))from memory,"),
    ("double", r"(?:but |please |so )double[- ]check\b"),
    ("wrong", r"if i(?:'m| am) not wrong\b"),
    # The limits of the writer's knowledge: "to my knowledge", "from what I recall".
    ("knowledge", r"to (?:the best of )?my knowledge\b"),
    (
        "recall remember seen read tell",
        r"from what i(?: recall| remember| can tell| have seen| have read|'ve seen|'ve read)\b",
    ),
    # A note left on the claim that it still needs checking.
    (
        "checking verification confirmation needed verified confirmed",
        r"[(\[](?:needs (?:checking|verification|confirmation)|citation needed|"
        r"to be (?:verified|confirmed)|not (?:yet )?(?:verified|confirmed))[)\]]",
    ),
    # The same note closing the claim after a comma or a dash ("..., to be verified.",
    # "... - pending confirmation"); "orders are to be confirmed by email" states a rule.
    (
        "verified confirmed verification confirmation checking",
        r"(?:(?<=, )|(?<=- )|(?<=\u2014 ))(?:to be (?:verified|confirmed)|"
        r"pending (?:verification|confirmation)|needs (?:checking|verification|confirmation))"
        r"(?=\s*(?:[.!?;)]|$))",
    ),
    # A note to check it later ("TODO verify", "TODO: confirm").
    ("todo", r"todo:? (?:verify|check|confirm|double-check)\b"),
    # A question mark left on the claim as a note of doubt ("... uses Redis (?)"). Not
    # "??", which reviews use for emphasis ("What were they thinking??").
    ("(?)", r"\(\?\)"),
    # "..., unverified." closing the claim; "tokens are unverified" states a fact.
    # Session 13: also the word as a sentence or a bracketed note of its own ("...
    # Unverified.", "Unconfirmed! ...", "(Unverified.)"); "Unverified accounts are
    # disabled" names a kind of account.
    (
        "unverified unconfirmed",
        r"(?:(?<=, )|(?<=- )|(?<=\u2014 )|^|(?<=[.!?] )|(?<=[(\[]))un(?:verified|confirmed)"
        r"(?=\s*(?:[.!?;)\]]|$))",
    ),
    # The writer says the claim itself is unchecked: "(unverified)", "Unconfirmed: ...",
    # "this has not been verified". Not "X was not verified", which may report a fact.
    ("unverified unconfirmed", r"[(\[]un(?:verified|confirmed)[)\]]"),
    ("unverified unconfirmed", r"un(?:verified|confirmed):"),
    (
        "verified confirmed",
        r"this (?:has not|hasn't|is not|isn't) (?:yet )?(?:been )?(?:verified|confirmed)\b",
    ),
    ("unclear clear", r"(?:unclear|not clear) (?:whether|if)\b"),
    # session 10: the claim dated to the writer's last look ("Last I checked, ...", "...,
    # last time I looked"): as of then, not now, and only as far as the writer saw.
    # "The last time I checked the logs was Monday" dates a check: only the idiom ("last
    # I checked") or the phrase closing its clause is the hedge.
    ("checked looked", r"last (?:i|we) (?:checked|looked)\b"),
    (
        "checked looked",
        r"(?:last time (?:i|we)|when (?:i|we) last) (?:checked|looked)(?=\s*(?:[,.!?;)]|$))",
    ),
)
_SUGGESTION: tuple[_Spec, ...] = (
    (
        "maybe perhaps possibly",
        r"(?:maybe|perhaps|possibly) (?:we|you|i|they|someone|one) (?:should|could|might|can|"
        r"ought|try|need|want)\b",
    ),
    (
        "could might",
        r"(?:we|you) (?:could|might) (?:try|consider|want to|think about|look into|switch)\b",
    ),
    ("why", r"why (?:don't|not) (?:we|you)\b"),
    ("about", r"(?:how|what) about (?:we|using|trying|switching)\b"),
    ("what", r"what if we\b"),
    ("let", r"let's (?:try|consider|experiment)\b"),
    (
        "worth idea better wise",
        r"it (?:might|may|could|would) be (?:worth|a good idea|better to|wise)\b",
    ),
)
# Epistemic modals and adverbs/verbs of appearance and likelihood. "could" and "should"
# skip their negated forms ("couldn't" is already one token after normalization); "may"
# is checked against the month reading afterwards.
_FREQUENCY_WORDS = "typically usually often generally normally"
_TECHNICAL: tuple[_Spec, ...] = (
    ("may might mightn", r"(?:may|might|mightn't)\b"),
    # "could not only X" negates "only", not the modal: still a hedge.
    ("could should", r"(?:could|should)\b(?! not\b(?! only\b)| never\b)"),
    (
        "probably possibly potentially presumably apparently seemingly supposedly conceivably "
        "arguably likely unlikely hypothetically",
        # (session 13: "hypothetically", the adverb of the "hypothesis" label above; a
        # claim put as a supposition, like "presumably" and "in theory")
        r"(?:probably|possibly|potentially|presumably|apparently|seemingly|supposedly|"
        r"conceivably|arguably|likely|unlikely|hypothetically)\b",
    ),
    # Chat forms of "probably".
    ("prolly probs", r"(?:prolly|probs)\b"),
    ("hopefully", r"hopefully\b"),
    # The writer's estimate or opinion, named as such: worth a reviewer's look, not a
    # block (an evaluation, "I'd say the seats were fine", is not doubt).
    ("say", r"i(?:'d| would) say\b"),
    ("opinion", r"in my (?:humble |honest )?opinion\b"),
    ("imo imho", r"(?:imo|imho)\b"),
    ("seem seems seemed seeming seemingly", r"seem(?:s|ed|ing|ingly)?\b"),
    ("appear appears appeared", r"appear(?:s|ed)? (?:to|that|as if|as though|\w+ly)\b"),
    # ... and "It appears" before a clause without its "that" ("It appears the API ...")
    (
        "appears appeared",
        r"it appear(?:s|ed) (?:the|we|it|they|you|this|there|our|my|your|their)\b",
    ),
    # A claim weakened as soon as it is made ("..., or at least it used to").
    (
        "least",
        r"or at least (?:it|they|that|he|she|we|i) (?:used to|did|was|were|does|do|is|are|"
        r"think|believe)\b",
    ),
    (_FREQUENCY_WORDS, r"(?:typically|usually|often|generally|normally)\b"),
    ("tend tends", r"tends? to\b"),
    # Hearsay evidentials: the writer passes on a claim without vouching for it.
    ("allegedly reportedly purportedly", r"(?:allegedly|reportedly|purportedly)\b"),
    # Session 14: hearsay closing the claim ("..., I hear.", "..., so I've heard."); "I
    # heard the alarm" reports a sound. ("ostensibly" was tried and left out: the SFU
    # annotators read "has ostensibly been called upon" as no speculation.)
    (
        "hear heard",
        r"(?:(?<=, )|(?<=- )|(?<=\u2014 ))(?:so |or so )?i(?:'ve| have)? hear(?:d)?"
        r"(?=\s*(?:[.!?;)]|$))",
    ),
    ("rumor rumour", r"rumou?r has it\b"),
    ("rumored rumoured", r"rumou?red (?:to|that)\b"),
    # "(The) rumour is (that) ...": hearsay; not "the rumour is false", which judges it.
    ("rumor rumour", r"rumou?r is (?:that|the|we|it|they|our|you)\b"),
    ("said", r"it(?:'s| is) said (?:that|to)\b"),
    ("say", r"(?:people|they) say that\b"),
    ("heard", r"i(?:'ve| have) heard (?:that|it said)\b"),
    ("heard", r"i heard (?:that|somewhere|from|it said)\b"),
    # ... and with the "that" left out: "I heard the cache is on Redis", "I've heard our
    # CTO has left" (a clause: a subject and a finite verb or auxiliary after it). "I
    # heard the alarm go off" reports a sound, not a claim.
    (
        "heard",
        r"i(?:'ve| have)? heard (?:the |our |their |his |her |my |your |a |an )?[a-z]+ "
        r"(?:is|are|was|were|has|have|had|will|would|can|could|should|does|did|uses|runs)\b",
    ),
    ("told tells", r"(?:someone|somebody|a friend|people) (?:told|tells) me\b"),
    # ... and the same source without the "me": "Someone said the API is deprecated"
    # ("someone mentioned a corolla" names a topic, not a claim)
    ("said says", r"(?:someone|somebody) (?:said|says)\b"),
    # "Word is that ...", "word on the street is": hearsay ("Word is installed on every
    # laptop" names the program; "the word is 'hello'" is a value).
    ("word", r"word is that\b"),
    ("word", r"word on the street is\b"),
    # "I was told to restart it" reports an instruction, not a claim.
    ("told", r"i(?:'m| am| was|'ve been| have been) told\b(?! to\b)"),
    ("sources", r"sources (?:say|said|suggest|claim|indicate)\b"),
    # A fact left open by its own writer, short of admitting doubt: worth a review. Not
    # "to be confirmed" or "pending confirmation", which also describe a procedure
    # ("orders are to be confirmed by email").
    ("confirmed", r"yet to be confirmed\b"),
    ("tbc", r"tbc\b"),
    ("tbd", r"tbd\b"),
    # a hope added to the claim ("... (I hope)"): not a statement the writer vouches for.
    # (A closing "..., right?" is left alone: in the public data it is rhetorical.)
    ("hope", r"[(\[]i hope[)\]]"),
    ("doubtful", r"doubtful (?:that|whether|if)\b"),
    ("appear", r"would appear\b"),
    # Evidential appearance with a clause ("looks as if it leaks"); "looks like X" is
    # mostly a visual comparison ("looks like a toy"), so it is not listed.
    ("looks sounds", r"(?:looks|sounds) as (?:if|though)\b"),
    # ... and "Looks like ..." opening a sentence, subject dropped: an inference, not a
    # comparison ("Looks like the cache is cold").
    (
        "looks sounds",
        r"(?:^|(?<=[.!?] ))(?:looks|sounds) like (?:the|we|it|it's|they|you|this|that|"
        r"there|i|he|she|our|my|your|their)\b",
    ),
    ("theory", r"in theory\b"),
    # Impersonal likelihood: "it is possible that", "the possibility that", "chances are".
    # Root "possible" ("as fast as possible", "made possible") has no "that" clause.
    ("possible possibility", r"(?:possible|possibility) that\b"),
    ("chances", r"chances are\b"),
    # "Odds are it leaks" opens a clause; "the odds are stored in a table" is a noun.
    ("odds", r"(?:^|(?<=[.!?,;:] ))odds are\b"),
    ("odds", r"odds are (?:that|good|high)\b"),
    ("likelihood probability", r"in all (?:likelihood|probability)\b"),
    (
        "chance",
        r"(?:there's|there is) (?:a|an) (?:(?:good|fair|strong|decent|real|high|slight|small) )?"
        r"chance\b",
    ),
    ("plausible", r"plausible that\b"),
    # Epistemic "must" of inference: only the perfect ("must have been", "must've gone");
    # "must be set" / "must have 3 GB" are obligations or requirements.
    ("must", r"must(?:'ve| have) (?:been|\w+(?:ed|en|wn))\b"),
    # Generic counter-expectation ("you'd think it would fit"): the writer hedges what
    # the reader would infer.
    # (two literal-first patterns: a leading alternation was measured ~8x slower)
    ("think", r"you(?:'d| would) think\b"),
    ("think assume imagine suppose", r"one(?:'d| would) (?:think|assume|imagine|suppose)\b"),
    # Attributed belief ("many people think X", "some believe X"): the claim reports an
    # opinion held by unnamed others, not a fact; worth a reviewer's look, not a block.
    # "think about / of / through" is deliberation, not belief.
    (
        "think believe suspect suppose",
        r"(?:people|many|some|most|others|everyone|everybody|they|fans|critics)"
        r"(?: \w+)? (?:think|believe|suspect|suppose)\b"
        r"(?! (?:about|of|through|twice|ahead|back)\b)",
    ),
    ("cases", r"in most cases\b"),
)


def _listed(words: str) -> tuple[str, ...]:
    return tuple(words.split())


# Quantities in words, for approximations without a digit (docs/spec.md §Hedges): an
# approximator ("around", "nearly", ...) followed by a spelled-out number, a fraction
# word, a unit with its article, or (after "nearly"/"almost") a word of totality; a vague
# quantifier ("a couple of", "a few", "several") followed by a unit or a large number;
# "<quantity> or two"; "fiveish". The word classes, not sentences, are listed.
CARDINALS = _listed(
    "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen "
    "fifteen sixteen seventeen eighteen nineteen twenty thirty forty fifty sixty seventy "
    "eighty ninety hundred thousand million billion trillion dozen"
)
_LARGE = _listed("hundred thousand million billion trillion dozen")
_FRACTIONS = _listed("half third quarter fifth sixth seventh eighth ninth tenth")
UNITS = _listed(
    "second seconds sec secs minute minutes min mins hour hours hr hrs day days week weeks "
    "month months year years decade decades millisecond milliseconds ms microsecond "
    "microseconds nanosecond nanoseconds byte bytes kilobyte kilobytes megabyte megabytes "
    "gigabyte gigabytes terabyte terabytes petabyte petabytes kb mb gb tb kib mib gib tib "
    "percent mile miles meter meters metre metres kilometer kilometers kilometre kilometres "
    "km foot feet inch inches pound pounds kilogram kilograms kg gram grams dollar dollars"
)
_TOTALITY = _listed(
    "all every everyone everybody everything none nobody nothing no always never twice "
    "double triple"
)


def _words(words: Iterable[str]) -> str:
    """A regex alternation of whole words, longest first."""
    return "(?:" + "|".join(sorted(set(words), key=lambda w: (-len(w), w))) + ")"


_CARDINAL = _words(CARDINALS)
_UNIT = _words(UNITS)
# What "about"/"around"/"close to" (and "nearly"/"almost") approximate without a digit
# ("one of ..." is a pronoun, not a count).
_MEASURE = _words([*UNITS, *_FRACTIONS, *_LARGE])
_QUANTITY = (
    rf"(?:{_CARDINAL}(?:-{_CARDINAL})?|half|(?:a|an|one) {_MEASURE})(?![\w-])(?<!one(?= of\b))"
)
_APPROXIMATION: tuple[_Spec, ...] = (
    ("approximately roughly circa", r"(?:approximately|roughly|circa)\b"),
    ("give", r"give or take\b"),
    ("ballpark", r"ballpark\b"),
    # "more or less" (Prince et al.'s approximators: about, approximately, roughly,
    # something like, more or less).
    ("more", r"more or less\b"),
    # Prince et al.'s adaptors: "sort of", "kind of" (and their chat forms) bend a
    # predicate ("is kind of slow", "sort of uses"); not after a determiner, where they
    # name a kind ("a kind of cache", "what sort of").
    ("kinda sorta", r"(?:kinda|sorta)\b"),
    (
        "kind sort",
        r"(?:kind|sort) of\b(?<!\ba kind of)(?<!\ba sort of)(?<!the kind of)(?<!the sort of)"
        r"(?<!this kind of)(?<!this sort of)(?<!that kind of)(?<!that sort of)"
        r"(?<!what kind of)(?<!what sort of)(?<!any kind of)(?<!any sort of)"
        r"(?<!some kind of)(?<!some sort of)(?<!one kind of)(?<!one sort of)"
        r"(?<!same kind of)(?<!same sort of)(?<!which kind of)(?<!which sort of)"
        r"(?<!every kind of)(?<!every sort of)(?<!new kind of)(?<!new sort of)"
        r"(?<!different kind of)(?<!different sort of)(?<!right kind of)(?<!right sort of)"
        r"(?<!wrong kind of)(?<!wrong sort of)(?<!no kind of)(?<!no sort of)"
        r"(?<!certain kind of)(?<!certain sort of)(?<!another kind of)(?<!another sort of)"
        r"(?<!special kind of)(?<!special sort of)(?<!particular kind of)(?<!particular sort of)",
    ),
    (
        # "up to 10" is a bound, not an approximation, so it is not listed.
        "around about nearly almost close some something order region upwards",
        r"(?:around|about|nearly|almost|close to|some|something like|on the order of|"
        r"in the region of|upwards of) [~$€£]?\d[\d.,]*",
    ),
    (
        "around about close something order region upwards",
        rf"(?:around|about|close to|something like|on the order of|in the region of|"
        rf"upwards of) {_QUANTITY}",
    ),
    (
        "nearly almost",
        rf"(?:nearly|almost) (?:{_QUANTITY}|{_words(_TOTALITY)}(?![\w-]))",
    ),
    ("some", rf"some {_words(c for c in CARDINALS if c not in ('zero', 'one'))}\b"),
    ("couple few handful", rf"a (?:couple(?: of)?|few|handful of) {_words([*UNITS, *_LARGE])}\b"),
    ("several", rf"several {_words([*UNITS, *_LARGE])}\b"),
    # "a day or two", "one or two": the word before "or" is checked (CHECK_DISJUNCTION).
    ("two three four five six seven eight nine ten", rf"or {_words(CARDINALS[2:11])}\b"),
    ("~ ≈", r"[~≈]\s?\.?\d[\d.,]*"),
    ("ish", rf"(?:\d+(?:\.\d+)?|{_CARDINAL}|{_UNIT})-?ish\b"),
    ("maybe perhaps", r"(?:maybe|perhaps) [~$€£]?\.?\d[\d.,/]*"),
    ("so", r"or so\b"),
)
# Triggers that are characters or word endings rather than words: checked as substrings.
_SUBSTRING_TRIGGERS = frozenset({"~", "≈", "ish", "(?)", "(ツ)", "🤷", "🤔"})


# Which post-match filter a pattern needs (decided once, when the pattern is built):
# none; "may" as a month / "should" stating a value or giving advice / attributive
# "unlikely"; the frequency-adverb config switch; "I believe it." (credence, no clause);
# "or two" after a quantity ("a day or two"), not after anything else.
CHECK_NONE, CHECK_MODAL, CHECK_FREQUENCY, CHECK_BELIEVE, CHECK_DISJUNCTION, CHECK_WHOSE = range(6)


@dataclass(frozen=True, slots=True)
class HedgePattern:
    """One compiled pattern, with the trigger words one of which it cannot match without."""

    category: HedgeCategory
    words: frozenset[str]
    substrings: tuple[str, ...]
    regex: re.Pattern[str]
    check: int = CHECK_NONE  # one of the CHECK_* values above


def _check_for(category: HedgeCategory, regex: str) -> int:
    if category is HedgeCategory.TECHNICAL_HEDGE:
        if regex.startswith(("may", "should", "unlikely")):
            return CHECK_MODAL
        if regex.startswith(("typically", "usually", "often", "generally", "normally")):
            return CHECK_FREQUENCY
        if regex.startswith(("tend", "in most cases")):
            return CHECK_FREQUENCY
    if category is HedgeCategory.PERSONAL_SPECULATION and "believe" in regex:
        return CHECK_BELIEVE
    if category is HedgeCategory.APPROXIMATION and regex.startswith("or (?:"):
        return CHECK_DISJUNCTION
    if category is HedgeCategory.ADMITTED_UNCERTAINTY and regex.startswith(
        ("not (?:entirely", "never (?:entirely", "(?:not|never) (?:entirely", "unsure")
    ):
        return CHECK_WHOSE  # whose doubt: the writer's, or a third person's reported
    return CHECK_NONE


_PLAIN_ALTERNATIVES = frozenset("abcdefghijklmnopqrstuvwxyz' |")


def _split_alternation(triggers: str, regex: str) -> list[tuple[str, str]]:
    """ "(?:may|might)\\b" -> [("may", "may\\b"), ("might", "might\\b")].

    A regex that starts with an alternation has no literal prefix, so Python's engine
    tries it at every position (~2 us on a 30-word claim); each literal-first piece is
    found by a fast substring scan (~0.3 us), and only the pieces whose own word occurs
    in the claim run at all. Applied only to a leading group of plain words that is
    not quantified; a piece whose first word is not a trigger keeps all the triggers."""
    if not regex.startswith("(?:"):
        return [(triggers, regex)]
    close = regex.find(")")
    inner, rest = regex[3:close], regex[close + 1 :]
    if not set(inner) <= _PLAIN_ALTERNATIVES or rest[:1] in ("?", "*", "+", "{"):
        return [(triggers, regex)]
    own = set(triggers.split())
    pieces = []
    for alt in inner.split("|"):
        first = alt.replace("'", " ").split()[0]
        pieces.append((first if first in own else triggers, alt + rest))
    return pieces


PATTERNS: tuple[HedgePattern, ...] = tuple(
    HedgePattern(
        category,
        frozenset(w for w in words.split() if w not in _SUBSTRING_TRIGGERS),
        tuple(w for w in words.split() if w in _SUBSTRING_TRIGGERS),
        re.compile(piece),
        _check_for(category, piece),
    )
    for category, specs in (
        (HedgeCategory.SUGGESTION, _SUGGESTION),
        (HedgeCategory.ADMITTED_UNCERTAINTY, _ADMITTED),
        (HedgeCategory.PERSONAL_SPECULATION, _PERSONAL),
        (HedgeCategory.TECHNICAL_HEDGE, _TECHNICAL),
        (HedgeCategory.APPROXIMATION, _APPROXIMATION),
    )
    for triggers, regex in specs
    for words, piece in _split_alternation(triggers, regex)
)
# Category -> rank in the tables' order (block categories first): how hits are sorted.
CATEGORY_ORDER = {c: i for i, c in enumerate(dict.fromkeys(p.category for p in PATTERNS))}


def _word_index(patterns: Sequence[HedgePattern]) -> dict[bytes, tuple[int, ...]]:
    """Trigger word (as bytes) -> indices of the patterns it enables, in pattern order."""
    by_word: dict[str, tuple[int, ...]] = {}
    for i, pattern in enumerate(patterns):
        for word in pattern.words:
            by_word[word] = (*by_word.get(word, ()), i)
    return {w.encode(): v for w, v in by_word.items()}


# trigger word -> indices of the patterns it enables (one set intersection per claim).
_BY_BYTES = _word_index(PATTERNS)
_BY_SUBSTRING: tuple[tuple[str, tuple[int, ...]], ...] = tuple(
    (sub, tuple(i for i, p in enumerate(PATTERNS) if sub in p.substrings))
    for sub in sorted(_SUBSTRING_TRIGGERS)
)
_BY_WORDSET: dict[frozenset[bytes], tuple[int, ...]] = {}
# Every trigger word, as bytes (what `byte_words` yields).
TRIGGER_WORDS = frozenset(_BY_BYTES)

# Punctuation (apostrophes too: "let's" -> let, s) becomes space for the word-set check.
_PUNCT = "'!\"#$%&()*+,./:;<=>?@[\\]^_`{|}~-"  # ("~": "I ~think~", session 10)
_TO_SPACE_BYTES = bytes.maketrans(_PUNCT.encode(), b" " * len(_PUNCT))
TO_SPACE_BYTES = _TO_SPACE_BYTES  # (`dialect.candidates` splits words the same way)


# Punctuation and symbols beyond ASCII ("“probably”", "«probably»", "「probably」",
# "p•r•o•b"): glued to a word, their bytes made it another word, so a quoted hedge never
# reached the patterns (session 13). Letters and digits of any script stay.
_NON_ASCII_MARK = re.compile(r"[^\x00-\x7f\w]")


def byte_words(lower: str) -> list[bytes]:
    """The claim's words as bytes (bytes.translate/split measured twice as fast as str's).
    A text with non-ASCII characters is split at their punctuation and symbols too.

    A list, not a set: the only consumers are frozenset.intersection/isdisjoint, which
    take any iterable, and building a set of ~35 words costs more than they save."""
    if not lower.isascii():
        lower = _NON_ASCII_MARK.sub(" ", lower)
    return lower.encode("utf-8", "surrogatepass").translate(_TO_SPACE_BYTES).split()


_ISH_WORDS = frozenset(CARDINALS) | frozenset(UNITS)


def _numeric_ish(lower: str) -> bool:
    """ "5ish" / "5-ish" / "fiveish" / "an hour-ish" somewhere? ("publishes" is not; the
    pattern, which starts with no literal, is costly)."""
    at = lower.find("ish")
    while at > 0:
        stem = at - 1 if lower[at - 1] == "-" else at
        if stem > 0 and lower[stem - 1].isdigit():
            return True
        begin = stem
        while begin > 0 and lower[begin - 1].isalpha():
            begin -= 1
        if lower[begin:stem] in _ISH_WORDS:
            return True
        at = lower.find("ish", at + 3)
    return False


def candidates(lower: str, tokens: Iterable[bytes] | None = None) -> Sequence[int]:
    """Indices of the patterns whose trigger words or substrings occur in `lower`."""
    if tokens is None:
        tokens = byte_words(lower)
    words = TRIGGER_WORDS.intersection(tokens)
    if (
        "~" in lower
        or "\u2248" in lower
        or "ish" in lower
        or "(?)" in lower
        or "(\u30c4)" in lower  # the shrug's face, "(ツ)"
        or "\U0001f937" in lower  # the shrug emoji
        or "\U0001f914" in lower  # the thinking face
    ):
        chosen: set[int] = set()
        for word in words:
            chosen.update(_BY_BYTES[word])
        for sub, indices in _BY_SUBSTRING:
            if sub in lower and (sub != "ish" or _numeric_ish(lower)):
                chosen.update(indices)
        return sorted(chosen)
    # Few distinct trigger-word sets occur in practice ({"may"}, {"about", "so"}, …):
    # memoise their sorted pattern lists instead of rebuilding them per claim.
    found = _BY_WORDSET.get(words)
    if found is None:
        found = tuple(sorted({i for word in words for i in _BY_BYTES[word]}))
        if len(_BY_WORDSET) >= 4096:
            _BY_WORDSET.clear()
        _BY_WORDSET[words] = found
    return found
