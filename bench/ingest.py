"""Tag-read ingest and processing throughput, next to raw PostgreSQL COPY of the same rows.

Readers post batches to POST /api/ingest/reads through the whole app (in process, no
network); the worker then turns them into events, zone presence and visits. The baseline
copies the same reads into a plain table with asyncpg's COPY, in the same run.
"""

import argparse
import asyncio
import secrets
import time
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta

import asyncpg
import httpx
from sqlalchemy import insert

from tagtrack.core.config import Settings
from tagtrack.core.db import create_engine, create_sessionmaker
from tagtrack.core.ids import new_id
from tagtrack.core.migrate import upgrade
from tagtrack.main import create_app
from tagtrack.models import Endpoint, Site, Thing, ThingTag, Zone, ZoneGate
from tagtrack.orgs.repository import OrganizationRepository
from tagtrack.orgs.service import OrganizationService
from tagtrack.processing.worker import ProcessingWorker
from tagtrack.roles.repository import RoleRepository
from tests.database import fresh_database

T0 = datetime(2026, 3, 2, 8, 0, tzinfo=UTC)


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--reads", type=int, default=50_000)
    parser.add_argument("--batch", type=int, default=500, help="reads per request")
    parser.add_argument("--readers", type=int, default=20)
    parser.add_argument("--things", type=int, default=5_000)
    return parser.parse_args(argv)


async def _seed(url: str, readers: int, things: int) -> tuple[list[str], list[str]]:
    engine = create_engine(url)
    maker = create_sessionmaker(engine)
    async with maker() as session, session.begin():
        org = await OrganizationService(
            OrganizationRepository(session), RoleRepository(session)
        ).create_organization("Bench Org", "bench")
        site = Site(org_id=org.id, name="Bench site", start_date=T0, timezone="UTC")
        session.add(site)
        await session.flush()
        keys, endpoint_ids = [], []
        for n in range(readers):
            endpoint = Endpoint(
                id=new_id(), org_id=org.id, site_id=site.id, name=f"Reader {n}",
                key=secrets.token_urlsafe(32), xy=[n, n], antennas=[], config={},
            )  # fmt: skip
            session.add(endpoint)
            keys.append(endpoint.key)
            endpoint_ids.append(endpoint.id)
        await session.flush()
        for n, endpoint_id in enumerate(endpoint_ids):
            zone = Zone(id=new_id(), org_id=org.id, site_id=site.id, name=f"Zone {n}", emails=[])
            session.add(zone)
            await session.flush()
            session.add(
                ZoneGate(
                    org_id=org.id, zone_id=zone.id, endpoint_id=endpoint_id,
                    direction="IN", antenna=-1, position=0,
                )
            )  # fmt: skip
        tags = [secrets.token_hex(12).upper() for _ in range(things)]
        rows = [
            {
                "id": new_id(), "org_id": org.id, "site_id": site.id, "thing_class": "item",
                "name": f"Asset {i}", "tag1": tag, "tags": [], "tags1": [], "tags2": [],
                "categories": [], "labels": [], "parents": [], "photo": [], "data": {},
            }
            for i, tag in enumerate(tags)
        ]  # fmt: skip
        await session.execute(insert(Thing), rows)
        await session.execute(
            insert(ThingTag),
            [{"org_id": org.id, "tag": r["tag1"], "thing_id": r["id"]} for r in rows],
        )
    await engine.dispose()
    return keys, tags


def _batches(args: argparse.Namespace, keys: list[str], tags: list[str]) -> list[tuple[str, dict]]:  # type: ignore[type-arg]
    batches = []
    for start in range(0, args.reads, args.batch):
        key = keys[(start // args.batch) % len(keys)]
        reads = [
            {
                "tag": tags[(start + n) * 7919 % len(tags)],
                "time": (T0 + timedelta(seconds=(start + n) / 10)).isoformat(),
                "antenna": n % 4,
            }
            for n in range(min(args.batch, args.reads - start))
        ]
        batches.append((key, {"reads": reads}))
    return batches


async def _copy_baseline(url: str, batches: list[tuple[str, dict]]) -> float:  # type: ignore[type-arg]
    connection = await asyncpg.connect(url.replace("postgresql+asyncpg", "postgresql"))
    try:
        await connection.execute(
            "CREATE TEMP TABLE copied (tag text, time timestamptz, antenna int, endpoint text)"
        )
        started = time.perf_counter()
        for key, body in batches:
            records = [
                (r["tag"], datetime.fromisoformat(r["time"]), r["antenna"], key)
                for r in body["reads"]
            ]
            await connection.copy_records_to_table("copied", records=records)
        return time.perf_counter() - started
    finally:
        await connection.close()


async def main(args: argparse.Namespace) -> None:
    with fresh_database() as url:
        upgrade(url)
        keys, tags = await _seed(url, args.readers, args.things)
        batches = _batches(args, keys, tags)
        settings = Settings(log_json=True, processing=False, ingest_max_pending=10**9)
        app = create_app(settings, database_url=url)
        async with app.router.lifespan_context(app):
            transport = httpx.ASGITransport(app=app)
            async with httpx.AsyncClient(transport=transport, base_url="http://bench") as client:

                async def post(key: str, body: dict) -> None:  # type: ignore[type-arg]
                    response = await client.post(
                        "/api/ingest/reads", json=body, headers={"Authorization": f"Bearer {key}"}
                    )
                    response.raise_for_status()

                started = time.perf_counter()
                # Readers post concurrently, a few requests in flight at a time.
                for chunk in range(0, len(batches), 8):
                    await asyncio.gather(*(post(k, b) for k, b in batches[chunk : chunk + 8]))
                ingest = time.perf_counter() - started
            started = time.perf_counter()
            processed = await ProcessingWorker(app.state.sessionmaker, settings).drain()
            processing = time.perf_counter() - started
        copy = await _copy_baseline(url, batches)
    n = args.reads
    print(f"{n} reads in batches of {args.batch} from {args.readers} readers, {args.things} things")
    print(f"  ingest API (202 after commit): {n / ingest:9.0f} reads/s  ({ingest:.2f} s)")
    rate = processed / processing
    print(f"  processing into events/zones : {rate:9.0f} reads/s  ({processing:.2f} s)")
    print(f"  raw COPY baseline            : {n / copy:9.0f} reads/s  ({copy:.2f} s)")
    print(f"  ingest / COPY                : {copy / ingest:.2f} of COPY's rate")


if __name__ == "__main__":
    asyncio.run(main(parse_args()))
