"""Downloads of a finished article."""

from __future__ import annotations

from django.http import Http404, HttpResponse
from django.utils.http import content_disposition_header
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from agents import selectors as agent_selectors
from newsdesk import messages as msg
from newsdesk.desk import exports
from newsdesk.desk.http import ReporterRequest, own_draft, reporter_required

FORMATS = {
    "txt": (exports.article_txt, exports.TXT_TYPE),
    "docx": (exports.article_docx, exports.DOCX_TYPE),
}


@never_cache
@reporter_required
@require_GET
def draft_download(request: ReporterRequest, run_id: int, extension: str) -> HttpResponse:
    article = agent_selectors.article_of(own_draft(request, run_id))
    if article is None or extension not in FORMATS:
        raise Http404(msg.NOT_FOUND)
    build, content_type = FORMATS[extension]
    response = HttpResponse(build(article), content_type=content_type)
    disposition = content_disposition_header(True, exports.file_name(article, extension))
    response.headers["Content-Disposition"] = disposition or "attachment"
    return response
