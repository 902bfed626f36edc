#!/usr/bin/env bash
# Install everything, then run every check: lint, types, client freshness, console unit
# tests, server tests and browser tests.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install.sh --browser

# Each step prints the seconds since the start, so a slow step shows in the log.
step() { printf '\n==> [%ss] %s\n' "$SECONDS" "$*"; }

step "OpenID provider for the single sign-on tests (server/tests/oidc/package-lock.json)"
oidc=server/tests/oidc
if [ ! -d "$oidc/node_modules" ] || [ "$oidc/package-lock.json" -nt "$oidc/node_modules/.package-lock.json" ]; then
  (cd "$oidc" && npm ci --no-audit --no-fund --loglevel=error)
fi

step "Lint and types (server)"
.venv/bin/ruff check server e2e bench
.venv/bin/ruff format --check server e2e bench
.venv/bin/mypy

step "Lint, format, types and unused code (console)"
(cd web && npm run --silent lint && npm run --silent format:check && npm run --silent typecheck \
  && npm run --silent unused)

step "Generated API client is up to date"
scripts/check-client.sh

step "Console unit tests"
(cd web && npm test --silent)

# Three lanes side by side, each its own process (the browser tests' sync Playwright loop
# cannot share a process with async tests): the browser tests, which mostly wait on Chromium
# and their server; the server tests that start servers and processes of their own, which
# mostly wait on those; and the rest of the server tests, on Python and PostgreSQL. The run
# takes little more than the longest lane.
spawning=(test_serve.py test_serve_workers.py test_multiprocess.py test_ingest_durability.py
  test_observability.py test_wheel_install.py test_simulator.py test_processing_process.py
  test_cli.py test_fuzz.py test_container.py)
step "Browser tests and server tests in three lanes (the server tests' output follows)"
in_process_log=$(mktemp)
spawning_log=$(mktemp)
.venv/bin/pytest server/tests -p no:cacheprovider \
  "${spawning[@]/#/--ignore=server/tests/}" >"$in_process_log" 2>&1 &
in_process=$!
.venv/bin/pytest -p no:cacheprovider "${spawning[@]/#/server/tests/}" >"$spawning_log" 2>&1 &
spawning_tests=$!
browser_status=0
.venv/bin/pytest e2e -p no:cacheprovider || browser_status=$?
in_process_status=0
wait "$in_process" || in_process_status=$?
spawning_status=0
wait "$spawning_tests" || spawning_status=$?
step "Server tests that start servers and processes"
cat "$spawning_log"
step "Server tests in one process"
cat "$in_process_log"
rm -f "$in_process_log" "$spawning_log"
printf '\nbrowser tests: exit %s, server tests: exit %s and %s, %ss in all\n' \
  "$browser_status" "$spawning_status" "$in_process_status" "$SECONDS"
[ "$browser_status" -eq 0 ] && [ "$spawning_status" -eq 0 ] && [ "$in_process_status" -eq 0 ]
