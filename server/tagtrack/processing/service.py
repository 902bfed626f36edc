"""Processing rules (DESIGN section 6), applied to a batch of reads in time order.

A batch is loaded in a few queries, applied in memory on plain rows and written back with a
few set-based statements (see the repository). The caller holds the organization's advisory
lock, so batches of one organization never interleave and thing state stays consistent
across processes. A batch loaded ahead, while the one before it is written
(`load_following`), writes only once it has that lock and no one else processed in between
(`adopt`).
"""

import asyncio
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta
from operator import attrgetter

from sqlalchemy.exc import DBAPIError
from sqlalchemy.ext.asyncio import AsyncSession

from tagtrack.core.config import Settings
from tagtrack.core.logging import get_logger
from tagtrack.exceptions.repository import ExceptionRepository
from tagtrack.exceptions.service import process_exception, zone_time_exception
from tagtrack.live.repository import LiveRepository
from tagtrack.mail.service import Outbox
from tagtrack.models import Endpoint, LocationTag, TrackingException, Zone, ZoneGate
from tagtrack.models.base import utcnow
from tagtrack.models.ids import UNKNOWN_THING_ID, new_id
from tagtrack.processing.repository import (
    Epoch,
    EventRow,
    FoldKey,
    ProcessingRepository,
    ReadRow,
    ThingRow,
    VisitRow,
    queue_row,
)
from tagtrack.processing.state import Row, WorkingState, as_written, continued, mark_written

log = get_logger("tagtrack.processing")

ENTERING = ("IN", "NEAR")
LEAVING = ("OUT", "GONE")
KILL_SITE = "site"
# Reads of one organization a batch at most. Each batch costs a dozen loads whatever its
# size, and a thing or event read in several batches is written once per batch: a backlog
# taken 50,000 reads at a time wrote a quarter fewer things and half as many event updates
# as 20,000 at a time. A batch this large is a backlog's; under a steady load batches stay
# small, and so does the time the organization's lock is held.
BATCH_READS = 50_000
# Reads applied between two looks at the event loop while the previous batch is written.
APPLY_SLICE = 2_000
# A read's (endpoint, antenna, tag): the event it may fold into.
FOLD_KEY = attrgetter("endpoint_id", "antenna", "tag")
# Dwell alerts are looked for among visits that started this recently.
OVERSTAY_LOOKBACK = timedelta(days=31)


def is_data_error(exc: DBAPIError) -> bool:
    """A failure caused by the data (a value, a constraint), not by the database being away."""
    sqlstate = str(getattr(exc.orig, "sqlstate", "") or "")
    return sqlstate[:2] in ("22", "23")


BIGINT_MAX = 2**63 - 1


def nanoseconds(delta: timedelta) -> int:
    """Whole nanoseconds, never negative, and within a bigint (about 292 years)."""
    return min(BIGINT_MAX, max(0, int(delta.total_seconds() * 1e9)))


@dataclass
class Placement:
    """Where a read puts its thing: a zone to enter or leave, and a position."""

    enter: Zone | None = None
    leave: Zone | None = None
    direction: str = ""
    location: LocationTag | None = None
    xy: list[float] | None = None
    map_id: str = ""


@dataclass
class Alert:
    """A dwell exception's mail, queued in the outbox with the exception."""

    org_id: str
    to: list[str]
    subject: str
    text: str


@dataclass(slots=True)
class Repeat:
    """What the newest read of a thing did, so that a repeat of it can be applied in a few steps.

    A read with the same endpoint, antenna, tag and direction, no tamper flag and no sensor
    data, within the repeat window and with nothing else having touched the thing since (nor
    its endpoint having read a location tag: `apply` forgets every step then), has exactly
    this effect under the rules: the thing's times and the event's Last Seen move to it and
    the event counts one more read (see `BatchProcessor.repeat`).
    """

    thing: ThingRow
    event: EventRow
    direction: str
    in_zone: bool  # the read put the thing in (or kept it in) its current zone


@dataclass
class Outcome:
    processed: int = 0
    events_created: int = 0
    exceptions: int = 0
    alerts: list[Alert] = field(default_factory=list)
    # What a worker may keep for the organization's next batch, once this one commits.
    state: WorkingState | None = None

    def add(self, other: "Outcome") -> None:
        self.processed += other.processed
        self.events_created += other.events_created
        self.exceptions += other.exceptions
        self.alerts += other.alerts


@dataclass
class FreshThings:
    """New things a caller writes itself, once a batch has set their state: one row each
    instead of an insert and then an update of every one."""

    things: dict[str, ThingRow]
    # Thing id by each of their (normalised) tags.
    tags: dict[str, str]
    write: Callable[[Sequence[ThingRow]], Awaitable[None]]


class BatchProcessor:
    def __init__(
        self,
        session: AsyncSession,
        settings: Settings,
        org_id: str,
        kept: WorkingState | None = None,
        kept_version: int | None = None,
    ) -> None:
        self.session = session
        # Rows the previous batch of this epoch left, still as the database holds them; or,
        # with `kept_version`, as that batch (its transaction still open) will write them.
        self.kept = kept
        self.kept_version = kept_version
        self.repository = ProcessingRepository(session)
        self.org_id = org_id
        self.window = timedelta(seconds=settings.repeat_window_seconds)
        self.location_hold = timedelta(seconds=settings.location_hold_seconds)
        self.outcome = Outcome()
        self.visits: dict[str, VisitRow] = {}
        self.things: dict[str, ThingRow] = {}
        # Auto-enrolled things by id, with the tag that named them.
        self.enrolled: dict[str, str] = {}
        # Rows to write back when the batch ends, by id.
        self.changed_events: dict[str, EventRow] = {}
        self.changed_visits: dict[str, VisitRow] = {}
        # Repeat fast path: the newest foldable read per (endpoint, antenna, tag), and what
        # last touched each thing (a repeat is only taken when nothing else has since).
        self.fold_repeats = True
        self.repeats: dict[FoldKey, Repeat] = {}
        self.touched: dict[str, Repeat | None] = {}
        self.fresh: FreshThings | None = None
        # processExceptions found, added to the session that writes the batch.
        self.found: list[TrackingException] = []
        self.ordered: list[ReadRow] = []

    def own(self, row: Row) -> Row:
        """A kept row this batch may change."""
        return row if self.kept_version is None else as_written(row, self.kept_version)

    async def run(self, reads: Sequence[ReadRow]) -> Outcome:
        self.apply_all(await self.load(reads))
        await self.finish()
        return self.outcome

    async def load(self, reads: Sequence[ReadRow]) -> list[ReadRow]:
        """Load what the reads need, in time order; the reads so ordered (also `ordered`)."""
        # A cached generic plan of the history updates cannot see the batch's time range: it
        # read every event of the organization in that range and hash-joined them, about a
        # second a batch at 160,000 events, where the planned one probes the primary key.
        await self.repository.plan_for_these_values()
        ordered = sorted(reads, key=attrgetter("time", "id"))
        # Sets of a batch's values built by map() and attrgetter, in C.
        tags = set(map(attrgetter("tag"), ordered))
        # Manual reads name no endpoint, and fold into no event.
        keys = {key for key in set(map(FOLD_KEY, ordered)) if key[0]}
        # A batch loaded ahead takes no lock on them (the batch before it holds one): if it
        # reads a location tag, it is loaded again after that batch (`load_following`).
        self.endpoints = await self.repository.endpoints(
            self.org_id,
            {endpoint_id for endpoint_id, _, _ in keys},
            for_update=self.kept_version is None,
        )
        self.gates: dict[str, list[ZoneGate]] = {}
        for gate in await self.repository.gates(self.org_id, self.endpoints):
            self.gates.setdefault(gate.endpoint_id, []).append(gate)
        self.locations = await self.repository.location_tags(self.org_id, tags)
        held = {e.location_tag_id for e in self.endpoints.values() if e.location_tag_id}
        self.locations_by_id = {lt.id: lt for lt in self.locations.values()}
        self.locations_by_id.update(await self.repository.location_tags_by_id(self.org_id, held))
        site_ids = {e.site_id for e in self.endpoints.values()}
        self.prefixes = await self.repository.tag_prefixes(self.org_id, site_ids)
        # A read of a new thing's tag finds that thing first: no stored one is looked for.
        stored_tags = {t for t in tags if not self.fresh or t not in self.fresh.tags}
        candidates = set(stored_tags)
        for prefix in set(self.prefixes.values()):
            candidates |= {prefix + t for t in stored_tags}
            candidates |= {t.removeprefix(prefix) for t in stored_tags}
        self.thing_ids = (
            await self.repository.thing_ids_by_tag(self.org_id, candidates) if candidates else {}
        )
        if self.kept is not None and self.kept_version is not None:
            enrolled = self.kept.enrolled
            self.thing_ids.update({t: enrolled[t] for t in candidates if t in enrolled})
        fresh = self.fresh.things if self.fresh else {}
        stored = {i for i in self.thing_ids.values() if i not in fresh}
        if self.kept is not None:
            own, kept = self.own, self.kept
            self.things = {i: own(kept.things[i]) for i in stored if i in kept.things}
            self.visits = {i: own(kept.visits[i]) for i in self.things if i in kept.visits}
            stored -= self.things.keys()
        if stored:
            loaded = await self.repository.things_for_update(self.org_id, stored)
            self.visits.update(await self.repository.open_visits(self.org_id, loaded))
            self.things.update(loaded)
        if self.fresh:
            self.thing_ids.update(self.fresh.tags)
            self.things.update(fresh)
        zone_ids = {g.zone_id for gs in self.gates.values() for g in gs}
        zone_ids |= {lt.zone_id for lt in self.locations_by_id.values() if lt.zone_id}
        zone_ids |= {t.zone_id for t in self.things.values() if t.zone_id}
        zone_ids |= set(map(attrgetter("zone_id"), ordered)) - {None}
        self.zones = await self.repository.zones(self.org_id, zone_ids)
        # An event older than this cannot take a read of this batch (see record_event), and
        # a new event replaces it as the newest anyway.
        fold_since = ordered[0].time - self.window if ordered else utcnow()
        self.latest = {}
        if self.kept is not None:
            own, latest = self.own, self.kept.latest
            self.latest = {k: own(latest[k]) for k in keys if k in latest}
        self.latest.update(
            await self.repository.latest_events(self.org_id, keys - self.latest.keys(), fold_since)
        )
        self.ordered = ordered
        return ordered

    async def apply_beside(self) -> None:
        """Apply the loaded reads a slice at a time, letting the event loop send the previous
        batch's writes in between: PostgreSQL writes that batch while Python applies this."""
        ordered = self.ordered
        for start in range(0, len(ordered), APPLY_SLICE):
            self.apply_all(ordered[start : start + APPLY_SLICE])
            await asyncio.sleep(0)

    def apply_all(self, ordered: Sequence[ReadRow]) -> None:
        """Apply reads in time order; repeats of a thing's newest read take the short path."""
        repeats = self.repeats
        for read in ordered:
            step = repeats.get(FOLD_KEY(read))
            if step is None or not self.repeat(step, read):
                self.apply(read)
        self.outcome.processed += len(ordered)

    def repeat(self, step: Repeat, read: ReadRow) -> bool:
        """Apply `read` as a plain repeat of `step`'s read, if it is one; False when not.

        Under the rules such a read sets the thing's Last Event and endpoint time (and its
        last read in the zone when the read enters that zone), sets the event's Last Seen
        and counts it; every other field it sets already holds the value it would set.
        """
        event = step.event
        thing = step.thing
        at = read.time
        if (
            read.tamper
            or read.data
            or read.zone_id is not None
            or read.direction != step.direction
            or self.touched.get(thing.id) is not step
            or at < event.time
            or at > event.time + self.window
        ):
            return False
        thing.last_event = at
        thing.last_endpoint_time = at
        if step.in_zone:
            thing.last_zone_read = at
        event.time = at
        event.repeat_count += 1
        event.dirty = True
        return True

    async def finish(self) -> None:
        self.session.add_all(self.found)
        # Things (and new ones' tags) first: visits and events refer to them.
        await self.session.flush()  # endpoints' held location tags
        fresh = self.fresh.things if self.fresh else {}
        await self.repository.enroll(
            [t for t in self.things.values() if not t.stored and t.id not in fresh], self.enrolled
        )
        if self.fresh:
            await self.fresh.write(list(fresh.values()))
        await self.repository.write_things(self.things.values())
        await self.repository.write_visits(self.changed_visits.values())
        await self.repository.write_events(self.changed_events.values())
        # Consoles showing these sites refresh once this transaction commits.
        await LiveRepository(self.session).announce(self.org_id, self.changed_sites())

    def written(self, epoch: Epoch) -> WorkingState:
        """The rows as this batch wrote them, which its commit makes the database's."""
        for rows in (self.things, self.changed_events, self.changed_visits):
            for row in rows.values():
                mark_written(row, epoch.version)
        return self.ahead(epoch)

    def ahead(self, epoch: Epoch) -> WorkingState:
        """This batch's rows, for the next batch: as written once `written` has run, else
        as this batch will write them (the next batch then copies them, see `own`)."""
        enrolled = {tag: thing_id for thing_id, tag in self.enrolled.items()}
        return WorkingState(epoch.count, self.things, self.visits, self.latest, enrolled)

    def changed_sites(self) -> set[str]:
        sites = {event.site_id for event in self.changed_events.values()}
        sites |= {visit.site_id for visit in self.changed_visits.values()}
        sites |= {thing.site_id for thing in self.things.values() if thing.dirty}
        return sites

    def apply(self, read: ReadRow) -> None:
        endpoint = self.endpoints.get(read.endpoint_id) if read.endpoint_id else None
        zone = self.zones.get(read.zone_id) if read.zone_id else None
        if endpoint is not None:
            site_id = endpoint.site_id
        elif zone is not None:
            site_id = zone.site_id
        else:
            self.process_exception(read, "the endpoint no longer exists")
            return
        location = self.locations.get(read.tag)
        if location is not None and endpoint is not None:
            # A location tag says where the handheld stands; it is not a thing.
            if endpoint.location_time is None or read.time >= endpoint.location_time:
                endpoint.location_tag_id = location.id
                endpoint.location_time = read.time
                # Reads there now take their place from it: none is a plain repeat.
                self.repeats.clear()
            return
        placement = self.place(read, endpoint, zone)
        thing = self.thing_for(read, endpoint, site_id)
        if thing is not None:
            self.update_state(thing, read, endpoint, site_id, placement)
        event = self.record_event(read, endpoint, site_id, thing, placement)
        if thing is not None and self.fold_repeats:
            self.remember(read, endpoint, thing, event, placement)

    def remember(
        self,
        read: ReadRow,
        endpoint: Endpoint | None,
        thing: ThingRow,
        event: EventRow,
        placement: Placement,
    ) -> None:
        """Note what this read did, when a repeat of it can take the short path."""
        step = None
        key = (read.endpoint_id, read.antenna, read.tag)
        if (
            endpoint is not None
            and self.latest.get(key) is event  # the event the next read would fold into
            and read.zone_id is None
            and placement.location is None
            and endpoint.location_tag_id is None
            and thing.last_event == read.time  # the read became the thing's present state
            and thing.endpoint_id == endpoint.id  # not cleared by leaving the site
            and event.time == read.time
        ):
            step = Repeat(thing, event, read.direction, placement.enter is not None)
            self.repeats[key] = step
        self.touched[thing.id] = step

    def place(self, read: ReadRow, endpoint: Endpoint | None, zone: Zone | None) -> Placement:
        if zone is not None:  # a manual event names its zone
            return Placement(enter=zone, direction="IN")
        assert endpoint is not None
        placement = Placement(direction=read.direction)
        for gate in self.gates.get(endpoint.id, []):
            if gate.antenna not in (-1, read.antenna):
                continue
            gate_zone = self.zones.get(gate.zone_id)
            if gate_zone is None:
                continue
            direction = gate.direction
            # An external gate reader knows the direction of travel itself.
            if endpoint.external_gate and read.direction in ENTERING + LEAVING:
                direction = read.direction
            placement.direction = direction
            if direction in ENTERING:
                placement.enter = gate_zone
            else:
                placement.leave = gate_zone
            break
        held = self.held_location(endpoint, read.time)
        if held is not None:
            placement.location = held
            placement.xy = list(held.xy)
            placement.map_id = held.map_id
            if placement.enter is None and placement.leave is None and held.zone_id:
                placement.enter = self.zones.get(held.zone_id)
        elif 0 <= read.antenna < len(endpoint.antennas):
            antenna = endpoint.antennas[read.antenna]
            placement.xy = list(antenna.get("xycoordinates") or endpoint.xy)
            placement.map_id = antenna.get("map") or endpoint.map_id
        else:
            placement.xy = list(endpoint.xy)
            placement.map_id = endpoint.map_id
        return placement

    def held_location(self, endpoint: Endpoint, at: datetime) -> LocationTag | None:
        if endpoint.location_tag_id is None or endpoint.location_time is None:
            return None
        if not endpoint.location_time <= at <= endpoint.location_time + self.location_hold:
            return None
        return self.locations_by_id.get(endpoint.location_tag_id)

    def thing_for(self, read: ReadRow, endpoint: Endpoint | None, site_id: str) -> ThingRow | None:
        prefix = self.prefixes.get(site_id, "")
        # With a site tag prefix, a thing may be stored with or without it.
        for tag in (read.tag, prefix + read.tag, read.tag.removeprefix(prefix)):
            thing_id = self.thing_ids.get(tag)
            if thing_id is not None:
                return self.things.get(thing_id)
        if endpoint is None or not endpoint.auto_enroll:
            return None
        thing = ThingRow(
            id=new_id(),
            org_id=self.org_id,
            site_id=site_id,
            zone_id=None,
            last_event=None,
            last_endpoint_time=None,
            last_zone_time=None,
            last_zone_read=None,
            endpoint_id=None,
            direction="",
            location_tag_id=None,
            xy=list(endpoint.xy) if endpoint.auto_enroll_location else [0, 0],
            map_id=endpoint.map_id if endpoint.auto_enroll_location else "",
            alarm_tamper=False,
            alarm_tamper_tag="",
            alarm_tamper_time=None,
            data={},
            stored=False,
        )
        self.enrolled[thing.id] = read.tag
        self.thing_ids[read.tag] = thing.id
        # A new tag may now match a read another thing matched before (site tag prefixes).
        self.repeats.clear()
        self.things[thing.id] = thing
        return thing

    def update_state(
        self,
        thing: ThingRow,
        read: ReadRow,
        endpoint: Endpoint | None,
        site_id: str,
        placement: Placement,
    ) -> None:
        thing.dirty = True
        if read.tamper and (
            thing.alarm_tamper_time is None or read.time >= thing.alarm_tamper_time
        ):
            thing.alarm_tamper = True
            thing.alarm_tamper_tag = read.tag
            thing.alarm_tamper_time = read.time
        if thing.last_event is not None and read.time < thing.last_event:
            # An older read than what the state shows changes history, not the present.
            return
        thing.last_event = read.time
        thing.site_id = site_id
        thing.direction = placement.direction
        if read.data:
            # The thing shows its sensor's latest values.
            thing.data = {**thing.data, **read.data}
        if endpoint is not None:
            thing.endpoint_id = endpoint.id
            thing.last_endpoint_time = read.time
        if placement.location is not None:
            thing.location_tag_id = placement.location.id
        if placement.xy is not None:
            thing.xy = placement.xy
            thing.map_id = placement.map_id
        current = self.zones.get(thing.zone_id) if thing.zone_id else None
        if placement.enter is not None:
            if current is not None and current.id == placement.enter.id:
                thing.last_zone_read = read.time
            else:
                self.move(thing, placement.enter, read.time)
        elif placement.leave is not None and current is not None:
            if current.id != placement.leave.id:
                return
            if current.immediate_kill or current.kill_duration <= 0:
                self.leave(thing, current, read.time)
            # Otherwise the kill delay, counted from the last read inside, takes it out.

    def move(self, thing: ThingRow, zone: Zone | None, at: datetime) -> None:
        visit = self.visits.pop(thing.id, None)
        if visit is not None:
            end = max(at, visit.time_start)
            visit.time_end = end
            visit.time_duration = nanoseconds(end - visit.time_start)
            visit.dirty = True
            self.changed_visits[visit.id] = visit
        thing.dirty = True
        thing.zone_id = zone.id if zone else None
        thing.last_zone_time = at
        thing.last_zone_read = at if zone else None
        if zone is not None:
            opened = VisitRow(
                id=new_id(),
                org_id=self.org_id,
                site_id=zone.site_id,
                thing_id=thing.id,
                zone_id=zone.id,
                time_start=at,
                time_end=None,
                time_duration=0,
            )
            self.visits[thing.id] = opened
            self.changed_visits[opened.id] = opened

    def leave(self, thing: ThingRow, zone: Zone, at: datetime) -> None:
        self.move(thing, None, at)
        if zone.kill_mode == KILL_SITE:
            thing.endpoint_id = None
            thing.location_tag_id = None

    def record_event(
        self,
        read: ReadRow,
        endpoint: Endpoint | None,
        site_id: str,
        thing: ThingRow | None,
        placement: Placement,
    ) -> EventRow:
        thing_id = thing.id if thing else UNKNOWN_THING_ID
        zone_id = placement.enter.id if placement.enter else None
        if thing is not None and thing.last_event == read.time:
            zone_id = thing.zone_id
        key: FoldKey = (read.endpoint_id, read.antenna, read.tag)
        last = self.latest.get(key) if endpoint is not None else None
        if (
            last is not None
            and last.first_time - self.window <= read.time <= last.time + self.window
        ):
            last.first_time = min(last.first_time, read.time)
            if read.time >= last.time:
                last.time = read.time
                last.direction = placement.direction
                last.zone_id = zone_id
                if read.data:
                    last.data = dict(read.data)
            last.repeat_count += 1
            last.alarm_tamper = last.alarm_tamper or read.tamper
            last.thing_id = thing_id
            last.dirty = True
            self.changed_events[last.id] = last
            return last
        event = EventRow(
            id=new_id(),
            org_id=self.org_id,
            site_id=site_id,
            endpoint_id=endpoint.id if endpoint else None,
            thing_id=thing_id,
            tag=read.tag,
            antenna=read.antenna,
            time=read.time,
            first_time=read.time,
            repeat_count=1,
            direction=placement.direction,
            zone_id=zone_id,
            location_tag_id=placement.location.id if placement.location else None,
            alarm_tamper=read.tamper,
            rssi=read.rssi,
            data=dict(read.data or {}),
        )
        self.changed_events[event.id] = event
        self.outcome.events_created += 1
        if endpoint is not None and (last is None or read.time >= last.time):
            self.latest[key] = event
        return event

    def process_exception(self, read: ReadRow, why: str) -> None:
        site_id = None
        if read.zone_id and read.zone_id in self.zones:
            site_id = self.zones[read.zone_id].site_id
        if site_id is None:
            log.warning("read dropped", tag=read.tag, why=why)
            return
        self.record_process_exception(read, site_id, why)

    def record_process_exception(self, read: ReadRow, site_id: str, why: str) -> None:
        self.found.append(process_exception(self.org_id, site_id, read.tag, read.time, why))
        self.outcome.exceptions += 1


@dataclass
class AppliedBatch:
    """A batch applied in memory in its transaction, its rows not written yet."""

    processor: BatchProcessor
    # Its epoch; for a batch loaded ahead, the count it expects until `adopt` sets it.
    epoch: Epoch
    # The rows it started from, kept from earlier batches.
    kept: WorkingState | None
    # Queue rows it takes once adopted (a batch loaded ahead only looked at them).
    queued: list[int] = field(default_factory=list)
    # The last queue row it holds: a batch loaded after it starts past it.
    last_queued: int = 0


class ProcessingService:
    def __init__(self, session: AsyncSession, settings: Settings) -> None:
        self.session = session
        self.settings = settings
        self.repository = ProcessingRepository(session)
        self.exceptions = ExceptionRepository(session)

    async def process_pending(
        self, org_id: str, limit: int = BATCH_READS, kept: WorkingState | None = None
    ) -> Outcome:
        """Process the oldest acknowledged reads of one organization, if no one else is.

        `kept` is what this worker's last batch of the organization left (`Outcome.state`):
        it serves if no one else processed for the organization since.
        """
        batch = await self.apply_pending(org_id, limit, kept)
        return await self.write(batch) if isinstance(batch, AppliedBatch) else batch

    async def apply_pending(
        self,
        org_id: str,
        limit: int = BATCH_READS,
        kept: WorkingState | None = None,
        whole: bool = False,
    ) -> "AppliedBatch | Outcome":
        """`process_pending` up to its writes: the batch applied in memory, or the outcome
        when there is nothing to apply (no reads, or another worker at them). `whole`: see
        `take_pending` (a batch that others may be loaded after)."""
        if not await self.repository.start_batch(org_id):
            return Outcome()
        epoch = await self.repository.next_epoch(org_id)
        if kept is not None and kept.epoch != epoch.count - 1:
            kept = None
        reads = await self.repository.take_pending(org_id, limit, whole)
        if not reads:
            return Outcome(state=replace(kept, epoch=epoch.count) if kept else None)
        processor = BatchProcessor(self.session, self.settings, org_id, kept)
        processor.apply_all(await processor.load(reads))
        return AppliedBatch(processor, epoch, kept, last_queued=queue_row(reads[-1]))

    async def write(self, batch: "AppliedBatch") -> Outcome:
        """Write an applied batch's rows; what it leaves for the next batch (`state`)."""
        processor = batch.processor
        await processor.finish()
        written = processor.written(batch.epoch)
        outcome = processor.outcome
        outcome.state = continued(batch.kept, written)
        return outcome

    async def load_following(self, batch: "AppliedBatch", limit: int) -> "AppliedBatch | None":
        """The organization's next reads after `batch`, and what they need, loaded in this
        transaction while `batch` is written in its own: None when there are none, or when
        they must wait for it (a location tag read, in either, moves an endpoint).

        They are applied while `batch` is written too, and taken off the queue once it has
        committed (`adopt`): until then they are only looked at.
        """
        org_id = batch.processor.org_id
        if batch.processor.locations:
            return None  # it moves endpoints, which this transaction would not see yet
        queued, reads = await self.repository.peek_pending(org_id, limit, batch.last_queued)
        if not reads:
            return None
        ahead = batch.processor.ahead(batch.epoch)
        kept = continued(batch.kept, ahead)
        following = BatchProcessor(
            self.session, self.settings, org_id, kept, kept_version=batch.epoch.version
        )
        await following.load(reads)
        if following.locations:
            return None
        expected = Epoch(batch.epoch.count + 1, 0)
        return AppliedBatch(following, expected, kept, queued, queued[-1])

    async def others_waiting(self, org_id: str) -> bool:
        """Whether any other organization has reads waiting."""
        return await self.repository.others_waiting(org_id)

    async def adopt(self, batch: "AppliedBatch") -> bool:
        """Take the reads of a batch `load_following` loaded in this transaction, once the
        batch before it has committed: False (roll back) when anyone else processed the
        organization's reads in between, since its rows then no longer hold."""
        org_id = batch.processor.org_id
        if not await self.repository.start_batch(org_id):
            return False
        epoch = await self.repository.next_epoch(org_id)
        if epoch.count != batch.epoch.count:
            return False
        if not await self.repository.take_queued(org_id, batch.queued):
            return False
        batch.epoch = epoch
        return True

    async def set_aside_oldest(self, org_id: str, why: str) -> None:
        """Drop the oldest pending read of an organization, recording a processException."""
        await self.repository.lock_org(org_id)
        await self.repository.next_epoch(org_id)
        reads = await self.repository.take_pending(org_id, 1)
        if not reads:
            return
        [read] = reads
        site_id = await self.repository.endpoint_site(org_id, read.endpoint_id)
        if site_id is not None:
            self.session.add(process_exception(org_id, site_id, read.tag, read.time, why))

    async def process_now(
        self, org_id: str, reads: Sequence[ReadRow], fresh: FreshThings | None = None
    ) -> Outcome:
        """Process reads that were never queued (manual events), waiting for the lock."""
        await self.repository.lock_org(org_id)
        await self.repository.next_epoch(org_id)
        processor = BatchProcessor(self.session, self.settings, org_id)
        processor.fresh = fresh
        return await processor.run(reads)

    async def sweep(self, now: datetime, limit: int = 1000) -> Outcome:
        """Kill things past their zone's delay and raise dwell exceptions."""
        outcome = Outcome()
        await self.repository.plan_for_these_values()
        for thing, zone in await self.repository.expired_residents(now, limit):
            assert thing.last_zone_read is not None
            deadline = thing.last_zone_read + timedelta(hours=zone.kill_duration)
            processor = BatchProcessor(self.session, self.settings, thing.org_id)
            processor.visits = await self.repository.open_visits(thing.org_id, [thing.id])
            processor.things[thing.id] = thing
            processor.leave(thing, zone, min(deadline, now))
            await processor.finish()
            outcome.processed += 1
        overstays = await self.repository.overstays(now, OVERSTAY_LOOKBACK, limit)
        names = await self.repository.thing_names((v.org_id, v.thing_id) for v, _ in overstays)
        for visit, zone in overstays:
            end = visit.time_end or now
            minutes = max(1, round(zone.duration / 6e10))
            name = names.get((visit.org_id, visit.thing_id), visit.thing_id)
            exception = zone_time_exception(visit, zone, name, nanoseconds(end - visit.time_start))
            created = await self.exceptions.add_once(exception)
            if not created:
                continue
            outcome.exceptions += 1
            if zone.emails:
                outcome.alerts.append(
                    Alert(
                        org_id=visit.org_id,
                        to=list(zone.emails),
                        subject=f"TagTrack: {name} in {zone.name} too long",
                        text=(
                            f"{name} entered {zone.name} at {visit.time_start:%Y-%m-%d %H:%M} "
                            f"UTC and has been there longer than the zone's alert time "
                            f"({minutes} minute(s)).\n"
                        ),
                    )
                )
        outbox = Outbox(self.session, self.settings)
        for alert in outcome.alerts:
            await outbox.queue(alert.org_id, alert.to, alert.subject, alert.text)
        return outcome

    async def purge(self, now: datetime) -> None:
        await self.repository.purge_before(
            raw_before=now - timedelta(days=self.settings.raw_payload_days),
            batches_before=now - timedelta(days=7),
        )
