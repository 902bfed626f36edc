"""report configurations and the daily jobs of each site

Revision ID: 0006
Revises: 0005

"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision: str = "0006"
down_revision: str | None = "0005"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_EMPTY = sa.text("'{}'")


def _tenant(table: str) -> list[sa.schema.SchemaItem]:
    return [
        sa.Column("org_id", sa.String(length=24), nullable=False),
        sa.Column("site_id", sa.String(length=24), nullable=False),
        sa.ForeignKeyConstraint(
            ["org_id"],
            ["organizations.id"],
            name=op.f(f"fk_{table}_org_id_organizations"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["site_id"], ["sites.id"], name=op.f(f"fk_{table}_site_id_sites"), ondelete="CASCADE"
        ),
    ]


def upgrade() -> None:
    op.create_table(
        "report_configs",
        *_tenant("report_configs"),
        sa.Column("name", sa.String(length=200), nullable=False),
        sa.Column("type", sa.String(length=40), nullable=False),
        sa.Column("format", sa.String(length=16), nullable=False),
        sa.Column("email", sa.Boolean(), nullable=False),
        sa.Column(
            "zones", postgresql.ARRAY(sa.String(length=24)), server_default=_EMPTY, nullable=False
        ),
        sa.Column(
            "categories",
            postgresql.ARRAY(sa.String(length=200)),
            server_default=_EMPTY,
            nullable=False,
        ),
        sa.Column(
            "headings",
            postgresql.ARRAY(sa.String(length=100)),
            server_default=_EMPTY,
            nullable=False,
        ),
        sa.Column("id", sa.String(length=24), nullable=False),
        sa.Column("time_created", sa.DateTime(timezone=True), nullable=False),
        sa.Column("time_modified", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_report_configs")),
        sa.UniqueConstraint("site_id", "name", name=op.f("uq_report_configs_site_id")),
    )
    op.create_index(op.f("ix_report_configs_org_id"), "report_configs", ["org_id"], unique=False)
    op.create_index(op.f("ix_report_configs_site_id"), "report_configs", ["site_id"], unique=False)
    op.create_table(
        "daily_runs",
        *_tenant("daily_runs"),
        sa.Column("kind", sa.String(length=16), nullable=False),
        sa.Column("day", sa.Date(), nullable=False),
        sa.Column("time", sa.DateTime(timezone=True), nullable=False),
        sa.Column(
            "snapshot",
            postgresql.JSONB(astext_type=sa.Text()),
            server_default=sa.text("'{}'::jsonb"),
            nullable=False,
        ),
        sa.Column("id", sa.String(length=24), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_daily_runs")),
        sa.UniqueConstraint("site_id", "kind", "day", name=op.f("uq_daily_runs_site_id")),
    )
    op.create_index(op.f("ix_daily_runs_org_id"), "daily_runs", ["org_id"], unique=False)


def downgrade() -> None:
    op.drop_index(op.f("ix_daily_runs_org_id"), table_name="daily_runs")
    op.drop_table("daily_runs")
    op.drop_index(op.f("ix_report_configs_site_id"), table_name="report_configs")
    op.drop_index(op.f("ix_report_configs_org_id"), table_name="report_configs")
    op.drop_table("report_configs")
