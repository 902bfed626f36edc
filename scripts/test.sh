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

# The browser tests mostly wait on Chromium and their server, the server tests on Python and
# PostgreSQL: run side by side (two processes, since the browser tests' sync Playwright loop
# cannot share a process with async tests), they take little more than the longer of the two.
step "Server tests and browser tests, side by side (the server tests' output follows)"
server_log=$(mktemp)
.venv/bin/pytest server/tests -p no:cacheprovider >"$server_log" 2>&1 &
server_tests=$!
browser_status=0
.venv/bin/pytest e2e -p no:cacheprovider || browser_status=$?
server_status=0
wait "$server_tests" || server_status=$?
step "Server tests"
cat "$server_log"
rm -f "$server_log"
printf '\nserver tests: exit %s, browser tests: exit %s, %ss in all\n' "$server_status" "$browser_status" "$SECONDS"
[ "$server_status" -eq 0 ] && [ "$browser_status" -eq 0 ]
