"""history partitioned by month; a retention per organisation; org_id in every key of history

Events (by `time`) and zone durations (by `time_start`) become range-partitioned tables with
one partition per calendar month (UTC) and a DEFAULT partition for rows outside them (a
reader with a wrong clock), so old months can be dropped whole. Their primary keys and
foreign keys name org_id, as a database distributed by organisation (Citus) needs.
Existing rows are copied into the new tables.

Revision ID: 0011_history_partitions
Revises: 0010_org_keys

"""

from collections.abc import Sequence
from datetime import UTC, datetime

import sqlalchemy as sa
from alembic import op

revision: str = "0011_history_partitions"
down_revision: str | None = "0010_org_keys"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

MONTHS_AHEAD = 3
PARTITION_KEYS = {"events": "time", "zone_durations": "time_start"}
# Tables history refers to, and so needing a unique (org_id, id) to be referred to by it.
REFERENCED = ("sites", "endpoints", "things", "zones")


def _month(moment: datetime) -> datetime:
    return moment.astimezone(UTC).replace(day=1, hour=0, minute=0, second=0, microsecond=0)


def _next_month(start: datetime) -> datetime:
    return (
        start.replace(year=start.year + 1, month=1)
        if start.month == 12
        else start.replace(month=start.month + 1)
    )


def _ensure_org_key(table: str) -> None:
    """A unique (org_id, id) to refer to, unless the primary key or a constraint is one."""
    found = op.get_bind().execute(
        sa.text(
            "SELECT 1 FROM pg_constraint c WHERE c.conrelid = CAST(:table AS regclass) "
            "AND c.contype IN ('p', 'u') AND ARRAY(SELECT a.attname::text FROM pg_attribute a "
            "WHERE a.attrelid = c.conrelid AND a.attnum = ANY (c.conkey) ORDER BY a.attname) "
            "= ARRAY['id', 'org_id']"
        ),
        {"table": table},
    )
    if found.first() is None:
        op.create_unique_constraint(f"uq_{table}_org_id_id", table, ["org_id", "id"])


def _partitioned_copy(table: str) -> None:
    """`table` rebuilt as monthly partitions holding the same rows, without keys or indexes."""
    column = PARTITION_KEYS[table]
    bind = op.get_bind()
    staged = f"{table}_partitioned"
    op.execute(
        f"CREATE TABLE {staged} (LIKE {table} INCLUDING DEFAULTS) PARTITION BY RANGE ({column})"
    )
    months = {
        _month(row[0])
        for row in bind.execute(
            sa.text(f"SELECT DISTINCT date_trunc('month', {column}, 'UTC') FROM {table}")
        )
    }
    start = _month(datetime.now(UTC))
    for _ in range(MONTHS_AHEAD + 1):
        months.add(start)
        start = _next_month(start)
    for month in sorted(months):
        end = _next_month(month)
        op.execute(
            f"CREATE TABLE {table}_p{month:%Y_%m} PARTITION OF {staged} "
            f"FOR VALUES FROM ('{month.isoformat()}') TO ('{end.isoformat()}')"
        )
    op.execute(f"CREATE TABLE {table}_default PARTITION OF {staged} DEFAULT")
    op.execute(f"INSERT INTO {staged} SELECT * FROM {table}")
    # A foreign key into history would need the partition key; none is kept (see exceptions).
    referring = bind.execute(
        sa.text(
            "SELECT conrelid::regclass::text, conname FROM pg_constraint "
            "WHERE contype = 'f' AND confrelid = CAST(:table AS regclass) "
            "AND conrelid <> confrelid"
        ),
        {"table": table},
    )
    for referring_table, name in referring.all():
        op.execute(f'ALTER TABLE {referring_table} DROP CONSTRAINT "{name}"')
    op.execute(f"DROP TABLE {table}")
    op.execute(f"ALTER TABLE {staged} RENAME TO {table}")


def upgrade() -> None:
    op.add_column(
        "organizations",
        sa.Column("history_retention_days", sa.Integer(), server_default="0", nullable=False),
    )
    for table in REFERENCED:
        _ensure_org_key(table)

    _partitioned_copy("events")
    op.execute(
        "ALTER TABLE events ADD CONSTRAINT pk_events PRIMARY KEY (org_id, id, time)",
    )
    op.create_index("ix_events_site_time", "events", ["org_id", "site_id", "time"])
    op.create_index("ix_events_org_time", "events", ["org_id", "time", "id"])
    op.create_index("ix_events_thing_time", "events", ["thing_id", "time"])
    op.create_index("ix_events_fold", "events", ["endpoint_id", "antenna", "tag", "time"])
    op.execute(
        "ALTER TABLE events ADD CONSTRAINT fk_events_org_id_organizations "
        "FOREIGN KEY (org_id) REFERENCES organizations (id) ON DELETE CASCADE"
    )
    op.execute(
        "ALTER TABLE events ADD CONSTRAINT fk_events_site_id_sites "
        "FOREIGN KEY (org_id, site_id) REFERENCES sites (org_id, id) ON DELETE CASCADE"
    )
    # A deleted endpoint's events stay, without it (org_id is kept: only the column named).
    op.execute(
        "ALTER TABLE events ADD CONSTRAINT fk_events_endpoint_id_endpoints "
        "FOREIGN KEY (org_id, endpoint_id) REFERENCES endpoints (org_id, id) "
        "ON DELETE SET NULL (endpoint_id)"
    )

    _partitioned_copy("zone_durations")
    op.execute(
        "ALTER TABLE zone_durations ADD CONSTRAINT pk_zone_durations "
        "PRIMARY KEY (org_id, id, time_start)"
    )
    op.create_index(
        "ix_zone_durations_site_start", "zone_durations", ["org_id", "site_id", "time_start"]
    )
    op.create_index("ix_zone_durations_org_start", "zone_durations", ["org_id", "time_start", "id"])
    op.create_index("ix_zone_durations_zone_id", "zone_durations", ["zone_id"])
    # Not unique: a unique index of a partitioned table must contain the partition key. One
    # open visit per thing is kept by processing, under the organisation's advisory lock and
    # the thing's row lock.
    op.create_index(
        "ix_zone_durations_open_thing",
        "zone_durations",
        ["thing_id"],
        postgresql_where=sa.text("time_end IS NULL"),
    )
    for column, referred in (("site_id", "sites"), ("thing_id", "things"), ("zone_id", "zones")):
        op.execute(
            f"ALTER TABLE zone_durations ADD CONSTRAINT fk_zone_durations_{column}_{referred} "
            f"FOREIGN KEY (org_id, {column}) REFERENCES {referred} (org_id, id) "
            "ON DELETE CASCADE"
        )
    op.execute(
        "ALTER TABLE zone_durations ADD CONSTRAINT fk_zone_durations_org_id_organizations "
        "FOREIGN KEY (org_id) REFERENCES organizations (id) ON DELETE CASCADE"
    )
    # exceptions.zone_duration_id has no foreign key (one into a partitioned table would need
    # the partition key); a visit's exception outlives the visit's partition.
    op.execute("ANALYZE events")
    op.execute("ANALYZE zone_durations")


def _plain_copy(table: str) -> None:
    staged = f"{table}_plain"
    op.execute(f"CREATE TABLE {staged} (LIKE {table} INCLUDING DEFAULTS)")
    op.execute(f"INSERT INTO {staged} SELECT * FROM {table}")
    op.execute(f"DROP TABLE {table}")
    op.execute(f"ALTER TABLE {staged} RENAME TO {table}")


def downgrade() -> None:
    _plain_copy("events")
    op.create_primary_key("pk_events", "events", ["id"])
    op.create_index("ix_events_site_time", "events", ["org_id", "site_id", "time"])
    op.create_index("ix_events_org_time", "events", ["org_id", "time", "id"])
    op.create_index("ix_events_thing_time", "events", ["thing_id", "time"])
    op.create_index("ix_events_fold", "events", ["endpoint_id", "antenna", "tag", "time"])
    op.create_foreign_key(
        "fk_events_org_id_organizations", "events", "organizations", ["org_id"], ["id"],
        ondelete="CASCADE",
    )  # fmt: skip
    op.create_foreign_key(
        "fk_events_site_id_sites", "events", "sites", ["site_id"], ["id"], ondelete="CASCADE"
    )
    op.create_foreign_key(
        "fk_events_endpoint_id_endpoints", "events", "endpoints", ["endpoint_id"], ["id"],
        ondelete="SET NULL",
    )  # fmt: skip

    _plain_copy("zone_durations")
    op.create_primary_key("pk_zone_durations", "zone_durations", ["id"])
    op.create_index(
        "ix_zone_durations_site_start", "zone_durations", ["org_id", "site_id", "time_start"]
    )
    op.create_index("ix_zone_durations_zone_id", "zone_durations", ["zone_id"])
    op.create_index(
        "uq_zone_durations_open_thing",
        "zone_durations",
        ["thing_id"],
        unique=True,
        postgresql_where=sa.text("time_end IS NULL"),
    )
    for column, referred in (
        ("org_id", "organizations"), ("site_id", "sites"), ("thing_id", "things"),
        ("zone_id", "zones"),
    ):  # fmt: skip
        op.create_foreign_key(
            f"fk_zone_durations_{column}_{referred}", "zone_durations", referred, [column],
            ["id"], ondelete="CASCADE",
        )  # fmt: skip
    for table in REFERENCED:
        op.execute(f"ALTER TABLE {table} DROP CONSTRAINT IF EXISTS uq_{table}_org_id_id")
    op.drop_column("organizations", "history_retention_days")
