"""Desk forms: they only parse what the browser sent. The rules (and their Korean messages) live in
agents.services and newsdesk.services, so the desk refuses exactly what the API refuses."""

from __future__ import annotations

import re
from typing import Any

from django import forms
from django.core.files.uploadedfile import UploadedFile

from agents import messages as agent_msg
from agents.services import (
    FILE_TOO_LARGE,
    MAX_FILE_BYTES,
    MAX_LENGTH,
    MIN_LENGTH,
    OCR_CAUTION,
    PRESS_RELEASE_LIMIT,
    VERIFY_ARTICLE_LIMIT,
    InputError,
)
from newsdesk import messages as msg

LENGTH_PRESETS = ("600", "1000", "1500")
# Photos are read by OCR (JPEG, PNG and an iPhone's HEIC); the server judges each file by its bytes.
PHOTO_EXTENSIONS = ".jpg,.jpeg,.png,.heic,.heif"
PHOTO_ACCEPT = PHOTO_EXTENSIONS + ",image/jpeg,image/png,image/heic,image/heif"
FILE_EXTENSIONS = ".pdf,.docx,.txt," + PHOTO_EXTENSIONS
FILE_ACCEPT = (
    ".pdf,.docx,.txt,application/pdf,text/plain,"
    "application/vnd.openxmlformats-officedocument.wordprocessingml.document," + PHOTO_ACCEPT
)
_SOURCE_SEPARATOR = re.compile(r"^\s*-{3,}\s*$", re.MULTILINE)


def client_messages() -> dict[str, Any]:
    """The Korean messages and limits the browser-side checks show (the same words as the server's)."""
    return {
        "empty_press_release": agent_msg.EMPTY_PRESS_RELEASE,
        "press_release_limit": PRESS_RELEASE_LIMIT,
        "too_long": msg.DESK_TOO_LONG.format(limit=PRESS_RELEASE_LIMIT),
        "length_range": agent_msg.LENGTH_OUT_OF_RANGE.format(low=MIN_LENGTH, high=MAX_LENGTH),
        "length_min": MIN_LENGTH,
        "length_max": MAX_LENGTH,
        "style_hint_long": agent_msg.STYLE_HINT_TOO_LONG,
        "keywords": agent_msg.TOO_MANY_KEYWORDS,
        "file_max_bytes": MAX_FILE_BYTES,
        "file_too_large": FILE_TOO_LARGE,
        "file_type": msg.DESK_FILE_TYPE,
        "file_accept": FILE_ACCEPT,
        "file_extensions": FILE_EXTENSIONS,
        "photo_accept": PHOTO_ACCEPT,
        "photo_extensions": PHOTO_EXTENSIONS,
        "photo_type": agent_msg.UPLOAD_NOT_A_PHOTO,
        "photo_note": f"{msg.DESK_PHOTO_NOTE} {OCR_CAUTION}",
        "instruction_empty": agent_msg.EMPTY_INSTRUCTION,
        "instruction_long": agent_msg.INSTRUCTION_TOO_LONG,
        "article_empty": agent_msg.VERIFY_ARTICLE_EMPTY,
        "article_limit": VERIFY_ARTICLE_LIMIT,
        "article_long": agent_msg.VERIFY_ARTICLE_TOO_LONG.format(limit=VERIFY_ARTICLE_LIMIT),
        "sources_empty": agent_msg.VERIFY_SOURCES_EMPTY,
    }


class DeskForm(forms.Form):
    def add_input_error(self, error: InputError, *, fields: dict[str, str] | None = None) -> None:
        """Shows a service's InputError next to its field (or above the form if it has none here)."""
        name = (fields or {}).get(error.field, error.field)
        if name == "file" and self.photo_chosen():  # the file came from the camera field
            name = "photo"
        self.add_error(name if name in self.fields else None, error.user_message)

    def photo_chosen(self) -> bool:
        return bool(getattr(self, "cleaned_data", {}).get("photo"))


class UploadForm(DeskForm):
    """A document or a photo: `file` takes both, `photo` opens a phone's camera (photos only)."""

    file = forms.FileField(required=False)
    photo = forms.FileField(required=False)

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if data.get("file") and data.get("photo"):
            self.add_error("photo", msg.DESK_FILE_AND_PHOTO)
        return data

    def uploaded(self) -> UploadedFile | None:
        return self.cleaned_data.get("photo") or self.cleaned_data.get("file")


class DraftForm(UploadForm):
    press_release = forms.CharField(required=False, strip=False)
    department = forms.CharField(required=False)
    length_choice = forms.CharField(required=False)
    length_custom = forms.CharField(required=False)
    style_hint = forms.CharField(required=False)
    keywords = forms.CharField(required=False)
    search_news = forms.BooleanField(required=False)
    pages = forms.CharField(required=False, max_length=20)
    follow_up = forms.IntegerField(required=False, min_value=1)  # a monitor item's id
    instruction = forms.CharField(required=False)

    # Service field names → the field the error is shown under.
    FIELD_OF = {"length": "length_custom", "anthropic_api_key": "", "upload": "file", "follow_up": ""}

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        choice = data.get("length_choice") or ""
        custom = (data.get("length_custom") or "").replace(",", "").strip()
        data["length"] = None
        if choice in LENGTH_PRESETS:
            data["length"] = int(choice)
        elif choice == "custom" or custom:
            if not custom:
                self.add_error("length_custom", msg.DESK_LENGTH_CUSTOM_MISSING)
            elif not custom.isdigit():
                self.add_error("length_custom", msg.DESK_LENGTH_NOT_NUMBER)
            else:
                data["length"] = int(custom)
        return data

    def draft_kwargs(self) -> dict[str, Any]:
        """Arguments for services.draft_create (and validate_draft_input)."""
        data = self.cleaned_data
        return {
            "press_release": data["press_release"],
            "department": data["department"] or None,
            "length": data["length"],
            "style_hint": data["style_hint"],
            "search_news": data["search_news"],
            "keywords": [k.strip() for k in data["keywords"].split(",") if k.strip()],
            "pages": data["pages"],
            "instruction": data["instruction"],
        }


class VerifyForm(UploadForm):
    headline = forms.CharField(required=False)
    article = forms.CharField(required=False, strip=False)
    sources = forms.CharField(required=False, strip=False)
    with_model = forms.BooleanField(required=False)

    def source_texts(self) -> list[str]:
        """The pasted sources; a line of three or more dashes separates two of them."""
        return [part for part in _SOURCE_SEPARATOR.split(self.cleaned_data["sources"]) if part.strip()]


class EditForm(UploadForm):
    instruction = forms.CharField(required=False)


class ProfileForm(DeskForm):
    department = forms.CharField(required=False)
    keywords = forms.CharField(required=False)
    anthropic_api_key = forms.CharField(required=False)
    remove_key = forms.BooleanField(required=False)
    model = forms.CharField(required=False)  # "" = the default model
    publisher_style = forms.CharField(required=False)  # "" = the department's style

    def update_kwargs(self, *, had_keywords: bool) -> dict[str, Any]:
        """Arguments for newsdesk.services.reporter_update. A blank key field keeps the stored key."""
        data = self.cleaned_data
        key: str | None = data["anthropic_api_key"] or None
        if data["remove_key"]:
            key = ""
        keywords = data["keywords"]
        return {
            "department": data["department"] or None,
            # Nothing typed and nothing stored is "no change"; clearing stored keywords is refused.
            "keywords": keywords if keywords.strip() or had_keywords else None,
            "anthropic_key": key,
            # A form without these fields (an older page) leaves the choices as they are.
            "model": data["model"] if "model" in self.data else None,
            "publisher_style": data["publisher_style"] if "publisher_style" in self.data else None,
        }
