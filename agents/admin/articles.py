"""Articles and their verification issues: read-only, except the review state of each issue,
which editors set here (saved through agents.verification.review, not Model.save())."""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from django import forms
from django.contrib import admin, messages
from django.core.exceptions import ValidationError
from django.db.models import QuerySet
from django.http import HttpRequest
from django.utils.text import Truncator

from agents.models import Article, VerificationIssue
from agents.verification.review import REVIEW_STATES, issues_review
from styles.admin import LabelledAdmin, LabelledTabularInline

# Text the admin shows (messages, errors); labels sit with each admin below.
REVIEWED = "검증 이슈 {count}건을 '{state}'(으)로 처리했습니다."
CANNOT_REOPEN = "검토한 이슈를 다시 '검토 대기'로 되돌릴 수 없습니다. 수용 또는 기각을 선택해 주세요."

ISSUE_LABELS = {
    "article": "기사",
    "article__department": "부서",
    "claim": "주장",
    "status": "판정",
    "kind": "유형",
    "source": "근거",
    "reason": "이유",
    "formula": "계산식",
    "rule": "규칙",
    "origin": "검출",
    "sentence_index": "문장 번호",
    "action": "조치",
    "review_state": "검토",
    "reviewed_by": "검토자",
    "reviewed_at": "검토 시각",
}
ISSUE_FIELDS = (
    "article",
    "claim",
    "status",
    "kind",
    "source",
    "reason",
    "formula",
    "rule",
    "origin",
    "sentence_index",
    "action",
    "review_state",
    "reviewed_by",
    "reviewed_at",
)


class ReviewForm(forms.ModelForm):
    """The one editable field of an issue. Its save goes through agents.verification.review, not
    Model.save()."""

    class Meta:
        model = VerificationIssue
        fields = ("review_state",)

    def clean_review_state(self) -> str:
        state: str = self.cleaned_data["review_state"]
        if "review_state" in self.changed_data and state not in REVIEW_STATES:
            raise ValidationError(CANNOT_REOPEN)
        return state


def _review_changed(review_forms: list[Any], request: HttpRequest) -> None:
    """Records the review of every form whose review_state changed: reviewer and time included."""
    ids_by_state: dict[str, list[int]] = defaultdict(list)
    for form in review_forms:
        if "review_state" in form.changed_data:
            ids_by_state[form.instance.review_state].append(form.instance.pk)
    for state, ids in ids_by_state.items():
        issues_review(issue_ids=ids, state=state, user=request.user)  # type: ignore[arg-type]


class VerificationIssueInline(LabelledTabularInline):
    model = VerificationIssue
    form = ReviewForm
    labels = ISSUE_LABELS
    fields = (
        "claim",
        "status",
        "kind",
        "origin",
        "rule",
        "action",
        "source",
        "reason",
        "review_state",
        "reviewed_by",
        "reviewed_at",
    )
    readonly_fields = tuple(name for name in fields if name != "review_state")
    extra = 0
    can_delete = False

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False  # issues come from verification only

    def get_queryset(self, request: HttpRequest) -> QuerySet[VerificationIssue]:
        return super().get_queryset(request).select_related("reviewed_by")


@admin.register(Article)
class ArticleAdmin(LabelledAdmin):
    labels = {
        "run": "실행",
        "reporter": "기자",
        "parent": "원본 기사",
        "revision": "판",
        "department": "부서",
        "headline": "제목",
        "draft_body": "초안 본문",
        "body": "최종 본문",
        "verdict": "검증 결과",
        "sources": "참고 기사",
        "length": "분량(자)",
        "target_length": "목표 분량",
        "instruction": "수정 지시",
        "changes_made": "수정 내용",
        "warnings": "경고",
        "embargo": "엠바고(보도 가능 시각)",
        "created_at": "작성 시각",
    }
    list_display = ("headline", "reporter", "department", "verdict", "length", "created_at")
    list_filter = ("verdict", "department")
    list_select_related = ("reporter__user",)
    search_fields = ("headline",)
    date_hierarchy = "created_at"
    fields = readonly_fields = tuple(labels)
    inlines = (VerificationIssueInline,)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False  # articles are made by drafting runs

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        # Every article field is read-only, so "change" here only means saving the review states
        # of its issues: whoever may view articles and review issues may do that on this page.
        if super().has_change_permission(request, obj):
            return True
        return self.has_view_permission(request, obj) and request.user.has_perm(
            "agents.change_verificationissue"
        )

    def save_model(self, request: HttpRequest, obj: Article, form: Any, change: bool) -> None:
        pass  # nothing on the article itself is editable; only the inline issues are saved

    def save_formset(self, request: HttpRequest, form: Any, formset: Any, change: bool) -> None:
        if formset.model is VerificationIssue:
            formset.save(commit=False)  # fills changed_objects for the history message, writes nothing
            _review_changed(formset.forms, request)
            return
        super().save_formset(request, form, formset, change)


@admin.register(VerificationIssue)
class VerificationIssueAdmin(LabelledAdmin):
    form = ReviewForm
    labels = ISSUE_LABELS
    list_display = (
        "short_claim",
        "status",
        "kind",
        "origin",
        "rule",
        "action",
        "review_state",
        "article",
        "article__department",
        "reviewed_by",
    )
    # The rule family and the status side by side: how often a family's suspects were cut or kept.
    list_filter = ("status", "rule", "kind", "origin", "article__department", "review_state")
    list_select_related = ("article", "reviewed_by")
    search_fields = ("claim", "article__headline")
    fields = ISSUE_FIELDS
    readonly_fields = tuple(name for name in ISSUE_FIELDS if name != "review_state")
    actions = ("accept", "dismiss")

    @admin.display(description="주장", ordering="claim")
    def short_claim(self, issue: VerificationIssue) -> str:
        return Truncator(issue.claim).chars(60)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False  # issues come from verification only

    def save_model(self, request: HttpRequest, obj: VerificationIssue, form: Any, change: bool) -> None:
        _review_changed([form], request)

    @admin.action(description="선택한 검증 이슈 수용", permissions=["change"])
    def accept(self, request: HttpRequest, queryset: QuerySet[VerificationIssue]) -> None:
        self._review(request, queryset, VerificationIssue.ReviewState.ACCEPTED)

    @admin.action(description="선택한 검증 이슈 기각", permissions=["change"])
    def dismiss(self, request: HttpRequest, queryset: QuerySet[VerificationIssue]) -> None:
        self._review(request, queryset, VerificationIssue.ReviewState.DISMISSED)

    def _review(
        self,
        request: HttpRequest,
        queryset: QuerySet[VerificationIssue],
        state: VerificationIssue.ReviewState,
    ) -> None:
        count = issues_review(
            issue_ids=list(queryset.values_list("pk", flat=True)),
            state=state,
            user=request.user,  # type: ignore[arg-type]
        )
        self.message_user(request, REVIEWED.format(count=count, state=state.label), messages.SUCCESS)
