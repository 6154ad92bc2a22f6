"""A real Scrapy crawl with ``ROBOTSTXT_PARSER = "norobots.scrapy.RobotParser"``
against a web site on 127.0.0.1: from the site's own request log, the
disallowed pages are never requested and the allowed ones are. Run in
two dialects, which disagree on two of the pages, so the answers must
come from this parser and the dialect setting must reach it; and once
with Scrapy's default parser, Protego, which this one replaces."""

import json
import subprocess
import sys
import textwrap

import pytest

from conftest import IN_CI

if IN_CI:
    import scrapy  # noqa: F401 (.ci/run installs it: missing, the tests fail)
else:
    pytest.importorskip("scrapy")

ROBOTS = b"""\
User-agent: *
Disallow: /

User-agent: NorobotsTestBot
Disallow: /private/
Allow: /private/open/
Disallow: /*.pdf$
Disallow: /search?
"""

LINKS = {
    "/index.html": ["/public/a.html", "/public/b.html", "/private/secret.html",
                    "/private/open/doc.html", "/docs/report.pdf",
                    "/docs/report.pdf?download=1", "/search?q=robots"],
    "/public/b.html": ["/public/c.html", "/private/secret.html"],
}
PAGES = ["/index.html", "/public/a.html", "/public/b.html", "/public/c.html",
         "/private/secret.html", "/private/open/doc.html", "/docs/report.pdf",
         "/docs/report.pdf?download=1", "/search?q=robots"]

# What each dialect allows of the pages linked: rfc9309 takes the longest
# match (`Allow: /private/open/`) and reads `*` and `$`; draft1996 takes
# the first matching line and reads `/*.pdf$` as it is written.
EXPECTED = {
    "rfc9309": {
        "allowed": ["/index.html", "/public/a.html", "/public/b.html", "/public/c.html",
                    "/private/open/doc.html", "/docs/report.pdf?download=1"],
        "disallowed": ["/private/secret.html", "/docs/report.pdf", "/search?q=robots"],
    },
    "draft1996": {
        "allowed": ["/index.html", "/public/a.html", "/public/b.html", "/public/c.html",
                    "/docs/report.pdf", "/docs/report.pdf?download=1"],
        "disallowed": ["/private/secret.html", "/private/open/doc.html", "/search?q=robots"],
    },
}

SPIDER = textwrap.dedent('''
    import json

    import scrapy
    from scrapy import signals
    from scrapy.http import TextResponse


    class Walk(scrapy.Spider):
        name = "walk"

        def __init__(self, start, out, **kwargs):
            super().__init__(**kwargs)
            self.start_urls = [start]
            self.out = out
            self.seen = []
            self.parsers = []

        @classmethod
        def from_crawler(cls, crawler, *args, **kwargs):
            spider = super().from_crawler(crawler, *args, **kwargs)
            crawler.signals.connect(spider.robots_parsed, signal=signals.robots_parsed)
            return spider

        def robots_parsed(self, robotparser, request):
            kind = type(robotparser)
            self.parsers.append(f"{kind.__module__}.{kind.__qualname__}")

        def parse(self, response):
            self.seen.append(response.url)
            if isinstance(response, TextResponse):
                for href in response.css("a::attr(href)").getall():
                    yield response.follow(href, self.parse)

        def closed(self, reason):
            with open(self.out, "w") as f:
                json.dump({"seen": self.seen, "parsers": self.parsers, "reason": reason,
                           "forbidden": self.crawler.stats.get_value("robotstxt/forbidden", 0)},
                          f)
''')


def page(links):
    anchors = "".join(f'<a href="{href}">{href}</a>\n' for href in links)
    return f"<html><body>{anchors}</body></html>".encode()


# (parser, dialect, what the crawl should request): norobots in two
# dialects, and Scrapy's default parser (Protego), which reads this file as
# rfc9309 does, so that swapping it for norobots changes nothing here.
CRAWLS = [
    ("norobots.scrapy.RobotParser", "rfc9309", EXPECTED["rfc9309"]),
    ("norobots.scrapy.RobotParser", "draft1996", EXPECTED["draft1996"]),
    ("scrapy.robotstxt.ProtegoRobotParser", None, EXPECTED["rfc9309"]),
]


@pytest.mark.parametrize("parser,dialect,want", CRAWLS, ids=["rfc9309", "draft1996", "protego"])
def test_a_scrapy_crawl_requests_the_allowed_pages_and_never_the_disallowed(
        site, tmp_path, parser, dialect, want):
    site.pages["/robots.txt"] = (200, ROBOTS)
    for path in PAGES:
        site.pages[path] = (200, page(LINKS.get(path, [])))
    spider = tmp_path / "walk.py"
    spider.write_text(SPIDER)
    out = tmp_path / "out.json"
    settings = {
        "ROBOTSTXT_OBEY": "True",
        "ROBOTSTXT_PARSER": parser,
        "USER_AGENT": "NorobotsTestBot/1.0 (+http://127.0.0.1/bot)",
        "TELNETCONSOLE_ENABLED": "False",
        "RETRY_ENABLED": "False",
        "COOKIES_ENABLED": "False",
        "CLOSESPIDER_TIMEOUT": "60",
        "LOG_LEVEL": "INFO",
    }
    if dialect:
        settings["NOROBOTS_DIALECT"] = dialect
    command = [sys.executable, "-m", "scrapy", "runspider", str(spider),
               "-a", f"start={site.origin}/index.html", "-a", f"out={out}"]
    for name, value in settings.items():
        command += ["-s", f"{name}={value}"]
    run = subprocess.run(command, cwd=tmp_path, capture_output=True, text=True, timeout=180)
    assert run.returncode == 0, run.stderr[-3000:]
    report = json.loads(out.read_text())
    assert report["reason"] == "finished", report
    assert report["parsers"] == [parser], report

    requested = site.requested()
    assert requested[0] == "/robots.txt"
    assert requested.count("/robots.txt") == 1
    for path in want["allowed"]:
        assert path in requested, (path, requested)
        assert f"{site.origin}{path}" in report["seen"], (path, report["seen"])
    for path in want["disallowed"]:
        assert path not in requested, (path, requested)
    # Every request was robots.txt or an allowed page, each once.
    assert sorted(requested) == sorted(["/robots.txt"] + want["allowed"])
    # Scrapy counted the refusals: each disallowed URL once (its duplicate
    # filter drops a URL seen before, before the robots.txt middleware).
    assert report["forbidden"] == len(want["disallowed"])
