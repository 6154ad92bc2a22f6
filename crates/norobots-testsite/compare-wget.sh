#!/usr/bin/env bash
# Crawls the test site's standard scenario with Debian's `wget -r` (robots
# on, its defaults) and with `norobots crawl`, each against a fresh site,
# and prints the URLs one of them requested and the other did not, with
# the test site's own expectation for each (see src/scenario/mod.rs).
#
# usage: crates/norobots-testsite/compare-wget.sh [NOROBOTS_BINARY]
# needs: wget, python3; builds the test site and norobots in release mode.
set -euo pipefail
cd "$(dirname "$0")/../.."
cargo build --release -q -p norobots-cli -p norobots-testsite
BIN=${1:-$PWD/target/release/norobots}
SITE=$PWD/target/release/norobots-testsite
WORK=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null || true; rm -rf "$WORK"' EXIT

serve() { # $1: name; starts a fresh site, waits for its origins
  "$SITE" --scenario standard --log "$WORK/$1.requests.jsonl" --exit-after 600 > "$WORK/$1.origins" &
  for _ in $(seq 100); do [ -s "$WORK/$1.origins" ] && [ "$(wc -l < "$WORK/$1.origins")" -ge 9 ] && break; sleep 0.05; done
  START="$(awk '$1 == "a" {print $2}' "$WORK/$1.origins")/index.html"
}

serve wget
# wget's defaults but for what a test needs: a 3 s timeout for the hanging
# robots.txt and 3 tries, as norobots gets below.
(cd "$WORK" && wget -r -l inf -nv -T 3 -t 3 --waitretry 1 -P wget-out "$START" > wget.log 2>&1) || true
kill %1; wait %1 2>/dev/null || true

serve norobots
(cd "$WORK" && "$BIN" crawl -q -T 3 -t 3 --waitretry 1 -P norobots-out "$START") || true
kill %2 2>/dev/null || true; wait 2>/dev/null || true

python3 - "$WORK" <<'PY'
import json, sys, collections
work = sys.argv[1]
def requested(name):
    seen = collections.Counter()
    for line in open(f"{work}/{name}.requests.jsonl"):
        r = json.loads(line)
        seen[(r["origin"], r["path"])] += 1
    return seen
w, n = requested("wget"), requested("norobots")
print(f"wget requested {len(w)} distinct URLs ({sum(w.values())} requests); "
      f"norobots {len(n)} ({sum(n.values())})")
print("\nrequested by wget only:")
for k in sorted(set(w) - set(n)):
    print(f"  {k[0]} {k[1]}  (x{w[k]})")
print("\nrequested by norobots only:")
for k in sorted(set(n) - set(w)):
    print(f"  {k[0]} {k[1]}  (x{n[k]})")
print("\nrobots.txt requests per origin (wget / norobots):")
for o in sorted({k[0] for k in w} | {k[0] for k in n}):
    print(f"  {o}: {w[(o, '/robots.txt')]} / {n[(o, '/robots.txt')]}")
PY
