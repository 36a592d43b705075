#!/usr/bin/env bash
# The project's Python virtual environment, target/fuzz-venv, with exactly the packages pinned in
# server/fuzz/requirements.txt: schemathesis for the fuzzer (server/fuzz/run.sh), mf2py for the
# microformats test (web/e2e/microformats.test.ts) and feedparser for the feeds' tests
# (server/tests/feeds/check_feed.py). Whichever runs first builds it; it is built again when the
# pinned requirements change or it no longer runs (a venv records its own path in its scripts, so
# a moved or copied one breaks). Prints nothing on success. Needs Debian's python3-venv
# (`make python-venv`).
#   scripts/python-venv.sh     (from anywhere)
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
venv=$root/target/fuzz-venv
requirements=$root/server/fuzz/requirements.txt

mkdir -p "$root/target"
# One build at a time: two test runs that start together wait for the first's.
exec 9>"$root/target/fuzz-venv.lock"
flock 9
if ! cmp -s "$requirements" "$venv/requirements.txt" 2>/dev/null \
    || ! "$venv/bin/pip" --version >/dev/null 2>&1; then
    rm -rf "$venv"
    python3 -m venv "$venv"
    "$venv/bin/pip" install --quiet --disable-pip-version-check -r "$requirements"
    cp "$requirements" "$venv/requirements.txt"
fi
