"""Reporter accounts: creation, profile changes, API tokens."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone

from agents.errors import UserFacingError
from agents.llm import catalog
from agents.llm import client as llm
from agents.monitoring.services import history_clear
from newsdesk import messages as msg
from newsdesk.models import ApiToken, Reporter
from styles.departments import normalize_department
from styles.selectors import publisher_names

KEYWORD_LIMIT = 20
KEYWORD_CHARS = 30


class ProfileError(UserFacingError):
    """A profile change we refuse; `field` names the form field it is about."""

    def __init__(self, user_message: str, *, field: str = "") -> None:
        super().__init__(user_message)
        self.field = field


def parse_keywords(raw: str | Sequence[str]) -> list[str]:
    """'a, b,,c' or ['a', ' b'] → ['a', 'b', 'c'], validated; order kept, duplicates dropped."""
    items = raw.split(",") if isinstance(raw, str) else list(raw)
    keywords: list[str] = []
    for item in (str(i).strip() for i in items):
        if item and item not in keywords:
            keywords.append(item)
    if not keywords:
        raise ProfileError(msg.KEYWORDS_EMPTY, field="keywords")
    if len(keywords) > KEYWORD_LIMIT:
        raise ProfileError(msg.KEYWORDS_TOO_MANY.format(limit=KEYWORD_LIMIT), field="keywords")
    for keyword in keywords:
        if len(keyword) > KEYWORD_CHARS:
            raise ProfileError(
                msg.KEYWORD_TOO_LONG.format(limit=KEYWORD_CHARS, keyword=keyword), field="keywords"
            )
    return keywords


def clean_department(raw: str) -> str:
    department = normalize_department(raw or "")
    if department is None:
        raise ProfileError(msg.UNKNOWN_DEPARTMENT, field="department")
    return department


def clean_api_key(raw: str) -> str:
    key = raw.strip()
    if not key.startswith("sk-") or len(key) < 10 or any(c.isspace() for c in key):
        raise ProfileError(msg.KEY_FORMAT, field="anthropic_api_key")
    return key


@transaction.atomic
def reporter_create(
    *,
    username: str,
    password: str,
    department: str,
    keywords: Sequence[str] = (),
    anthropic_key: str = "",
    telegram_id: int | None = None,
    display_name: str = "",
) -> Reporter:
    user = get_user_model().objects.create_user(username=username, password=password)
    reporter = Reporter(
        user=user,
        department=clean_department(department),
        telegram_id=telegram_id,
        display_name=display_name,
        keywords=parse_keywords(keywords) if keywords else [],
    )
    if anthropic_key:
        reporter.set_anthropic_key(clean_api_key(anthropic_key))
    reporter.save()
    return reporter


def clean_model(raw: str) -> str:
    """A model id a reporter may choose, or "" for the default."""
    model = raw.strip()
    if model and model not in {spec.id for spec in catalog.model_choices()}:
        choices = ", ".join(spec.id for spec in catalog.model_choices())
        raise ProfileError(msg.UNKNOWN_MODEL.format(model=model, choices=choices), field="model")
    return model


def clean_publisher_style(raw: str) -> str:
    """A publisher with a curated style, or "" for the department's default."""
    name = raw.strip()
    if name and name not in publisher_names():
        choices = ", ".join(publisher_names()) or msg.NO_PUBLISHER_STYLES
        raise ProfileError(
            msg.UNKNOWN_PUBLISHER_STYLE.format(name=name, choices=choices), field="publisher_style"
        )
    return name


def reporter_update(
    *,
    reporter: Reporter,
    department: str | None = None,
    keywords: str | Sequence[str] | None = None,
    anthropic_key: str | None = None,
    model: str | None = None,
    publisher_style: str | None = None,
) -> Reporter:
    """Changes a profile. A new department or keyword set restarts the monitoring windows (v1)."""
    choices: dict[str, str] = {}
    if model is not None:
        choices["llm_model"] = clean_model(model)
    if publisher_style is not None:
        choices["publisher_style"] = clean_publisher_style(publisher_style)
    changed: list[str] = []
    if department is not None and (new := clean_department(department)) != reporter.department:
        reporter.department = new
        changed.append("department")
    if keywords is not None and (new_keywords := parse_keywords(keywords)) != reporter.keywords:
        reporter.keywords = new_keywords
        changed.append("keywords")
    if changed:
        reporter.last_check_at = reporter.last_report_at = None
        # v1: new keywords forget the /check history, a new department both histories.
        kinds = ["check", "report"] if "department" in changed else ["check"]
        history_clear(reporter=reporter, kinds=kinds)
        changed += ["last_check_at", "last_report_at"]
    if anthropic_key is not None:
        reporter.set_anthropic_key(clean_api_key(anthropic_key) if anthropic_key.strip() else "")
        changed += ["anthropic_key_encrypted", "anthropic_key_last4", "anthropic_key_status"]
    for field, value in choices.items():
        setattr(reporter, field, value)
        changed.append(field)
    if changed:
        reporter.save(update_fields=[*changed, "updated_at"])
    return reporter


def token_issue(*, reporter: Reporter) -> str:
    """Creates an API token and returns it; only its hash is stored, so it is shown once."""
    token = ApiToken.generate()
    ApiToken.objects.create(reporter=reporter, token_hash=ApiToken.hash(token), hint=token[:10])
    return token


def token_authenticate(*, token: str) -> Reporter | None:
    found = ApiToken.objects.select_related("reporter").filter(token_hash=ApiToken.hash(token)).first()
    if found is None:
        return None
    now = timezone.now()
    if found.last_used_at is None or (now - found.last_used_at).total_seconds() > 60:
        ApiToken.objects.filter(pk=found.pk).update(last_used_at=now)  # at most one write a minute
    return found.reporter


@dataclass(frozen=True)
class KeyTest:
    ok: bool
    message: str


def key_test(*, reporter: Reporter) -> KeyTest:
    """One cheap model call with the stored key; the key's status follows the answer."""
    key = reporter.anthropic_key()
    if not key:
        return KeyTest(False, msg.DESK_KEY_TEST_NONE)
    try:
        llm.key_test(api_key=key)
    except llm.LLMKeyRefused as exc:
        Reporter.objects.filter(pk=reporter.pk).update(anthropic_key_status=Reporter.KeyStatus.REFUSED)
        return KeyTest(False, exc.user_message)
    except llm.LLMError as exc:  # busy, out of credit, …: the key itself may be fine
        return KeyTest(False, exc.user_message)
    Reporter.objects.filter(pk=reporter.pk).update(anthropic_key_status=Reporter.KeyStatus.OK)
    return KeyTest(True, msg.DESK_KEY_TEST_OK)
