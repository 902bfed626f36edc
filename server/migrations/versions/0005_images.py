"""images and image categories

Revision ID: 0005
Revises: 0004

"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision: str = "0005"
down_revision: str | None = "0004"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_EMPTY = sa.text("'{}'")


def upgrade() -> None:
    op.create_table(
        "image_categories",
        sa.Column("org_id", sa.String(length=24), nullable=False),
        sa.Column("name", sa.String(length=200), nullable=False),
        sa.Column("description", sa.Text(), nullable=False),
        sa.Column("hidden", sa.Boolean(), nullable=False),
        sa.Column("id", sa.String(length=24), nullable=False),
        sa.Column("time_created", sa.DateTime(timezone=True), nullable=False),
        sa.Column("time_modified", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["org_id"],
            ["organizations.id"],
            name=op.f("fk_image_categories_org_id_organizations"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_image_categories")),
        sa.UniqueConstraint("org_id", "name", name=op.f("uq_image_categories_org_id")),
    )
    op.create_index(
        op.f("ix_image_categories_org_id"), "image_categories", ["org_id"], unique=False
    )
    op.create_table(
        "images",
        sa.Column("org_id", sa.String(length=24), nullable=False),
        sa.Column("uploader_id", sa.String(length=24), nullable=True),
        sa.Column("timestamp", sa.DateTime(timezone=True), nullable=False),
        sa.Column("longitude", sa.Float(), nullable=False),
        sa.Column("latitude", sa.Float(), nullable=False),
        sa.Column("annotation", sa.Text(), nullable=False),
        sa.Column(
            "tags", postgresql.ARRAY(sa.String(length=200)), server_default=_EMPTY, nullable=False
        ),
        sa.Column(
            "category_ids",
            postgresql.ARRAY(sa.String(length=24)),
            server_default=_EMPTY,
            nullable=False,
        ),
        sa.Column("storage_key", sa.String(length=200), nullable=False),
        sa.Column("content_type", sa.String(length=100), nullable=False),
        sa.Column("format", sa.String(length=16), nullable=False),
        sa.Column("byte_size", sa.BigInteger(), nullable=False),
        sa.Column("width", sa.Integer(), nullable=False),
        sa.Column("height", sa.Integer(), nullable=False),
        sa.Column("orientation", sa.Integer(), nullable=False),
        sa.Column("device", sa.String(length=200), nullable=False),
        sa.Column("taken_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("original_name", sa.String(length=255), nullable=False),
        sa.Column("id", sa.String(length=24), nullable=False),
        sa.Column("time_created", sa.DateTime(timezone=True), nullable=False),
        sa.Column("time_modified", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["org_id"],
            ["organizations.id"],
            name=op.f("fk_images_org_id_organizations"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["uploader_id"],
            ["users.id"],
            name=op.f("fk_images_uploader_id_users"),
            ondelete="SET NULL",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_images")),
    )
    op.create_index("ix_images_org_timestamp", "images", ["org_id", "timestamp"], unique=False)
    op.create_index("ix_images_org_created", "images", ["org_id", "time_created"], unique=False)
    op.create_index("ix_images_tags", "images", ["tags"], unique=False, postgresql_using="gin")
    op.create_index(
        "ix_images_category_ids", "images", ["category_ids"], unique=False, postgresql_using="gin"
    )
    op.create_index(op.f("ix_images_uploader_id"), "images", ["uploader_id"], unique=False)
    # Every organisation gets the category the thing Photo tab files photos under.
    op.execute(
        """
        INSERT INTO image_categories (id, org_id, name, description, hidden, time_created,
                                      time_modified)
        SELECT lpad(to_hex(extract(epoch FROM now())::bigint), 8, '0')
               || substr(md5(random()::text || o.id), 1, 16),
               o.id, 'Things', 'Photos of items and workers', false, now(), now()
        FROM organizations o
        ON CONFLICT DO NOTHING
        """
    )


def downgrade() -> None:
    op.drop_index(op.f("ix_images_uploader_id"), table_name="images")
    op.drop_index("ix_images_category_ids", table_name="images", postgresql_using="gin")
    op.drop_index("ix_images_tags", table_name="images", postgresql_using="gin")
    op.drop_index("ix_images_org_created", table_name="images")
    op.drop_index("ix_images_org_timestamp", table_name="images")
    op.drop_table("images")
    op.drop_index(op.f("ix_image_categories_org_id"), table_name="image_categories")
    op.drop_table("image_categories")
