"""List endpoint latency through the whole app, next to the same query as raw SQL."""

import argparse
import asyncio
import statistics
from collections.abc import Sequence

import asyncpg
import httpx
from sqlalchemy import insert

from bench.common import PASSWORD, admin_row, bench_org, served, timed
from tagtrack.core.config import Settings
from tagtrack.core.db import create_engine, create_sessionmaker
from tagtrack.core.migrate import upgrade
from tagtrack.core.security import hash_password
from tagtrack.main import create_app
from tagtrack.models import OrgKey, User
from tagtrack.models.org_key import org_keys_of
from tests.database import fresh_database

RAW_PAGE = """
SELECT id, name, username, role_ids, site_ids FROM users
WHERE org_id = $1 AND (name ILIKE $2 OR username ILIKE $2)
ORDER BY name, id LIMIT 25 OFFSET 25
"""
RAW_COUNT = "SELECT count(*) FROM users WHERE org_id = $1 AND (name ILIKE $2 OR username ILIKE $2)"


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--users", type=int, default=5000)
    parser.add_argument("--requests", type=int, default=300)
    return parser.parse_args(argv)


async def _seed(url: str, users: int) -> tuple[str, str]:
    engine = create_engine(url)
    maker = create_sessionmaker(engine)
    async with maker() as session, session.begin():
        org_id, role_id = await bench_org(session)
        hashed = hash_password(PASSWORD)
        rows = [
            admin_row(
                org_id,
                role_id,
                f"Worker {i:05d} {'Smith' if i % 7 else 'Jones'}",
                f"user{i}@bench.example.com",
                hashed,
            )
            for i in range(users)
        ]
        await session.execute(insert(User), rows)
        await session.execute(insert(OrgKey), org_keys_of(User, rows))
    await engine.dispose()
    return org_id, "user0@bench.example.com"


def _summary(samples: list[float]) -> str:
    ordered = sorted(samples)
    p95 = ordered[int(len(ordered) * 0.95) - 1]
    return f"p50 {statistics.median(ordered):7.2f} ms   p95 {p95:7.2f} ms"


async def main(args: argparse.Namespace) -> None:
    with fresh_database() as url:
        upgrade(url)
        org_id, username = await _seed(url, args.users)
        app = create_app(Settings(log_json=True), database_url=url)
        async with served(app):
            transport = httpx.ASGITransport(app=app)
            async with httpx.AsyncClient(transport=transport, base_url="http://bench") as client:
                login = {"username": username, "password": PASSWORD}
                (await client.post("/api/auth/login", json=login)).raise_for_status()

                async def via_api() -> None:
                    response = await client.get(
                        "/api/users", params={"search": "smith", "page": 1, "sort": "name"}
                    )
                    response.raise_for_status()

                raw_url = url.replace("postgresql+asyncpg", "postgresql")
                connection = await asyncpg.connect(raw_url)
                try:

                    async def via_sql() -> None:
                        await connection.fetch(RAW_PAGE, org_id, "%smith%")
                        await connection.fetchval(RAW_COUNT, org_id, "%smith%")

                    await timed(20, via_api)
                    await timed(20, via_sql)
                    api = await timed(args.requests, via_api)
                    raw = await timed(args.requests, via_sql)
                finally:
                    await connection.close()
    print(f"GET /api/users page of 25 over {args.users} users, {args.requests} requests")
    print(f"  through the app : {_summary(api)}")
    print(f"  raw SQL baseline: {_summary(raw)}")
    print(f"  app / baseline  : {statistics.median(api) / statistics.median(raw):.1f}x at p50")


if __name__ == "__main__":
    asyncio.run(main(parse_args()))
