"""Irregular past forms that show the word before them is a plural subject (session 17,
faithful restatements).

`owner.implied_owner` reads a claim opening with an -s word as a subjectless memory
about its owner ("Prefers dark mode", "Likes sushi") unless the next word shows the -s
word is a plural noun with a verb of its own ("Users are ...", "Users signed up"). A
regular past ends in "-ed"; an irregular one did not count, so "Prices rose by 5% in
May" from the user's "In May, prices rose by 5%" read as "the owner prices ...", and
where no turn of the user's speaks of the user it was "attributed to a speaker who did
not say it" and blocked (the source's lower-case "prices" after "In May," did not show
it was a noun either). An -s verb is not followed by a past form ("Prefers fell ..."
is no English), so these words settle it.

Only past forms that are rarely a noun or an adjective right after a verb are listed:
not "led" (LED), "left", "lost", "hit", "set", "put", "read", "cost", "saw", "found",
"made", "won", whose other readings follow a verb ("Prefers LED lighting", "Hates lost
luggage"). "rose" stays ("Likes rose wine" reads as a subject; the cost is the
unheard-owner check on that one claim, against the common "prices rose").
"""

from __future__ import annotations

from groundwire.guards.grounding.lexical.text import word_set

__all__ = ["IRREGULAR_PAST"]

IRREGULAR_PAST = word_set(
    """rose fell grew went came took got gave began ran sold bought paid shrank sank
    stood spent became wrote drove flew broke chose knew threw sent kept told thought
    brought built taught caught fought sought"""
)
