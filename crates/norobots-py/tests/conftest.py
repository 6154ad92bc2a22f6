"""What the tests share: where ``../shared`` and the CLI are, and a local
HTTP server.

The tests import ``norobots`` as installed (``pip install
./crates/norobots-py``), never from the source tree: the extension module
exists only in the installed package.

``../shared`` (the conformance data and the corpus) sits beside the
repository, as CI lays it out; ``NOROBOTS_SHARED`` names another place.
Without it the tests that read it skip, except under ``CI=true``, where
they fail, as the Rust tests do.

The CLI (``norobots``), which some tests hold the binding to, is
``NOROBOTS_CLI``, else the first ``norobots`` built under ``target/`` (or
``$CARGO_TARGET_DIR``); ``cargo test --workspace`` builds it before
``.ci/run`` runs these tests. The same rule applies: missing under
``CI=true`` is a failure.
"""

import http.server
import json
import os
import threading
from pathlib import Path
from typing import Dict, Iterator, List, Optional, Tuple

import pytest

REPO = Path(__file__).resolve().parents[3]
IN_CI = os.environ.get("CI") == "true"


def shared_dir() -> Optional[Path]:
    """``../shared``, or ``None`` when it is not there."""
    env = os.environ.get("NOROBOTS_SHARED")
    path = Path(env) if env else REPO.parent / "shared"
    if (path / "conformance" / "google_corpus_verdicts.jsonl").exists():
        return path
    return None


def need_shared() -> Path:
    """``../shared``; skips the test without it, or fails under CI=true."""
    path = shared_dir()
    if path is None:
        if IN_CI:
            pytest.fail("../shared is missing, and CI=true requires the corpus tests to run")
        pytest.skip("../shared/conformance not found beside the repository")
    return path


def cli_path() -> Optional[Path]:
    """The ``norobots`` binary, or ``None``."""
    env = os.environ.get("NOROBOTS_CLI")
    if env:
        return Path(env)
    targets = [REPO / "target"]
    if os.environ.get("CARGO_TARGET_DIR"):
        targets.insert(0, Path(os.environ["CARGO_TARGET_DIR"]))
    for target in targets:
        for profile in ("debug", "release"):
            binary = target / profile / "norobots"
            if binary.is_file() and os.access(binary, os.X_OK):
                return binary
    return None


@pytest.fixture(scope="session")
def cli() -> Path:
    """The ``norobots`` binary; skips without it, or fails under CI=true."""
    path = cli_path()
    if path is None:
        if IN_CI:
            pytest.fail("the norobots CLI is not built (cargo test --workspace builds it)")
        pytest.skip("the norobots CLI is not built; set NOROBOTS_CLI")
    return path


def seed_cases() -> List[dict]:
    """The seed conformance cases, or none without ``../shared``."""
    shared = shared_dir()
    if shared is None:
        return []
    path = shared / "conformance" / "seed_cases.jsonl"
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def seed_pairs() -> List[Tuple[dict, str]]:
    """Every (case, dialect) pair the seed cases state."""
    return [(case, dialect) for case in seed_cases() for dialect in case["dialects"]]


class Site:
    """A web site on 127.0.0.1: ``pages`` maps a path to ``(status, body)``;
    ``requests`` lists the paths asked for, in order."""

    def __init__(self) -> None:
        self.pages: Dict[str, Tuple[int, bytes]] = {}
        self.requests: List[str] = []
        self.lock = threading.Lock()
        site = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self) -> None:  # noqa: N802 (the stdlib's name)
                with site.lock:
                    site.requests.append(self.path)
                    status, body = site.pages.get(self.path, (404, b"not found"))
                self.send_response(status)
                content_type = "text/plain" if self.path.endswith(".txt") else "text/html"
                self.send_header("Content-Type", content_type)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, format: str, *args: object) -> None:
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    @property
    def origin(self) -> str:
        host, port = self.server.server_address[:2]
        return f"http://{host}:{port}"

    def requested(self) -> List[str]:
        with self.lock:
            return list(self.requests)


@pytest.fixture
def site() -> Iterator[Site]:
    """A web site on 127.0.0.1 for the test, stopped after it."""
    s = Site()
    s.thread.start()
    try:
        yield s
    finally:
        s.server.shutdown()
        s.server.server_close()
