"""Page weight of the desk: HTML + CSS + JS bytes of each page, uncompressed and as sent to a
browser that accepts gzip, and no external URLs.

Each page is fetched through the Django test client, then every stylesheet and script it links is
fetched the same way (whitenoise serves them, as in production). Any absolute URL to another origin
in the HTML attributes, the CSS (url(), @import) or the JS is listed.

    uv run python bench/desk_weight.py
Target: ≤ 150 KB per page, no external requests.
"""

from __future__ import annotations

import re

from _django import setup

setup()

from bs4 import BeautifulSoup  # noqa: E402
from django.test import Client  # noqa: E402
from django.test.utils import setup_test_environment  # noqa: E402

from agents.models import Article, Run, VerificationIssue  # noqa: E402
from tests.factories import ReporterFactory  # noqa: E402
from tests.fixtures.press import BODY, HALLUCINATED_SENTENCE, HEADLINE  # noqa: E402

LIMIT = 150 * 1024
URL_ATTRIBUTES = ("src", "href", "action", "data", "srcset", "poster", "formaction")
# A scheme-relative or absolute URL with a host name ("//*[@" in htmx is an XPath, not a URL).
_ABSOLUTE = re.compile(r"(?:https?:)?//[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+")
_CSS_URL = re.compile(r"""url\(\s*['"]?([^'")]+)|@import\s+['"]([^'"]+)""")


def result_run() -> Run:
    reporter = ReporterFactory(user__username="weight", anthropic_key="sk-ant-bench-0000")
    run = Run.objects.create(
        reporter=reporter, kind="draft", status="done", stage="done", input={}, timings={"draft_seconds": 9}
    )
    article = Article.objects.create(
        run=run,
        reporter=reporter,
        headline=HEADLINE,
        draft_body=BODY + " " + HALLUCINATED_SENTENCE,
        body=BODY,
        verdict="revised",
        length=len(BODY),
        sources=[{"title": "관련 기사", "url": "https://www.yna.co.kr/view/1"}],
    )
    VerificationIssue.objects.bulk_create(
        VerificationIssue(
            article=article, claim=f"주장 {n}", status="confirmed", origin="code", sentence_index=1
        )
        for n in range(20)
    )
    return run


def external_in_html(html: str) -> list[str]:
    found = []
    for element in BeautifulSoup(html, "lxml").find_all(True):
        for name in URL_ATTRIBUTES:
            value = element.get(name)
            # Source links are navigation the reporter chooses, not requests the page makes.
            if isinstance(value, str) and _ABSOLUTE.match(value.strip()) and element.name != "a":
                found.append(f"<{element.name} {name}={value}>")
    return found


def external_in_asset(kind: str, text: str) -> list[str]:
    if kind == "css":
        urls = [a or b for a, b in _CSS_URL.findall(text)]
        return [u for u in urls if _ABSOLUTE.match(u.strip())]
    return _ABSOLUTE.findall(text)


def weigh(client: Client, label: str, url: str) -> bool:
    response = client.get(url)
    html = response.content.decode()
    soup = BeautifulSoup(html, "lxml")
    assets = [("css", link["href"]) for link in soup.find_all("link", rel="stylesheet")]
    assets += [("js", script["src"]) for script in soup.find_all("script", src=True)]
    sizes = {"html": len(response.content), "css": 0, "js": 0}
    external = external_in_html(html)
    for kind, path in assets:
        asset = client.get(path)
        assert asset.status_code == 200, (path, asset.status_code)
        body = b"".join(asset.streaming_content) if asset.streaming else asset.content  # type: ignore[attr-defined]
        sizes[kind] += len(body)
        external += external_in_asset(kind, body.decode("utf-8", "replace"))
    total = sum(sizes.values())
    wire = sum(_gzipped_size(client, path) for path in [url, *(path for _, path in assets)])
    print(
        f"{label}: {total / 1024:.1f} KB (HTML {sizes['html'] / 1024:.1f} + CSS {sizes['css'] / 1024:.1f} "
        f"+ JS {sizes['js'] / 1024:.1f}; {len(assets)} files); "
        f"{'within' if total <= LIMIT else 'OVER'} 150 KB; sent gzipped: {wire / 1024:.1f} KB; "
        f"external URLs: {external or 'none'}"
    )
    return total <= LIMIT and not external


def _gzipped_size(client: Client, path: str) -> int:
    """Bytes on the wire for a browser that sends Accept-Encoding: gzip."""
    response = client.get(path, HTTP_ACCEPT_ENCODING="gzip")
    body = b"".join(response.streaming_content) if response.streaming else response.content  # type: ignore[attr-defined]
    return len(body)


def main() -> None:
    setup_test_environment()
    run = result_run()
    client = Client()
    client.force_login(run.reporter.user)
    pages = [
        ("new draft (/desk/)", "/desk/"),
        ("result page with diff and 20 claims", f"/desk/drafts/{run.pk}/"),
        ("verify-only", "/desk/verify/"),
        ("my drafts", "/desk/drafts/"),
    ]
    for label, url in pages:
        weigh(client, label, url)


if __name__ == "__main__":
    main()
