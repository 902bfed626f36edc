from collections.abc import Sequence
from typing import Any

import orjson
from sqlalchemy import BigInteger, cast, func, insert, or_, select

from tagtrack.kit.repository import Repository, as_dbapi_error
from tagtrack.models import ImageCategory, Site, ThingTag, Zone
from tagtrack.processing.repository import any_of

# Every column of an imported thing, its state included.
_COLUMNS = (
    "id", "org_id", "site_id", "class", "name", "description", "serial", "tag1", "tag2",
    "tags", "tags1", "tags2", "categories", "labels", "parents", "photo", "data",
    "zone_id", "last_event", "last_endpoint_time", "last_zone_time", "last_zone_read",
    "endpoint_id", "direction", "location_tag_id", "xy", "map_id", "alarm_tamper",
    "alarm_tamper_tag", "alarm_tamper_time", "time_created", "time_modified",
)  # fmt: skip


def _like_prefix(prefix: str) -> str:
    return prefix.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"


class ImportRepository(Repository[ImageCategory]):
    model = ImageCategory

    async def lock(self, org_id: str, purpose: str) -> None:
        """Serialise imports of one organization for this purpose until the transaction ends,
        so that concurrent rows neither take the same generated tag nor create a category
        twice."""
        key = f"tagtrack.import.{purpose}:{org_id}"
        await self.session.execute(select(func.pg_advisory_xact_lock(func.hashtext(key))))

    async def highest_generated(self, org_id: str, prefix: str) -> int:
        """The highest number N of the organization's tags spelled prefix + digits, or 0."""
        number = func.substr(ThingTag.tag, len(prefix) + 1)
        stmt = select(func.max(cast(number, BigInteger))).where(
            ThingTag.org_id == org_id,
            ThingTag.tag.like(_like_prefix(prefix), escape="\\"),
            number.regexp_match("^[0-9]{1,18}$"),
        )
        return int((await self.session.execute(stmt)).scalar() or 0)

    async def categories_named(self, org_id: str, names: Sequence[str]) -> dict[str, str]:
        """The organization's category names among these, by lower-case name."""
        lowered = [n.lower() for n in names]
        stmt = select(ImageCategory.name).where(
            ImageCategory.org_id == org_id, func.lower(ImageCategory.name).in_(lowered)
        )
        return {name.lower(): name for name in (await self.session.execute(stmt)).scalars()}

    async def add_categories(self, org_id: str, names: Sequence[str]) -> None:
        """New categories of the organization, in one statement."""
        if names:
            await self.session.execute(
                insert(ImageCategory),
                [{"org_id": org_id, "name": n, "description": ""} for n in names],
            )

    async def tag_owners(self, org_id: str, tags: Sequence[str]) -> dict[str, str]:
        """The things carrying any of these (normalised) tags: thing id by tag."""
        if not tags:
            return {}
        stmt = select(ThingTag.tag, ThingTag.thing_id).where(
            ThingTag.org_id == org_id, ThingTag.tag == any_of(tags)
        )
        return {tag: thing_id for tag, thing_id in (await self.session.execute(stmt)).all()}

    async def add_things(
        self, org_id: str, things: Sequence[dict[str, Any]], tags: dict[str, list[str]]
    ) -> None:
        """New things (every column of _COLUMNS, with ids) and their tags (by thing
        id), each table in one COPY: a batch's rows cost the database and the driver far
        less than as statement parameters."""
        records = [
            tuple(orjson.dumps(thing[c]).decode() if c == "data" else thing[c] for c in _COLUMNS)
            for thing in things
        ]
        tag_records = [
            (org_id, tag, thing_id) for thing_id, carried in tags.items() for tag in carried
        ]
        driver = await self._driver()
        async with as_dbapi_error("COPY things"):
            await driver.copy_records_to_table("things", records=records, columns=_COLUMNS)
            if tag_records:
                await driver.copy_records_to_table(
                    "thing_tags", records=tag_records, columns=("org_id", "tag", "thing_id")
                )

    async def sites_named(self, text: str) -> Sequence[Site]:
        """Sites whose id is this text or whose name is it (any case), in any organization."""
        stmt = select(Site).where(or_(Site.id == text, func.lower(Site.name) == text.lower()))
        return (await self.session.execute(stmt.order_by(Site.id))).scalars().all()

    async def zones_named(self, site: Site, text: str) -> Sequence[Zone]:
        stmt = select(Zone).where(
            Zone.org_id == site.org_id,
            Zone.site_id == site.id,
            or_(Zone.id == text, func.lower(Zone.name) == text.lower()),
        )
        return (await self.session.execute(stmt.order_by(Zone.id))).scalars().all()
