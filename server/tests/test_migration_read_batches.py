"""Migration 0019 (a queue row per batch) on a database with reads waiting: every read moves
into a batch in its order with all its fields, and the downgrade gives the rows back."""

from datetime import UTC, datetime, timedelta
from typing import Any

import psycopg
import pytest
from alembic import command

from tagtrack.core.db import sync_url
from tagtrack.core.migrate import alembic_config, upgrade
from tests.database import fresh_database
from tests.test_migration_org_keys import FILLERS

BEFORE = "0018_thing_reference_checks"
AFTER = "0019_pending_read_batches"
ORG = "0123456789abcdef01234567"
ENDPOINTS = ("aaaaaaaaaaaaaaaaaaaaaaaa", "bbbbbbbbbbbbbbbbbbbbbbbb")
T0 = datetime(2026, 11, 2, 8, 0, tzinfo=UTC)
READS = 1_203  # more than two batches of one endpoint
FIELDS = "endpoint_id, tag, antenna, time, rssi, direction, tamper, data::text, received_at"


def _connect(url: str) -> psycopg.Connection[Any]:
    return psycopg.connect(sync_url(url).replace("postgresql+psycopg://", "postgresql://"))


def add_organization(db: psycopg.Connection[Any]) -> None:
    """The organization ORG, its required columns filled."""
    organization = {
        column: FILLERS[kind]
        for column, kind in db.execute(
            "SELECT column_name, data_type FROM information_schema.columns WHERE table_name ="
            " 'organizations' AND is_nullable = 'NO' AND column_default IS NULL"
        )
    } | {"id": ORG, "subdomain": "queue"}
    columns, marks = ", ".join(organization), ", ".join(["%s"] * len(organization))
    db.execute(
        f"INSERT INTO organizations ({columns}) VALUES ({marks})", list(organization.values())
    )


def _seed(db: psycopg.Connection[Any]) -> None:
    add_organization(db)
    for n in range(READS):
        db.execute(
            "INSERT INTO pending_reads (org_id, endpoint_id, tag, antenna, time, rssi, direction,"
            " tamper, data, received_at) VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s)",
            [
                ORG,
                ENDPOINTS[n % 3 == 0],
                f"E200{n:08X}",
                n % 4,
                T0 + timedelta(milliseconds=n),
                None if n % 5 == 0 else -40.5 - n % 7,
                ("", "IN", "OUT")[n % 3],
                n % 11 == 0,
                f'{{"cFloat0": {n}.5}}' if n % 13 == 0 else "{}",
                T0 + timedelta(seconds=n // 100),
            ],
        )
    db.commit()


def _queue(db: psycopg.Connection[Any]) -> list[tuple[Any, ...]]:
    return db.execute(f"SELECT {FIELDS} FROM pending_reads ORDER BY id").fetchall()


def test_waiting_reads_move_into_batches_in_order_and_come_back() -> None:
    with fresh_database() as url:
        upgrade(url, BEFORE)
        with _connect(url) as db:
            _seed(db)
            before = _queue(db)

        upgrade(url, AFTER)
        with _connect(url) as db:
            assert db.execute("SELECT to_regclass('pending_reads')").fetchone() == (None,)
            sizes = db.execute(
                "SELECT endpoint_id, reads, cardinality(tags), data IS NULL"
                " FROM pending_read_batches ORDER BY id"
            ).fetchall()
            assert sum(size for _, size, _, _ in sizes) == READS
            assert all(size == length <= 500 for _, size, length, _ in sizes)
            unpacked = db.execute(f"""
                SELECT {FIELDS} FROM (
                    SELECT b.endpoint_id, r.tag, r.antenna, r.time, r.rssi, r.direction,
                           r.tamper, coalesce(b.data -> (r.n::int - 1), '{{}}') AS data,
                           b.received_at, b.id, r.n
                    FROM pending_read_batches AS b,
                         unnest(b.tags, b.antennas, b.times, b.rssis, b.directions, b.tampers)
                             WITH ORDINALITY AS r(tag, antenna, time, rssi, direction, tamper, n)
                ) AS reads ORDER BY id, n
            """).fetchall()
        # Each endpoint's reads in their order, every field kept; a batch is received when its
        # first read was.
        for endpoint in ENDPOINTS:
            mine = [row for row in before if row[0] == endpoint]
            moved = [row for row in unpacked if row[0] == endpoint]
            assert [row[:-1] for row in moved] == [row[:-1] for row in mine]
            assert {row[-1] for row in moved} <= {row[-1] for row in mine}

        command.downgrade(alembic_config(url), BEFORE)
        with _connect(url) as db:
            back = _queue(db)
            assert [row[:-1] for row in back] == [row[:-1] for row in unpacked]
            # The organization is checked per statement again, as migration 0017 made it.
            with pytest.raises(psycopg.errors.ForeignKeyViolation):
                db.execute(
                    "INSERT INTO pending_reads (org_id, endpoint_id, tag, antenna, time,"
                    " direction, tamper, received_at) VALUES (%s, %s, 'T', 0, now(), '', false,"
                    " now())",
                    ["f" * 24, ENDPOINTS[0]],
                )
