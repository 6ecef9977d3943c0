"""What a run was asked to do, as typed models over `Run.input`.

`Run.input` is a JSON column, and rows written by every earlier version stay in the database and
can be retried. So the models read old shapes: a key added later has a default, and an unknown
key is ignored rather than refused. They are written with `model_dump(mode="json")`, which gives
the same dict the services stored before these models existed (tests/agents/work/test_run_inputs.py).
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

VERIFY_MODE = "verify"


class RunInput(BaseModel):
    model_config = ConfigDict(extra="ignore", frozen=True)

    def stored(self) -> dict[str, Any]:
        """The JSON kept in `Run.input`."""
        return self.model_dump(mode="json")


class FollowUpInput(RunInput):
    """The /check or /report item a follow-up starts from, copied when it was asked for: the
    draft still has it if the item is purged before a worker runs the draft."""

    item: int
    title: str
    outlet: str = ""
    url: str = ""
    scrape_url: str = ""
    summary: str = ""


class DraftRunInput(RunInput):
    """A draft from a press release, a file, attachments or a news search (services.draft_create)."""

    press_release: str = ""
    department: str
    length: int | None = None
    style_hint: str = ""
    search_news: bool = False
    keywords: list[str] = Field(default_factory=list)
    upload_id: int | None = None
    attachments: list[dict[str, Any]] = Field(default_factory=list)  # conversations attachment_meta
    topic: str = ""
    context: str = ""
    pages: tuple[int, int] | None = None  # first and last page of a long PDF
    notes: list[str] = Field(default_factory=list)  # said under the article
    instruction: str = ""  # the reporter's request in words
    follow_up: FollowUpInput | None = None


class VerifyRunInput(RunInput):
    """The full check of an article the reporter wrote (services.verify_create, verification_again)."""

    mode: Literal["verify"] = "verify"
    headline: str = ""  # "" = the generic headline (rows from before it was kept)
    article: str
    sources: list[str]
    department: str = ""  # "" = the reporter's department (rows from before it was kept)
    # A written article checked again keeps what each source was (kind, title, url, outlet; in the
    # order of `sources`) and the sources listed under it; [] for the reporter's own pasted texts.
    source_meta: list[dict[str, str]] = Field(default_factory=list)
    listed: list[dict[str, str]] = Field(default_factory=list)


class EditRunInput(RunInput):
    instruction: str
    upload_id: int | None = None  # a file or photo sent with the edit (the desk), read as material

    def stored(self) -> dict[str, Any]:
        """Without `upload_id` when nothing was sent, so an edit's input reads as it always has."""
        return self.model_dump(mode="json", exclude_none=True)


class MonitorRunInput(RunInput):
    """The reporter's department and keywords when a /check or /report was asked for."""

    department: str = ""
    keywords: list[str] = Field(default_factory=list)


def is_verify(data: dict[str, Any]) -> bool:
    """Whether a draft run's input is a verify-only check (both go to the draft task)."""
    return data.get("mode") == VERIFY_MODE
