"""What a request names before its organization is known, and whose it is.

A reader's message carries its key (HTTP) or its endpoint id (MQTT topic), a program its
API token, a sign-in its username. This global table maps each to its organization and row,
so the tenant row is then read with its org_id; its primary key keeps them unique across
organizations (a sharded tenant table can only be unique within one). Kept in step with
endpoints, API keys and users by the mapper events below, in the same flush.
"""

from collections.abc import Callable, Iterable, Mapping
from typing import Any

from sqlalchemy import ForeignKey, String, and_, delete, event, insert, inspect, or_, update
from sqlalchemy.engine import Connection
from sqlalchemy.orm import Mapped, Mapper, mapped_column

from tagtrack.models.apikey import ApiKey
from tagtrack.models.base import Base
from tagtrack.models.endpoint import Endpoint
from tagtrack.models.user import User

READER_KEY = "reader_key"
ENDPOINT = "endpoint"
API_TOKEN = "api_token"
USERNAME = "username"


class OrgKey(Base):
    __tablename__ = "org_keys"

    kind: Mapped[str] = mapped_column(String(16), primary_key=True)
    key: Mapped[str] = mapped_column(String(254), primary_key=True)
    org_id: Mapped[str] = mapped_column(
        String(24), ForeignKey("organizations.id", ondelete="CASCADE"), nullable=False, index=True
    )
    # The id of the endpoint, API key or user.
    target_id: Mapped[str] = mapped_column(String(24), nullable=False)


# For each model: (kind, attribute, how the attribute's value becomes the key).
_KEYS: dict[type[Base], tuple[tuple[str, str, Callable[[str], str]], ...]] = {
    Endpoint: ((READER_KEY, "key", str), (ENDPOINT, "id", str)),
    ApiKey: ((API_TOKEN, "token_hash", str),),
    User: ((USERNAME, "username", str.lower),),
}


def org_keys_of(model: type[Base], rows: Iterable[Mapping[str, Any]]) -> list[dict[str, str]]:
    """The org_keys rows of endpoints, API keys or users inserted in bulk (no mapper events):
    `session.execute(insert(OrgKey), org_keys_of(User, rows))` beside their insert."""
    return [
        {
            "kind": kind,
            "key": shape(row[attribute]),
            "org_id": row["org_id"],
            "target_id": row["id"],
        }
        for row in rows
        for kind, attribute, shape in _KEYS[model]
    ]


def _rows(target: Any) -> list[dict[str, str]]:
    model = type(target)
    values = {"org_id": target.org_id, "id": target.id}
    values |= {attribute: getattr(target, attribute) for _, attribute, _ in _KEYS[model]}
    return org_keys_of(model, [values])


def _added(mapper: Mapper[Any], connection: Connection, target: Any) -> None:
    connection.execute(insert(OrgKey), _rows(target))


def _removed(mapper: Mapper[Any], connection: Connection, target: Any) -> None:
    keys = [and_(OrgKey.kind == row["kind"], OrgKey.key == row["key"]) for row in _rows(target)]
    connection.execute(delete(OrgKey).where(or_(*keys)))


def _changed(mapper: Mapper[Any], connection: Connection, target: Any) -> None:
    state = inspect(target)
    for kind, attribute, shape in _KEYS[type(target)]:
        history = state.attrs[attribute].history
        if not history.deleted or not history.added:
            continue
        old, new = shape(history.deleted[0]), shape(history.added[0])
        if old != new:
            connection.execute(
                update(OrgKey).where(OrgKey.kind == kind, OrgKey.key == old).values(key=new)
            )


for _model in _KEYS:
    event.listen(_model, "after_insert", _added)
    event.listen(_model, "after_update", _changed)
    event.listen(_model, "after_delete", _removed)
