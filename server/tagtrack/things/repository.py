from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime

from sqlalchemy import ColumnElement, delete, func, insert, select, update

from tagtrack.kit.lists import Column, ListParams, paginate
from tagtrack.kit.repository import Repository
from tagtrack.models import Endpoint, Thing, ThingTag, Zone
from tagtrack.things.tags import normalize_tags

# Every tag field as one text, so a search matches any tag.
_ALL_TAGS = func.concat_ws(
    " ",
    Thing.tag1,
    Thing.tag2,
    func.array_to_string(Thing.tags, " "),
    func.array_to_string(Thing.tags1, " "),
    func.array_to_string(Thing.tags2, " "),
)

_SORTABLE: dict[str, Column] = {
    "name": Thing.name,
    "serial": Thing.serial,
    "description": Thing.description,
    "class": Thing.thing_class,
    "tag1": Thing.tag1,
    "timeCreated": Thing.time_created,
    "timeModified": Thing.time_modified,
    "lastEvent": Thing.last_event,
    "lastEndpointTime": Thing.last_endpoint_time,
    "lastZoneTime": Thing.last_zone_time,
    "zoneName": Zone.name,
    "endpointName": Endpoint.name,
    "site": Thing.site_id,
}
# The console may name fields as they sit in the JSON: common.name, state.lastEvent.
SORTABLE: dict[str, Column] = {
    **_SORTABLE,
    **{f"common.{k}": _SORTABLE[k] for k in ("name", "serial", "description", "class", "tag1")},
    **{f"common.{k}": _SORTABLE[k] for k in ("timeCreated", "timeModified")},
    **{f"state.{k}": _SORTABLE[k] for k in ("lastEvent", "lastEndpointTime", "lastZoneTime")},
    **{f"state.{k}": _SORTABLE[k] for k in ("zoneName", "endpointName")},
}


@dataclass(frozen=True)
class ThingFilter:
    site_ids: Sequence[str] | None
    thing_class: str = ""
    tags: Sequence[str] = field(default_factory=tuple)
    category: str = ""
    after: datetime | None = None


@dataclass(frozen=True)
class Names:
    zone: str = ""
    endpoint: str = ""


class ThingRepository(Repository[Thing]):
    model = Thing

    def _where(self, org_id: str, filters: ThingFilter) -> list[ColumnElement[bool]]:
        where: list[ColumnElement[bool]] = [Thing.org_id == org_id]
        if filters.site_ids is not None:
            where.append(Thing.site_id.in_(list(filters.site_ids)))
        if filters.thing_class:
            where.append(Thing.thing_class == filters.thing_class)
        if filters.tags:
            tagged = select(ThingTag.thing_id).where(
                ThingTag.org_id == org_id, ThingTag.tag.in_(normalize_tags(filters.tags))
            )
            where.append(Thing.id.in_(tagged))
        if filters.category:
            where.append(Thing.categories.contains([filters.category]))
        if filters.after is not None:
            where.append(Thing.last_event >= filters.after)
        return where

    async def page(
        self, org_id: str, filters: ThingFilter, params: ListParams, *extra: ColumnElement[bool]
    ) -> tuple[Sequence[Thing], int]:
        stmt = (
            select(Thing)
            .outerjoin(Zone, (Zone.org_id == Thing.org_id) & (Zone.id == Thing.zone_id))
            .outerjoin(
                Endpoint, (Endpoint.org_id == Thing.org_id) & (Endpoint.id == Thing.endpoint_id)
            )
            .where(*self._where(org_id, filters), *extra)
        )
        return await paginate(
            self.session,
            stmt,
            params,
            sortable=SORTABLE,
            default_sort="name",
            searchable=[Thing.name, Thing.serial, Thing.description, _ALL_TAGS],
            tiebreak=Thing.id,
        )

    async def children_page(
        self, org_id: str, parent_id: str, filters: ThingFilter, params: ListParams
    ) -> tuple[Sequence[Thing], int]:
        return await self.page(org_id, filters, params, Thing.parents.contains([parent_id]))

    async def parents_page(
        self, org_id: str, parent_ids: Sequence[str], filters: ThingFilter, params: ListParams
    ) -> tuple[Sequence[Thing], int]:
        return await self.page(org_id, filters, params, Thing.id.in_(list(parent_ids)))

    async def names(self, things: Sequence[Thing]) -> dict[str, Names]:
        """Zone and endpoint names of these things' states, in one joined query."""
        ids = [t.id for t in things if t.zone_id or t.endpoint_id]
        if not ids:
            return {}
        org_id = things[0].org_id
        stmt = (
            select(Thing.id, Zone.name, Endpoint.name)
            .outerjoin(Zone, (Zone.org_id == Thing.org_id) & (Zone.id == Thing.zone_id))
            .outerjoin(
                Endpoint, (Endpoint.org_id == Thing.org_id) & (Endpoint.id == Thing.endpoint_id)
            )
            .where(Thing.org_id == org_id, Thing.id.in_(ids))
        )
        rows = await self.session.execute(stmt)
        return {thing_id: Names(zone or "", endpoint or "") for thing_id, zone, endpoint in rows}

    async def get(self, org_id: str, thing_id: str) -> Thing | None:
        stmt = select(Thing).where(Thing.org_id == org_id, Thing.id == thing_id)
        return (await self.session.execute(stmt)).scalar_one_or_none()

    async def save(self, thing: Thing) -> Thing:
        """Write pending changes of this thing now (its modified time is set here)."""
        self.session.add(thing)
        await self.session.flush()
        return thing

    async def existing_ids(self, org_id: str, ids: Sequence[str]) -> set[str]:
        if not ids:
            return set()
        stmt = select(Thing.id).where(Thing.org_id == org_id, Thing.id.in_(list(ids)))
        return set((await self.session.execute(stmt)).scalars().all())

    async def forget_parent(self, org_id: str, parent_id: str) -> None:
        """Drop a deleted thing from its children's parents."""
        await self.session.execute(
            update(Thing)
            .where(Thing.org_id == org_id, Thing.parents.contains([parent_id]))
            .values(parents=func.array_remove(Thing.parents, parent_id))
        )

    # Tags: one row per distinct normalised tag, unique within the organization.

    async def tag_taken(
        self, org_id: str, tags: Sequence[str], except_thing: str | None
    ) -> str | None:
        """The first of these (normalised) tags another thing carries, or None."""
        if not tags:
            return None
        stmt = select(ThingTag.tag).where(ThingTag.org_id == org_id, ThingTag.tag.in_(list(tags)))
        if except_thing:
            stmt = stmt.where(ThingTag.thing_id != except_thing)
        return (await self.session.execute(stmt.order_by(ThingTag.tag).limit(1))).scalar()

    async def replace_tags(self, org_id: str, thing_id: str, tags: Sequence[str]) -> None:
        await self.session.execute(
            delete(ThingTag).where(ThingTag.org_id == org_id, ThingTag.thing_id == thing_id)
        )
        if tags:
            await self.session.execute(
                insert(ThingTag),
                [{"org_id": org_id, "tag": tag, "thing_id": thing_id} for tag in tags],
            )

    async def by_tag(self, org_id: str, tag: str) -> Thing | None:
        stmt = (
            select(Thing)
            .join(ThingTag, (ThingTag.org_id == Thing.org_id) & (ThingTag.thing_id == Thing.id))
            .where(ThingTag.org_id == org_id, ThingTag.tag == tag)
        )
        return (await self.session.execute(stmt)).scalar_one_or_none()


# The tag a report shows for a thing: tag 1, else the first of its other tags.
SHOWN_TAG = func.coalesce(
    func.nullif(Thing.tag1, ""),
    func.nullif(Thing.tag2, ""),
    Thing.tags[1],
    Thing.tags1[1],
    Thing.tags2[1],
    "",
)
