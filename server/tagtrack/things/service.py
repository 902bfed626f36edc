"""Things (items and workers): CRUD with per-class rights, unique tags, parents, export."""

from collections.abc import AsyncIterator, Sequence
from typing import Any

from tagtrack.access.principal import Principal
from tagtrack.access.rules import Operation
from tagtrack.audit.repository import AuditRepository
from tagtrack.core.errors import BadRequest, Forbidden, NotFound
from tagtrack.kit.lists import ListParams
from tagtrack.kit.tracking import or_unset
from tagtrack.models import Thing
from tagtrack.settings.repository import SettingsRepository
from tagtrack.sites.scope import site_for_write
from tagtrack.sites.service import SiteService
from tagtrack.things.export import ThingSheet, labels_for
from tagtrack.things.repository import Names, ThingFilter, ThingRepository
from tagtrack.things.schemas import (
    CommonFields,
    CommonRead,
    StateRead,
    ThingCreate,
    ThingData,
    ThingRead,
    ThingUpdate,
)
from tagtrack.things.tags import normalize_tag, normalize_tags

PARENT_MISSING = "Parent no longer exists."
EXPORT_PAGE = 5000
# A worksheet holds 1,048,576 rows.
EXPORT_MAX_ROWS = 1_000_000


def thing_read(thing: Thing, names: Names) -> ThingRead:
    xy = [*thing.xy, 0.0, 0.0][:2]
    return ThingRead(
        id=thing.id,
        site=thing.site_id,
        common=CommonRead(
            name=thing.name,
            description=thing.description,
            serial=thing.serial,
            thing_class=thing.thing_class,
            tag1=thing.tag1,
            tag2=thing.tag2,
            tags=list(thing.tags),
            tags1=list(thing.tags1),
            tags2=list(thing.tags2),
            categories=list(thing.categories),
            labels=list(thing.labels),
            parents=list(thing.parents),
            photo=list(thing.photo),
            timeCreated=thing.time_created,
            timeModified=thing.time_modified,
        ),
        state=StateRead(
            zone=thing.zone_id or "",
            zoneName=names.zone,
            lastEvent=or_unset(thing.last_event),
            lastEndpointTime=or_unset(thing.last_endpoint_time),
            lastZoneTime=or_unset(thing.last_zone_time),
            endpoint=thing.endpoint_id or "",
            endpointName=names.endpoint,
            direction=thing.direction,
            locationTag=thing.location_tag_id or "",
            xycoordinates=xy,
            map=thing.map_id,
            alarmTamper=thing.alarm_tamper,
            alarmTamperTag=thing.alarm_tamper_tag,
            alarmTamperTime=or_unset(thing.alarm_tamper_time),
        ),
        data=ThingData.model_validate(thing.data),
    )


def all_tags(common: CommonFields) -> list[str]:
    """Every tag of every field, normalised, once each."""
    return normalize_tags([common.tag1, common.tag2, *common.tags, *common.tags1, *common.tags2])


def stored_common(common: CommonFields, parents: list[str]) -> dict[str, Any]:
    """The editable fields as stored (by attribute): trimmed, tags normalised, lists without
    repeats."""
    return {
        "name": common.name.strip(),
        "description": common.description,
        "serial": common.serial.strip(),
        "tag1": normalize_tag(common.tag1),
        "tag2": normalize_tag(common.tag2),
        "tags": normalize_tags(common.tags),
        "tags1": normalize_tags(common.tags1),
        "tags2": normalize_tags(common.tags2),
        "categories": list(dict.fromkeys(common.categories)),
        "labels": list(dict.fromkeys(common.labels)),
        "parents": parents,
        "photo": list(dict.fromkeys(common.photo)),
    }


def require_right(principal: Principal, thing_class: str, operation: Operation) -> None:
    resource = "workers" if thing_class == "worker" else "items"
    if not principal.can(resource, operation):
        raise Forbidden(f"You do not have the {operation} right on {resource}")


class ThingService:
    def __init__(
        self,
        repository: ThingRepository,
        sites: SiteService,
        settings: SettingsRepository,
        audit: AuditRepository,
    ) -> None:
        self.repository = repository
        self.sites = sites
        self.settings = settings
        self.audit = audit

    async def _reads(self, things: Sequence[Thing]) -> list[ThingRead]:
        names = await self.repository.names(things)
        return [thing_read(t, names.get(t.id, Names())) for t in things]

    async def list_page(
        self, principal: Principal, filters: ThingFilter, params: ListParams
    ) -> tuple[list[ThingRead], int]:
        things, total = await self.repository.page(principal.org_id, filters, params)
        return await self._reads(things), total

    async def get_model(self, principal: Principal, thing_id: str) -> Thing:
        """A thing of the caller's organization and sites; anything else is not found."""
        thing = await self.repository.get(principal.org_id, thing_id)
        if thing is None or not principal.sees_site(thing.site_id):
            raise NotFound("Thing not found")
        return thing

    async def get(self, principal: Principal, thing_id: str) -> ThingRead:
        return (await self._reads([await self.get_model(principal, thing_id)]))[0]

    async def by_tag(self, principal: Principal, tag: str) -> ThingRead:
        thing = await self.repository.by_tag(principal.org_id, normalize_tag(tag))
        if thing is None or not principal.sees_site(thing.site_id):
            raise NotFound(f"No thing carries the tag {normalize_tag(tag)}")
        return (await self._reads([thing]))[0]

    async def children(
        self, principal: Principal, thing_id: str, filters: ThingFilter, params: ListParams
    ) -> tuple[list[ThingRead], int]:
        parent = await self.get_model(principal, thing_id)
        things, total = await self.repository.children_page(
            principal.org_id, parent.id, filters, params
        )
        return await self._reads(things), total

    async def parents(
        self, principal: Principal, thing_id: str, filters: ThingFilter, params: ListParams
    ) -> tuple[list[ThingRead], int]:
        child = await self.get_model(principal, thing_id)
        things, total = await self.repository.parents_page(
            principal.org_id, child.parents, filters, params
        )
        return await self._reads(things), total

    async def _apply(self, principal: Principal, thing: Thing, common: CommonFields) -> list[str]:
        """Check and copy the editable fields; return the thing's tags for thing_tags."""
        tags = all_tags(common)
        duplicate = await self.repository.tag_taken(principal.org_id, tags, thing.id)
        if duplicate is not None:
            raise BadRequest(
                f"Tag {duplicate} is a duplicate of another thing's tag", reason="duplicate"
            )
        parents = list(dict.fromkeys(common.parents))
        if thing.id is not None and thing.id in parents:
            raise BadRequest("A thing cannot be its own parent")
        found = await self.repository.existing_ids(principal.org_id, parents)
        if any(p not in found for p in parents):
            raise BadRequest(PARENT_MISSING, reason="parent missing")
        for name, value in stored_common(common, parents).items():
            setattr(thing, name, value)
        return tags

    async def create(self, principal: Principal, body: ThingCreate) -> ThingRead:
        require_right(principal, body.common.thing_class, "create")
        site = await site_for_write(self.sites, principal, body.site)
        thing = Thing(org_id=principal.org_id, site_id=site.id)
        thing.thing_class = body.common.thing_class
        tags = await self._apply(principal, thing, body.common)
        thing.data = body.data.model_dump(mode="json")
        await self.repository.add(thing)
        await self.repository.replace_tags(principal.org_id, thing.id, tags)
        return (await self._reads([thing]))[0]

    async def update(self, principal: Principal, thing_id: str, body: ThingUpdate) -> ThingRead:
        thing = await self.get_model(principal, thing_id)
        require_right(principal, thing.thing_class, "modify")
        wanted = body.common.thing_class
        if wanted is not None and wanted != thing.thing_class:
            raise BadRequest(
                f"common.class cannot change (it is '{thing.thing_class}')",
                reason="class immutable",
            )
        tags = await self._apply(principal, thing, body.common)
        thing.data = body.data.model_dump(mode="json")
        if body.state is not None and body.state.alarmTamper is False:
            thing.alarm_tamper = False
        await self.repository.save(thing)
        await self.repository.replace_tags(principal.org_id, thing.id, tags)
        return (await self._reads([thing]))[0]

    async def delete(self, principal: Principal, thing_id: str) -> None:
        thing = await self.get_model(principal, thing_id)
        require_right(principal, thing.thing_class, "delete")
        await self.repository.forget_parent(principal.org_id, thing.id)
        await self.repository.delete(thing)

    async def export(
        self, principal: Principal, filters: ThingFilter, params: ListParams
    ) -> tuple[str, AsyncIterator[bytes]]:
        """The list's rows (every page) as an XLSX file with the site's labels: its name and
        its bytes, streamed from a temporary file that is gone once the stream ends."""
        sites = filters.site_ids
        labels, _ = await labels_for(self.settings, principal.org_id, sites)
        async with ThingSheet(labels) as sheet:
            page = 0
            while page * EXPORT_PAGE < EXPORT_MAX_ROWS:
                chunk = ListParams(
                    limit=EXPORT_PAGE,
                    page=page,
                    sort=params.sort,
                    search=params.search,
                    search2=params.search2,
                )
                things, total = await self.repository.page(principal.org_id, filters, chunk)
                await sheet.write(things, await self.repository.names(things))
                page += 1
                if page * EXPORT_PAGE >= total:
                    break
            content = await sheet.finish()
        name = {"item": "items", "worker": "workers"}.get(filters.thing_class, "things")
        await self.audit.record(
            principal,
            "things.exported",
            "things",
            target=f"{name}.xlsx",
            detail={"search": params.search, "sites": sites or "all"},
        )
        return f"{name}.xlsx", content
