"""/set_style and /set_model: a keyboard of the choices, "기본" back to the default.

`/set_style 한겨레` or `/set_model claude-sonnet-5-5` sets it at once; a tapped button does the same
change through the same service as the desk and the API (`reporter_update`), so the same rules
apply: only curated publishers and offered models, checked again when the button comes back.
"""

from __future__ import annotations

from agents.selectors import default_model_label
from newsdesk.choices import Choices, reporter_choices
from newsdesk.models import Reporter
from newsdesk.services import ProfileError, reporter_update
from newsdesk.telegram import callbacks, profile, replies
from newsdesk.telegram.incoming import Incoming
from newsdesk.telegram.sender import say

STYLE, MODEL = "style", "model"


def set_style(incoming: Incoming, reporter: Reporter) -> None:
    if incoming.args:
        change_by_text(incoming, reporter, publisher_style=_default_or(incoming.args))
        return
    ask_style(incoming, reporter)


def ask_style(incoming: Incoming, reporter: Reporter) -> None:
    """The style keyboard (also for "스타일 바꿔줘" said without a publisher)."""
    choices = reporter_choices(reporter=reporter)
    if not choices.publisher_styles:
        text = replies.NO_STYLES.format(current=choices.style_label)
        say(chat_id=incoming.chat_id, text=text, reporter=reporter)
        return
    text = replies.ASK_STYLE.format(current=choices.style_label, department=reporter.department)
    buttons = [callbacks.button(name, STYLE, name) for name in choices.publisher_styles if _fits(name)]
    _ask(incoming, reporter, text, [*buttons, callbacks.button(replies.DEFAULT_CHOICE, STYLE, "")])


def set_model(incoming: Incoming, reporter: Reporter) -> None:
    if incoming.args:
        change_by_text(incoming, reporter, model=_default_or(incoming.args))
        return
    ask_model(incoming, reporter)


def ask_model(incoming: Incoming, reporter: Reporter) -> None:
    """The model keyboard (also for a model named in words that no offered model fits)."""
    choices = reporter_choices(reporter=reporter)
    lines = [
        replies.MODEL_OPTION.format(label=spec.label, input=spec.input, output=spec.output)
        for spec in choices.models
    ]
    default = default_model_label(department=reporter.department)
    text = replies.ASK_MODEL.format(current=model_text(choices), default=default) + "\n\n" + "\n".join(lines)
    buttons = [callbacks.button(spec.label, MODEL, spec.id) for spec in choices.models]
    _ask(incoming, reporter, text, [*buttons, callbacks.button(replies.DEFAULT_CHOICE, MODEL, "")])


@callbacks.register(STYLE)
def _style_button(query: callbacks.Query, reporter: Reporter | None) -> str:
    if reporter is None:
        return replies.REGISTER_FIRST
    try:
        text = _change(reporter, publisher_style=query.value)
    except ProfileError:  # the publisher's style was removed since the keyboard was sent
        return replies.BUTTON_EXPIRED
    profile.answer_on_button(query, reporter, text)
    return ""


@callbacks.register(MODEL)
def _model_button(query: callbacks.Query, reporter: Reporter | None) -> str:
    if reporter is None:
        return replies.REGISTER_FIRST
    try:
        text = _change(reporter, model=query.value)
    except ProfileError:  # the model left the table since the keyboard was sent
        return replies.BUTTON_EXPIRED
    profile.answer_on_button(query, reporter, text)
    return ""


def _change(reporter: Reporter, *, model: str | None = None, publisher_style: str | None = None) -> str:
    """Applies the choice; raises ProfileError for one that is not offered."""
    reporter_update(reporter=reporter, model=model, publisher_style=publisher_style)
    choices = reporter_choices(reporter=reporter)
    if model is not None:
        return replies.MODEL_CHANGED.format(current=model_text(choices))
    return replies.STYLE_CHANGED.format(current=choices.style_label)


def model_text(choices: Choices) -> str:
    return choices.model_label + (replies.DEFAULT_SUFFIX if choices.model_is_default else "")


def _fits(name: str) -> bool:
    """Whether a publisher's name fits a button's 64 bytes (a longer one is set by typing it)."""
    return len(f"{STYLE}:{name}".encode()) <= callbacks.MAX_DATA_BYTES


def _default_or(value: str) -> str:
    return "" if value.strip() == replies.DEFAULT_CHOICE else value


def change_by_text(
    incoming: Incoming, reporter: Reporter, *, model: str | None = None, publisher_style: str | None = None
) -> None:
    try:
        text = _change(reporter, model=model, publisher_style=publisher_style)
    except ProfileError as exc:
        text = exc.user_message
    say(chat_id=incoming.chat_id, text=text, reporter=reporter)


def _ask(incoming: Incoming, reporter: Reporter, text: str, buttons: list[tuple[str, str]]) -> None:
    profile.send_buttons_logged(
        chat_id=incoming.chat_id, text=text, buttons=callbacks.rows(buttons), reporter=reporter
    )
