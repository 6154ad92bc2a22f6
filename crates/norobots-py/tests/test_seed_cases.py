"""The seed conformance cases (``../shared/conformance/seed_cases.jsonl``)
through the binding, in every dialect each case is tagged with, by every
way the package answers: ``Robots.is_allowed``, ``allowed_many``,
``explain``, the one-shot ``is_allowed``, and the two adapters."""

from collections import Counter

import pytest

import norobots
from norobots.robotparser import RobotFileParser
from norobots.scrapy import RobotParser

from conftest import need_shared, seed_cases, seed_pairs

PAIRS = seed_pairs()


def test_every_case_and_dialect_is_run():
    need_shared()
    cases = seed_cases()
    per_dialect = Counter(dialect for _, dialect in PAIRS)
    # The file's own counts (its README): 141 cases, 430 (case, dialect) pairs.
    assert len(cases) == 141
    assert len(PAIRS) == 430
    assert set(per_dialect) == set(norobots.DIALECTS), per_dialect
    print(f"seed cases per dialect: {dict(sorted(per_dialect.items()))}")


@pytest.mark.parametrize(
    "case,dialect", PAIRS, ids=[f"{dialect}:{case['id']}" for case, dialect in PAIRS]
)
def test_seed_case(case, dialect):
    body = case["robots_txt"].encode()
    agent, url, want = case["user_agent"], case["url"], case["allowed"]
    robots = norobots.Robots(body, dialect)
    assert robots.is_allowed(agent, url) is want
    assert robots.allowed_many(agent, [url, url.encode()]) == [want, want]
    why = robots.explain(agent, url)
    assert why.allowed is want
    # A rule decided, or none matched and the URL is allowed.
    assert why.rule is not None or want
    assert norobots.is_allowed(body, agent, url, dialect=dialect) is want

    rp = RobotFileParser(dialect=dialect)
    rp.parse(case["robots_txt"].splitlines())
    assert rp.can_fetch(agent, url) is want
    assert RobotParser(body, dialect=dialect).allowed(url, agent.encode()) is want
