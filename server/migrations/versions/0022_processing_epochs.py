"""processing epochs: a count of the batches processed for each organization

A processing worker keeps the rows a batch worked on (things, their open visits, the newest
events) for the organization's next batch, instead of loading them again. The count tells it
whether anyone else processed reads for the organization in between.

Revision ID: 0022_processing_epochs
Revises: 0021_queued_reads_json

"""

from collections.abc import Sequence

from alembic import op

revision: str = "0022_processing_epochs"
down_revision: str | None = "0021_queued_reads_json"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.execute("""
        CREATE TABLE processing_epochs (
            org_id varchar(24) NOT NULL,
            epoch bigint NOT NULL,
            CONSTRAINT pk_processing_epochs PRIMARY KEY (org_id),
            CONSTRAINT fk_processing_epochs_org_id_organizations FOREIGN KEY (org_id)
                REFERENCES organizations (id) ON DELETE CASCADE
        )
    """)


def downgrade() -> None:
    op.execute("DROP TABLE processing_epochs")
