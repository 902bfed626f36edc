"""Migration 0021 (a queued batch's reads as one JSON text) on a database with batches
waiting: processing decodes every read with all its fields, whatever the session's time
zone, and the downgrade gives the arrays back exactly."""

import json
from datetime import UTC, datetime, timedelta
from typing import Any

import psycopg
from alembic import command

from tagtrack.core.migrate import alembic_config, upgrade
from tagtrack.ingest.formats import Read, unpack_reads
from tests.database import fresh_database
from tests.test_migration_read_batches import ORG, _connect, add_organization

BEFORE = "0020_lz4_payloads"
AFTER = "0021_queued_reads_json"
T0 = datetime(2026, 11, 2, 8, 0, 0, 123456, tzinfo=UTC)
ARRAYS = "tags, antennas, times, rssis, directions, tampers, data::text"


def _batch(n: int, size: int) -> list[Any]:
    """A batch's arrays: RSSI missing or not, every direction, a tamper now and then, and
    sensor data in every other batch."""
    reads = range(size)
    return [
        [f"E2{n:04X}{i:08X}" for i in reads],
        [i % 4 for i in reads],
        [T0 + timedelta(seconds=n, microseconds=7 * i) for i in reads],
        [None if i % 5 == 0 else -40.25 - i for i in reads],
        [("", "IN", "OUT", "NEAR", "GONE")[i % 5] for i in reads],
        [i % 7 == 0 for i in reads],
        json.dumps([{"cFloat0": i + 0.5} if i % 3 == 0 else {} for i in reads]) if n % 2 else None,
    ]


def _seed(db: psycopg.Connection[Any]) -> None:
    add_organization(db)
    for n, size in enumerate((1, 500, 37, 2)):
        db.execute(
            "INSERT INTO pending_read_batches (org_id, endpoint_id, reads, tags, antennas,"
            " times, rssis, directions, tampers, data, received_at)"
            " VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s)",
            [ORG, "a" * 24, size, *_batch(n, size), T0],
        )
    db.commit()


def _expected(row: tuple[Any, ...]) -> list[Read]:
    tags, antennas, times, rssis, directions, tampers, data = row
    values = [{}] * len(tags) if data is None else json.loads(data)
    return [
        Read(tag, at.astimezone(UTC), antenna, rssi, direction or None, tamper, value)
        for tag, antenna, at, rssi, direction, tamper, value in zip(
            tags, antennas, times, rssis, directions, tampers, values, strict=True
        )
    ]


def test_waiting_batches_are_converted_and_come_back() -> None:
    with fresh_database() as url:
        upgrade(url, BEFORE)
        with _connect(url) as db:
            _seed(db)
            before = db.execute(f"SELECT {ARRAYS} FROM pending_read_batches ORDER BY id").fetchall()
            # The migration writes UTC whatever time zone its session has.
            database = db.execute("SELECT current_database()").fetchone()
            assert database is not None
            db.execute(f"ALTER DATABASE {database[0]} SET timezone = 'Asia/Kolkata'")
            db.commit()

        upgrade(url, AFTER)
        with _connect(url) as db:
            bodies = db.execute(
                "SELECT reads, body FROM pending_read_batches ORDER BY id"
            ).fetchall()
        decoded = [unpack_reads(body) for _, body in bodies]
        assert [len(reads) for reads in decoded] == [reads for reads, _ in bodies]
        assert decoded == [_expected(row) for row in before]
        assert all(read.time.tzinfo is UTC for reads in decoded for read in reads)

        command.downgrade(alembic_config(url), BEFORE)
        with _connect(url) as db:
            back = db.execute(f"SELECT {ARRAYS} FROM pending_read_batches ORDER BY id").fetchall()
        assert back == before
