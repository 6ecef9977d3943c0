"""Read-only, login-free links to one draft for reporters who only use Telegram.

The bot's article message ends with a link to the full diff and claims table. A reporter without a
web login cannot open the desk page, so the link carries a capability instead: the run id, signed
with the server's secret and a salt used for nothing else, and timestamped so the link dies after
`SHARE_MAX_AGE`. Nothing is stored: revoking every link at once means rotating DJANGO_SECRET_KEY.
"""

from __future__ import annotations

from datetime import timedelta

from django.core import signing
from django.urls import reverse

from agents.models import Run
from agents.selectors import DRAFT_KINDS

SHARE_SALT = "newsdesk.desk.sharing.run"  # a token signed for anything else never opens a run
SHARE_MAX_AGE = timedelta(days=7)


def share_token(run: Run) -> str:
    return signing.dumps(run.pk, salt=SHARE_SALT)


def shared_run(token: str) -> Run | None:
    """The draft or edit run the token names, or None when the token is bad, tampered or expired."""
    try:
        run_id = signing.loads(token, salt=SHARE_SALT, max_age=SHARE_MAX_AGE)
    except signing.BadSignature:  # SignatureExpired is a BadSignature too
        return None
    if not isinstance(run_id, int) or isinstance(run_id, bool):
        return None
    return (
        Run.objects.filter(pk=run_id, kind__in=DRAFT_KINDS)
        .select_related("article", "parent_article", "reporter")
        .first()
    )


def share_path(run: Run) -> str:
    return reverse("desk:shared", kwargs={"token": share_token(run)})
