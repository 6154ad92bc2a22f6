"""The reference library's verdicts on real files
(``../shared/conformance/google_corpus_verdicts.jsonl``, 1,055,000 URLs),
through the binding in the ``google`` dialect: every one must agree, as
the CLI's must (the core's conformance test holds it to the same file).
A sample of the rows also goes through the CLI itself, verdict and
deciding rule both."""

import json
import subprocess

import norobots

from conftest import need_shared

# The CLI is asked about every this-many-th row (about 500 of them).
CLI_EVERY = 53
# The one-shot check re-reads the file per URL: held to the matcher on
# every this-many-th URL.
ONE_SHOT_EVERY = 16


def rows():
    shared = need_shared()
    corpus = shared / "corpus"
    with open(shared / "conformance" / "google_corpus_verdicts.jsonl") as f:
        for line in f:
            row = json.loads(line)
            urls = (corpus / row["urls"]).read_bytes().split(b"\n")[: len(row["verdicts"])]
            yield corpus / row["file"], row, urls


def test_google_dialect_agrees_with_every_reference_verdict():
    agree = total = one_shot = files = 0
    disagreements = []
    last_path, robots, body = None, None, b""
    for path, row, urls in rows():
        if path != last_path:
            body = path.read_bytes()
            robots = norobots.Robots(body, "google")
            last_path, files = path, files + 1
        agent, want = row["agent"], row["verdicts"]
        assert len(urls) == len(want), row
        got = robots.allowed_many(agent, urls)
        for i, (url, allowed) in enumerate(zip(urls, got)):
            if (total + i) % ONE_SHOT_EVERY == 0:
                assert norobots.is_allowed(body, agent, url, dialect="google") is allowed, (
                    row["file"], agent, url)
                one_shot += 1
            if allowed == (want[i] == "1"):
                agree += 1
            else:
                disagreements.append(f"{row['file']} {agent} {url!r}: reference {want[i]}")
        total += len(urls)
    print(f"google dialect: {agree} of {total} reference verdicts agree "
          f"({files} files, {one_shot} one-shot checks)")
    assert not disagreements, f"{len(disagreements)} disagree:\n" + "\n".join(disagreements[:20])
    assert total == 1_055_000
    assert agree == total


def test_a_sample_of_rows_agrees_with_the_cli_rule_for_rule(cli):
    checked = rows_checked = 0
    for n, (path, row, urls) in enumerate(rows()):
        if n % CLI_EVERY:
            continue
        agent = row["agent"]
        out = subprocess.run(
            [str(cli), "check", "--dialect", "google", "--robots", str(path),
             "--agent", agent, "--json"],
            input=b"\n".join(urls) + b"\n", capture_output=True, check=False,
        )
        assert out.returncode in (0, 1), out.stderr.decode()
        answers = [json.loads(line) for line in out.stdout.splitlines()]
        assert len(answers) == len(urls), (row["file"], out.stderr.decode())
        robots = norobots.Robots(path.read_bytes(), "google")
        for url, answer, want in zip(urls, answers, row["verdicts"]):
            why = robots.explain(agent, url)
            assert why.allowed is answer["allowed"] is (want == "1"), (row["file"], agent, url)
            rule = answer["rule"]
            if rule is None:
                assert why.rule is None, (row["file"], agent, url)
            else:
                assert (why.line, why.kind, why.pattern) == (
                    rule["line"], rule["kind"], rule["pattern"]), (row["file"], agent, url)
            checked += 1
        rows_checked += 1
    print(f"the CLI and the binding agree on {checked} URLs of {rows_checked} rows")
    assert rows_checked >= 26_375 // CLI_EVERY
    assert checked >= 20 * rows_checked
