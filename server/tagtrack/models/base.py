"""Declarative base and shared column helpers."""

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import DateTime, ForeignKeyConstraint, MetaData, String
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column
from sqlalchemy.sql.schema import ColumnCollectionConstraint

from tagtrack.models.ids import new_id


def _referring_column(constraint: ColumnCollectionConstraint, table: Any) -> str:
    """The column a foreign key is about: the last, after org_id in (org_id, x_id)."""
    return str(list(constraint.columns.keys())[-1])


NAMING: dict[str, Any] = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "referring_column": _referring_column,
    "fk": "fk_%(table_name)s_%(referring_column)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}


def utcnow() -> datetime:
    return datetime.now(UTC)


class Base(DeclarativeBase):
    metadata = MetaData(naming_convention=NAMING)


class IdMixin:
    id: Mapped[str] = mapped_column(String(24), primary_key=True, default=new_id)


class TimestampMixin:
    time_created: Mapped[datetime] = mapped_column(
        DateTime(timezone=True), default=utcnow, nullable=False
    )
    time_modified: Mapped[datetime] = mapped_column(
        DateTime(timezone=True), default=utcnow, onupdate=utcnow, nullable=False
    )


def tenant_key(column: str, referred: str, ondelete: str) -> ForeignKeyConstraint:
    """`(org_id, column) REFERENCES referred (org_id, id)`: a reference never leaves its
    organization. ON DELETE SET NULL sets only `column` in the database (migration 0010)."""
    return ForeignKeyConstraint(
        ["org_id", column], [f"{referred}.org_id", f"{referred}.id"], ondelete=ondelete
    )
