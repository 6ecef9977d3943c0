"""The embedded default broker: kombu's filesystem transport, made safe for several workers.

kombu's own filesystem transport creates a message file and writes it a moment later; a worker
that lists the folder in between claims the empty file, fails to decode it and dies with
"Unrecoverable error: JSONDecodeError", an open kombu bug). It also claims a file by moving it to
the system's temporary folder, which on another filesystem is a copy, so two workers can both
read one message. Here a message is written under a name no reader picks up and renamed into
place (a rename within one folder is atomic), a reader claims a file by renaming it into the
processed folder beside the queue (exactly one reader wins), and a file that still cannot be read
is set aside in `rejected/` with a log line instead of stopping the worker.

`newsdesk.celery` registers this transport under the `filesystem` scheme, so the default
`CELERY_BROKER_URL=filesystem://` and every existing setting keep working.
"""

from __future__ import annotations

import logging
import os
import uuid
from pathlib import Path
from queue import Empty
from time import monotonic
from typing import Any

from kombu.exceptions import ChannelError
from kombu.transport import filesystem
from kombu.utils.json import dumps, loads

logger = logging.getLogger(__name__)

# A reader takes files named "<stamp>_<uuid>.<queue>.msg"; a file being written ends in ".part".
_WRITING_SUFFIX = ".part"
_MESSAGE_SUFFIX = ".msg"


class Channel(filesystem.Channel):
    # kombu names the argument `message` in its base class and `payload` here; callers pass it by position.
    def _put(self, queue: str, payload: dict[str, Any], **kwargs: Any) -> None:  # type: ignore[override]
        name = f"{round(monotonic() * 1000)}_{uuid.uuid4()}.{queue}{_MESSAGE_SUFFIX}"
        final = Path(self.data_folder_out) / name
        partial = final.with_name(name + _WRITING_SUFFIX)
        try:
            with open(partial, "wb") as file:
                file.write(dumps(payload).encode())
                file.flush()
                os.fsync(file.fileno())
            os.replace(partial, final)
        except OSError as exc:
            partial.unlink(missing_ok=True)
            raise ChannelError(f"Cannot add file {name!r} to the queue folder") from exc

    def _get(self, queue: str, timeout: float | None = None) -> Any:
        wanted = f"{queue}{_MESSAGE_SUFFIX}"
        inbox = Path(self.data_folder_in)
        for name in sorted(os.listdir(inbox)):
            if name.partition(".")[2] != wanted:
                continue
            claimed = self._claim(inbox / name)
            if claimed is None:
                continue
            payload = self._read(claimed)
            if payload is not None:
                return payload
        raise Empty()

    def _claim(self, path: Path) -> Path | None:
        """Renames a message out of the queue; None when another reader was first."""
        target = self._processed_dir / path.name
        try:
            os.rename(path, target)
        except FileNotFoundError:
            return None
        return target

    def _read(self, claimed: Path) -> Any | None:
        try:
            payload = loads(claimed.read_bytes())
        except (OSError, ValueError) as exc:
            # Left by a writer that died mid-write or by kombu's own transport: nothing to run,
            # but kept for an operator to look at rather than deleted unseen.
            rejected = self._rejected_dir / claimed.name
            os.replace(claimed, rejected)
            logger.error("broker message %s unreadable (%s); moved to %s", claimed.name, exc, rejected)
            return None
        if not self.store_processed:
            claimed.unlink(missing_ok=True)
        return payload

    @property
    def _processed_dir(self) -> Path:
        queue_folder = Path(self.data_folder_in)
        folder = Path(self.processed_folder) if self.store_processed else queue_folder.parent / "claimed"
        folder.mkdir(parents=True, exist_ok=True)
        return folder

    @property
    def _rejected_dir(self) -> Path:
        folder = Path(self.data_folder_in).parent / "rejected"
        folder.mkdir(parents=True, exist_ok=True)
        return folder


class Transport(filesystem.Transport):
    Channel = Channel
