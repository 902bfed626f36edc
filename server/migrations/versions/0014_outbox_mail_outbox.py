"""mail outbox: mail written in the transaction of what causes it, sent by a background sender

Dwell exception alerts, password reset links and daily reports used to be sent once after
(or inside) their transaction, and a mail server outage lost them. Now each is a row here,
written in the same transaction; the sender delivers it and retries with backoff.

Revision ID: 0014_outbox_mail_outbox
Revises: 0013_event_counts

"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision: str = "0014_outbox_mail_outbox"
down_revision: str | None = "0013_event_counts"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "mail_outbox",
        sa.Column("org_id", sa.String(24), nullable=False),
        sa.Column("id", sa.String(24), nullable=False),
        sa.Column("time_created", sa.DateTime(timezone=True), nullable=False),
        sa.Column("recipients", postgresql.ARRAY(sa.String(320)), nullable=False),
        sa.Column("subject", sa.String(300), nullable=False),
        sa.Column("message", sa.LargeBinary(), nullable=False),
        sa.Column("state", sa.String(16), nullable=False),
        sa.Column("attempts", sa.Integer(), nullable=False),
        sa.Column("next_attempt", sa.DateTime(timezone=True), nullable=False),
        sa.Column("last_error", sa.Text(), nullable=False),
        sa.Column("time_sent", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(
            ["org_id"],
            ["organizations.id"],
            name="fk_mail_outbox_org_id_organizations",
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("org_id", "id", name="pk_mail_outbox"),
    )
    op.create_index(
        "ix_mail_outbox_due",
        "mail_outbox",
        ["next_attempt"],
        postgresql_where=sa.text("state = 'pending'"),
    )


def downgrade() -> None:
    op.drop_index("ix_mail_outbox_due", table_name="mail_outbox")
    op.drop_table("mail_outbox")
