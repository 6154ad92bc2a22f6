"""The binding answers as the ``norobots`` command line does: the deciding
rule of every seed case in every dialect (``check --json``), the warning
about an agent (the ``ValueError``), the default dialect, and what a page
tells a robot (``meta --json``)."""

import json
import re
import subprocess

import pytest

import norobots

from conftest import need_shared, seed_pairs


def run(cli, *args, stdin=b""):
    return subprocess.run([str(cli), *args], input=stdin, capture_output=True, check=False)


def test_the_default_dialect_is_the_clis(cli):
    out = run(cli, "check", "--help").stdout.decode()
    # `--dialect <DIALECT>`, its help, then `[default: NAME]`.
    match = re.search(r"--dialect <DIALECT>.*?\[default: (\w+)\]", out, re.S)
    assert match, out
    assert match.group(1) == norobots.DEFAULT_DIALECT == "rfc9309"
    assert norobots.Robots(b"").dialect == norobots.DEFAULT_DIALECT
    assert norobots.is_allowed.__text_signature__.endswith("dialect='rfc9309')")


def test_the_dialects_are_the_clis(cli):
    out = run(cli, "check", "--dialect", "nonsense", "--agent", "a", "--robots", "-", "/").stderr
    listed = re.search(rb"\[possible values: ([^\]]+)\]", out)
    assert listed, out
    assert tuple(listed.group(1).decode().split(", ")) == norobots.DIALECTS


def test_every_seed_case_is_explained_as_the_cli_explains_it(cli):
    need_shared()
    pairs = seed_pairs()
    assert len(pairs) == 430
    for case, dialect in pairs:
        body = case["robots_txt"].encode()
        agent, url = case["user_agent"], case["url"]
        out = run(cli, "check", "--dialect", dialect, "--robots", "-", "--agent", agent,
                  "--json", url, stdin=body)
        assert out.returncode in (0, 1), out.stderr
        answer = json.loads(out.stdout)
        why = norobots.Robots(body, dialect).explain(agent, url)
        where = f"{dialect}:{case['id']}"
        assert why.allowed is answer["allowed"] is case["allowed"], where
        if answer["rule"] is None:
            assert (why.rule, why.line, str(why)) == (None, None, "no rule"), where
        else:
            rule = answer["rule"]
            assert (why.line, why.kind, why.pattern) == (rule["line"], rule["kind"],
                                                         rule["pattern"]), where
            assert why.rule == f"{rule['kind']}: {rule['pattern']}", where
        # And `--explain`'s column is `str(why)`.
        text = run(cli, "check", "--dialect", dialect, "--robots", "-", "--agent", agent,
                   "--explain", url, stdin=body).stdout.decode()
        assert text.rstrip("\n").split("\t")[2] == str(why), where


AGENTS = ["", "   ", "*", "Googlebot", "Googlebot/2.1", "googlebot-news", "42bot",
          "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)",
          "Mozilla/5.0 (X11; Linux x86_64)", "FigTree/0.1 Robot libwww-perl/5.04", "/x",
          "b\u00e9bot"]


@pytest.mark.parametrize("dialect", ["norobots1994", "draft1996", "rfc9309", "google"])
def test_an_agent_is_refused_with_the_warning_the_cli_prints(cli, dialect):
    body = b"User-agent: *\nDisallow: /private\n"
    refused = 0
    for agent in AGENTS:
        out = run(cli, "check", "--dialect", dialect, "--robots", "-", "--agent", agent, "/x",
                  stdin=body)
        warnings = [line[len("norobots: warning: "):] for line in out.stderr.decode().splitlines()
                    if line.startswith("norobots: warning: ")]
        robots = norobots.Robots(body, dialect)
        if agent == "*":
            # Asking for the `*` groups is what `*` means here.
            assert robots.is_allowed(agent, "/x") and not robots.is_allowed(agent, "/private")
            assert norobots.agent_warning(agent, dialect) is None
            continue
        assert norobots.agent_warning(agent, dialect) == (warnings[0] if warnings else None), agent
        if warnings:
            refused += 1
            for ask in (lambda: robots.is_allowed(agent, "/x"),
                        lambda: robots.allowed_many(agent, ["/x"]),
                        lambda: robots.explain(agent, "/x"),
                        lambda: robots.crawl_delay(agent),
                        lambda: robots.request_rate(agent),
                        lambda: norobots.is_allowed(body, agent, "/x", dialect=dialect)):
                with pytest.raises(ValueError) as err:
                    ask()
                assert str(err.value) == warnings[0]
        else:
            assert robots.is_allowed(agent, "/x") is True
    assert refused >= 2


PAGES = [
    ('<meta name="robots" content="noindex, nofollow">', "MyBot", []),
    ('<META NAME="ROBOTS" CONTENT="NONE"><a href="/a">a</a>', "*", []),
    ('<meta name="mybot" content="noindex"><meta name="otherbot" content="nofollow">'
     '<a href="/a" rel="nofollow">a</a><a href="/b">b</a><area href="/c">', "MyBot/1.0", []),
    ('<meta name="description" content="A shop"><meta name="keywords" content="k">'
     '<meta name="document-state" content="static"><meta name="url" content="/x">'
     '<a href="/a">a</a>', "MyBot", ["noarchive", "mybot: nofollow", "otherbot: noindex"]),
    ("<html><body><p>nothing</p></body></html>", "MyBot", ["none"]),
    ("\x00\xff not html at all <<<>>>", "MyBot", []),
]


@pytest.mark.parametrize("html,agent,headers", PAGES)
def test_meta_answers_as_the_cli_meta(cli, tmp_path, html, agent, headers):
    page = tmp_path / "page.html"
    page.write_text(html, encoding="utf-8")
    args = ["meta", "--json", "--agent", agent]
    for header in headers:
        args += ["--header", header]
    out = run(cli, *args, str(page))
    assert out.returncode == 0, out.stderr
    want = json.loads(out.stdout)
    got = norobots.meta(html, agent, headers)
    assert got.to_dict() == want
    assert norobots.meta(html.encode(), agent, headers).to_dict() == want
    assert (got.index, got.follow) == (want["index"], want["follow"])
    assert (got.noindex, got.nofollow) == (not want["index"], not want["follow"])
    assert [(link.href, link.nofollow, link.follow) for link in got.links] == [
        (link["href"], link["nofollow"], link["follow"]) for link in want["links"]]
