#!/usr/bin/env bash
# Install, then start TagTrack with demo data on http://127.0.0.1:${TAGTRACK_PORT:-8000}.
# Without TAGTRACK_DATABASE_URL an embedded PostgreSQL keeps its data in ./data.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install.sh
export TAGTRACK_LOG_JSON="${TAGTRACK_LOG_JSON:-false}"
exec .venv/bin/tagtrack serve --demo
