"""How well the context of an article figure agrees with a source figure's (guard.context): the
scores and tests binding, dates, rivals and the evidence check decide with.

Two words agree when they are equal, one begins with the other ("서울" and "서울시"), or both begin
with the same three letters ("고등학생" and "고등학교"); two letters are not enough (서울시 is not 서울대).
"""

from __future__ import annotations

from agents.verification.guard.context import Context, prefixes_of, probe


def described_alike(article: Context, source: Context) -> bool:
    """Whether the figure qualifies a noun the source figure qualifies or is about."""
    return _any_in(article.described, source.described | source.own)


def mentions(article: Context, wanted: frozenset[str]) -> bool:
    """Whether any word of the article figure's sentence (or of what it qualifies) is in wanted."""
    return _any_in(article.near | article.described, wanted)


def _any_in(words: frozenset[str], wanted: frozenset[str]) -> bool:
    theirs = prefixes_of(wanted)
    return any(_in(*probe(w), wanted, theirs) for w in words)


def score(article: Context, source: Context, *, roles: bool = True) -> int:
    """How well two contexts agree: a word right before both figures counts 4, a word right before
    one of them and elsewhere in the other's sentence 1, an agreeing role 2 (a clashing one −2).

    Two words agree when they are equal or one begins with the other ("서울" and "서울시").
    """
    total = 0
    for word, head, prefixes in article.probes:
        in_own = _in(word, head, prefixes, source.about, source.about_prefixes)
        if word in article.own:
            in_shared = _in(word, head, prefixes, source.shared, source.shared_prefixes)
            total += 4 if in_own else 1 if in_shared else 0
        elif in_own:
            total += 1
    if roles and article.role and source.role:
        total += 2 if article.role == source.role else -2
    return total


def related(article: Context, source: Context) -> bool:
    """Whether any word of the article figure's sentence is in the source figure's sentence."""
    return any(_in(w, h, p, source.near, source.near_prefixes) for w, h, p in article.probes)


def agreements(article: Context, source: Context) -> int:
    """How many of the article figure's own words are own words of the source figure."""
    return sum(
        _in(w, h, p, source.about, source.about_prefixes) for w, h, p in article.probes if w in article.own
    )


def speaks_of(article: Context, word: str) -> bool:
    """Whether the article figure's clause has word (or a word it begins, or begins with)."""
    return _in(*probe(word), article.near, article.near_prefixes)


def about_word(source: Context, word: str) -> bool:
    """Whether word is one of what a source figure is about (prefixes count as in speaks_of)."""
    return _in(*probe(word), source.about, source.about_prefixes)


def own_match(article: Context, source: Context) -> bool:
    """Whether a word right before the source figure is in the article's clause, and every word
    right before the article figure is in the source figure's sentence.

    The second half keeps a paraphrase from being read as a misplaced figure: in "대중 수출은 95억
    달러" the word 대중 appears nowhere in "수출은 미국이 120억 달러", so that figure is no rival.
    """
    if not any(_in(w, h, p, source.about, source.about_prefixes) for w, h, p in article.probes):
        return False
    near, prefixes = source.near, source.near_prefixes
    return all(_in(w, h, p, near, prefixes) for w, h, p in article.probes if w in article.own)


def _in(
    word: str, head: str, prefixes: frozenset[str], words: frozenset[str], theirs: frozenset[str]
) -> bool:
    """word is one of words, begins one, or begins with one; or both begin with the same three
    letters ("고등학생" and "고등학교"). Two letters are not enough: 서울시 is not 서울대."""
    return word in theirs or not prefixes.isdisjoint(words) or (bool(head) and head in theirs)
