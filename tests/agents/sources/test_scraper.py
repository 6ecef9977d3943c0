from __future__ import annotations

import ssl
import time
import tracemalloc
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID

from agents.sources import scraper
from agents.sources.scraper import (
    MAX_BYTES,
    Scraped,
    ScrapeFailed,
    UnsafeURL,
    fetch_text,
    naver_body,
    scrape_many,
    vet_url,
)
from tests.fakes import pages as fp
from tests.fakes.pages import FakePages, fake_dns

NAVER_HOST = "n.news.naver.com"


@pytest.fixture
def naver_dns() -> Iterator[Any]:
    with fake_dns({NAVER_HOST: "127.0.0.1", "www.outlet.example": "127.0.0.1"}) as dns:
        yield dns


# --- Naver layout -------------------------------------------------------------------------------
def test_a_naver_page_gives_the_body_without_caption_summary_subheading_markers_or_byline(
    pages: FakePages, naver_dns: Any
) -> None:
    text = fetch_text(pages.url(fp.NAVER_PATH, host=NAVER_HOST))

    assert text.split("\n") == fp.NAVER_PARAGRAPHS
    for noise in (
        fp.NAVER_CAPTION,
        fp.NAVER_SUMMARY,
        fp.NAVER_SUBHEADING,
        fp.NAVER_MARKER_LINE,
        fp.NAVER_BYLINE,
    ):
        assert noise not in text
    assert "Copyright" not in text


def test_a_naver_page_with_paragraph_tags_follows_the_same_rules(pages: FakePages, naver_dns: Any) -> None:
    text = fetch_text(pages.url(fp.NAVER_P_PATH, host=NAVER_HOST))

    assert text.split("\n") == fp.NAVER_PARAGRAPHS


def test_max_chars_takes_whole_paragraphs_until_the_cap_then_cuts_like_v1(
    pages: FakePages, naver_dns: Any
) -> None:
    text = fetch_text(pages.url(fp.NAVER_P_PATH, host=NAVER_HOST), max_chars=800)

    kept, total = [], 0
    for paragraph in fp.NAVER_PARAGRAPHS:
        kept.append(paragraph)
        total += len(paragraph)
        if total >= 800:
            break
    assert text == "\n".join(kept)[:800]
    assert len(text) == 800


def test_the_naver_rules_apply_by_host_and_other_hosts_use_trafilatura(
    pages: FakePages, naver_dns: Any
) -> None:
    (on_naver, elsewhere) = scrape_many(
        [
            (pages.url(fp.NAVER_PATH, host=NAVER_HOST), ""),
            (pages.url(fp.GENERIC_PATH, host="www.outlet.example"), ""),
        ]
    )

    assert (on_naver.method, on_naver.ok) == ("naver", True)
    assert (elsewhere.method, elsewhere.ok) == ("generic", True)


def test_a_naver_host_page_without_a_body_container_falls_back_to_trafilatura(
    pages: FakePages, naver_dns: Any
) -> None:
    pages.add_page("/sports/1", fp.generic_article_html("스포츠 기사", fp.GENERIC_PARAGRAPHS))

    (result,) = scrape_many([(pages.url("/sports/1", host=NAVER_HOST), "설명")])

    assert result.method == "generic"
    assert fp.GENERIC_PARAGRAPHS[0] in result.text


def naver_page(inner: str, container: str = '<article id="dic_area">{}</article>') -> str:
    return f"<html><body><div id='ct'>{container.format(inner)}</div></body></html>"


def test_the_newsct_article_container_is_used_when_dic_area_is_missing() -> None:
    html = (
        "<html><body><div id='newsct_article'>"
        "<p>첫 문단입니다.</p><p>둘째 문단입니다.</p>"
        "</div></body></html>"
    )

    assert naver_body(html) == "첫 문단입니다.\n둘째 문단입니다."


def test_the_legacy_article_body_contents_container_is_understood() -> None:
    html = "<html><body><div id='articleBodyContents'>옛 화면 본문 첫 줄<br>둘째 줄</div></body></html>"

    assert naver_body(html) == "옛 화면 본문 첫 줄\n둘째 줄"


def test_a_page_without_a_known_container_yields_nothing() -> None:
    assert naver_body("<html><body><div id='other'><p>본문</p></div></body></html>") == ""


def test_an_empty_container_yields_nothing() -> None:
    assert naver_body(naver_page("")) == ""


def test_paragraphs_inside_photo_and_video_wrappers_are_skipped_at_any_depth() -> None:
    inner = (
        "<div class='ab_photo photo_center'><div><p>사진 설명 문단</p></div></div>"
        "<div class='vod_area'><p>영상 설명 문단</p></div>"
        "<div class='thumb_img'><p>썸네일 문단</p></div>"
        "<p>진짜 본문 문단입니다.</p>"
    )

    assert naver_body(naver_page(inner)) == "진짜 본문 문단입니다."


def test_a_short_all_bold_paragraph_is_a_subheading_but_a_long_or_partly_bold_one_is_body() -> None:
    long_bold = "굵게 쓴 긴 문단은 " + "본문으로 취급되어야 합니다 " * 3
    inner = (
        "<p><b>짧은 굵은 소제목</b></p>"
        f"<p><strong>{long_bold}</strong></p>"
        "<p><b>일부만</b> 굵은 문단은 본문입니다.</p>"
    )

    assert naver_body(naver_page(inner)).split("\n") == [long_bold.strip(), "일부만 굵은 문단은 본문입니다."]


@pytest.mark.parametrize("marker", list("▶■◆●△▷▲►◇□★☆※➤"))
def test_lines_starting_with_a_v1_marker_are_skipped(marker: str) -> None:
    inner = f"<p>{marker} 관련기사 보기</p><p>본문 문단입니다.</p>"

    assert naver_body(naver_page(inner)) == "본문 문단입니다."


def test_without_paragraph_tags_the_body_is_split_on_line_breaks_not_on_inline_tags() -> None:
    inner = (
        "첫 줄은 <a href='#'>링크</a>가 섞인 문장이다.<br><br>"
        "<strong>소제목</strong><br>▶ 더보기<br>둘째 줄이다."
    )

    assert naver_body(naver_page(inner)) == "첫 줄은 링크가 섞인 문장이다.\n둘째 줄이다."


# --- other outlets ------------------------------------------------------------------------------
def test_a_generic_outlet_page_gives_the_story_without_navigation_ads_or_related_links(
    pages: FakePages,
) -> None:
    text = fetch_text(pages.url(fp.GENERIC_PATH))

    for paragraph in fp.GENERIC_PARAGRAPHS:
        assert paragraph in text
    for noise in (fp.GENERIC_AD, fp.GENERIC_RELATED, "회원가입", "대표전화"):
        assert noise not in text


@pytest.mark.parametrize("path", [fp.CP949_NO_CHARSET_PATH, fp.CP949_WRONG_CHARSET_PATH])
def test_a_cp949_page_decodes_to_correct_korean_whatever_the_header_says(pages: FakePages, path: str) -> None:
    text = fetch_text(pages.url(path))

    assert fp.CP949_PARAGRAPHS[0] in text
    assert fp.CP949_PARAGRAPHS[-1] in text
    assert "\ufffd" not in text


def test_an_euc_kr_declaration_is_read_as_cp949(pages: FakePages) -> None:
    # "똠" exists only in CP949's extension of EUC-KR; strict EUC-KR decoding would fail on it.
    story = "".join(f"<p>{p} 똠방각하.</p>" for p in fp.CP949_PARAGRAPHS)
    page = f"<html><head><meta charset='euc-kr'></head><body><article>{story}</article></body></html>"
    pages.add_page("/euc-kr", page.encode("cp949"), charset=None)

    assert "똠방각하" in fetch_text(pages.url("/euc-kr"))


def test_generic_text_is_cut_to_max_chars(pages: FakePages) -> None:
    assert len(fetch_text(pages.url(fp.GENERIC_PATH), max_chars=300)) == 300


def test_a_non_html_response_is_not_parsed(pages: FakePages) -> None:
    pages.add_page("/image", b"\x89PNG....", headers={"Content-Type": "image/png"})

    with pytest.raises(ScrapeFailed, match="not an HTML page"):
        fetch_text(pages.url("/image"))


def test_the_scraper_sends_its_own_user_agent(pages: FakePages) -> None:
    fetch_text(pages.url(fp.GENERIC_PATH))

    assert "newsdesk" in pages.requests[-1].headers["user-agent"]


# --- fallback and batches -----------------------------------------------------------------------
def test_a_404_falls_back_to_the_description_flagged_not_ok(pages: FakePages) -> None:
    (result,) = scrape_many([(pages.url(fp.MISSING_PATH), "  검색 결과의 설명 문장  ")])

    assert result == Scraped(
        url=pages.url(fp.MISSING_PATH), text="검색 결과의 설명 문장", method="description", ok=False
    )


def test_fetch_text_raises_on_a_404(pages: FakePages) -> None:
    with pytest.raises(ScrapeFailed, match="404"):
        fetch_text(pages.url(fp.MISSING_PATH))


def test_a_page_with_under_100_characters_of_text_falls_back_to_the_description(pages: FakePages) -> None:
    pages.add_page("/short", "<html><body><article><p>너무 짧은 본문.</p></article></body></html>")

    (result,) = scrape_many([(pages.url("/short"), "설명")])

    assert (result.text, result.method, result.ok) == ("설명", "description", False)


def test_unsafe_and_unresolvable_urls_fall_back_instead_of_raising(pages: FakePages) -> None:
    with fake_dns({}):
        results = scrape_many(
            [
                ("file:///etc/passwd", "하나"),
                ("http://10.0.0.1/", "둘"),
                ("http://no-such-host.example/", "셋"),
                (pages.url(fp.GENERIC_PATH), "넷"),
            ]
        )

    assert [(r.text, r.ok) for r in results[:3]] == [("하나", False), ("둘", False), ("셋", False)]
    assert results[3].ok is True


def test_a_crash_inside_extraction_does_not_sink_the_batch(
    pages: FakePages, monkeypatch: pytest.MonkeyPatch
) -> None:
    def explode(*args: Any, **kwargs: Any) -> str:
        raise RuntimeError("parser bug")

    monkeypatch.setattr(scraper, "generic_body", explode)

    (result,) = scrape_many([(pages.url(fp.GENERIC_PATH), "설명")])

    assert (result.method, result.ok) == ("description", False)


def test_results_come_back_in_input_order(pages: FakePages) -> None:
    for n in range(12):
        paragraphs = fp.korean_paragraphs(100 + n, chars=400)
        pages.add_page(f"/order/{n}", fp.generic_article_html(f"기사 {n}", paragraphs), delay=0.05 * (n % 4))
    targets = [(pages.url(f"/order/{n}"), "") for n in range(12)]

    results = scrape_many(targets)

    assert [r.url for r in results] == [url for url, _ in targets]
    for n, result in enumerate(results):
        assert fp.korean_paragraphs(100 + n, chars=400)[0] in result.text


@pytest.mark.parametrize("asked", [8, 50])
def test_no_more_than_eight_pages_are_fetched_at_once(pages: FakePages, asked: int) -> None:
    for n in range(20):
        pages.add_page(f"/c/{n}", fp.generic_article_html("기사", fp.GENERIC_PARAGRAPHS), delay=0.25)

    scrape_many([(pages.url(f"/c/{n}"), "") for n in range(20)], concurrency=asked)

    assert pages.max_in_flight == 8


def test_a_lower_concurrency_is_respected(pages: FakePages) -> None:
    for n in range(6):
        pages.add_page(f"/c/{n}", fp.generic_article_html("기사", fp.GENERIC_PARAGRAPHS), delay=0.1)

    scrape_many([(pages.url(f"/c/{n}"), "") for n in range(6)], concurrency=2)

    assert pages.max_in_flight == 2


def test_an_empty_batch_is_empty() -> None:
    assert scrape_many([]) == []


# --- size and time limits -----------------------------------------------------------------------
def test_a_huge_page_is_streamed_and_cut_at_5_mb(pages: FakePages) -> None:
    tracemalloc.start()
    try:
        page = scraper._fetch(pages.url(fp.HUGE_PATH), allow_loopback=True)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()

    assert len(page.body) == MAX_BYTES
    assert peak < 2.5 * MAX_BYTES  # the buffer plus one final copy, never the 64 MB
    time.sleep(0.2)
    assert pages.bytes_sent[fp.HUGE_PATH] < 24 * 1024 * 1024  # the server was cut off early


def test_a_huge_page_still_yields_text(pages: FakePages) -> None:
    assert "아주 긴 기사 본문입니다." in fetch_text(pages.url(fp.HUGE_PATH), max_chars=500)


def test_a_slow_page_hits_the_timeout(pages: FakePages, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(scraper, "TOTAL_TIMEOUT_SECONDS", 0.5)

    started = time.monotonic()
    with pytest.raises(ScrapeFailed, match="timed out"):
        fetch_text(pages.url(fp.SLOW_PATH))

    assert time.monotonic() - started < 2


def test_a_page_dripping_one_byte_at_a_time_hits_the_total_budget(
    pages: FakePages, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(scraper, "TOTAL_TIMEOUT_SECONDS", 0.5)
    pages.add_drip("/drip", fp.generic_article_html("느린 기사", fp.GENERIC_PARAGRAPHS), interval=0.02)

    started = time.monotonic()
    with pytest.raises(ScrapeFailed, match="timed out"):
        fetch_text(pages.url("/drip"))

    assert time.monotonic() - started < 2


# --- redirects ----------------------------------------------------------------------------------
@pytest.mark.parametrize("path", [fp.REDIRECT_PRIVATE_PATH, fp.REDIRECT_METADATA_PATH])
def test_a_redirect_to_a_private_address_is_refused_even_with_loopback_allowed(
    pages: FakePages, connections: list[tuple[str, int]], path: str
) -> None:
    with pytest.raises(UnsafeURL):
        fetch_text(pages.url(path))

    assert pages.paths_requested() == [path]
    assert {host for host, _ in connections} == {"127.0.0.1"}  # never 10.0.0.1 or 169.254.169.254


def test_a_redirect_to_a_name_resolving_to_a_private_address_is_refused(
    pages: FakePages, connections: list[tuple[str, int]]
) -> None:
    pages.add_redirect("/to-internal", "http://intranet.example/admin")

    with fake_dns({"intranet.example": "10.1.2.3"}), pytest.raises(UnsafeURL, match=r"10\.1\.2\.3"):
        fetch_text(pages.url("/to-internal"))

    assert {host for host, _ in connections} == {"127.0.0.1"}


def test_a_relative_redirect_is_followed_and_re_checked(pages: FakePages) -> None:
    pages.add_redirect("/old", "/news/articleView.html")

    assert fp.GENERIC_PARAGRAPHS[0] in fetch_text(pages.url("/old"))
    assert pages.paths_requested() == ["/old", fp.GENERIC_PATH]


def test_five_redirects_are_followed_but_a_sixth_is_not(pages: FakePages) -> None:
    for n in range(6):
        pages.add_redirect(f"/hop/{n}", f"/hop/{n + 1}")
    pages.add_page("/hop/6", fp.generic_article_html("도착", fp.GENERIC_PARAGRAPHS))

    assert fp.GENERIC_PARAGRAPHS[0] in fetch_text(pages.url("/hop/1"))  # 5 redirects
    with pytest.raises(ScrapeFailed, match="redirects"):
        fetch_text(pages.url("/hop/0"))  # 6 redirects


# --- pinning ------------------------------------------------------------------------------------
def test_the_name_is_resolved_once_and_the_connection_goes_to_that_address(
    pages: FakePages, connections: list[tuple[str, int]]
) -> None:
    with fake_dns() as dns:
        dns.add("rebind.example", "127.0.0.1")  # vetted answer
        dns.add("rebind.example", "10.0.0.9")  # what a rebinding attacker answers next
        text = fetch_text(pages.url(fp.GENERIC_PATH, host="rebind.example"))

    assert fp.GENERIC_PARAGRAPHS[0] in text
    assert dns.lookups == ["rebind.example"]  # httpx did not resolve the name again
    assert connections == [("127.0.0.1", pages.port)]
    assert pages.requests[-1].headers["host"] == f"rebind.example:{pages.port}"


def test_every_redirect_hop_is_resolved_and_vetted_again(
    pages: FakePages, connections: list[tuple[str, int]]
) -> None:
    pages.add_redirect("/again", "/news/articleView.html")
    with fake_dns() as dns:
        dns.add("rebind.example", "127.0.0.1")
        dns.add("rebind.example", "10.0.0.9")
        with pytest.raises(UnsafeURL, match=r"10\.0\.0\.9"):
            fetch_text(pages.url("/again", host="rebind.example"))

    assert connections == [("127.0.0.1", pages.port)]


def _certificate(tmp: Path, host: str) -> tuple[ssl.SSLContext, ssl.SSLContext]:
    """A throwaway CA and a certificate for `host`: (server context, client context)."""
    now = datetime.now(UTC)
    ca_key = ec.generate_private_key(ec.SECP256R1())
    ca_name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "newsdesk test CA")])
    ca = (
        x509.CertificateBuilder()
        .subject_name(ca_name)
        .issuer_name(ca_name)
        .public_key(ca_key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - timedelta(days=1))
        .not_valid_after(now + timedelta(days=1))
        .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
        .sign(ca_key, hashes.SHA256())
    )
    key = ec.generate_private_key(ec.SECP256R1())
    cert = (
        x509.CertificateBuilder()
        .subject_name(x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, host)]))
        .issuer_name(ca_name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - timedelta(days=1))
        .not_valid_after(now + timedelta(days=1))
        .add_extension(x509.SubjectAlternativeName([x509.DNSName(host)]), critical=False)
        .sign(ca_key, hashes.SHA256())
    )
    cert_file, key_file = tmp / f"{host}.pem", tmp / f"{host}.key"
    cert_file.write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    key_file.write_bytes(
        key.private_bytes(
            serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
        )
    )
    server = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    server.load_cert_chain(cert_file, key_file)
    client = ssl.create_default_context(cadata=ca.public_bytes(serialization.Encoding.PEM).decode())
    return server, client


@pytest.fixture
def tls_pages(settings: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[FakePages]:
    settings.NEWSDESK_SCRAPE_ALLOW_PRIVATE = True
    server_context, client_context = _certificate(tmp_path, "secure.example")
    monkeypatch.setattr(scraper, "_client", scraper._build_client(verify=client_context))
    fake = FakePages(tls_context=server_context)
    try:
        yield fake
    finally:
        fake.close()


def test_https_to_a_pinned_address_still_sends_sni_and_checks_the_certificate_name(
    tls_pages: FakePages, connections: list[tuple[str, int]]
) -> None:
    with fake_dns({"secure.example": "127.0.0.1"}):
        text = fetch_text(tls_pages.url(fp.GENERIC_PATH, host="secure.example"))

    assert fp.GENERIC_PARAGRAPHS[0] in text
    assert connections == [("127.0.0.1", tls_pages.port)]


def test_https_with_a_certificate_for_another_name_fails(tls_pages: FakePages) -> None:
    with fake_dns({"impostor.example": "127.0.0.1"}), pytest.raises(ScrapeFailed, match="cannot connect"):
        fetch_text(tls_pages.url(fp.GENERIC_PATH, host="impostor.example"))


# --- the unsafe URL table -----------------------------------------------------------------------
DNS = {
    "localhost": "127.0.0.1",
    "intranet.example": "10.0.0.5",
    "metadata.example": "169.254.169.254",
    "mixed.example": ["93.184.216.34", "10.0.0.1"],
    "cgnat.example": "100.64.0.1",
    "ula.example": "fd00::1",
    "mapped.example": "::ffff:10.0.0.1",
    "192.168.1.250.nip.io": "192.168.1.250",
    "public.example": "93.184.216.34",
}

UNSAFE_URLS = [
    "file:///etc/passwd",
    "gopher://127.0.0.1:70/_HELO",
    "ftp://example.com/file.txt",
    "dict://127.0.0.1:11211/stat",
    "javascript:alert(1)",
    "data:text/html,<p>x</p>",
    "http://127.0.0.1/",
    "http://127.0.0.1:8080/admin",
    "HTTP://127.0.0.1/",
    "http://127.255.255.254/",
    "http://localhost/",
    "http://10.0.0.1/",
    "http://10.255.255.255/",
    "http://172.16.0.1/",
    "http://172.31.255.254/",
    "http://192.168.0.1/",
    "http://192.168.1.250.nip.io/",
    "http://169.254.169.254/latest/meta-data/",
    "http://169.254.0.1/",
    "http://100.64.0.1/",
    "http://100.127.255.254/",
    "http://0.0.0.0/",
    "http://0.0.0.0:8000/",
    "http://224.0.0.1/",
    "http://240.0.0.1/",
    "http://255.255.255.255/",
    "http://192.0.0.1/",
    "http://[::1]/",
    "http://[::1]:80/",
    "http://[::]/",
    "http://[fe80::1]/",
    "http://[fc00::1]/",
    "http://[fd12:3456::1]/",
    "http://[fec0::1]/",
    "http://[ff02::1]/",
    "http://[::ffff:127.0.0.1]/",
    "http://[::ffff:10.0.0.1]/",
    "http://[::ffff:7f00:1]/",
    "http://[2002:7f00:1::]/",
    "http://2130706433/",
    "http://0177.0.0.1/",
    "http://0x7f000001/",
    "http://0x7f.0.0.1/",
    "http://127.1/",
    "http://017700000001/",
    "http://0/",
    "http://example.com@127.0.0.1/",
    "http://user:pass@public.example/",
    "http://public.example\\@127.0.0.1/",
    "http://public.example/\tpath",
    " http://127.0.0.1/",
    "http:///nohost",
    "",
    "http://intranet.example/",
    "http://metadata.example/latest/meta-data/",
    "http://mixed.example/",
    "http://cgnat.example/",
    "http://ula.example/",
    "http://mapped.example/",
]


@pytest.mark.parametrize("url", UNSAFE_URLS)
def test_an_unsafe_url_is_refused_before_any_connection(
    url: str, settings: Any, connections: list[tuple[str, int]]
) -> None:
    settings.NEWSDESK_SCRAPE_ALLOW_PRIVATE = False
    with fake_dns(DNS), pytest.raises(UnsafeURL):
        fetch_text(url)

    assert connections == []


def test_the_unsafe_table_is_big_enough() -> None:
    assert len(UNSAFE_URLS) >= 40


@pytest.mark.parametrize(
    "url",
    [
        "http://public.example/",
        "https://public.example:8443/odd/port",
        "http://93.184.216.34:81/",
        "http://[2606:4700:4700::1111]/",
        "https://public.example/기사?id=1",
    ],
)
def test_public_addresses_pass_including_odd_ports(url: str) -> None:
    with fake_dns(DNS):
        vetted = vet_url(url)

    assert vetted.addresses and all(":" in a or a.count(".") == 3 for a in vetted.addresses)


def test_allowing_private_addresses_lifts_the_check_for_loopback_only() -> None:
    assert vet_url("http://127.0.0.1:1/", allow_loopback=True).addresses == ("127.0.0.1",)
    assert vet_url("http://127.8.9.10/", allow_loopback=True).addresses == ("127.8.9.10",)
    assert vet_url("http://[::1]/", allow_loopback=True).addresses == ("::1",)
    for url in (
        "http://10.0.0.1/",
        "http://169.254.169.254/",
        "http://192.168.0.1/",
        "http://100.64.0.1/",
        "http://0.0.0.0/",
        "http://[::ffff:127.0.0.1]/",
        "http://2130706433/",
        "file:///etc/passwd",
        "http://user@127.0.0.1/",
    ):
        with pytest.raises(UnsafeURL):
            vet_url(url, allow_loopback=True)


def test_the_allow_private_setting_is_read_at_call_time(pages: FakePages, settings: Any) -> None:
    settings.NEWSDESK_SCRAPE_ALLOW_PRIVATE = False

    with pytest.raises(UnsafeURL):
        fetch_text(pages.url(fp.GENERIC_PATH))
    assert pages.requests == []

    settings.NEWSDESK_SCRAPE_ALLOW_PRIVATE = True
    assert fetch_text(pages.url(fp.GENERIC_PATH))


def test_an_unresolvable_name_is_a_scrape_failure_not_an_unsafe_url() -> None:
    with fake_dns({}), pytest.raises(ScrapeFailed, match="cannot resolve"):
        fetch_text("http://no-such-host.example/")
