"""A follow-up's starting point: the competitor's article a /check or /report item pointed at.

The page is fetched here, in the worker that writes the draft (never in the web request), through
the SSRF-safe scraper. When the page cannot be read the draft goes on with what monitoring stored
(the item's summary, or only its title when there is other material), and says so under the
article; with nothing to go on at all it stops with a message that says what to send instead.
"""

from __future__ import annotations

from dataclasses import dataclass

from agents import messages as msg
from agents.drafting.material import SourceDoc
from agents.errors import UserFacingError
from agents.sources import scraper

ARTICLE_CHARS = 6000  # the competitor's story is the subject here, not one of ten background reads


class FollowUpUnreadable(UserFacingError):
    code = "follow_up_unreadable"


@dataclass(frozen=True)
class Competitor:
    """What monitoring stored about the article (kept in the run's input, so a purge cannot lose it)."""

    title: str
    outlet: str
    url: str  # the address readers know (the outlet's own link when there is one)
    scrape_url: str  # Naver's copy when Naver hosts it: a layout the scraper knows
    summary: str = ""

    def listed(self) -> dict[str, str]:
        """The article in the draft's `sources` list."""
        return {"title": self.title, "url": self.url, "kind": "article", "outlet": self.outlet}

    def source(self, text: str) -> SourceDoc:
        return SourceDoc("article", self.title, text, self.url, outlet=self.outlet)


def competitor_source(competitor: Competitor, *, has_other_material: bool) -> tuple[SourceDoc, str]:
    """(the article as source material, a warning for the reporter or "")."""
    (page,) = scraper.scrape_many([(competitor.scrape_url or competitor.url, "")], max_chars=ARTICLE_CHARS)
    if page.ok:
        return competitor.source(page.text), ""
    if not competitor.summary.strip() and not has_other_material:
        raise FollowUpUnreadable(msg.FOLLOW_UP_NOTHING.format(outlet=competitor.outlet or competitor.title))
    summary = competitor.summary.strip()
    text = f"{competitor.title}\n{summary}" if summary else competitor.title
    what = msg.FOLLOW_UP_SUMMARY if summary else msg.FOLLOW_UP_TITLE
    warning = msg.FOLLOW_UP_PAGE_FAILED.format(outlet=competitor.outlet, what=what, url=competitor.url)
    return competitor.source(text), warning
