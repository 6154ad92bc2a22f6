"""Hostile input through the binding: any octets, huge files, `*` storms
and odd URLs are answered, consistently, in bounded time, and the
interpreter survives. A slice of the shapes of the core's own hostile
tests (crates/norobots/tests/hostile.rs), which bound the work in steps;
here the bound is wall time, and loose: these catch a hang or a crash,
not a slowdown."""

import random
import time

import pytest

import norobots

from conftest import need_shared

# Far more than any of these takes in a release build on a loaded 2-core
# machine (the slowest, 50 MB, takes well under a second).
WALL = 60.0


def answered(body, dialect, urls, agents=("bot", "*")):
    """Parses ``body``, asks every question of every URL and checks that the
    answers agree with one another; returns how many URLs were disallowed."""
    start = time.perf_counter()
    robots = norobots.Robots(body, dialect)
    disallowed = 0
    for agent in agents:
        many = robots.allowed_many(agent, urls)
        assert len(many) == len(urls)
        for url, allowed in zip(urls, many):
            assert robots.is_allowed(agent, url) is allowed
            why = robots.explain(agent, url)
            assert why.allowed is allowed
            if why.rule is not None:
                assert why.kind == ("Allow" if allowed else "Disallow")
                assert isinstance(why.line, int) and isinstance(why.group, int)
            disallowed += not allowed
        for url in urls[:2]:
            assert norobots.is_allowed(body, agent, url, dialect=dialect) is many[urls.index(url)]
        delay = robots.crawl_delay(agent)
        assert delay is None or delay >= 0
        assert robots.request_rate(agent) is None or robots.request_rate(agent)[1] > 0
    assert isinstance(robots.sitemaps, list)
    took = time.perf_counter() - start
    assert took < WALL, f"{took:.1f} s"
    return disallowed


HOSTILE_URLS = [
    "", "/", "?", "??", "#", "/#", "//", "///", "http://", "https://", "http:///", "http://?",
    "http://#", "http://#/x", "://", ":///a", "/a%", "/%", "/a%4", "/%zz", "/a%zz%", "/%%%%",
    "/%2F%2f%2", "/caf\u00e9", "/caf%C3%A9",
    "http://b\u00fccher.example/\u00fc/\u65e5\u672c?\u00e9=\U0001f600", "/\x00\x01\x7f",
    "/a?u=http://b/c", "//host/a;b?c#d", "?x=", ";", "http://example.com;x",
    "http://example.com?x", b"/caf\xe9", b"/\xff\xfe\x00", b"\x80", "/\udcff",
    "/" + "x" * (1 << 20), "/" + "%" * (1 << 16), "/" + "\u00e9" * (1 << 16),
    "http://" + "h" * (1 << 16), "?" * (1 << 16), "/" * (1 << 16), "://" * (1 << 16),
]

DEGENERATE = [
    b"", b"\r", b"\n", b"\r\n\r\n\n\r", b"#", b":", b"::::", b" ", b"\t\x0b\x0c", b"*", b"$",
    b"%", b"\xef\xbb\xbf", b"\xef\xbb", b"\xef", b"User-agent:", b"User-agent: *",
    b"User-agent: *\nDisallow:", b"User-agent: *\nDisallow: *", b"User-agent: *\nDisallow: $",
    b"User-agent: *\nDisallow: *$", b"User-agent: *\nDisallow: %",
    b"User-agent: *\nDisallow: /%", b"User-agent: *\nDisallow: %2",
    b"User-agent: *\nDisallow: %zz",
    b"User-agent: *\nCrawl-delay: 1e308\nCrawl-delay: NaN\nRequest-rate: 0/0\nVisit-time: -",
    b": \n :x\nx:\n:\n", b"\xff\xfe\x00U\x00s\x00e\x00r\x00", b"\x00" * 1000,
]

RULES_FOR_URLS = ("User-agent: *\nDisallow: /\nAllow: /a%\nAllow: /%zz\nAllow: /caf\u00e9\n"
                  "Allow: /*?x=$\nDisallow: /*%2F*\nAllow: /robots.txt\n")


@pytest.mark.parametrize("dialect", norobots.DIALECTS)
def test_hostile_urls_are_answered(dialect):
    assert answered(RULES_FOR_URLS, dialect, HOSTILE_URLS) > 0
    # Whatever the URL, what rules see starts with `/`: `Disallow: /` refuses it.
    robots = norobots.Robots(b"User-agent: *\nDisallow: /\n", dialect)
    assert robots.allowed_many("bot", HOSTILE_URLS) == [False] * len(HOSTILE_URLS)
    assert all(robots.explain("bot", url).line == 2 for url in HOSTILE_URLS)


@pytest.mark.parametrize("dialect", norobots.DIALECTS)
def test_degenerate_bodies_are_read(dialect):
    for body in DEGENERATE:
        answered(body, dialect, ["/", "/a", "*", "$"])


@pytest.mark.parametrize("dialect", norobots.DIALECTS)
def test_nul_octets_and_invalid_utf8(dialect):
    body = (b"User-agent: *\x00evil\nDisallow: /a\x00/b\n\x00Disallow: /c\nAllow\x00: /d\n"
            b"Disallow: /caf\xe9\nDisallow: /\xff\xfe\nSitemap: http://x/\xff.xml\n")
    robots = norobots.Robots(body, dialect)
    assert robots.is_allowed("bot", "/a/c") is False  # the rule before the NUL stays
    assert robots.is_allowed("bot", "/c") is True     # a line starting with NUL is empty
    # Raw octets match the rule as written, except in `google`, which
    # compares the rule escaped (`/%FF%FE`) with the URL as given.
    assert robots.is_allowed("bot", b"/\xff\xfe/x") is (dialect == "google")
    assert robots.is_allowed("bot", "/%FF%FE/x") is (dialect == "norobots1994")
    assert robots.sitemaps == ["http://x/\ufffd.xml"]
    answered(body, dialect, ["/a/c", b"/caf\xe9", "/caf\u00e9", b"\x00", "/\x00"])


@pytest.mark.parametrize("dialect", norobots.DIALECTS)
def test_a_50_megabyte_line(dialect):
    n = 50 << 20
    rule = b"User-agent: *\nDisallow: /" + b"a" * n + b"\nDisallow: /b\n"
    assert answered(rule, dialect, ["/b", "/" + "a" * 100, "/" + "a" * (1 << 16)],
                    agents=("bot",)) >= 1
    # One line, no colon, no end: nothing to read, everything allowed.
    assert answered(b"x" * n, dialect, ["/", "/x"], agents=("bot",)) == 0


@pytest.mark.parametrize("dialect", norobots.DIALECTS)
def test_a_hundred_thousand_rules(dialect):
    lines = ["User-agent: *"]
    for i in range(100_000):
        lines.append(f"Disallow: /p{i}/" if i % 3 else f"Allow: /p{i}/*/x{i}$")
    body = "\n".join(lines) + "\nDisallow: /last\n"
    urls = [f"/p{i}/a" for i in range(0, 100_000, 997)] + ["/last", "/q", "/p3/z/x3"]
    disallowed = answered(body, dialect, urls, agents=("bot",))
    assert disallowed > len(urls) // 2
    robots = norobots.Robots(body, dialect)
    start = time.perf_counter()
    many = robots.allowed_many("bot", [f"/p{i}/a" for i in range(100_000)])
    assert time.perf_counter() - start < WALL
    assert many.count(False) >= 60_000


@pytest.mark.parametrize("dialect", norobots.DIALECTS)
def test_star_storms(dialect):
    stars = "*" * 10_000
    bodies = [
        f"User-agent: *\nDisallow: /{stars}\n",
        f"User-agent: *\nDisallow: /{'*a' * 5_000}$\nAllow: /{stars}b$\n",
        "User-agent: *\n" + "".join(f"Disallow: /*{'*' * i}x{i}*y*z$\n" for i in range(1_000)),
        f"User-agent: {stars}\nDisallow: /\n",
    ]
    urls = ["/", "/" + "a" * 10_000, "/" + "a" * 100_000 + "b", "/" + stars, "/" + "ab" * 50_000,
            "/x5/y/z", "/" + "x" * 50_000 + "y" * 50_000]
    for body in bodies:
        answered(body, dialect, urls)


def test_random_octets_in_every_dialect():
    rng = random.Random(46)
    pieces = [b"User-agent: ", b"Disallow: ", b"Allow: ", b"*", b"$", b"%", b"%2F", b"\n",
              b"\r\n", b"\r", b"#", b":", b" ", b"/", b"a", b"bot", b"\x00", b"\xff", b"\xc3",
              b"\xef\xbb\xbf", b"Crawl-delay: ", b"1e9", b"Request-rate: ", b"/0", b"Sitemap: "]
    checked = 0
    for _ in range(150):
        body = b"".join(rng.choice(pieces) if rng.random() < 0.8 else bytes([rng.randrange(256)])
                        for _ in range(rng.randrange(1, 400)))
        urls = [b"".join(rng.choice(pieces) for _ in range(rng.randrange(0, 12)))
                for _ in range(8)]
        for dialect in norobots.DIALECTS:
            answered(body, dialect, urls)
            checked += 1
    assert checked == 600


def test_the_odd_bodies_of_the_corpus():
    odd = need_shared() / "corpus" / "robots-odd"
    files = sorted(odd.iterdir())
    assert len(files) >= 100
    for path in files:
        body = path.read_bytes()
        for dialect in norobots.DIALECTS:
            answered(body, dialect, ["/", "/index.html", "/a?b=c"], agents=("Googlebot",))


def test_meta_on_hostile_pages():
    pages = [b"", b"\x00" * 10_000, b"<" * 100_000, b"<meta " * 20_000,
             b"<a href=" + b"x" * (1 << 20) + b">", b"\xff\xfe<\x00m\x00e\x00t\x00a\x00",
             b"<meta name=robots content='" + b"noindex," * 50_000 + b"'>",
             "".join(f'<a href="/{i}" rel="nofollow">' for i in range(50_000)).encode()]
    for html in pages:
        start = time.perf_counter()
        page = norobots.meta(html, "bot", ["noarchive"] * 100)
        assert isinstance(page.index, bool) and isinstance(page.links, list)
        assert time.perf_counter() - start < WALL
    assert len(norobots.meta(pages[-1], "bot").links) == 50_000
    assert norobots.meta(pages[-2], "bot").index is False
