"""``norobots.robotparser.RobotFileParser`` against the standard library's
``urllib.robotparser.RobotFileParser``: the same methods, the same answers
where the rules read alike (``read()`` over HTTP included), and exactly the
differences the README's table states, row by row."""

import inspect
import re
import time
import urllib.robotparser as stdlib
from pathlib import Path

import pytest

import norobots
from norobots.robotparser import RequestRate, RobotFileParser

README = Path(__file__).resolve().parents[1] / "README.md"
DIFFERENCES = "## Where the answers differ from `urllib.robotparser`"
METHODS = ["set_url", "read", "parse", "can_fetch", "crawl_delay", "request_rate",
           "site_maps", "mtime", "modified"]


def both(body=None, **kwargs):
    """The standard library's parser and ours, each given ``body``'s lines."""
    ours = RobotFileParser(**kwargs)
    theirs = stdlib.RobotFileParser()
    if body is not None:
        theirs.parse(body.splitlines())
        ours.parse(body.splitlines())
    return theirs, ours


def test_it_has_the_standard_librarys_methods_and_signatures():
    for name in METHODS:
        theirs = inspect.signature(getattr(stdlib.RobotFileParser, name))
        ours = inspect.signature(getattr(RobotFileParser, name))
        assert list(ours.parameters) == list(theirs.parameters), name
    # The constructor takes the URL first, as the standard library's does.
    assert list(inspect.signature(RobotFileParser).parameters) == ["url", "dialect"]
    assert RequestRate is stdlib.RequestRate


def test_url_host_and_path_as_the_standard_library_splits_them():
    for url in ["https://example.com/robots.txt", "http://a.example:8080/x/robots.txt", "", "/robots.txt"]:
        theirs, ours = stdlib.RobotFileParser(url), RobotFileParser(url)
        assert (ours.url, ours.host, ours.path) == (theirs.url, theirs.host, theirs.path)
        theirs.set_url(url + "?v=2")
        ours.set_url(url + "?v=2")
        assert (ours.url, ours.host, ours.path) == (theirs.url, theirs.host, theirs.path)


def test_before_anything_is_read_nothing_is_allowed_and_nothing_is_known():
    theirs, ours = both()
    for rp in (theirs, ours):
        assert rp.mtime() == 0
        assert rp.can_fetch("MyBot", "/") is False
        assert rp.crawl_delay("MyBot") is None
        assert rp.request_rate("MyBot") is None
        assert rp.site_maps() is None
    # modified() alone: read, but no rules.
    for rp in (theirs, ours):
        before = time.time()
        rp.modified()
        assert before <= rp.mtime() <= time.time()
        assert rp.can_fetch("MyBot", "/") is True


# Files whose rules the standard library and every dialect of norobots
# read alike: plain prefixes, one group per robot, `*` as the default.
AGREEING = """\
# /robots.txt for http://www.fict.org/
User-agent: unhipbot
Disallow: /

User-agent: webcrawler
User-agent: excite
Disallow:

User-agent: *
Disallow: /org/plans.html
Disallow: /tmp/
Disallow: /cgi-bin/
Crawl-delay: 3
Request-rate: 2/10
Sitemap: https://www.fict.org/sitemap.xml
Sitemap: https://www.fict.org/news.xml
"""
AGENTS = ["unhipbot", "UnhipBot/0.1", "webcrawler", "Excite", "OtherBot", "*"]
URLS = ["/", "/index.html", "/org/plans.html", "/org/", "/tmp/", "/tmp", "/tmp/a?b=c",
        "/cgi-bin/x.cgi", "http://www.fict.org/org/plans.html", "/robots.txt.bak"]


@pytest.mark.parametrize("dialect", ["norobots1994", "draft1996", "rfc9309", "google"])
def test_where_the_rules_read_alike_the_answers_are_the_standard_librarys(dialect):
    theirs, ours = both(AGREEING, dialect=dialect)
    compared = 0
    for agent in AGENTS:
        for url in URLS:
            assert ours.can_fetch(agent, url) is theirs.can_fetch(agent, url), (agent, url)
            compared += 1
        assert ours.crawl_delay(agent) == theirs.crawl_delay(agent), agent
        assert type(ours.crawl_delay(agent)) is type(theirs.crawl_delay(agent)), agent
        assert ours.request_rate(agent) == theirs.request_rate(agent), agent
    assert ours.site_maps() == theirs.site_maps() == [
        "https://www.fict.org/sitemap.xml", "https://www.fict.org/news.xml"]
    assert compared == len(AGENTS) * len(URLS)
    # parse() set the time, as the standard library's does.
    assert ours.mtime() > 0 and theirs.mtime() > 0


def test_parse_takes_lines_with_or_without_their_ends_and_bytes():
    body = "User-agent: MyBot\nDisallow: /a\n\nUser-agent: *\nDisallow: /\n"
    for lines in (body.splitlines(), body.splitlines(keepends=True),
                  body.replace("\n", "\r\n").splitlines(keepends=True),
                  [line.encode() for line in body.splitlines()]):
        rp = RobotFileParser(dialect="draft1996")
        rp.parse(lines)
        assert (rp.can_fetch("MyBot", "/a"), rp.can_fetch("MyBot", "/b"),
                rp.can_fetch("Other", "/b")) == (False, True, False), lines


def test_a_bad_dialect_is_refused_at_once():
    with pytest.raises(ValueError, match="unknown dialect `rfc`"):
        RobotFileParser(dialect="rfc")
    assert RobotFileParser(dialect="Google").dialect == "google"


def test_an_agent_that_names_no_robot_gets_the_star_groups_not_an_error():
    body = "User-agent: *\nDisallow: /private\n\nUser-agent: MyBot\nDisallow: /mine\n"
    for dialect in norobots.DIALECTS:
        rp = RobotFileParser(dialect=dialect)
        rp.parse(body.splitlines())
        for agent in ["", "*", "Googlebot/2.1", "Mozilla/5.0 (X11; Linux x86_64)", "42"]:
            assert rp.can_fetch(agent, "/private/x") is False, (dialect, agent)
            assert rp.can_fetch(agent, "/mine") is True, (dialect, agent)
        # A whole header names its robot, in google too.
        assert rp.can_fetch("MyBot/1.0 (+https://example.com)", "/mine") is False, dialect


@pytest.mark.parametrize("status,allowed", [(401, False), (403, False), (404, True),
                                            (410, True), (500, False), (503, False)])
def test_read_takes_http_errors_as_the_standard_library_does(site, status, allowed):
    site.pages["/robots.txt"] = (status, b"User-agent: *\nDisallow: /\n")
    theirs, ours = both()
    for rp in (theirs, ours):
        rp.set_url(site.origin + "/robots.txt")
        rp.read()
        assert rp.can_fetch("MyBot", site.origin + "/page") is allowed, status
        # No file was read: nothing is known of it.
        assert rp.mtime() == 0
        assert rp.crawl_delay("MyBot") is None and rp.site_maps() is None
    assert (ours.disallow_all, ours.allow_all) == (theirs.disallow_all, theirs.allow_all)
    assert site.requested() == ["/robots.txt", "/robots.txt"]


def test_read_fetches_and_reads_the_file(site):
    site.pages["/robots.txt"] = (200, AGREEING.encode())
    theirs, ours = both()
    for rp in (theirs, ours):
        rp.set_url(site.origin + "/robots.txt")
        rp.read()
    assert ours.mtime() > 0
    for agent in AGENTS:
        for url in URLS:
            assert ours.can_fetch(agent, url) is theirs.can_fetch(agent, url), (agent, url)
    assert ours.site_maps() == theirs.site_maps()


def test_read_reads_a_file_that_is_not_utf8_where_the_standard_library_raises(site):
    site.pages["/robots.txt"] = (200, b"User-agent: *\nDisallow: /caf\xe9\n")
    theirs, ours = both()
    for rp in (theirs, ours):
        rp.set_url(site.origin + "/robots.txt")
    with pytest.raises(UnicodeDecodeError):
        theirs.read()
    ours.read()
    assert ours.can_fetch("MyBot", b"/caf\xe9") is False
    assert ours.can_fetch("MyBot", "/cafe") is True


def test_a_network_error_propagates_as_from_the_standard_library(site):
    theirs, ours = both()
    origin = site.origin
    site.server.shutdown()
    site.server.server_close()
    for rp in (theirs, ours):
        rp.set_url(origin + "/robots.txt")
        with pytest.raises(OSError):
            rp.read()
        assert rp.can_fetch("MyBot", "/") is False


def differences_table():
    """The README's table of differences: its header, and each row as a
    dict by column name."""
    section = README.read_text().split(DIFFERENCES, 1)[1]
    lines = []
    for line in section.splitlines():
        if line.startswith("|"):
            lines.append(line)
        elif lines:
            break

    def cells(line):
        return [cell.strip() for cell in line.strip().strip("|").split(" | ")]

    header = cells(lines[0])
    return header, [dict(zip(header, cells(line))) for line in lines[2:]]


def unquote(cell):
    assert cell.startswith("`") and cell.endswith("`"), cell
    return cell[1:-1]


def test_the_readmes_table_of_differences_is_what_each_parser_answers():
    header, rows = differences_table()
    assert header[:3] == ["#", "robots.txt", "question"]
    columns = {"`urllib.robotparser`": None, "`rfc9309` (default)": "rfc9309",
               "`google`": "google", "`draft1996`": "draft1996"}
    assert set(columns) <= set(header), header
    assert len(rows) >= 12
    differ = 0
    for row in rows:
        body = unquote(row["robots.txt"]).replace("\\n", "\n")
        question = unquote(row["question"])
        assert re.fullmatch(r"(can_fetch|crawl_delay|request_rate)\(.*\)", question), question
        answers = {}
        for column, dialect in columns.items():
            if dialect is None:
                rp = stdlib.RobotFileParser()
            else:
                rp = RobotFileParser(dialect=dialect)
            rp.parse(body.splitlines())
            got = eval(f"rp.{question}", {"rp": rp})
            want = eval(unquote(row[column]), {"RequestRate": RequestRate})
            assert got == want and type(got) is type(want), (row["#"], column, got)
            answers[column] = got
        assert answers["`urllib.robotparser`"] != answers["`rfc9309` (default)"], row["#"]
        differ += 1
    print(f"{differ} rows of the README's table checked against both parsers")
