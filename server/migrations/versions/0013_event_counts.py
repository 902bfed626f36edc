"""per-site, per-hour event counts, for exact Events page totals without counting every event

`event_counts` holds how many events each site has in each UTC hour of their `time` (Last
Seen, the partition key), backfilled here from the existing events. The Events page's total
is the sum of the whole hours of its period plus an exact count of the events in the
partial hours at its two edges.

The counts are kept by application code, in the same transaction as the change, not by a
trigger on `events`:
- the writers and deleters are few and set-based: processing (new events by COPY, folded
  events by one UPDATE that moves Last Seen forward, sometimes into the next hour),
  retention's batch deletes and month drops, and cascades from a deleted site or
  organisation (this table's own foreign key to sites cascades the same way);
- row-level triggers would cost a function call per event and an upsert per new event
  (thousands per batch, on the same few rows) where processing does one grouped upsert, and
  would count wrongly when partition maintenance moves rows out of DEFAULT (a delete from
  DEFAULT, an insert into a table not yet attached);
- statement-level triggers on the partitioned parent do not see statements run on a
  partition directly nor foreign-key cascades, and no trigger sees a partition dropped.
Rows are moved out of DEFAULT into their month with their `time` unchanged, so partition
maintenance leaves the counts as they are.

Revision ID: 0013_event_counts
Revises: 0012_drop_single_id_keys

"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0013_event_counts"
down_revision: str | None = "0012_drop_single_id_keys"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "event_counts",
        sa.Column("org_id", sa.String(24), nullable=False),
        sa.Column("site_id", sa.String(24), nullable=False),
        sa.Column("hour", sa.DateTime(timezone=True), nullable=False),
        sa.Column("events", sa.BigInteger(), nullable=False),
        sa.PrimaryKeyConstraint("org_id", "site_id", "hour", name="pk_event_counts"),
        sa.ForeignKeyConstraint(
            ["org_id", "site_id"],
            ["sites.org_id", "sites.id"],
            name="fk_event_counts_site_id_sites",
            ondelete="CASCADE",
        ),
    )
    op.create_index("ix_event_counts_org_hour", "event_counts", ["org_id", "hour"])
    # No event is written or deleted between the count and this transaction's commit.
    op.execute("LOCK TABLE events IN SHARE MODE")
    op.execute(
        "INSERT INTO event_counts (org_id, site_id, hour, events) "
        "SELECT org_id, site_id, date_trunc('hour', time, 'UTC'), count(*) FROM events "
        "GROUP BY 1, 2, 3"
    )
    op.execute("ANALYZE event_counts")


def downgrade() -> None:
    op.drop_table("event_counts")
