"""What the benchmarks share: a seeded site, a simulated reader fleet, timing and the report.

Every figure is printed next to a baseline measured in the same run, as a JSON line (for
tools) and as a row of a readable table (for people).
"""

import asyncio
import itertools
import json
import logging
import os
import random
import secrets
import ssl
import statistics
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import asyncpg
import httpx
from fastapi import FastAPI
from sqlalchemy import insert
from sqlalchemy.ext.asyncio import AsyncSession

from tagtrack.access.roles import RoleRepository
from tagtrack.access.rules import ADMINISTRATOR
from tagtrack.core.config import DEFAULT_DATABASE_POOL_SIZE, Settings
from tagtrack.core.db import create_engine, create_sessionmaker
from tagtrack.core.security import hash_password, new_token, token_hash
from tagtrack.core.workers import settle_heap
from tagtrack.kit.wiring import Wiring
from tagtrack.models import Endpoint, OrgKey, Site, User, Zone, ZoneGate
from tagtrack.models.ids import ALL_SITES_ID, new_id
from tagtrack.models.org_key import org_keys_of
from tagtrack.organizations.service import OrganizationService
from tests.serve import http_workers

T0 = datetime(2026, 3, 2, 8, 0, tzinfo=UTC)
PASSWORD = "Bench-Marking-Password-1"
ADMIN = "admin@bench.example.com"


def counted(insert_events: str) -> str:
    """An `INSERT INTO events ... SELECT` that also adds its events to their sites' hour
    counts (event_counts) in the same statement, as processing does in its transaction."""
    return f"""
WITH made AS ({insert_events} RETURNING org_id, site_id, time)
INSERT INTO event_counts AS c (org_id, site_id, hour, events)
SELECT org_id, site_id, date_trunc('hour', time, 'UTC'), count(*) FROM made
GROUP BY org_id, site_id, date_trunc('hour', time, 'UTC')
ON CONFLICT (org_id, site_id, hour) DO UPDATE SET events = c.events + excluded.events
"""


def quiet() -> None:
    """Only warnings: a log line per request would flood the report (call after create_app)."""
    for name in ("httpx", "tagtrack.access"):
        logging.getLogger(name).setLevel(logging.WARNING)


def driver_url(url: str) -> str:
    return url.replace("postgresql+asyncpg", "postgresql")


@dataclass
class Floor:
    """A seeded organization: one site, readers each with a zone gate, tagged things."""

    org_id: str
    site_id: str
    keys: list[str]
    endpoint_ids: list[str]
    zone_ids: list[str]
    tags: list[str]
    thing_ids: list[str] = field(default_factory=list)


async def bench_org(session: AsyncSession) -> tuple[str, str]:
    """A new organization through the app's service; its id and the administrator role id."""
    org = await Wiring(session).get(OrganizationService).create_organization("Bench Org", "bench")
    roles = {r.name: r.id for r in await RoleRepository(session).list_for_org(org.id)}
    return org.id, roles[ADMINISTRATOR]


def admin_row(org_id: str, role_id: str, name: str, username: str, hashed: str) -> dict[str, Any]:
    return {
        "id": new_id(), "org_id": org_id, "name": name, "username": username,
        "password_hash": hashed, "role_ids": [role_id], "site_ids": [ALL_SITES_ID],
        "active": True, "failed_logins": 0, "locked": False,
    }  # fmt: skip


@asynccontextmanager
async def served(app: FastAPI) -> AsyncIterator[None]:
    """The app in this process, started as each `tagtrack serve` HTTP worker starts: once it is
    ready, its heap settles (`settle_heap`). Without that, every collection of the oldest
    generation would also walk the benchmark's own clients and prepared bodies, which a worker
    does not hold, and charge the server for them."""
    async with app.router.lifespan_context(app):
        settle_heap()
        yield


async def timed(count: int, call: Callable[[], Awaitable[object]], warm: int = 3) -> list[float]:
    """Milliseconds of `count` calls, after a few to warm caches and prepared statements."""
    for _ in range(warm):
        await call()
    samples = []
    for _ in range(count):
        started = time.perf_counter()
        await call()
        samples.append((time.perf_counter() - started) * 1000)
    return samples


async def seed_floor(url: str, readers: int, things: int, zones: int | None = None) -> Floor:
    """Organization, site, admin user and readers through the app's models; things by COPY.

    Each reader is the gate of a zone of its own; `zones` beyond the readers have no gate.
    """
    engine = create_engine(url)
    maker = create_sessionmaker(engine)
    async with maker() as session, session.begin():
        org_id, role_id = await bench_org(session)
        admin = admin_row(org_id, role_id, "Bench admin", ADMIN, hash_password(PASSWORD))
        await session.execute(insert(User), [admin])
        await session.execute(insert(OrgKey), org_keys_of(User, [admin]))
        site = Site(org_id=org_id, name="Bench site", start_date=T0, timezone="UTC")
        session.add(site)
        await session.flush()
        endpoints = [
            Endpoint(
                id=new_id(), org_id=org_id, site_id=site.id, name=f"Reader {n}",
                key=secrets.token_urlsafe(32), xy=[n, n], antennas=[], config={},
            )
            for n in range(readers)
        ]  # fmt: skip
        zone_rows = [
            Zone(id=new_id(), org_id=org_id, site_id=site.id, name=f"Zone {n}", emails=[])
            for n in range(max(readers, zones or 0))
        ]
        session.add_all([*endpoints, *zone_rows])
        await session.flush()
        await session.execute(
            insert(ZoneGate),
            [
                {"org_id": org_id, "zone_id": z.id, "endpoint_id": e.id, "direction": "IN",
                 "antenna": -1, "position": 0}
                for e, z in zip(endpoints, zone_rows[:readers], strict=True)
            ],
        )  # fmt: skip
        floor = Floor(
            org_id=org_id,
            site_id=site.id,
            keys=[e.key for e in endpoints],
            endpoint_ids=[e.id for e in endpoints],
            zone_ids=[z.id for z in zone_rows],
            tags=[],
        )
    await engine.dispose()
    await copy_things(url, floor, things)
    return floor


async def copy_things(url: str, floor: Floor, count: int) -> None:
    floor.thing_ids = [new_id() for _ in range(count)]
    floor.tags = [secrets.token_hex(12).upper() for _ in range(count)]
    now = datetime.now(UTC)
    connection = await asyncpg.connect(driver_url(url))
    try:
        await connection.copy_records_to_table(
            "things",
            records=[
                (i, floor.org_id, floor.site_id, "item", f"Asset {n:07d}", tag, now, now,
                 "", "", "", "", "", False, "")
                for n, (i, tag) in enumerate(zip(floor.thing_ids, floor.tags, strict=True))
            ],
            columns=["id", "org_id", "site_id", "class", "name", "tag1", "time_created",
                     "time_modified", "description", "serial", "tag2", "direction", "map_id",
                     "alarm_tamper", "alarm_tamper_tag"],
        )  # fmt: skip
        await connection.copy_records_to_table(
            "thing_tags",
            records=[
                (floor.org_id, t, i) for i, t in zip(floor.thing_ids, floor.tags, strict=True)
            ],
            columns=["org_id", "tag", "thing_id"],
        )
        await connection.execute("ANALYZE")
    finally:
        await connection.close()


Batch = tuple[str, list[dict[str, object]]]


def reader_traffic(
    floor: Floor,
    reads: int,
    *,
    batch: int = 500,
    readers: int | None = None,
    repeats: float = 0.9,
    per_reader_rate: float = 1000.0,
    start: datetime = T0,
    seed: int = 7,
) -> list[Batch]:
    """Batches as a fleet of fixed readers sends them, interleaved reader by reader.

    Each reader sees a field of tags; a share `repeats` of its reads is a tag it read on
    the same antenna within the repeat window (it folds into the open event), the rest a
    tag arriving from elsewhere (a new event and, through the reader's gate, a zone change).
    """
    rng = random.Random(seed)
    fleet = floor.keys[: readers or len(floor.keys)]
    fields: list[list[tuple[str, int]]] = [
        [(rng.choice(floor.tags), rng.randrange(4)) for _ in range(40)] for _ in fleet
    ]
    clocks = [start] * len(fleet)
    step = timedelta(seconds=1 / per_reader_rate)
    batches: list[Batch] = []
    for number, offset in enumerate(range(0, reads, batch)):
        r = number % len(fleet)
        body = []
        for _ in range(min(batch, reads - offset)):
            seen = fields[r]
            if rng.random() >= repeats:
                seen[rng.randrange(len(seen))] = (rng.choice(floor.tags), rng.randrange(4))
            tag, antenna = rng.choice(seen)
            clocks[r] += step
            body.append({"tag": tag, "antenna": antenna, "time": clocks[r].isoformat()})
        batches.append((fleet[r], body))
    return batches


def copy_records(key: str, reads: Iterable[dict[str, object]]) -> list[tuple[object, ...]]:
    return [(r["tag"], datetime.fromisoformat(str(r["time"])), r["antenna"], key) for r in reads]


COPY_TABLE = "CREATE TEMP TABLE copied (tag text, time timestamptz, antenna int, endpoint text)"


def percentile(samples: Sequence[float], share: float) -> float:
    ordered = sorted(samples)
    if not ordered:
        return float("nan")
    return ordered[min(len(ordered) - 1, max(0, round(share * len(ordered)) - 1))]


def median(samples: Sequence[float]) -> float:
    return statistics.median(samples) if samples else float("nan")


@dataclass
class Figure:
    name: str
    value: float
    unit: str
    baseline_name: str
    baseline: float
    target: str = ""


def _shown(value: float) -> str:
    if abs(value) < 10:
        return f"{value:.3f}"
    return f"{value:.1f}" if abs(value) < 1000 else f"{value:,.0f}"


def report(bench: str, setup: str, figures: Sequence[Figure]) -> None:
    """One JSON line per figure, then a table."""
    for f in figures:
        print(
            json.dumps(
                {"bench": bench, "setup": setup, "figure": f.name, "value": round(f.value, 3),
                 "unit": f.unit, "baseline": f.baseline_name,
                 "baseline_value": round(f.baseline, 3), "target": f.target}
            )
        )  # fmt: skip
    print(f"\n{bench}: {setup}")
    width = max(len(f.name) for f in figures)
    for f in figures:
        target = f"   target {f.target}" if f.target else ""
        print(
            f"  {f.name:<{width}}  {_shown(f.value):>10} {f.unit:<7}"
            f"  baseline {f.baseline_name}: {_shown(f.baseline)} {f.unit}{target}"
        )
    print(flush=True)


# A real server process: its memory, and the traffic of readers and consoles (bench.soak,
# bench.mixed and the export and image benchmarks share these).
POLL_SECONDS = 5.0
SESSION_COOKIE = "tagtrack_session"
# One TLS context for every client: httpx builds (and loads certificates into) one per
# client otherwise, a second of CPU for each ten clients, and these talk plain HTTP anyway.
_TLS = ssl.create_default_context()


def _status_kib(pid: int, field_name: str) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(f"{field_name}:"):
            return int(line.split()[1])
    return 0


def http_worker(pid: int) -> int:
    """The one HTTP worker of a `tagtrack serve` run with TAGTRACK_WORKERS=1: the process
    that answers requests, whose memory an export or upload grows."""

    deadline = time.monotonic() + 60
    while not (found := http_workers(pid)) and time.monotonic() < deadline:
        time.sleep(0.2)
    (worker,) = found
    return worker


def cpu_seconds(pid: int) -> float:
    """User and system CPU time the process has used."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def postgres_cpu_seconds() -> float:
    """CPU time used by the PostgreSQL processes now running on this machine (backends, WAL
    writer, checkpointer, autovacuum): what the database spends, wherever it was started."""
    total = 0.0
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            if (entry / "comm").read_text().strip() == "postgres":
                total += cpu_seconds(int(entry.name))
        except OSError:
            continue  # it ended meanwhile
    return total


def rss_mib(pid: int) -> float:
    """Resident memory of the process now."""
    return _status_kib(pid, "VmRSS") / 1024


def peak_rss_mib(pid: int) -> float:
    """The highest resident memory of the process since it started or since reset_peak_rss."""
    return _status_kib(pid, "VmHWM") / 1024


def reset_peak_rss(pid: int) -> None:
    """Start the peak over from the memory resident now (Linux: 5 to clear_refs)."""
    Path(f"/proc/{pid}/clear_refs").write_text("5")


@dataclass
class Tally:
    reads: int = 0
    ingest_ms: list[float] = field(default_factory=list)
    console_requests: int = 0
    console_ms: list[float] = field(default_factory=list)
    # When each console call was sent (monotonic), beside its milliseconds.
    console_at: list[float] = field(default_factory=list)
    errors: dict[str, int] = field(default_factory=dict)

    def error(self, kind: str) -> None:
        self.errors[kind] = self.errors.get(kind, 0) + 1


async def post_reads(
    url: str,
    key: str,
    batches_per_second: float,
    batch: int,
    end: float,
    tally: Tally,
    n: int,
    readers: int,
) -> None:
    """Reader `n` of `readers` posting `batch` reads on a fixed schedule until `end`
    (monotonic). The readers' schedules are spread over the interval, as independent readers
    are: in step, every reader's batch would arrive at the same instant."""
    tags = itertools.count()
    interval = 1 / batches_per_second
    async with httpx.AsyncClient(
        base_url=url, headers={"Authorization": f"Bearer {key}"}, timeout=30, verify=_TLS
    ) as client:
        next_at = time.monotonic() + interval * n / readers
        for sent in itertools.count():
            # Behind schedule or not, the run ends on time.
            if next_at >= end or time.monotonic() >= end:
                return
            await asyncio.sleep(max(0.0, next_at - time.monotonic()))
            reads = [
                {"tag": f"SOAK{n:02d}{next(tags) % 20_000:08d}", "antenna": 1} for _ in range(batch)
            ]
            started = time.perf_counter()
            try:
                response = await client.post(
                    "/api/ingest/reads", json={"batchId": f"soak-{n}-{sent}", "reads": reads}
                )
                if response.status_code == 202:
                    tally.reads += batch
                    tally.ingest_ms.append((time.perf_counter() - started) * 1000)
                else:
                    tally.error(f"ingest {response.status_code}")
            except httpx.HTTPError as error:
                tally.error(f"ingest {type(error).__name__}")
            next_at += interval


async def sign_in(url: str, username: str, password: str, tally: Tally) -> str | None:
    """A console's session token (sign-in is timed apart from the load)."""
    async with httpx.AsyncClient(base_url=url, timeout=300, verify=_TLS) as client:
        try:
            signed_in = await client.post(
                "/api/auth/login", json={"username": username, "password": password}
            )
        except httpx.HTTPError as error:
            tally.error(f"login {type(error).__name__}")
            return None
        if signed_in.status_code != 200:
            tally.error(f"login {signed_in.status_code}")
            return None
        return signed_in.cookies.get(SESSION_COOKIE)


# A new session's deadline, as sign-in sets it: a console's first call then writes nothing.
SESSION_IDLE = timedelta(minutes=Settings.model_fields["session_idle_minutes"].default)


async def open_sessions(url: str, username: str, count: int) -> list[str]:
    """`count` session tokens of the user, written into the database as sign-in writes them.

    A thousand sign-ins through the API hash a thousand passwords: minutes of setup on a
    small machine, and nothing the load under test does.
    """
    connection = await asyncpg.connect(driver_url(url))
    try:
        user = await connection.fetchrow(
            "SELECT id, org_id FROM users WHERE username = $1", username
        )
        tokens = [new_token() for _ in range(count)]
        now = datetime.now(UTC)
        await connection.copy_records_to_table(
            "user_sessions",
            records=[
                (token_hash(t), user["id"], user["org_id"], now, now + SESSION_IDLE) for t in tokens
            ],
            columns=["token_hash", "user_id", "org_id", "created_at", "expires_at"],
        )
    finally:
        await connection.close()
    return tokens


def server_env(database: str, data_dir: str, **settings: str) -> dict[str, str]:
    """The environment of a benchmark's `tagtrack serve` on loopback; `settings` are further
    TAGTRACK_ variables by their lower-case names (processing="false")."""
    env = {
        "TAGTRACK_DATABASE_URL": database,
        "TAGTRACK_DATA_DIR": data_dir,
        "TAGTRACK_HOST": "127.0.0.1",
        "TAGTRACK_LOG_JSON": "true",
        # As deployed: the tests' servers keep smaller pools to share one database server.
        "TAGTRACK_DATABASE_POOL_SIZE": str(DEFAULT_DATABASE_POOL_SIZE),
    }
    return env | {f"TAGTRACK_{name.upper()}": value for name, value in settings.items()}


def todays_events() -> str:
    """The Events page's own call: today's events, first page of 25, as the console asks."""
    start = datetime.now(UTC).replace(hour=0, minute=0, second=0, microsecond=0)
    query = {
        "limit": "25",
        "page": "0",
        "after": start.isoformat(),
        "before": (start + timedelta(days=1)).isoformat(),
    }
    return "/api/events?" + urlencode(query)


# What a console on the Events page asks every POLL_SECONDS; callables are asked each time.
CONSOLE_POLLS: tuple[str | Callable[[], str], ...] = (todays_events, "/api/endpoints/status")


async def poll_console(
    url: str,
    token: str,
    end: float,
    tally: Tally,
    first_at: float,
    paths: Sequence[str | Callable[[], str]] = CONSOLE_POLLS,
) -> None:
    """A signed-in console polling `paths` every POLL_SECONDS from `first_at` until `end`
    (both monotonic).

    On a fixed schedule, as the console's query interval runs: a slow answer does not move
    the next poll, and a poll due while one is still out is skipped."""
    cookies = {SESSION_COOKIE: token}
    async with httpx.AsyncClient(base_url=url, timeout=30, cookies=cookies, verify=_TLS) as client:
        next_at = first_at
        await asyncio.sleep(max(0.0, next_at - time.monotonic()))
        while next_at < end:
            for path in paths:
                sent = time.monotonic()
                try:
                    response = await client.get(path if isinstance(path, str) else path())
                    tally.console_requests += 1
                    tally.console_ms.append((time.monotonic() - sent) * 1000)
                    tally.console_at.append(sent)
                    if response.status_code != 200:
                        tally.error(f"console {response.status_code}")
                except httpx.HTTPError as error:
                    tally.error(f"console {type(error).__name__}")
            next_at += POLL_SECONDS
            while next_at < time.monotonic():
                next_at += POLL_SECONDS
            await asyncio.sleep(max(0.0, next_at - time.monotonic()))
