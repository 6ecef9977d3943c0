"""An article as a .txt or .docx download: the headline, then the final body, paragraph by paragraph."""

from __future__ import annotations

import io
import re

from agents import selectors as agent_selectors
from agents.models import Article
from newsdesk import messages as msg

TXT_TYPE = "text/plain; charset=utf-8"
DOCX_TYPE = "application/vnd.openxmlformats-officedocument.wordprocessingml.document"
_UNSAFE_NAME = re.compile(r'[\\/:*?"<>|\x00-\x1f]+')
# XML 1.0 forbids most control characters; python-docx would raise on them.
_XML_ILLEGAL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f]")


def paragraphs(body: str) -> list[str]:
    return [p.strip() for p in re.split(r"\n\s*\n", body) if p.strip()]


def article_txt(article: Article) -> bytes:
    """UTF-8 with a BOM so that Windows Notepad and Hangul open Korean text correctly. While the
    release is embargoed the file opens with the moment it may be published."""
    notice = agent_selectors.article_embargo_notice(article=article)
    opening = notice + "\n\n" if notice else ""
    text = opening + article.headline.strip() + "\n\n" + "\n\n".join(paragraphs(article.body)) + "\n"
    return text.encode("utf-8-sig")


def article_docx(article: Article) -> bytes:
    from docx import Document  # loaded on demand: only downloads need it

    document = Document()
    notice = agent_selectors.article_embargo_notice(article=article)
    if notice:
        document.add_paragraph().add_run(notice).bold = True
    document.add_heading(_xml_text(article.headline.strip()), level=1)
    for paragraph in paragraphs(article.body):
        document.add_paragraph(_xml_text(paragraph))
    buffer = io.BytesIO()
    document.save(buffer)
    return buffer.getvalue()


def file_name(article: Article, extension: str) -> str:
    """The headline as a file name, made safe for every OS; the revision is kept apart."""
    stem = " ".join(_UNSAFE_NAME.sub(" ", article.headline).split())[:60].strip(" .") or "article"
    suffix = msg.DESK_REVISION_FILE_SUFFIX.format(revision=article.revision) if article.revision > 1 else ""
    return f"{stem}{suffix}.{extension}"


def _xml_text(text: str) -> str:
    return _XML_ILLEGAL.sub("", text)
