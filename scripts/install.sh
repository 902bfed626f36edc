#!/usr/bin/env bash
# Install everything TagTrack needs from the lock files and build the console.
# Usage: scripts/install.sh [--browser]   (--browser also installs Chromium for browser tests)
set -euo pipefail
cd "$(dirname "$0")/.."

UV_VERSION="0.13.8"

step() { printf '\n==> %s\n' "$*"; }

as_root() {
  if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi
}

if ! command -v uv >/dev/null 2>&1; then
  step "Installing uv ${UV_VERSION}"
  python3 -m pip install --quiet --disable-pip-version-check --user "uv==${UV_VERSION}" \
    || python3 -m pip install --quiet --disable-pip-version-check "uv==${UV_VERSION}"
  export PATH="$HOME/.local/bin:$PATH"
fi

step "Python environment (uv.lock)"
# Compiled here, once: where PYTHONDONTWRITEBYTECODE is set (as on many CI machines) nothing
# caches the compiled modules, and every Python process (each server worker, each command)
# would compile all it imports again, seconds of CPU at every start.
uv sync --frozen --quiet --compile-bytecode
.venv/bin/python -m compileall -q -j 0 server/tagtrack >/dev/null

step "Console packages (web/package-lock.json)"
if [ ! -d web/node_modules ] || [ web/package-lock.json -nt web/node_modules/.package-lock.json ]; then
  (cd web && npm ci --no-audit --no-fund --loglevel=error)
fi

step "Console build"
(cd web && npm run --silent build)

step "Console bundle budgets (gzipped JavaScript per route)"
.venv/bin/python -m bench.bundle | sed -n '/^bundle: /,$p'

if [ "${1:-}" = "--browser" ] && ! command -v chromium >/dev/null 2>&1; then
  step "Chromium (Debian package) for browser tests"
  as_root apt-get update -qq
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
fi
