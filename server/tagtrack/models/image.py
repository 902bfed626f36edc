from datetime import datetime

from sqlalchemy import (
    BigInteger,
    Boolean,
    DateTime,
    Float,
    ForeignKey,
    Index,
    Integer,
    String,
    Text,
    UniqueConstraint,
    text,
)
from sqlalchemy.dialects.postgresql import ARRAY
from sqlalchemy.orm import Mapped, mapped_column

from tagtrack.models.base import Base, IdMixin, TimestampMixin, tenant_key

_EMPTY_ARRAY = text("'{}'")

# The category the thing Photo tab files its photos under; every organization has one.
THINGS_CATEGORY = "Things"


class ImageCategory(IdMixin, TimestampMixin, Base):
    __tablename__ = "image_categories"
    __table_args__ = (UniqueConstraint("org_id", "name"),)

    org_id: Mapped[str] = mapped_column(
        String(24), ForeignKey("organizations.id", ondelete="CASCADE"), primary_key=True
    )
    name: Mapped[str] = mapped_column(String(200), nullable=False)
    description: Mapped[str] = mapped_column(Text, nullable=False, default="")
    hidden: Mapped[bool] = mapped_column(Boolean, nullable=False, default=False)


class Image(IdMixin, TimestampMixin, Base):
    """A photo: its metadata here, its bytes (original, thumb, mini) in the storage."""

    __tablename__ = "images"
    __table_args__ = (
        Index("ix_images_org_timestamp", "org_id", "timestamp"),
        Index("ix_images_org_created", "org_id", "time_created"),
        Index("ix_images_tags", "tags", postgresql_using="gin"),
        Index("ix_images_category_ids", "category_ids", postgresql_using="gin"),
        tenant_key("uploader_id", "users", "SET NULL"),
    )

    org_id: Mapped[str] = mapped_column(
        String(24), ForeignKey("organizations.id", ondelete="CASCADE"), primary_key=True
    )
    uploader_id: Mapped[str | None] = mapped_column(String(24), nullable=True, index=True)
    # When the photo was taken (EXIF), else when it was uploaded.
    timestamp: Mapped[datetime] = mapped_column(DateTime(timezone=True), nullable=False)
    longitude: Mapped[float] = mapped_column(Float, nullable=False, default=0.0)
    latitude: Mapped[float] = mapped_column(Float, nullable=False, default=0.0)
    annotation: Mapped[str] = mapped_column(Text, nullable=False, default="")
    tags: Mapped[list[str]] = mapped_column(
        ARRAY(String(200)), nullable=False, server_default=_EMPTY_ARRAY
    )
    category_ids: Mapped[list[str]] = mapped_column(
        ARRAY(String(24)), nullable=False, server_default=_EMPTY_ARRAY
    )
    storage_key: Mapped[str] = mapped_column(String(200), nullable=False)
    content_type: Mapped[str] = mapped_column(String(100), nullable=False)
    format: Mapped[str] = mapped_column(String(16), nullable=False)
    byte_size: Mapped[int] = mapped_column(BigInteger, nullable=False)
    width: Mapped[int] = mapped_column(Integer, nullable=False)
    height: Mapped[int] = mapped_column(Integer, nullable=False)
    orientation: Mapped[int] = mapped_column(Integer, nullable=False, default=1)
    device: Mapped[str] = mapped_column(String(200), nullable=False, default="")
    taken_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    original_name: Mapped[str] = mapped_column(String(255), nullable=False, default="")
