"""Migration 0010 (org_id in every key) on a database with data: every row is kept, the new
org_id columns are filled from their parents, references cannot leave their organization,
and the downgrade gives back what was there."""

import json
from typing import Any

import psycopg
import pytest
from alembic import command

from tagtrack.core.db import sync_url
from tagtrack.core.migrate import alembic_config, upgrade
from tests.database import fresh_database

BEFORE = "0009"
AFTER = "0010_org_keys"
ORGS = ("a", "b")


def _id(org: str, name: str) -> str:
    return f"{org}-{name}"[:24]


def _rows(org: str) -> list[tuple[str, dict[str, Any]]]:
    """One row per table for one organization, parents first, every reference set."""

    def i(name: str) -> str:
        return _id(org, name)

    return [
        ("organizations", {"id": i("org"), "subdomain": f"org-{org}"}),
        ("org_settings", {"org_id": i("org")}),
        ("roles", {"id": i("role"), "org_id": i("org")}),
        ("access_rules", {"role_id": i("role"), "org_id": i("org"), "resource": "Items"}),
        ("sites", {"id": i("site"), "org_id": i("org")}),
        ("site_settings", {"site_id": i("site"), "org_id": i("org")}),
        ("users", {"id": i("user"), "org_id": i("org"), "username": f"{org.upper()}@example.com"}),
        ("user_sessions", {"token_hash": i("session"), "user_id": i("user"), "org_id": i("org")}),
        ("password_resets", {"token_hash": i("reset"), "user_id": i("user")}),
        ("api_keys", {"id": i("key"), "org_id": i("org"), "token_hash": i("token")}),
        (
            "endpoints",
            {"id": i("endpoint"), "org_id": i("org"), "site_id": i("site"), "key": i("reader-key")},
        ),
        ("endpoint_statuses", {"org_id": i("org"), "endpoint_id": i("endpoint")}),
        ("ingest_batches", {"endpoint_id": i("endpoint"), "batch_id": "batch-1"}),
        ("zones", {"id": i("zone"), "org_id": i("org"), "site_id": i("site")}),
        (
            "zone_gates",
            {"org_id": i("org"), "zone_id": i("zone"), "endpoint_id": i("endpoint")},
        ),
        (
            "location_tags",
            {"id": i("loc"), "org_id": i("org"), "site_id": i("site"), "zone_id": i("zone")},
        ),
        (
            "things",
            {
                "id": i("thing"),
                "org_id": i("org"),
                "site_id": i("site"),
                "zone_id": i("zone"),
                "endpoint_id": i("endpoint"),
                "location_tag_id": i("loc"),
            },
        ),
        ("thing_tags", {"org_id": i("org"), "tag": "TAG1", "thing_id": i("thing")}),
        (
            "events",
            {
                "id": i("event"),
                "org_id": i("org"),
                "site_id": i("site"),
                "endpoint_id": i("endpoint"),
                "thing_id": i("thing"),
            },
        ),
        (
            "zone_durations",
            {
                "id": i("visit"),
                "org_id": i("org"),
                "site_id": i("site"),
                "thing_id": i("thing"),
                "zone_id": i("zone"),
            },
        ),
        (
            "exceptions",
            {
                "id": i("exception"),
                "org_id": i("org"),
                "site_id": i("site"),
                "zone_duration_id": i("visit"),
            },
        ),
        ("pending_reads", {"org_id": i("org"), "endpoint_id": i("endpoint")}),
        ("raw_payloads", {"org_id": i("org"), "endpoint_id": i("endpoint")}),
        ("image_categories", {"id": i("category"), "org_id": i("org")}),
        ("images", {"id": i("image"), "org_id": i("org"), "uploader_id": i("user")}),
        ("report_configs", {"id": i("report"), "org_id": i("org"), "site_id": i("site")}),
        ("daily_runs", {"id": i("run"), "org_id": i("org"), "site_id": i("site")}),
        ("maps", {"id": i("map"), "org_id": i("org"), "site_id": i("site")}),
        ("audit_log", {"org_id": i("org")}),
        ("sso_settings", {"org_id": i("org")}),
        ("sso_logins", {"state_hash": i("state"), "org_id": i("org")}),
    ]


# A value for each required column the rows above leave out, by its type.
FILLERS = {
    "character varying": "x",
    "text": "",
    "boolean": False,
    "integer": 0,
    "bigint": 0,
    "double precision": 0.0,
    "timestamp with time zone": "2026-11-22T10:00:00+00:00",
    "date": "2026-11-22",
    "jsonb": "{}",
    "bytea": b"raw",
    "ARRAY": "{}",
}


def _seed(db: psycopg.Connection[Any]) -> None:
    required: dict[str, dict[str, str]] = {}
    for table, column, kind in db.execute(
        "SELECT table_name, column_name, data_type FROM information_schema.columns"
        " WHERE table_schema = 'public' AND is_nullable = 'NO' AND column_default IS NULL"
    ):
        required.setdefault(table, {})[column] = kind
    for org in ORGS:
        for table, given in _rows(org):
            row = {
                column: FILLERS[kind]
                for column, kind in required[table].items()
                if column not in given
            } | given
            columns = ", ".join(f'"{c}"' for c in row)
            marks = ", ".join(["%s"] * len(row))
            db.execute(f"INSERT INTO {table} ({columns}) VALUES ({marks})", list(row.values()))


def _contents(db: psycopg.Connection[Any]) -> dict[str, set[str]]:
    """Every row of every table as JSON with sorted keys."""
    tables = [
        name
        for (name,) in db.execute(
            "SELECT tablename FROM pg_tables WHERE schemaname = 'public'"
            " AND tablename <> 'alembic_version'"
        )
    ]
    contents = {}
    for table in tables:
        rows = db.execute(f"SELECT to_jsonb(t)::text FROM {table} t").fetchall()
        contents[table] = {json.dumps(json.loads(row), sort_keys=True) for (row,) in rows}
    return contents


def _without(rows: set[str], column: str) -> set[str]:
    return {
        json.dumps({k: v for k, v in json.loads(row).items() if k != column}, sort_keys=True)
        for row in rows
    }


def _connect(url: str) -> psycopg.Connection[Any]:
    return psycopg.connect(sync_url(url).replace("postgresql+psycopg://", "postgresql://"))


def _primary_key(db: psycopg.Connection[Any], table: str) -> str:
    row = db.execute(
        "SELECT string_agg(a.attname, ', ' ORDER BY k.n) FROM pg_constraint c"
        " CROSS JOIN unnest(c.conkey) WITH ORDINALITY AS k(attnum, n)"
        " JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = k.attnum"
        " WHERE c.contype = 'p' AND c.conrelid = %s::regclass",
        (table,),
    ).fetchone()
    assert row is not None
    return str(row[0])


def _references_stay_in_their_organization(db: psycopg.Connection[Any]) -> None:
    with pytest.raises(psycopg.errors.ForeignKeyViolation):
        db.execute(
            "UPDATE things SET zone_id = %s WHERE id = %s", (_id("b", "zone"), _id("a", "thing"))
        )
    db.rollback()
    # Deleting a zone empties the thing's zone_id and leaves its org_id.
    db.execute("DELETE FROM zone_durations WHERE zone_id = %s", (_id("a", "zone"),))
    db.execute("DELETE FROM zones WHERE id = %s", (_id("a", "zone"),))
    row = db.execute(
        "SELECT org_id, zone_id FROM things WHERE id = %s", (_id("a", "thing"),)
    ).fetchone()
    assert row == (_id("a", "org"), None)
    # Deleting a site takes what belongs to it, in its organization only.
    db.execute("DELETE FROM sites WHERE id = %s", (_id("a", "site"),))
    left = db.execute("SELECT org_id FROM things UNION ALL SELECT org_id FROM endpoints").fetchall()
    assert left == [(_id("b", "org"),)] * 2
    db.rollback()


def test_upgrade_keeps_every_row_and_downgrade_gives_them_back() -> None:
    with fresh_database() as url:
        upgrade(url, BEFORE)
        with _connect(url) as db:
            _seed(db)
            before = _contents(db)
        assert all(before[table] for table, _ in _rows("a"))

        upgrade(url, AFTER)
        with _connect(url) as db:
            after = _contents(db)
            assert after.pop("org_keys") == {
                json.dumps(
                    {"kind": kind, "key": key, "org_id": _id(org, "org"), "target_id": target},
                    sort_keys=True,
                )
                for org in ORGS
                for kind, key, target in (
                    ("reader_key", _id(org, "reader-key"), _id(org, "endpoint")),
                    ("endpoint", _id(org, "endpoint"), _id(org, "endpoint")),
                    ("api_token", _id(org, "token"), _id(org, "key")),
                    ("username", f"{org}@example.com", _id(org, "user")),
                )
            }
            # The two tables that gain org_id; every other row is as it was.
            for table in ("ingest_batches", "password_resets"):
                after[table] = _without(after[table], "org_id")
            assert after == before
            filled = db.execute(
                "SELECT b.org_id, e.org_id FROM ingest_batches b JOIN endpoints e"
                " ON e.id = b.endpoint_id"
                " UNION ALL SELECT r.org_id, u.org_id FROM password_resets r JOIN users u"
                " ON u.id = r.user_id"
            ).fetchall()
            assert len(filled) == 4 and all(mine == parent for mine, parent in filled)
            for table in ("sites", "endpoints", "things", "zones", "users", "roles"):
                assert _primary_key(db, table) == "org_id, id"
            assert _primary_key(db, "ingest_batches") == "org_id, endpoint_id, batch_id"
            _references_stay_in_their_organization(db)

        command.downgrade(alembic_config(url), BEFORE)
        with _connect(url) as db:
            assert _contents(db) == before
