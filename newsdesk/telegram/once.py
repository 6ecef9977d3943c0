"""Each reply of one update is sent at most once, however often the update's handling runs again.

A worker can die after Telegram accepted a reply but before the update was marked processed; the
sweeper then hands the update to another worker, which handles it from the start. Every message the
handling sends goes through `client` (the one seam), and while `replies_of` is active the client
asks `ReplyLog.claim` first. The replies are numbered in the order the handling sends them: reply
`seq` of update U is the key. Before reply `seq` goes out its entry is stored as "sending" (one
UPDATE, which also stores the outcome of the reply before it: no query of its own for "sent");
after Telegram's answer it becomes "sent" with the message ids, written with the next claim or when
the update is marked processed. A re-run reads the entries with the update row it loads anyway.

The trade-off, decided here: an entry left "sending" means the worker died with the request in
flight, and nobody knows whether Telegram showed it. We never send it again (a reply shown twice
is the failure reporters notice and complain about; a reply lost in that window of milliseconds is
rarer, and the reporter can simply ask again). Only when Telegram definitely did not take it (an
error before or instead of delivery: connection refused, 4xx, 5xx, a long 429, with no chunk
delivered) is the entry "unsent", and a re-run sends it.

One "sending" entry is known not to have gone out: the one whose own claim failed because the
database went away (PostgreSQL restarting). The UPDATE may have committed before the connection
dropped, so the row can say "sending" although the request was never made. The claim remembers
it (`held`), the task's retry carries it, and the retry, if the update stayed its own the whole
time (nobody else could have written that entry), sends it (`resume`) instead of skipping it.

Re-runs match replies by position: a handling that would now answer differently (its first run
already changed a setting) still skips the positions that were answered; the reporter saw those.
Sends are also conditional on still owning the update: when another worker took it over, the
claim's UPDATE matches no row and nothing is sent. A handler must not send from inside
`transaction.atomic()`: the "sending" entry would only become durable at the commit.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any

log = logging.getLogger(__name__)
SENDING, SENT, UNSENT = "sending", "sent", "unsent"
Entry = dict[str, Any]  # {"state": SENDING | SENT | UNSENT, "ids": [message ids]}
Save = Callable[[list[Entry]], bool]  # stores the entries; False when the update is no longer ours


@dataclass
class ReplyLog:
    """The replies of one handling of one update, as stored in `TelegramUpdate.replies`."""

    entries: list[Entry]
    save: Save
    next_seq: int = 0
    skipped: int = 0
    sent: int = 0
    resume: int | None = None  # a "sending" entry this owner claimed but never sent (a retry's)
    held: int | None = None  # the reply whose claim failed (the database went away): not sent
    # The update's first handling ever (first claim, not a retry): nothing of it was written yet.
    first_try: bool = False

    def claim(self) -> tuple[int, list[int] | None]:
        """Numbers the next reply: (seq, None) to send it now, (seq, ids) when it must be skipped.

        ids are the message ids of a reply already sent ([] when not known: an unknown outcome).
        """
        seq, self.next_seq = self.next_seq, self.next_seq + 1
        earlier = self.entries[seq] if seq < len(self.entries) else None
        if earlier is not None and earlier.get("state") != UNSENT and not self._resumed(seq, earlier):
            self.skipped += 1
            log.info("reply %d of this update was sent before (%s); not sent again", seq, earlier["state"])
            return seq, list(earlier.get("ids") or [])
        self._set(seq, {"state": SENDING, "ids": []})
        try:
            saved = self.save(self.entries)
        except Exception:
            self.held = seq  # the claim's fate is unknown, but the reply has not gone out
            raise
        if not saved:
            self.skipped += 1
            log.warning("reply %d not sent: another worker took the update over", seq)
            return seq, []
        return seq, None

    def unsent_claim(self) -> int | None:
        """After a database error: the reply this owner claimed and has not sent, if any (the one
        whose claim failed, or the one to resume that this try did not reach)."""
        if self.held is not None:
            return self.held
        return self.resume if self.resume is not None and self.next_seq <= self.resume else None

    def _resumed(self, seq: int, earlier: Entry) -> bool:
        """The entry a failed claim of this same owner left "sending": sent now, once."""
        if seq != self.resume or earlier.get("state") != SENDING:
            return False
        log.info("reply %d of this update was claimed but never sent (database blip); sending it", seq)
        return True

    def done(self, seq: int, ids: list[int]) -> None:
        """Telegram took it: stored with the next claim or with the update's end (no query now)."""
        self.sent += 1
        self._set(seq, {"state": SENT, "ids": ids})

    def failed(self, seq: int, *, definite: bool) -> None:
        """Telegram refused it (definite) or the answer was lost (the entry stays "sending")."""
        if definite:
            self._set(seq, {"state": UNSENT, "ids": []})
            self.save(self.entries)

    def _set(self, seq: int, entry: Entry) -> None:
        while len(self.entries) <= seq:
            self.entries.append({"state": UNSENT, "ids": []})
        self.entries[seq] = entry


_current: ContextVar[ReplyLog | None] = ContextVar("telegram_reply_log", default=None)


@contextmanager
def replies_of(reply_log: ReplyLog) -> Iterator[ReplyLog]:
    """Every message the client sends in this block (this thread or task) goes through the log."""
    token = _current.set(reply_log)
    try:
        yield reply_log
    finally:
        _current.reset(token)


def current() -> ReplyLog | None:
    return _current.get()
