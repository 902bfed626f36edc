"""What the benchmarks share: a seeded site, a simulated reader fleet, timing and the report.

Every figure is printed next to a baseline measured in the same run, as a JSON line (for
tools) and as a row of a readable table (for people).
"""

import json
import logging
import random
import secrets
import statistics
import time
from collections.abc import Awaitable, Callable, Iterable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

import asyncpg
from sqlalchemy import insert
from sqlalchemy.ext.asyncio import AsyncSession

from tagtrack.core.db import create_engine, create_sessionmaker
from tagtrack.core.ids import ALL_SITES_ID, new_id
from tagtrack.core.security import hash_password
from tagtrack.models import Endpoint, Site, User, Zone, ZoneGate
from tagtrack.orgs.repository import OrganizationRepository
from tagtrack.orgs.service import OrganizationService
from tagtrack.roles.repository import RoleRepository
from tagtrack.roles.rules import ADMINISTRATOR

T0 = datetime(2026, 3, 2, 8, 0, tzinfo=UTC)
PASSWORD = "Bench-Marking-Password-1"
ADMIN = "admin@bench.example.com"


def quiet() -> None:
    """Only warnings: a log line per request would flood the report (call after create_app)."""
    for name in ("httpx", "tagtrack.access"):
        logging.getLogger(name).setLevel(logging.WARNING)


def driver_url(url: str) -> str:
    return url.replace("postgresql+asyncpg", "postgresql")


@dataclass
class Floor:
    """A seeded organisation: one site, readers each with a zone gate, tagged things."""

    org_id: str
    site_id: str
    keys: list[str]
    endpoint_ids: list[str]
    zone_ids: list[str]
    tags: list[str]
    thing_ids: list[str] = field(default_factory=list)


async def bench_org(session: AsyncSession) -> tuple[str, str]:
    """A new organisation through the app's service; its id and the administrator role id."""
    org = await OrganizationService(
        OrganizationRepository(session), RoleRepository(session)
    ).create_organization("Bench Org", "bench")
    roles = {r.name: r.id for r in await RoleRepository(session).list_for_org(org.id)}
    return org.id, roles[ADMINISTRATOR]


def admin_row(org_id: str, role_id: str, name: str, username: str, hashed: str) -> dict[str, Any]:
    return {
        "id": new_id(), "org_id": org_id, "name": name, "username": username,
        "password_hash": hashed, "role_ids": [role_id], "site_ids": [ALL_SITES_ID],
        "active": True, "failed_logins": 0, "locked": False,
    }  # fmt: skip


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


async def seed_floor(url: str, readers: int, things: int) -> Floor:
    """Organisation, site, admin user and readers through the app's models; things by COPY."""
    engine = create_engine(url)
    maker = create_sessionmaker(engine)
    async with maker() as session, session.begin():
        org_id, role_id = await bench_org(session)
        admin = admin_row(org_id, role_id, "Bench admin", ADMIN, hash_password(PASSWORD))
        await session.execute(insert(User), [admin])
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
        zones = [
            Zone(id=new_id(), org_id=org_id, site_id=site.id, name=f"Zone {n}", emails=[])
            for n in range(readers)
        ]
        session.add_all(endpoints + zones)
        await session.flush()
        await session.execute(
            insert(ZoneGate),
            [
                {"org_id": org_id, "zone_id": z.id, "endpoint_id": e.id, "direction": "IN",
                 "antenna": -1, "position": 0}
                for e, z in zip(endpoints, zones, strict=True)
            ],
        )  # fmt: skip
        floor = Floor(
            org_id=org_id,
            site_id=site.id,
            keys=[e.key for e in endpoints],
            endpoint_ids=[e.id for e in endpoints],
            zone_ids=[z.id for z in zones],
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
