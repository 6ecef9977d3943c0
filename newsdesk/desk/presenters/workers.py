"""What the desk tells a reporter when a worker it needs is down."""

from __future__ import annotations

from newsdesk import messages as msg
from newsdesk import workers


def worker_notices(*, queues: tuple[str, ...] = workers.QUEUES) -> list[str]:
    """One Korean notice per queue among `queues` whose worker was running and is gone."""
    stopped = workers.stopped_queues()
    return [msg.DESK_WORKER_STOPPED[queue] for queue in queues if queue in stopped]
