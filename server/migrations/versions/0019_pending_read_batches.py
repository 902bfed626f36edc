"""the reads queue holds a row per accepted batch, not a row per read

Each read of the queue cost a heap row and two index entries when a batch was accepted,
then again when processing deleted it: about a third of the database's time end to end.
A batch now goes in as one row, its reads column by column (one array each), and leaves
as one. The organization is checked by a plain foreign key again: once a batch, not once a
read (migration 0017). Reads still waiting are moved over, in order, in batches of up to
500 reads of one endpoint.

Revision ID: 0019_pending_read_batches
Revises: 0018_thing_reference_checks

"""

import importlib.util
from collections.abc import Sequence
from pathlib import Path

from alembic import op

revision: str = "0019_pending_read_batches"
down_revision: str | None = "0018_thing_reference_checks"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

BATCH_READS = 500


def upgrade() -> None:
    op.execute("""
        CREATE TABLE pending_read_batches (
            org_id varchar(24) NOT NULL,
            id bigserial NOT NULL,
            endpoint_id varchar(24) NOT NULL,
            reads integer NOT NULL,
            tags varchar(128)[] NOT NULL,
            antennas integer[] NOT NULL,
            times timestamptz[] NOT NULL,
            rssis float8[] NOT NULL,
            directions varchar(4)[] NOT NULL,
            tampers boolean[] NOT NULL,
            data jsonb,
            received_at timestamptz NOT NULL,
            CONSTRAINT pk_pending_read_batches PRIMARY KEY (org_id, id),
            CONSTRAINT fk_pending_read_batches_org_id_organizations FOREIGN KEY (org_id)
                REFERENCES organizations (id) ON DELETE CASCADE
        )
    """)
    op.execute(f"""
        INSERT INTO pending_read_batches (org_id, endpoint_id, reads, tags, antennas, times,
                                          rssis, directions, tampers, data, received_at)
        SELECT org_id, endpoint_id, count(*), array_agg(tag ORDER BY id),
               array_agg(antenna ORDER BY id), array_agg(time ORDER BY id),
               array_agg(rssi ORDER BY id), array_agg(direction ORDER BY id),
               array_agg(tamper ORDER BY id),
               CASE WHEN bool_or(data <> '{{}}'::jsonb) THEN jsonb_agg(data ORDER BY id) END,
               min(received_at)
        FROM pending_reads
        GROUP BY org_id, endpoint_id, id / {BATCH_READS}
        ORDER BY min(id)
    """)
    op.execute("DROP TRIGGER organizations_pending_reads_removed ON organizations")
    op.execute("DROP FUNCTION remove_pending_reads_of_organizations()")
    op.execute("DROP TABLE pending_reads")
    op.execute("DROP FUNCTION check_pending_reads_organization()")


def downgrade() -> None:
    op.execute("""
        CREATE TABLE pending_reads (
            id bigserial NOT NULL,
            org_id varchar(24) NOT NULL,
            endpoint_id varchar(24) NOT NULL,
            tag varchar(128) NOT NULL,
            antenna integer NOT NULL,
            time timestamptz NOT NULL,
            rssi float8,
            direction varchar(4) NOT NULL,
            tamper boolean NOT NULL,
            data jsonb DEFAULT '{}'::jsonb NOT NULL,
            zone_id varchar(24),
            received_at timestamptz NOT NULL,
            CONSTRAINT pk_pending_reads PRIMARY KEY (org_id, id),
            CONSTRAINT fk_pending_reads_org_id_organizations FOREIGN KEY (org_id)
                REFERENCES organizations (id) ON DELETE CASCADE
        )
    """)
    op.execute("CREATE INDEX ix_pending_reads_org_id ON pending_reads (org_id, id)")
    # As migration 0017 found the table; its own upgrade then swaps the key for its checks.
    spec = importlib.util.spec_from_file_location(
        "pending_reads_org_check", Path(__file__).with_name("0017_pending_reads_org_check.py")
    )
    assert spec is not None and spec.loader is not None
    org_check = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(org_check)
    org_check.upgrade()
    op.execute("""
        INSERT INTO pending_reads (org_id, endpoint_id, tag, antenna, time, rssi, direction,
                                   tamper, data, received_at)
        SELECT b.org_id, b.endpoint_id, r.tag, r.antenna, r.time, r.rssi, r.direction,
               r.tamper, coalesce(b.data -> (r.n::int - 1), '{}'::jsonb), b.received_at
        FROM pending_read_batches AS b,
             unnest(b.tags, b.antennas, b.times, b.rssis, b.directions, b.tampers)
                 WITH ORDINALITY AS r(tag, antenna, time, rssi, direction, tamper, n)
        ORDER BY b.id, r.n
    """)
    op.execute("DROP TABLE pending_read_batches")
