"""drop the unique (id) of sites, endpoints, things and zones

0010 kept a unique key on id alone on these tables so that history's single-column foreign
keys could still refer to them; 0011 rebuilt history with foreign keys on (org_id, id). A
unique key without org_id is what a database sharded by organisation cannot have.

Revision ID: 0012_drop_single_id_keys
Revises: 0011_history_partitions

"""

from collections.abc import Sequence

from alembic import op

revision: str = "0012_drop_single_id_keys"
down_revision: str | None = "0011_history_partitions"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

TABLES = ("sites", "endpoints", "things", "zones")


def upgrade() -> None:
    for table in TABLES:
        op.execute(f"ALTER TABLE {table} DROP CONSTRAINT uq_{table}_id")


def downgrade() -> None:
    for table in TABLES:
        op.execute(f"ALTER TABLE {table} ADD CONSTRAINT uq_{table}_id UNIQUE (id)")
