# TagTrack in one image: the console is built with Node, the wheel (which carries the
# console and the migrations) is installed with its runtime dependencies from uv.lock,
# and a slim Python image runs `tagtrack serve` as an unprivileged user.
#   docker build -t tagtrack .
#   docker compose up --build        (with PostgreSQL, MQTT and object storage: compose.yaml)

# --- 1. the console -------------------------------------------------------------------------
FROM node:22-bookworm-slim AS console
WORKDIR /src/web
ENV SCARF_ANALYTICS=false
COPY web/package.json web/package-lock.json ./
RUN npm ci --no-audit --no-fund --loglevel=error
COPY web/ ./
RUN npm run build

# --- 2. the wheel and its runtime dependencies ----------------------------------------------
FROM python:3.12-slim-bookworm AS build
ENV UV_NO_CACHE=1 UV_PYTHON_DOWNLOADS=never
RUN pip install --no-cache-dir uv==0.13.8
WORKDIR /src
COPY pyproject.toml uv.lock README.md hatch_build.py ./
COPY server/tagtrack server/tagtrack
COPY server/migrations server/migrations
COPY --from=console /src/web/dist web/dist
# Bytecode compiled at build time: the unprivileged server cannot write it, and would compile
# every module again in each of its processes at every start.
RUN uv build --wheel --out-dir /dist \
 && uv export --frozen --no-dev --no-hashes --no-emit-project -o /dist/constraints.txt \
 && uv venv /opt/tagtrack --python /usr/local/bin/python3 \
 && uv pip install --compile-bytecode --python /opt/tagtrack/bin/python \
      -c /dist/constraints.txt /dist/*.whl

# --- 3. what runs -----------------------------------------------------------------------------
FROM python:3.12-slim-bookworm
RUN useradd --system --uid 10001 --home-dir /var/lib/tagtrack --create-home tagtrack
COPY --from=build /opt/tagtrack /opt/tagtrack
ENV PATH=/opt/tagtrack/bin:$PATH \
    PYTHONUNBUFFERED=1 \
    TAGTRACK_HOST=0.0.0.0 \
    TAGTRACK_PORT=8000 \
    TAGTRACK_DATA_DIR=/var/lib/tagtrack
USER tagtrack
WORKDIR /var/lib/tagtrack
VOLUME /var/lib/tagtrack
EXPOSE 8000
HEALTHCHECK --interval=15s --timeout=5s --start-period=60s \
  CMD ["python", "-c", "import urllib.request as u; u.urlopen('http://127.0.0.1:8000/healthz', timeout=4)"]
# Other commands: docker compose run --rm tagtrack migrate (or createsuperuser, ...).
ENTRYPOINT ["tagtrack"]
CMD ["serve"]
