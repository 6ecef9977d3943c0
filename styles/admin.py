"""Admin for the house styles, plus the Korean-label base classes every admin module uses.

The label helpers live here, in the lowest app with an admin, so `agents` and `newsdesk` can use
them without an upward import.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any, ClassVar

from django import forms
from django.apps import apps
from django.contrib import admin
from django.db import models
from django.db.models import ForeignKey
from django.forms import ModelChoiceField
from django.http import HttpRequest
from django.utils.html import format_html
from pydantic import ValidationError as SchemaError

from styles.guide import StyleGuide
from styles.models import MAX_EXAMPLES, LintRule, WritingStyle
from styles.selectors import resolved

# --- Korean labels ---------------------------------------------------------------------------
# Most model fields carry no verbose_name, so the admin would show English field names. Each
# admin lists its Korean labels once in `labels`; they are used for list columns, filter titles
# and form (including read-only) labels.


def field_column(model: type[models.Model], name: str, label: str) -> Callable[[Any], Any]:
    """A list column showing `name` (may cross relations with __) under `label`, still sortable."""
    field = _resolve_field(model, name)

    def value(obj: Any) -> Any:
        *path, last = name.split("__")
        for part in path:
            obj = getattr(obj, part, None)
            if obj is None:
                return None
        display = getattr(obj, f"get_{last}_display", None)
        return display() if display else getattr(obj, last)

    value.__name__ = name  # the changelist uses it for the column's CSS class
    return admin.display(description=label, ordering=name, boolean=isinstance(field, models.BooleanField))(
        value
    )


def _resolve_field(model: type[models.Model], name: str) -> models.Field[Any, Any] | None:
    parts = name.split("__")
    for part in parts[:-1]:
        related = model._meta.get_field(part).related_model
        if not isinstance(related, type):
            return None
        model = related
    found = model._meta.get_field(parts[-1])
    return found if isinstance(found, models.Field) else None


def titled_filter(title: str) -> Callable[..., admin.ListFilter]:
    """The filter Django would pick for the field, under a Korean title.

    The changelist calls the second item of a (field, filter) pair with the filter's arguments,
    so a factory function works where the stubs expect a FieldListFilter class.
    """

    def make(
        field: models.Field[Any, Any],
        request: HttpRequest,
        params: dict[str, Any],
        model: type[models.Model],
        model_admin: admin.ModelAdmin,
        field_path: str,
    ) -> admin.ListFilter:
        spec = admin.FieldListFilter.create(field, request, params, model, model_admin, field_path)
        spec.title = title
        return spec

    return make


class LabelledAdmin(admin.ModelAdmin):
    labels: ClassVar[dict[str, str]] = {}

    def get_form(self, request: HttpRequest, obj: Any = None, change: bool = False, **kwargs: Any) -> Any:
        kwargs.setdefault("labels", self.labels)
        return super().get_form(request, obj, change, **kwargs)

    def get_list_display(self, request: HttpRequest) -> list[Any]:
        # list_editable columns must stay plain names (Django edits them by name).
        return [
            field_column(self.model, item, self.labels[item])
            if isinstance(item, str) and item in self.labels and item not in self.list_editable
            else item
            for item in super().get_list_display(request)
        ]

    def get_list_display_links(self, request: HttpRequest, list_display: Any) -> Any:
        links = super().get_list_display_links(request, list_display)
        if not self.list_display_links:
            return links  # the default (first column) already points at the wrapped column
        # Explicit links name fields; point them at the wrapped columns that replaced those names.
        by_name = {getattr(item, "__name__", item): item for item in list_display}
        return [by_name.get(name, name) for name in links]

    def get_list_filter(self, request: HttpRequest) -> list[Any]:
        return [
            (item, titled_filter(self.labels[item]))
            if isinstance(item, str) and item in self.labels
            else item
            for item in super().get_list_filter(request)
        ]


class LabelledTabularInline(admin.TabularInline):
    labels: ClassVar[dict[str, str]] = {}

    def get_formset(self, request: HttpRequest, obj: Any = None, **kwargs: Any) -> Any:
        kwargs.setdefault("labels", self.labels)
        return super().get_formset(request, obj, **kwargs)


# --- WritingStyle ------------------------------------------------------------------------------

# Error texts for the guide form, keyed by pydantic's error type.
GUIDE_ERRORS: dict[str, str] = {
    "string_too_short": "비워 둘 수 없습니다.",
    "string_too_long": "{max_length}자 이하로 입력해 주세요.",
    "too_long": "최대 {max_length}개까지 입력할 수 있습니다.",
    "string_type": "글자로 입력해 주세요.",
}
GUIDE_ERROR_FALLBACK = "올바르지 않은 값입니다: {msg}"
GUIDE_PARTS = ("lead", "structure", "tone", "forbidden", "length_default")
EXAMPLE_SEPARATOR = re.compile(r"^[ \t]*---[ \t]*$", re.MULTILINE)


def _guide_error(error: Any) -> str:
    if error["type"] == "value_error":
        return str(error["ctx"]["error"])  # the validator's own (Korean) message
    template = GUIDE_ERRORS.get(error["type"])
    if template is None:
        return GUIDE_ERROR_FALLBACK.format(msg=error["msg"])
    return template.format(**error.get("ctx", {}))


def split_examples(text: str) -> list[str]:
    return [chunk.strip() for chunk in EXAMPLE_SEPARATOR.split(text) if chunk.strip()]


class WritingStyleForm(forms.ModelForm):
    """Edits the guide JSON as separate fields, validated by the same StyleGuide the agents read."""

    lead = forms.CharField(label="리드", required=False, widget=forms.Textarea(attrs={"rows": 2}))
    structure = forms.CharField(label="구성", required=False, widget=forms.Textarea(attrs={"rows": 2}))
    tone = forms.CharField(label="문체", required=False, widget=forms.Textarea(attrs={"rows": 2}))
    forbidden = forms.CharField(
        label="금지 표현",
        required=False,
        widget=forms.Textarea(attrs={"rows": 5}),
        help_text="한 줄에 하나씩 적습니다. 빈 줄은 무시합니다.",
    )
    length_default = forms.CharField(
        label="기본 분량", required=False, help_text="예: 300~600자. 비워 두면 300~600자입니다."
    )
    examples = forms.CharField(
        label="예시 기사",
        required=False,
        widget=forms.Textarea(attrs={"rows": 12}),
        help_text="기사와 기사 사이에 '---'만 있는 줄을 넣어 구분합니다.",
    )
    # Never rendered. Model.clean() validates the guide again and files a failure under "guide";
    # this field gives that (redundant) message a home, since the parts above already show it.
    guide = forms.JSONField(required=False, disabled=True, widget=forms.HiddenInput)
    example_articles = forms.JSONField(required=False, disabled=True, widget=forms.HiddenInput)  # likewise

    class Meta:
        model = WritingStyle
        fields = ("scope", "department", "publisher", "reporter")
        help_texts = {
            "department": "언론사 스타일은 비워 두면 모든 부서에 적용됩니다 (부서를 고른 스타일이 우선).",
            "publisher": "언론사 화이트리스트의 이름 중에서 고릅니다. 기자는 이 이름으로 스타일을 고릅니다.",
        }

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        publisher = self.fields["publisher"]
        self.fields["publisher"] = forms.ChoiceField(
            label=publisher.label,
            required=False,
            choices=_publisher_choices(self.instance.publisher),
            help_text=publisher.help_text,
        )
        guide = self.instance.guide if isinstance(self.instance.guide, dict) else {}
        for part in ("lead", "structure", "tone", "length_default"):
            self.initial.setdefault(part, guide.get(part, ""))
        forbidden = guide.get("forbidden") or []
        self.initial.setdefault("forbidden", "\n".join(map(str, forbidden)))
        examples = self.instance.example_articles or []
        self.initial.setdefault("examples", "\n\n---\n\n".join(map(str, examples)))

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        raw: dict[str, Any] = {part: cleaned.get(part, "") for part in ("lead", "structure", "tone")}
        raw["forbidden"] = [
            line.strip() for line in cleaned.get("forbidden", "").splitlines() if line.strip()
        ]
        if cleaned.get("length_default", "").strip():
            raw["length_default"] = cleaned["length_default"]
        try:
            guide = StyleGuide.model_validate(raw)
        except SchemaError as exc:
            for error in exc.errors():
                part = str(error["loc"][0]) if error["loc"] else None
                self.add_error(part if part in GUIDE_PARTS else None, _guide_error(error))
        else:
            # Set here, before the model's own clean() runs in _post_clean, so it validates these.
            self.instance.guide = guide.model_dump()
        examples = split_examples(cleaned.get("examples", ""))
        if len(examples) > MAX_EXAMPLES:
            self.add_error(
                "examples", f"예시 기사는 {MAX_EXAMPLES}개까지 넣을 수 있습니다 (지금 {len(examples)}개)."
            )
        self.instance.example_articles = examples
        return cleaned


def _publisher_choices(current: str) -> list[tuple[str, str]]:
    """The whitelist's names (looked up by app label: styles sits below agents), plus the current
    value so an outlet dropped from the whitelist still shows what is stored."""
    names = list(
        apps.get_model("agents", "Publisher").objects.order_by("name").values_list("name", flat=True)
    )
    if current and current not in names:
        names.insert(0, current)
    return [("", "---------"), *((name, name) for name in names)]


@admin.register(WritingStyle)
class WritingStyleAdmin(LabelledAdmin):
    form = WritingStyleForm
    labels = {
        "scope": "범위",
        "department": "부서",
        "publisher": "언론사",
        "reporter": "기자",
        "updated_at": "수정 시각",
        "updated_by": "수정자",
    }
    list_display = ("department", "scope", "publisher", "reporter", "updated_at", "updated_by")
    list_filter = ("scope", "department")
    list_select_related = ("reporter__user", "updated_by")
    ordering = ("department", "scope", "publisher")
    readonly_fields = ("prompt_preview", "updated_by", "updated_at")
    fieldsets = (
        (None, {"fields": ("scope", "department", "publisher", "reporter")}),
        ("스타일 가이드", {"fields": ("lead", "structure", "tone", "forbidden", "length_default")}),
        ("예시 기사", {"fields": ("examples",), "description": f"최대 {MAX_EXAMPLES}개."}),
        ("프롬프트 미리보기", {"fields": ("prompt_preview",)}),
        ("변경 기록", {"fields": ("updated_by", "updated_at")}),
    )

    @admin.display(description="첫 프롬프트의 스타일 부분")
    def prompt_preview(self, obj: WritingStyle) -> str:
        """Exactly what a draft's first prompt carries for this style (saved version)."""
        if obj.pk is None:
            return "저장하면 여기에 미리보기가 나옵니다."
        try:
            block = resolved(obj).prompt_block(obj.department or "(기자의 부서)")
        except SchemaError:
            return "가이드 형식이 올바르지 않아 미리보기를 만들 수 없습니다."
        return format_html('<pre class="style-preview" style="white-space: pre-wrap">{}</pre>', block)

    def formfield_for_foreignkey(
        self, db_field: ForeignKey[Any, Any], request: HttpRequest, **kwargs: Any
    ) -> ModelChoiceField[Any] | None:
        if db_field.name == "reporter":
            # Reporter.__str__ reads the user: one join instead of a query per option.
            kwargs["queryset"] = db_field.related_model._default_manager.select_related("user").order_by(
                "department", "display_name"
            )
        return super().formfield_for_foreignkey(db_field, request, **kwargs)

    def save_model(self, request: HttpRequest, obj: WritingStyle, form: Any, change: bool) -> None:
        obj.updated_by = request.user  # type: ignore[assignment]
        super().save_model(request, obj, form, change)


@admin.register(LintRule)
class LintRuleAdmin(LabelledAdmin):
    """Editors extend the house-style lint here; the model's clean() refuses a broken pattern."""

    labels = {
        "name": "분류",
        "pattern": "패턴",
        "replacement": "자동 수정",
        "suggestion": "고칠 방법",
        "department": "부서",
        "min_count": "최소 횟수",
        "active": "사용",
        "updated_at": "수정 시각",
    }
    list_display = ("name", "pattern", "replacement", "department", "min_count", "active", "updated_at")
    list_editable = ("active",)
    list_filter = ("name", "department", "active")
    search_fields = ("name", "pattern", "suggestion")
    readonly_fields = ("updated_at",)
