"""maps: a site's floor plans

Revision ID: 0007
Revises: 0006

"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision: str = "0007"
down_revision: str | None = "0006"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "maps",
        sa.Column("org_id", sa.String(length=24), nullable=False),
        sa.Column("site_id", sa.String(length=24), nullable=False),
        sa.Column("name", sa.String(length=200), nullable=False),
        sa.Column(
            "top_left",
            postgresql.ARRAY(sa.Float()),
            server_default=sa.text("'{0,1000}'"),
            nullable=False,
        ),
        sa.Column(
            "bot_right",
            postgresql.ARRAY(sa.Float()),
            server_default=sa.text("'{1000,0}'"),
            nullable=False,
        ),
        sa.Column("image_key", sa.String(length=200), nullable=False),
        sa.Column("image_type", sa.String(length=100), nullable=False),
        sa.Column("image_width", sa.Integer(), nullable=False),
        sa.Column("image_height", sa.Integer(), nullable=False),
        sa.Column("image_version", sa.Integer(), nullable=False),
        sa.Column("id", sa.String(length=24), nullable=False),
        sa.Column("time_created", sa.DateTime(timezone=True), nullable=False),
        sa.Column("time_modified", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["org_id"],
            ["organizations.id"],
            name=op.f("fk_maps_org_id_organizations"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["site_id"], ["sites.id"], name=op.f("fk_maps_site_id_sites"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_maps")),
        sa.UniqueConstraint("org_id", "site_id", "name", name=op.f("uq_maps_org_id")),
    )
    op.create_index(op.f("ix_maps_org_id"), "maps", ["org_id"], unique=False)
    op.create_index(op.f("ix_maps_site_id"), "maps", ["site_id"], unique=False)


def downgrade() -> None:
    op.drop_index(op.f("ix_maps_site_id"), table_name="maps")
    op.drop_index(op.f("ix_maps_org_id"), table_name="maps")
    op.drop_table("maps")
