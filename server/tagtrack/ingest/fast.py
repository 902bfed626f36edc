"""Reader objects of the common shapes checked and converted by typed msgspec structs, in C.

`formats` parses the body (orjson) into its documents; here they are converted with
`msgspec.convert` to the structs of one format, which check every field's type and range,
and the reads are built with the same field rules as `formats`. Only what `formats` would
accept in exactly the same way is taken: objects of one format, each recognised by the same
keys in the same order as `formats._dispatch`. Anything else (a heartbeat, a mix of formats,
and every bad object) gives None, and `formats` reads the documents by its careful rules,
which name what is wrong. Tests check that both agree.
"""

import re
from collections.abc import Callable, Iterable
from datetime import UTC, datetime, timedelta
from typing import Annotated, Any

import msgspec
from msgspec import UNSET, Meta, Struct

from tagtrack.ingest.formats import (
    _EPOCH,
    DIRECTIONS,
    MAX_BATCH_ID_LENGTH,
    MAX_READS_PER_PAYLOAD,
    MAX_TAG_LENGTH,
    Payload,
    Read,
    _base64_to_hex,
    _epoch,
    _sensor_data,
    _speedway_time,
    _tag,
    _time,
)

Antenna = Annotated[int, Meta(ge=0, le=65_535)]
Millis = int | float  # milliseconds or microseconds since epoch; bool is refused by msgspec


# A key that is only looked for: UNSET when absent, any value when present.
Key = Any


class _Miss(Exception):
    """The body is not one the typed structs read the same way: read it carefully instead."""


# --- one object of each format ------------------------------------------------------------
# Keys that would make formats._dispatch pick an earlier format are declared as Key sentinels;
# unknown keys are ignored, as formats ignores them.


class _OurRead(Struct, gc=False):
    tag: str
    time: str | None = None
    antenna: Antenna | None = None
    rssi: float | None = None
    direction: str | None = None
    tamper: bool | None = None
    data: dict[str, float | None] | None = None
    reads: Key = UNSET  # a bare read with "reads" is a batch to formats


class _OurBatch(Struct, gc=False):
    reads: list[_OurRead]
    batchId: str | None = None


class _R700Inventory(Struct, gc=False):
    epcHex: str | None = None
    epc: str | None = None
    antennaPort: Antenna | None = None
    peakRssiCdbm: float | None = None
    lastSeenTime: str | None = None


class _R700Event(Struct, gc=False):
    timestamp: str | None = None
    eventType: str | None = None
    tagInventoryEvent: _R700Inventory | None = None
    reads: Key = UNSET
    tag: Key = UNSET


class _HandheldTag(Struct, gc=False):
    EPCid: str | None = None
    EPC: str | None = None
    idHex: str | None = None
    antenna: Antenna | None = None
    peakRssi: float | None = None
    firstSeenTime: Millis | None = None
    lastSeenTime: Millis | None = None


class _HandheldData(Struct, gc=False):
    tagData: list[_HandheldTag] | _HandheldTag


# Zebra envelopes list every key they may have: a key ending in "Event" would make formats
# take the object for an R700 event.
class _HandheldEvent(Struct, gc=False, forbid_unknown_fields=True):
    data: _HandheldData
    timestamp: str | None = None
    type: Key = UNSET


class _ZebraTagData(Struct, gc=False):
    idHex: str
    antenna: Antenna | None = None
    peakRssi: float | None = None
    tagData: Key = UNSET  # a handheld event to formats


class _ZebraTagEvent(Struct, gc=False, forbid_unknown_fields=True):
    data: _ZebraTagData
    timestamp: str | None = None
    type: Key = UNSET


class _SpeedwayRead(Struct, gc=False):
    epc: str
    antennaPort: Antenna | None = None
    peakRssi: float | None = None
    firstSeenTimestamp: Millis | str | None = None
    isHeartBeat: bool | None = None
    # Any of these makes formats pick another format first (or may: "timestamp" with a key
    # ending in "Event" is an R700 event).
    reads: Key = UNSET
    tag: Key = UNSET
    tagInventoryEvent: Key = UNSET
    eventType: Key = UNSET
    data: Key = UNSET
    timestamp: Key = UNSET


# --- fields, by the same rules as formats ---------------------------------------------------

# The spellings datetime.fromisoformat reads exactly as formats._time does (any fraction is
# cut to microseconds, offsets +HH, +HHMM, +HH:MM); every other one goes to formats._time.
_PLAIN_TIME = re.compile(
    r"\d{4}-\d\d-\d\d[T ]\d\d:\d\d(?::\d\d(?:\.\d{1,12})?)?(?:Z|[+-]\d\d(?::?\d\d)?)?", re.ASCII
)
_from_iso = datetime.fromisoformat


def _when(text: str | None, default: datetime) -> datetime:
    if text is None:
        return default
    if _PLAIN_TIME.fullmatch(text) is None:
        return _time(text, "", default)
    moment = _from_iso(text)
    zone = moment.tzinfo
    if zone is UTC:
        return moment
    return moment.replace(tzinfo=UTC) if zone is None else moment.astimezone(UTC)


def _tag_of(value: str) -> str:
    tag = value.upper()
    # isalnum() of ASCII is [0-9A-Za-z]+, a subset of formats' tag characters (and nothing to
    # strip); formats checks that the value itself is ASCII ("\ufb01".upper() is "FI").
    if tag.isalnum() and value.isascii() and len(tag) <= MAX_TAG_LENGTH:
        return tag
    return _tag(value, "")


def _millis(value: int | float) -> datetime:
    if type(value) is int:  # not bool; OverflowError past year 9999, as formats refuses
        return _EPOCH + timedelta(milliseconds=value)
    return _epoch(value, 1_000, "")


def _direction(value: str | None) -> str | None:
    if value is None:
        return None
    direction = value.strip().upper() or None
    if direction is not None and direction not in DIRECTIONS:
        raise _Miss
    return direction


# --- objects -> reads -------------------------------------------------------------------------


def _our_reads(items: Iterable[_OurRead], received_at: datetime, out: list[Read]) -> None:
    append = out.append
    for item in items:
        data = item.data
        append(
            Read(
                _tag_of(item.tag),
                _when(item.time, received_at),
                item.antenna or 0,
                item.rssi,
                _direction(item.direction),
                bool(item.tamper),
                _sensor_data(data, "") if data else {},
            )
        )


def _bare_reads(items: list[_OurRead], received_at: datetime, out: list[Read]) -> None:
    if any(item.reads is not UNSET for item in items):
        raise _Miss
    _our_reads(items, received_at, out)


def _r700_reads(items: list[_R700Event], received_at: datetime, out: list[Read]) -> None:
    append = out.append
    for item in items:
        if item.reads is not UNSET or item.tag is not UNSET:
            raise _Miss
        event = item.tagInventoryEvent
        if event is None:
            # Absent and null look alike here; formats needs eventType to know it is an R700.
            if item.eventType is None or item.eventType == "tagInventory":
                raise _Miss
            continue  # antennaConnected, inventoryStatus, ...: nothing was read
        if event.epcHex is not None:
            tag = _tag_of(event.epcHex)
        elif event.epc is not None:  # the same bytes in base64, when epcHex is switched off
            tag = _tag(_base64_to_hex(event.epc, ""), "")
        else:
            raise _Miss
        cdbm = event.peakRssiCdbm
        append(
            Read(
                tag,
                _when(event.lastSeenTime, _when(item.timestamp, received_at)),
                event.antennaPort or 0,
                None if cdbm is None else cdbm / 100,
                None,
                False,
                {},
            )
        )


def _handheld_reads(items: list[_HandheldEvent], received_at: datetime, out: list[Read]) -> None:
    append = out.append
    for item in items:
        event_time = _when(item.timestamp, received_at)
        tags = item.data.tagData
        for tag in tags if isinstance(tags, list) else [tags]:
            epc = tag.EPCid if tag.EPCid is not None else tag.EPC
            epc = epc if epc is not None else tag.idHex
            if epc is None:
                raise _Miss
            seen = tag.lastSeenTime if tag.lastSeenTime is not None else tag.firstSeenTime
            append(
                Read(
                    _tag_of(epc),
                    event_time if seen is None else _millis(seen),
                    tag.antenna or 0,
                    tag.peakRssi,
                    None,
                    False,
                    {},
                )
            )


def _zebra_reads(items: list[_ZebraTagEvent], received_at: datetime, out: list[Read]) -> None:
    append = out.append
    for item in items:
        data = item.data
        if data.tagData is not UNSET:
            raise _Miss
        append(
            Read(
                _tag_of(data.idHex),
                _when(item.timestamp, received_at),
                data.antenna or 0,
                data.peakRssi,
                None,
                False,
                {},
            )
        )


def _speedway_reads(items: list[_SpeedwayRead], received_at: datetime, out: list[Read]) -> None:
    append = out.append
    for item in items:
        if item.isHeartBeat or not (
            item.reads is item.tag is item.tagInventoryEvent is item.eventType is UNSET
            and item.data is item.timestamp is UNSET
        ):
            raise _Miss  # a heartbeat, or another format's key
        seen = item.firstSeenTimestamp
        append(
            Read(
                _tag_of(item.epc),
                # A string with "-" is no count of microseconds: an ISO time to formats too.
                _when(seen, received_at)
                if isinstance(seen, str) and "-" in seen
                else _speedway_time(seen, "", received_at),
                item.antennaPort or 0,
                item.peakRssi,
                None,
                False,
                {},
            )
        )


# --- formats ---------------------------------------------------------------------------------


class _Format:
    """One format: its object struct, how to spot it, and how its objects become reads."""

    def __init__(
        self,
        spots: Callable[[dict[str, Any]], bool],
        struct: type[Struct],
        reads: Callable[[Any, datetime, list[Read]], None],
    ) -> None:
        self.spots = spots
        self.many = list[struct]  # type: ignore[valid-type]
        self.reads = reads


def _in_data(key: str) -> Callable[[dict[str, Any]], bool]:
    return lambda first: isinstance(first.get("data"), dict) and key in first["data"]


# Which one to try is only a guess from the first object: the structs decide.
_FORMATS = (
    _Format(lambda first: "tag" in first, _OurRead, _bare_reads),
    _Format(lambda first: "tagInventoryEvent" in first, _R700Event, _r700_reads),
    _Format(_in_data("tagData"), _HandheldEvent, _handheld_reads),
    _Format(_in_data("idHex"), _ZebraTagEvent, _zebra_reads),
    _Format(lambda first: "epc" in first, _SpeedwayRead, _speedway_reads),
)
_convert = msgspec.convert


def fast_payload(values: list[Any], received_at: datetime) -> Payload | None:
    """The reads of the body's documents when they are of a common shape, else None.

    ``received_at`` must already be in UTC.
    """
    if not values or not isinstance(first := values[0], dict):
        return None  # an empty array has no reads, as formats says too
    try:
        if "reads" in first:
            if len(values) != 1:
                return None  # batches in an array must share their batchId: formats checks
            return _batch_payload(_convert(first, _OurBatch), received_at)
        for fmt in _FORMATS:
            if fmt.spots(first):
                reads: list[Read] = []
                fmt.reads(_convert(values, fmt.many), received_at, reads)
                if len(reads) > MAX_READS_PER_PAYLOAD:
                    return None
                return Payload(batch_id=None, reads=reads, heartbeats=[])
    except (_Miss, msgspec.ValidationError, ValueError, OverflowError):
        pass  # PayloadError is a ValueError: formats names the fault
    return None


def _batch_payload(batch: _OurBatch, received_at: datetime) -> Payload:
    batch_id = batch.batchId
    if batch_id is not None:
        batch_id = batch_id.strip()
        if not batch_id or len(batch_id) > MAX_BATCH_ID_LENGTH:
            raise _Miss
    if len(batch.reads) > MAX_READS_PER_PAYLOAD:
        raise _Miss
    reads: list[Read] = []
    _our_reads(batch.reads, received_at, reads)
    return Payload(batch_id=batch_id, reads=reads, heartbeats=[])
