#!/usr/bin/env bash
# Install everything, then run every check: lint, types, client freshness, console unit
# tests, server tests and browser tests.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install.sh --browser

step() { printf '\n==> %s\n' "$*"; }

step "OpenID provider for the single sign-on tests (server/tests/oidc/package-lock.json)"
oidc=server/tests/oidc
if [ ! -d "$oidc/node_modules" ] || [ "$oidc/package-lock.json" -nt "$oidc/node_modules/.package-lock.json" ]; then
  (cd "$oidc" && npm ci --no-audit --no-fund --loglevel=error)
fi

step "Lint and types (server)"
.venv/bin/ruff check server e2e bench
.venv/bin/ruff format --check server e2e bench
.venv/bin/mypy

step "Lint, format and types (console)"
(cd web && npm run --silent lint && npm run --silent format:check && npm run --silent typecheck)

step "Generated API client is up to date"
scripts/check-client.sh

step "Console unit tests"
(cd web && npm test --silent)

step "Server and browser tests"
.venv/bin/pytest server/tests e2e -p no:cacheprovider
