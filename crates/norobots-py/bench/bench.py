#!/usr/bin/env python3
"""norobots against the Python robots.txt parsers, in one run, on the corpus.

    pip install ./crates/norobots-py protego robotexclusionrulesparser
    python crates/norobots-py/bench/bench.py [--files 4000] [--rounds 5]

The corpus is ``$NOROBOTS_CORPUS``, else ``shared/corpus`` beside the
repository, and the files are picked as ``norobots-bench`` picks them:
``robots/*.txt`` names sorted, ``~N`` versions dropped, every k-th name
taken until there are ``--files``; each with its generated URL list
(``urls/<name>.urls``). The robot is ``Googlebot``, as there.

Engines (each given its natural input, made before any timing: norobots the
body's octets, the others the text Scrapy would give them, decoded as UTF-8
ignoring errors, and ``urllib.robotparser`` that text's lines):

* ``norobots``: ``norobots.Robots`` in its default dialect (``rfc9309``);
* ``protego``: ``Protego.parse``, Scrapy's default parser;
* ``urllib.robotparser``: ``RobotFileParser.parse``;
* ``robotexclusionrulesparser``: ``RobotExclusionRulesParser.parse``.

Measures, each the best of ``--rounds`` passes over all the files
(``--our-rounds`` for norobots, whose passes are quick; CPU time of the
process unless ``--clock wall``), with the garbage collector off while
timing:

* parse: every file parsed (MB/s and files/s). For norobots also with its
  rules for the robot compiled (its first question does that);
* cold: per file, parse and ask about its first URL, as a crawler does on
  its first visit to a host; for norobots also the one-shot
  ``norobots.is_allowed``;
* warm check: every URL of every file asked of its parsed file, in a Python
  loop (``for url in urls: check(url)``), per URL;
* ``allowed_many``: the same URLs, one call per file, per URL;
* the loop floor: the same loop calling ``operator.is_`` (a C function
  of two arguments that does nothing), the least any check from a Python
  loop can cost.

Ratios are the peer's time over norobots' (above 1: norobots is faster).
The last column is how many of the URLs each engine answers as norobots
does.
"""

import argparse
import gc
import operator
import os
import platform
import sys
import time
from pathlib import Path

import urllib.robotparser

from protego import Protego
from robotexclusionrulesparser import RobotExclusionRulesParser

import norobots

AGENT = "Googlebot"


def corpus_dir():
    env = os.environ.get("NOROBOTS_CORPUS")
    if env:
        return Path(env)
    return Path(__file__).resolve().parents[3].parent / "shared" / "corpus"


def load(count):
    """The files and URLs, picked as norobots-bench picks them."""
    corpus = corpus_dir()
    names = sorted(name for name in os.listdir(corpus / "robots")
                   if name.endswith(".txt") and "~" not in name)
    step = max(len(names) // max(count, 1), 1)
    docs = []
    for name in names[::step][:count]:
        body = (corpus / "robots" / name).read_bytes()
        try:
            raw = (corpus / "urls" / (name[:-4] + ".urls")).read_bytes()
        except FileNotFoundError:
            raw = b""
        urls = [line.strip() for line in raw.decode("utf-8", "replace").splitlines()]
        docs.append((name, body, [url for url in urls if url]))
    return docs, len(names)


CLOCK = time.process_time
# norobots' passes take a second or two: more of them, for a steadier best.
OUR_ROUNDS = 10


def best(rounds, run):
    """The shortest of ``rounds`` timings of ``run()``, in seconds."""
    times = []
    for _ in range(rounds):
        gc.collect()
        gc.disable()
        try:
            start = CLOCK()
            run()
            times.append(CLOCK() - start)
        finally:
            gc.enable()
    return min(times)


class Norobots:
    name = "norobots"

    @staticmethod
    def prepare(body):
        return body

    @staticmethod
    def parse(body):
        return norobots.Robots(body)

    @staticmethod
    def check(parsed, url):
        return parsed.is_allowed(AGENT, url)

    @staticmethod
    def warm(pairs):
        for robots, urls in pairs:
            is_allowed = robots.is_allowed
            for url in urls:
                is_allowed(AGENT, url)


class ProtegoEngine:
    name = "protego"

    @staticmethod
    def prepare(body):
        return body.decode("utf-8", "ignore")

    @staticmethod
    def parse(text):
        return Protego.parse(text)

    @staticmethod
    def check(parsed, url):
        return parsed.can_fetch(url, AGENT)

    @staticmethod
    def warm(pairs):
        for parser, urls in pairs:
            can_fetch = parser.can_fetch
            for url in urls:
                can_fetch(url, AGENT)


class Urllib:
    name = "urllib.robotparser"

    @staticmethod
    def prepare(body):
        return body.decode("utf-8", "ignore").splitlines()

    @staticmethod
    def parse(lines):
        parser = urllib.robotparser.RobotFileParser()
        parser.parse(lines)
        return parser

    @staticmethod
    def check(parsed, url):
        return parsed.can_fetch(AGENT, url)

    @staticmethod
    def warm(pairs):
        for parser, urls in pairs:
            can_fetch = parser.can_fetch
            for url in urls:
                can_fetch(AGENT, url)


class Rerp:
    name = "robotexclusionrulesparser"

    @staticmethod
    def prepare(body):
        return body.decode("utf-8", "ignore")

    @staticmethod
    def parse(text):
        parser = RobotExclusionRulesParser()
        parser.parse(text)
        return parser

    @staticmethod
    def check(parsed, url):
        return parsed.is_allowed(AGENT, url)

    @staticmethod
    def warm(pairs):
        for parser, urls in pairs:
            is_allowed = parser.is_allowed
            for url in urls:
                is_allowed(AGENT, url)


ENGINES = [Norobots, ProtegoEngine, Urllib, Rerp]


def measure(engine, docs, rounds):
    """Parse, cold and warm times of one engine, and its answers."""
    if engine is Norobots:
        rounds = OUR_ROUNDS
    inputs = [engine.prepare(body) for _, body, _ in docs]
    parse, check = engine.parse, engine.check

    def parse_all():
        for data in inputs:
            parse(data)

    firsts = [(data, urls[0]) for data, (_, _, urls) in zip(inputs, docs) if urls]

    def cold():
        for data, url in firsts:
            check(parse(data), url)

    pairs = [(parse(data), urls) for data, (_, _, urls) in zip(inputs, docs)]
    # Each file's first question asked (norobots compiles its rules then).
    answers = [[check(parsed, url) for url in urls] for parsed, urls in pairs]
    return {"parse": best(rounds, parse_all), "cold": best(rounds, cold) / len(firsts),
            "warm": best(rounds, lambda: engine.warm(pairs)), "answers": answers,
            "bytes": sum(len(body) for _, body, _ in docs), "files": len(docs)}


def extra_norobots(docs, rounds):
    """norobots' own extra figures: parse + compile, the one-shot check,
    allowed_many, and the loop floor."""
    rounds = OUR_ROUNDS
    bodies = [body for _, body, _ in docs]
    Robots = norobots.Robots

    def parse_compile():
        for body in bodies:
            Robots(body).is_allowed(AGENT, "/")

    firsts = [(body, urls[0]) for _, body, urls in docs if urls]
    one_shot = norobots.is_allowed

    def cold_one_shot():
        for body, url in firsts:
            one_shot(body, AGENT, url)

    parsed = [(Robots(body), urls) for _, body, urls in docs]
    for robots, urls in parsed:
        robots.is_allowed(AGENT, "/")

    def many():
        for robots, urls in parsed:
            robots.allowed_many(AGENT, urls)

    def floor():
        is_ = operator.is_
        for _, urls in parsed:
            for url in urls:
                is_(AGENT, url)

    return {"parse_compile": best(rounds, parse_compile),
            "cold_one_shot": best(rounds, cold_one_shot) / len(firsts),
            "many": best(rounds, many), "floor": best(rounds, floor)}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--files", type=int, default=4000)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--our-rounds", type=int, default=10,
                    help="passes for norobots' own measures, which are quick")
    ap.add_argument("--clock", choices=["process", "wall"], default="process",
                    help="CPU time of the process (the default: steadier on a shared "
                         "machine, and every engine here runs on one thread) or wall time")
    args = ap.parse_args()
    global CLOCK, OUR_ROUNDS
    CLOCK = time.process_time if args.clock == "process" else time.perf_counter
    OUR_ROUNDS = max(args.rounds, args.our_rounds)

    docs, eligible = load(args.files)
    total_bytes = sum(len(body) for _, body, _ in docs)
    total_urls = sum(len(urls) for _, _, urls in docs)
    print(f"corpus: {len(docs)} files of {eligible} ({total_bytes / 1e6:.1f} MB), "
          f"{total_urls} URLs, agent {AGENT}; best of {args.rounds} rounds "
          f"({OUR_ROUNDS} for norobots), {args.clock} time")
    print(f"Python {platform.python_version()} on {platform.machine()}, "
          f"norobots {norobots.__version__} ({norobots.DEFAULT_DIALECT}), "
          f"{os.cpu_count()} CPUs")

    results = {}
    for engine in ENGINES:
        start = time.perf_counter()
        results[engine.name] = measure(engine, docs, args.rounds)
        print(f"  {engine.name}: measured in {time.perf_counter() - start:.0f} s",
              file=sys.stderr)
    ours = results["norobots"]
    extra = extra_norobots(docs, args.rounds)

    def agreement(name):
        same = sum(a == b for mine, theirs in zip(ours["answers"], results[name]["answers"])
                   for a, b in zip(mine, theirs))
        return f"{100 * same / total_urls:.2f}%"

    print()
    print("| engine | parse MB/s | parse files/s | cold, per file | warm check, per URL "
          "| parse ratio | cold ratio | check ratio | answers as norobots |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    for name, r in results.items():
        mbs = r["bytes"] / r["parse"] / 1e6
        fps = r["files"] / r["parse"]
        cold_us = r["cold"] * 1e6
        warm_ns = r["warm"] / total_urls * 1e9
        print(f"| {name} | {mbs:.1f} | {fps:,.0f} | {cold_us:.1f} µs | {warm_ns:,.0f} ns "
              f"| {r['parse'] / ours['parse']:.1f} | {r['cold'] / ours['cold']:.1f} "
              f"| {r['warm'] / ours['warm']:.1f} | {agreement(name)} |")
    pc = extra["parse_compile"]
    print(f"| norobots, parse + compile | {total_bytes / pc / 1e6:.1f} | "
          f"{len(docs) / pc:,.0f} | | | | | | |")
    print(f"| norobots, one-shot `is_allowed` | | | {extra['cold_one_shot'] * 1e6:.1f} µs "
          f"| | | | | |")

    loop = ours["warm"] / total_urls * 1e9
    many = extra["many"] / total_urls * 1e9
    floor = extra["floor"] / total_urls * 1e9
    print()
    print("| norobots from Python, per URL | ns | |")
    print("|---|---:|---|")
    print(f"| `robots.is_allowed(agent, url)` in a Python loop | {loop:.0f} | |")
    print(f"| `robots.allowed_many(agent, urls)`, one call per file | {many:.0f} "
          f"| {loop / many:.1f}x faster than the loop |")
    print(f"| the loop floor: `operator.is_(agent, url)` in the same loop | {floor:.0f} | |")
    print(f"| the call's cost above the floor (loop - floor) | {loop - floor:.0f} | |")
    print(f"| the call's cost above a check in `allowed_many` (loop - allowed_many) "
          f"| {loop - many:.0f} | |")


if __name__ == "__main__":
    main()
