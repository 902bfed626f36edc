#!/usr/bin/env bash
# Fail when server/openapi.json or the console's generated client is stale.
set -euo pipefail
cd "$(dirname "$0")/.."
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
.venv/bin/tagtrack openapi "$tmp/openapi.json"
if ! diff -q server/openapi.json "$tmp/openapi.json" >/dev/null; then
  echo "server/openapi.json is stale: run 'make gen-client' and commit the result" >&2
  diff -u server/openapi.json "$tmp/openapi.json" | head -40 >&2
  exit 1
fi
(cd web && npx --no-install openapi-typescript ../server/openapi.json -o "$tmp/schema.ts" >/dev/null 2>&1)
(cd web && npx --no-install prettier --stdin-filepath src/api/generated/schema.ts <"$tmp/schema.ts" >"$tmp/schema.formatted.ts")
if ! diff -q web/src/api/generated/schema.ts "$tmp/schema.formatted.ts" >/dev/null; then
  echo "web/src/api/generated/schema.ts is stale: run 'make gen-client' and commit the result" >&2
  exit 1
fi
echo "API client is up to date"
