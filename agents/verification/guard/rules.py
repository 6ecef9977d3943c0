"""The guard's rule families and how strong a verdict each may give.

Every finding names the family of the rule that decided it (`Finding.rule`), so the bench can
measure each family's precision on the property corpus (bench/truth_eval.py) and the reporter and
the verifier can tell a cut that holds from a judgement to be settled. A contradiction is always
cut; only a family that is right at least 99.5% of the time on the property corpus may give one.
A family below that gives `suspect`: the model check, given both source spans, settles it, and
without a model the sentence is kept and marked.
"""

from __future__ import annotations

ABSENT = "absent"  # the value is nowhere in the sources: not_found, never a contradiction
MATCH = "confirm:match"
ROUNDED = "confirm:rounded"
LIST_COUNT = "confirm:list-count"
DERIVED = "confirm:derived"
AS_IN_BODY = "confirm:as-in-body"
ANNOUNCED = "confirm:announced"  # the reference day, before 밝혔다
OTHER_SUBJECT = "bind:other-subject"  # the value is stated, of something else
OTHER_VALUE = "bind:other-value"  # the thing is stated, with another value
NAMED_ELSEWHERE = "bind:named-elsewhere"  # the value moved to a thing the source names without it
REVERSED = "change:reversed"  # "A에서 B로" where the source has B first, then A
DIRECTION = "change:direction"  # 늘었다 where the source says 줄었다 of the same figure
EXCHANGED = "bind:exchanged"  # two subjects exchanged around their figures
MOVED = "bind:label-moved"  # a figure's label traded places with another word of its sentence
OTHER_EVENT = "date:other-event"  # the day is stated, of another event
TABLE_CELL = "bind:table-cell"  # a table's figure given to another column or row of the table

SUSPECT = "suspect"
CONTRADICTED = "contradicted"
THRESHOLD = 0.995  # the precision a family needs on the property corpus to cut on its own

# Family → the verdict it gives when it finds a fact wrong. Precision = flags on injected errors /
# all its flags on the property corpus, tuning | frozen part (`bench/truth_eval.py`, 2026-11-28).
# The three families right every time on both parts, over hundreds of flags each, cut; the binding
# judgements below THRESHOLD, and families with too few flags to show it, are suspects.
STRENGTH: dict[str, str] = {
    OTHER_SUBJECT: SUSPECT,  # 98.2% | 96.5%
    OTHER_VALUE: CONTRADICTED,  # 100.0% | 100.0% of 1356 | 668 flags (85.0% | 85.8% before rounding was read)
    NAMED_ELSEWHERE: SUSPECT,  # 1 flag on the corpus: too few to show 99.5%
    REVERSED: SUSPECT,  # too few flags on the corpus to show 99.5%
    DIRECTION: CONTRADICTED,  # 100.0% | 100.0% of 529 | 248 flags
    EXCHANGED: CONTRADICTED,  # 100.0% | 100.0% of 266 | 140 flags (109 | 74 before labels were read)
    OTHER_EVENT: SUSPECT,  # 0 | 1 flag, a false one
    MOVED: SUSPECT,  # 100.0% | 100.0% of 13 | 3 flags, but one figure alone: a paraphrase may reorder
    TABLE_CELL: SUSPECT,  # 100.0% | 100.0% of 14 | 5 flags: too few to show 99.5%
}


def strength(rule: str) -> str:
    """The status a contradiction of this family is given: contradicted only for a precise family."""
    return STRENGTH[rule]
