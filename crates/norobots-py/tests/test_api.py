"""``norobots.Robots``, ``is_allowed`` and ``meta``: what they take, what
they answer, and how they behave around threads, the GIL and panics."""

import pickle
import sys
import threading
import time

import pytest

import norobots

BODY = (b"User-agent: *\nDisallow: /private/\nAllow: /private/help\nCrawl-delay: 2.5\n"
        b"Request-rate: 3/1m\nSitemap: https://example.com/a.xml\n\n"
        b"User-agent: MyBot\nDisallow: /tmp/\nDisallow: /caf%E9\nCrawl-delay: 10\n"
        b"Sitemap: /b.xml\n")


def test_bytes_str_and_bytearray_bodies_read_alike():
    urls = ["/", "/private/x", "/private/help/me", "/tmp/a", "/caf%E9"]
    answers = norobots.Robots(BODY).allowed_many("OtherBot", urls)
    assert answers == [True, False, True, True, True]
    for body in (BODY.decode(), bytearray(BODY), memoryview(BODY).tobytes()):
        assert norobots.Robots(body).allowed_many("OtherBot", urls) == answers
    with pytest.raises(TypeError, match="body must be str or bytes, not int"):
        norobots.Robots(42)


def test_urls_are_str_or_bytes_and_decided_on_their_octets():
    robots = norobots.Robots(BODY)
    # `\xe9` in Latin-1 is `%E9` to RFC 9309; in UTF-8 it is `%C3%A9`.
    assert robots.is_allowed("MyBot", b"/caf\xe9") is False
    assert robots.is_allowed("MyBot", "/caf\u00e9") is True
    # A str carrying undecodable octets (surrogateescape) is those octets.
    assert robots.is_allowed("MyBot", b"/caf\xe9".decode("utf-8", "surrogateescape")) is False
    assert robots.is_allowed("MyBot", "/\ud800") is True
    assert norobots.is_allowed(BODY, "MyBot", b"/caf\xe9") is False
    assert norobots.is_allowed(BODY, "MyBot", "https://example.com/tmp/x") is False
    with pytest.raises(TypeError, match="url must be str or bytes, not NoneType"):
        robots.is_allowed("MyBot", None)
    with pytest.raises(TypeError):
        robots.is_allowed(b"MyBot", "/")


def test_groups_apply_by_agent_and_their_pace_with_them():
    robots = norobots.Robots(BODY)
    assert robots.is_allowed("MyBot/1.0", "/private/x") is True
    assert robots.is_allowed("MyBot/1.0", "/tmp/x") is False
    assert robots.crawl_delay("MyBot") == 10.0
    assert robots.crawl_delay("OtherBot") == 2.5
    assert robots.request_rate("OtherBot") == (3, 60)
    assert robots.request_rate("MyBot") is None
    assert robots.sitemaps == ["https://example.com/a.xml", "/b.xml"]
    assert norobots.Robots(b"").sitemaps == []
    assert norobots.Robots(b"User-agent: *\nCrawl-delay: soon\n").crawl_delay("a") is None


def test_explain_names_the_rule_its_line_and_its_group():
    robots = norobots.Robots(BODY)
    why = robots.explain("OtherBot", "https://example.com/private/help/x")
    assert (why.allowed, why.rule, why.kind, why.pattern, why.line, why.group, why.agents) == (
        True, "Allow: /private/help", "Allow", "/private/help", 3, 1, ["*"])
    assert str(why) == "line 3: Allow: /private/help"
    why = robots.explain("MyBot", b"/tmp/1")
    assert (why.allowed, why.rule, why.line, why.group, why.agents) == (
        False, "Disallow: /tmp/", 9, 8, ["MyBot"])
    assert repr(why) == ("Explanation(allowed=False, rule='Disallow: /tmp/', line=9, group=8, "
                         "agents=['MyBot'])")
    why = robots.explain("MyBot", "/elsewhere")
    assert (why.allowed, why.rule, why.kind, why.line, why.group, why.agents) == (
        True, None, None, None, None, [])
    assert str(why) == "no rule"


def test_dialects_by_the_clis_names_in_any_case():
    body = b"User-agent: *\nDisallow: /\nAllow: /public\n"
    want = {"norobots1994": False, "draft1996": False, "rfc9309": True, "google": True}
    for name in norobots.DIALECTS:
        for spelled in (name, name.upper()):
            robots = norobots.Robots(body, spelled)
            assert robots.dialect == name
            assert robots.is_allowed("bot", "/public/a") is want[name]
            assert norobots.is_allowed(body, "bot", "/public/a", dialect=spelled) is want[name]
    for bad in ("rfc", "", "google "):
        message = (f"unknown dialect `{bad}` (expected norobots1994, draft1996, rfc9309 "
                   f"or google)")
        with pytest.raises(ValueError) as err:
            norobots.Robots(body, bad)
        assert str(err.value) == message
        with pytest.raises(ValueError):
            norobots.is_allowed(body, "bot", "/", dialect=bad)


def test_allowed_many_takes_any_iterable_in_order():
    robots = norobots.Robots(BODY)
    urls = ["/", "/tmp/a", b"/tmp", "/private/x"]
    want = [robots.is_allowed("MyBot", url) for url in urls]
    assert want == [True, False, True, True]
    assert robots.allowed_many("MyBot", urls) == want
    assert robots.allowed_many("MyBot", tuple(urls)) == want
    assert robots.allowed_many("MyBot", (url for url in urls)) == want
    assert robots.allowed_many("MyBot", []) == []
    with pytest.raises(TypeError, match="each url must be str or bytes, not int"):
        robots.allowed_many("MyBot", ["/", 3])
    with pytest.raises(TypeError):
        robots.allowed_many("MyBot", 3)

    def failing():
        yield "/"
        raise KeyError("from the iterable")

    with pytest.raises(KeyError):
        robots.allowed_many("MyBot", failing())


def test_many_agents_each_get_their_own_rules():
    body = "".join(f"User-agent: bot{chr(97 + i)}\nDisallow: /{i}/\n\n" for i in range(20))
    robots = norobots.Robots(body)
    # More agents than a Robots keeps compiled, asked round and round.
    for _ in range(3):
        for i in range(20):
            agent = f"bot{chr(97 + i)}"
            assert robots.is_allowed(agent, f"/{i}/x") is False
            assert robots.is_allowed(agent, f"/{(i + 1) % 20}/x") is True


def test_threads_share_one_robots():
    robots = norobots.Robots(BODY)
    cases = [("MyBot", "/tmp/x", False), ("OtherBot", "/tmp/x", True),
             ("MyBot", "/private/x", True), ("OtherBot", "/private/x", False)]
    wrong = []

    def ask():
        for _ in range(2_000):
            for agent, url, want in cases:
                if robots.is_allowed(agent, url) is not want:
                    wrong.append((agent, url))
            if robots.allowed_many("MyBot", ["/tmp/1"] * 10) != [False] * 10:
                wrong.append("allowed_many")

    threads = [threading.Thread(target=ask) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert wrong == []


def test_allowed_many_lets_other_threads_run_while_it_matches():
    # Rules that make each check cost: 2,000 `*` patterns.
    body = "User-agent: *\n" + "".join(f"Disallow: /*a{i}*b*c$\n" for i in range(2_000))
    robots = norobots.Robots(body)
    urls = [f"/{'ab' * 20}{i}/c" for i in range(200_000)]
    robots.is_allowed("bot", "/")
    beats = []
    stop = threading.Event()

    def beat():
        while not stop.is_set():
            beats.append(time.perf_counter())

    old = sys.getswitchinterval()
    sys.setswitchinterval(0.0005)
    ticker = threading.Thread(target=beat)
    ticker.start()
    try:
        time.sleep(0.05)
        start = time.perf_counter()
        answers = robots.allowed_many("bot", urls)
        end = time.perf_counter()
    finally:
        stop.set()
        ticker.join()
        sys.setswitchinterval(old)
    assert len(answers) == len(urls) and all(answers)
    # Matching is the second half of the call at least (extracting the URLs,
    # under the GIL, is the first): a thread that holds the GIL all along
    # lets the other beat nowhere in it.
    middle = [t for t in beats if start + (end - start) * 0.5 < t < end - (end - start) * 0.1]
    assert end - start > 0.05, "the call was too quick to tell"
    assert len(middle) > 10, f"{len(middle)} beats in {end - start:.3f} s"


def test_a_robots_pickles_with_its_dialect():
    robots = norobots.Robots(BODY, "draft1996")
    again = pickle.loads(pickle.dumps(robots))
    assert (again.dialect, again.body) == ("draft1996", BODY)
    assert again.allowed_many("MyBot", ["/tmp/x", "/caf%E9"]) == robots.allowed_many(
        "MyBot", ["/tmp/x", "/caf%E9"])
    assert repr(robots) == f"<norobots.Robots dialect=draft1996 groups=2 bytes={len(BODY)}>"


def test_a_panic_is_an_internal_error_and_the_interpreter_goes_on():
    assert issubclass(norobots.InternalError, RuntimeError)
    for _ in range(3):
        with pytest.raises(norobots.InternalError, match="a panic on purpose"):
            norobots._norobots._panic_for_tests()
    assert norobots.Robots(BODY).is_allowed("MyBot", "/tmp/x") is False


def test_robot_token_and_agent_warning():
    assert norobots.robot_token("Mozilla/5.0 (compatible; bingbot/2.0)") == "bingbot"
    assert norobots.robot_token("") == ""
    assert norobots.agent_warning("MyBot") is None
    assert norobots.agent_warning("*", "google") is None
    assert "only `*` groups" in norobots.agent_warning("", "draft1996")
    with pytest.raises(ValueError):
        norobots.agent_warning("MyBot", "rfc")


def test_meta_reads_tags_headers_and_links():
    html = ('<html><head><meta name="robots" content="noarchive">'
            '<meta name="mybot" content="nofollow"><base href="https://example.com/d/">'
            '</head><body><a href="/a" rel="nofollow ugc">a</a><a href="b">b</a>'
            '<area href="/c"></body></html>')
    page = norobots.meta(html, "MyBot/2.0")
    assert (page.index, page.follow, page.noindex, page.nofollow) == (True, False, False, True)
    assert page.other == ["noarchive"]
    assert page.base == "https://example.com/d/"
    assert [(l.href, l.nofollow, l.follow, l.kind) for l in page.links] == [
        ("/a", True, False, "a"), ("b", False, False, "a"), ("/c", False, False, "area")]
    assert norobots.meta(html, "OtherBot").follow is True
    # Headers: a list, or a single value.
    assert norobots.meta("", "MyBot", ["noindex"]).index is False
    assert norobots.meta("", "MyBot", "otherbot: noindex").index is True
    assert norobots.meta(b"", "MyBot").index is True
    with pytest.raises(TypeError):
        norobots.meta("", "MyBot", [1])
    assert repr(norobots.meta("", "a")) == "PageDirectives(index=True, follow=True, other=[], links=0)"
