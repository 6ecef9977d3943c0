from __future__ import annotations

from typing import Any

import pytest
from bs4 import BeautifulSoup
from django.contrib.auth.models import Group
from django.test import Client
from django.urls import reverse

from styles.admin import WritingStyleForm, split_examples
from styles.models import LintRule, WritingStyle
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

CHANGELIST = reverse("admin:styles_writingstyle_changelist")


@pytest.fixture
def editor(client: Client):
    user = UserFactory(username="editor", is_staff=True)
    user.groups.add(Group.objects.get(name="editors"))
    client.force_login(user)
    return user


def style_data(**overrides: Any) -> dict[str, Any]:
    data = {
        "scope": "publisher",
        "department": "사회부",
        "publisher": "조선일보",
        "reporter": "",
        "lead": "육하원칙 스트레이트",
        "structure": "리드 → 사실 → 배경",
        "tone": "건조체",
        "forbidden": "충격\n경악",
        "length_default": "400~700자",
        "examples": "",
    }
    data.update(overrides)
    return data


def test_it_turns_the_separate_fields_into_a_valid_guide() -> None:
    form = WritingStyleForm(style_data())

    assert form.is_valid(), form.errors
    style = form.save()
    assert style.guide == {
        "lead": "육하원칙 스트레이트",
        "structure": "리드 → 사실 → 배경",
        "tone": "건조체",
        "forbidden": ["충격", "경악"],
        "length_default": "400~700자",
    }


def test_it_rejects_a_guide_without_a_lead() -> None:
    form = WritingStyleForm(style_data(lead="   "))

    assert not form.is_valid()
    assert form.errors["lead"] == ["비워 둘 수 없습니다."]


def test_it_reports_every_broken_part_on_its_own_field() -> None:
    form = WritingStyleForm(style_data(structure="", tone="가" * 501))

    assert not form.is_valid()
    assert form.errors["structure"] == ["비워 둘 수 없습니다."]
    assert form.errors["tone"] == ["500자 이하로 입력해 주세요."]
    assert "lead" not in form.errors


def test_it_drops_blank_lines_from_the_forbidden_expressions() -> None:
    form = WritingStyleForm(style_data(forbidden="\n충격\n   \n\n  경악  \n"))

    assert form.is_valid(), form.errors
    assert form.save().guide["forbidden"] == ["충격", "경악"]


def test_it_rejects_more_than_fifty_forbidden_expressions() -> None:
    form = WritingStyleForm(style_data(forbidden="\n".join(f"표현{n}" for n in range(51))))

    assert not form.is_valid()
    assert form.errors["forbidden"] == ["최대 50개까지 입력할 수 있습니다."]


def test_it_rejects_a_default_length_longer_than_forty_characters() -> None:
    form = WritingStyleForm(style_data(length_default="300자" * 11))

    assert not form.is_valid()
    assert form.errors["length_default"] == ["40자 이하로 입력해 주세요."]


def test_a_blank_default_length_falls_back_to_the_built_in_one() -> None:
    form = WritingStyleForm(style_data(length_default=""))

    assert form.is_valid(), form.errors
    assert form.save().guide["length_default"] == "300~600자"


def test_it_still_applies_the_models_rules_beyond_the_guide() -> None:
    form = WritingStyleForm(style_data(publisher=""))

    assert not form.is_valid()
    assert "publisher" in form.errors


def test_example_articles_are_separated_by_a_line_of_three_dashes() -> None:
    text = "첫 기사 첫 줄\n첫 기사 둘째 줄\n---\n\n둘째 기사 -- 대시 포함\n  ---  \n\n---\n"

    assert split_examples(text) == ["첫 기사 첫 줄\n첫 기사 둘째 줄", "둘째 기사 -- 대시 포함"]


def test_the_form_shows_a_stored_guide_and_examples_in_the_separate_fields() -> None:
    style = WritingStyle.objects.get(scope="department", department="사회부")
    style.example_articles = ["기사 하나", "기사 둘"]

    form = WritingStyleForm(instance=style)

    assert form["lead"].value() == style.guide["lead"]
    assert form["forbidden"].value() == "\n".join(style.guide["forbidden"])
    assert form["examples"].value() == "기사 하나\n\n---\n\n기사 둘"


def test_an_editor_saving_a_style_is_recorded_as_its_last_editor(client: Client, editor) -> None:
    style = WritingStyle.objects.get(scope="department", department="사회부")
    url = reverse("admin:styles_writingstyle_change", args=[style.pk])

    response = client.post(
        url, style_data(scope="department", publisher="", lead="새 리드 규칙", examples="예시 A\n---\n예시 B")
    )

    assert response.status_code == 302
    style.refresh_from_db()
    assert style.updated_by == editor
    assert style.guide["lead"] == "새 리드 규칙"
    assert style.example_articles == ["예시 A", "예시 B"]


def test_an_invalid_guide_shows_the_error_on_its_field_and_saves_nothing(client: Client, editor) -> None:
    style = WritingStyle.objects.get(scope="department", department="사회부")
    before = dict(style.guide)
    url = reverse("admin:styles_writingstyle_change", args=[style.pk])

    response = client.post(url, style_data(scope="department", publisher="", lead="", tone="새 문체"))

    assert response.status_code == 200
    assert response.context["adminform"].form.errors["lead"] == ["비워 둘 수 없습니다."]
    assert "비워 둘 수 없습니다." in response.content.decode()
    style.refresh_from_db()
    assert (style.guide, style.updated_by) == (before, None)


def test_an_editor_adds_a_publisher_style(client: Client, editor) -> None:
    response = client.post(reverse("admin:styles_writingstyle_add"), style_data())

    assert response.status_code == 302
    style = WritingStyle.objects.get(scope="publisher", publisher="조선일보")
    assert (style.department, style.updated_by) == ("사회부", editor)


def test_an_invalid_new_style_is_not_created(client: Client, editor) -> None:
    response = client.post(reverse("admin:styles_writingstyle_add"), style_data(lead=""))

    assert response.status_code == 200
    assert not WritingStyle.objects.filter(scope="publisher").exists()


def test_the_changelist_lists_and_filters_styles_under_korean_headings(client: Client, editor) -> None:
    response = client.get(CHANGELIST, {"department__exact": "경제부"})

    content = response.content.decode()
    assert response.status_code == 200
    for heading in ("부서", "범위", "언론사", "기자", "수정 시각", "수정자"):
        assert heading in content
    assert [style.department for style in response.context["cl"].result_list] == ["경제부"]


def test_a_publisher_style_takes_up_to_three_example_articles() -> None:
    four = "\n---\n".join(f"예시 기사 {n}" for n in range(1, 5))

    form = WritingStyleForm(style_data(examples=four))

    assert not form.is_valid() and "3개까지" in form.errors["examples"][0]
    assert WritingStyleForm(style_data(examples=four.rsplit("\n---\n", 1)[0])).is_valid()


def test_a_publisher_style_may_apply_to_every_department_but_a_department_default_may_not() -> None:
    assert WritingStyleForm(style_data(department="")).is_valid()
    form = WritingStyleForm(style_data(scope="department", department="", publisher=""))
    assert not form.is_valid() and "부서를 지정해야" in str(form.errors)


def test_publishers_are_picked_from_the_whitelist() -> None:
    options = [value for value, _ in WritingStyleForm().fields["publisher"].widget.choices]

    assert "조선일보" in options and "한겨레" in options and "아무신문" not in options
    assert not WritingStyleForm(style_data(publisher="아무신문")).is_valid()


def test_the_change_page_previews_the_style_block_of_the_first_prompt(client: Client, editor) -> None:
    style = WritingStyleForm(style_data(examples="첫 예시 기사 본문")).save()

    response = client.get(reverse("admin:styles_writingstyle_change", args=[style.pk]))

    preview = BeautifulSoup(response.content, "lxml").select_one("pre.style-preview").get_text()
    assert preview.startswith('<스타일_가이드 부서="사회부" 언론사="조선일보">')
    assert "- 리드: 육하원칙 스트레이트" in preview and "첫 예시 기사 본문" in preview


def test_an_editor_adds_a_lint_rule_and_a_broken_pattern_is_refused(client: Client, editor) -> None:
    add = reverse("admin:styles_lintrule_add")
    rule = {"name": "사내 표기", "suggestion": "'코로나19'로", "min_count": 1, "active": "on"}

    broken = client.post(add, {**rule, "pattern": "코로나(19"})
    bad_group = client.post(add, {**rule, "pattern": "코로나19", "replacement": r"\2"})
    saved = client.post(add, {**rule, "pattern": "코로나19 바이러스", "replacement": "코로나19"})

    assert broken.status_code == 200 and "정규식이 올바르지 않습니다" in broken.content.decode()
    assert bad_group.status_code == 200 and "자동 수정 문구가 올바르지 않습니다" in bad_group.content.decode()
    assert saved.status_code == 302
    assert LintRule.objects.filter(name="사내 표기").count() == 1


def test_the_curated_lint_list_is_seeded_for_editors_to_see(client: Client, editor) -> None:
    response = client.get(reverse("admin:styles_lintrule_changelist"), {"name__exact": "이중 피동"})

    assert response.status_code == 200 and "되어진" in response.content.decode()
    assert LintRule.objects.filter(name="불필요한 외래어").count() >= 30
