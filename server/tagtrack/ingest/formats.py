"""Reader payloads become one read record (DESIGN sections 6 and 7).

A body is UTF-8 JSON: one object, an array of objects, or newline-delimited objects.
Each object is recognised by its shape, never by a header or a setting, because the
same endpoint (HTTP or an MQTT topic) may be fed by any reader:

- ours: ``{"batchId"?, "reads": [...]}`` or a bare read ``{"tag", "time"?, ...}``;
- Zebra IoT Connector tag data event (FX/FXR): ``{"data": {"idHex", ...}, "timestamp"}``;
- Zebra RFD40/RFD90 handheld dataEVT: ``{"data": {"tagData": [...]}, "timestamp"}``;
- Impinj R700 IoT device interface: ``{"timestamp", "tagInventoryEvent": {...}}``;
- Impinj Speedway Connect: ``{"epc", "antennaPort", "firstSeenTimestamp", "isHeartBeat"}``.

Pure and synchronous: no database, no clock (the caller passes ``received_at``).
Bad input only ever raises ``PayloadError``, whose message goes back to the client.
"""

import base64
import binascii
import math
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta, timezone
from typing import Any, NoReturn

import msgspec
import orjson

MAX_READS_PER_PAYLOAD = 10_000
MAX_TAG_LENGTH = 128
MAX_BATCH_ID_LENGTH = 200  # ingest_batches.batch_id
MAX_ANTENNA = 65_535
DIRECTIONS = frozenset({"IN", "OUT", "NEAR", "GONE"})

ACCEPTED_SHAPES = (
    'our reads batch {"batchId", "reads": [{"tag", "time", ...}]} or a bare read '
    '{"tag", "time"}; a Zebra IoT Connector tag data event {"data": {"idHex"}, "timestamp"}; '
    'a Zebra RFD40/RFD90 dataEVT {"data": {"tagData": [...]}, "timestamp"}; '
    'an Impinj R700 event {"timestamp", "tagInventoryEvent": {"epcHex"}}; '
    'or Impinj Speedway Connect {"epc", "antennaPort", "firstSeenTimestamp"}'
)
BODY_SHAPES = "one JSON object, an array of objects, or newline-delimited JSON objects"

JsonObject = dict[str, Any]


# array_like: the reads queue keeps a read as a JSON array of these fields, in this order.
class Read(msgspec.Struct, frozen=True, gc=False, array_like=True):  # built in C: one per read
    tag: str  # EPC hex, upper case, stripped; never empty
    time: datetime  # timezone-aware, UTC
    antenna: int  # reader antenna port; 0 when the payload has none
    rssi: float | None  # dBm (the R700's centi-dBm are divided by 100)
    direction: str | None  # "IN" | "OUT" | "NEAR" | "GONE" | None
    tamper: bool
    data: dict[str, float]  # e.g. {"cFloat0": 21.5}; empty when none


_QUEUED_READS = msgspec.json.Decoder(list[Read])
_QUEUE_ENCODER = msgspec.json.Encoder()


def pack_reads(reads: Sequence[Read]) -> str:
    """Reads as the queue keeps a batch: a JSON array, each read an array (see Read).

    Encoded in C at about 60 ns a read, where the driver spent 2 µs a read encoding one
    database array per field.
    """
    return _QUEUE_ENCODER.encode(reads).decode()


def unpack_reads(body: str) -> list[Read]:
    return _QUEUED_READS.decode(body)


@dataclass(frozen=True, slots=True)
class Heartbeat:
    time: datetime
    uptime: int | None  # seconds
    reader_temp: float | None
    ip: str | None
    version: str | None


@dataclass(frozen=True, slots=True)
class Payload:
    batch_id: str | None
    reads: list[Read]
    heartbeats: list[Heartbeat]


class PayloadError(ValueError):
    """The body cannot be read; the message, shown to the client, names what was expected."""


# --- public entry points ------------------------------------------------------------


def parse_payload(body: bytes, *, received_at: datetime) -> Payload:
    """Every read and heartbeat in ``body``; reads without a time get ``received_at``."""
    from tagtrack.ingest.fast import fast_payload  # fast.py builds on this module's rules

    received_at = _as_utc(received_at)
    documents = _documents(body)
    # The common shapes are checked and converted in C; the rest, and every refusal, here.
    payload = fast_payload(documents.values, received_at)
    return payload if payload is not None else _read_documents(documents, received_at)


def parse_carefully(body: bytes, *, received_at: datetime) -> Payload:
    """parse_payload by the rules of this module alone: the reference fast.py is tested on."""
    return _read_documents(_documents(body), _as_utc(received_at))


def _read_documents(documents: "_Documents", received_at: datetime) -> Payload:
    out = _Collector()
    for index, value in enumerate(documents.values):
        try:
            _dispatch(value, received_at, out)
        except PayloadError as error:
            # Name the array item or NDJSON line; a single object needs no label.
            label = documents.label(index)
            raise (PayloadError(f"{label}: {error}") if label else error) from None
    return Payload(batch_id=out.batch_id, reads=out.reads, heartbeats=out.heartbeats)


def parse_status(body: bytes, *, received_at: datetime) -> Heartbeat:
    """Our heartbeat object, or a Speedway Connect heartbeat (``isHeartBeat: true``)."""
    received_at = _as_utc(received_at)
    value = _load(body)
    if not isinstance(value, dict):
        raise PayloadError(
            'expected one JSON heartbeat object {"uptime", "readerTemp", "ip", "version", '
            f'"time"}}, got {_describe(value)}'
        )
    if "isHeartBeat" in value:
        if value["isHeartBeat"] is not True:
            _fail(
                "isHeartBeat", "true (a Speedway read belongs in the reads)", value["isHeartBeat"]
            )
        return _speedway_heartbeat(value, received_at)
    return _heartbeat(value, _time(value.get("time"), "time", received_at))


# --- body -> JSON values --------------------------------------------------------------


def _load(body: bytes) -> Any:
    if not body.strip():
        raise PayloadError(f"empty body: expected {BODY_SHAPES}")
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError:
        raise PayloadError(f"body is not UTF-8: expected {BODY_SHAPES}") from None
    try:
        # Some Windows tools write a byte order mark; JSON parsers refuse it.
        return orjson.loads(text.removeprefix("\ufeff"))
    except orjson.JSONDecodeError as error:
        raise PayloadError(f"body is not JSON ({error}): expected {BODY_SHAPES}") from None


@dataclass(frozen=True, slots=True)
class _Documents:
    """The body's JSON values, and how to name one: '' for a lone object, '[i]' or 'line n'."""

    values: list[Any]
    kind: str  # "object", "array" or "lines"
    line_numbers: list[int] = field(default_factory=list)

    def label(self, index: int) -> str:
        if self.kind == "array":
            return f"[{index}]"
        return f"line {self.line_numbers[index]}" if self.kind == "lines" else ""


def _documents(body: bytes) -> _Documents:
    try:
        value = _load(body)
    except PayloadError:
        documents = _ndjson(body)  # raises the first error when it is not NDJSON either
        if documents is None:
            raise
        return documents
    if isinstance(value, dict):
        return _Documents([value], "object")
    if isinstance(value, list):
        if len(value) > MAX_READS_PER_PAYLOAD:
            _too_many()
        return _Documents(value, "array")
    raise PayloadError(f"expected {BODY_SHAPES}, got {_describe(value)}")


def _ndjson(body: bytes) -> _Documents | None:
    """Each non-blank line as its own JSON value; None when there is only one line."""
    try:
        text = body.decode("utf-8").removeprefix("\ufeff")
    except UnicodeDecodeError:
        return None
    # Split on "\n" only: JSON strings may hold U+2028 and friends, which splitlines() cuts.
    lines = [(n, line) for n, line in enumerate(text.split("\n"), 1) if line.strip()]
    if len(lines) < 2:
        return None
    if len(lines) > MAX_READS_PER_PAYLOAD:
        _too_many()
    values: list[Any] = []
    for number, line in lines:
        try:
            value = orjson.loads(line)
        except orjson.JSONDecodeError as error:
            if not values:
                return None  # not NDJSON at all: the whole-body error says more
            raise PayloadError(
                f"line {number}: not JSON ({error}): expected {BODY_SHAPES}"
            ) from None
        if not isinstance(value, dict):
            raise PayloadError(
                f"line {number}: expected a JSON object per line, got {_describe(value)}"
            )
        values.append(value)
    return _Documents(values, "lines", [number for number, _ in lines])


# --- one object -> reads ----------------------------------------------------------------


@dataclass(slots=True)
class _Collector:
    batch_id: str | None = None
    reads: list[Read] = field(default_factory=list)
    heartbeats: list[Heartbeat] = field(default_factory=list)

    def add(self, read: Read) -> None:
        if len(self.reads) >= MAX_READS_PER_PAYLOAD:
            _too_many()
        self.reads.append(read)


def _dispatch(value: Any, received_at: datetime, out: _Collector) -> None:
    """Recognise one object by the keys only its format has, most specific first."""
    if not isinstance(value, dict):
        raise PayloadError(f"expected a JSON object, got {_describe(value)}")
    if "reads" in value:
        _our_batch(value, received_at, out)
    elif "tag" in value:
        out.add(_our_read(value, "", received_at))
    elif _is_r700(value):
        read = _r700_event(value, received_at)
        if read is not None:
            out.add(read)
    elif isinstance(value.get("data"), dict) and "tagData" in value["data"]:
        for read in _zebra_handheld_event(value, received_at):
            out.add(read)
    elif isinstance(value.get("data"), dict) and "idHex" in value["data"]:
        out.add(_zebra_tag_event(value, received_at))
    elif "epc" in value or "isHeartBeat" in value:
        if value.get("isHeartBeat") is True:
            out.heartbeats.append(_speedway_heartbeat(value, received_at))
        else:
            out.add(_speedway_read(value, received_at))
    else:
        keys = ", ".join(sorted(value)[:8]) or "none"
        raise PayloadError(f"unrecognised object (keys: {keys}); expected {ACCEPTED_SHAPES}")


def _our_batch(value: JsonObject, received_at: datetime, out: _Collector) -> None:
    batch_id = value.get("batchId")
    if batch_id is not None:
        if not isinstance(batch_id, str) or not batch_id.strip():
            _fail("batchId", "a non-empty string or null", batch_id)
        batch_id = batch_id.strip()
        if len(batch_id) > MAX_BATCH_ID_LENGTH:
            _fail("batchId", f"at most {MAX_BATCH_ID_LENGTH} characters", batch_id)
        # One payload is acknowledged once; two different ids cannot both be honoured.
        if out.batch_id is not None and out.batch_id != batch_id:
            _fail("batchId", f"the same batchId as before ({out.batch_id!r})", batch_id)
        out.batch_id = batch_id
    reads = value["reads"]
    if not isinstance(reads, list):
        _fail("reads", "an array of read objects", reads)
    if len(out.reads) + len(reads) > MAX_READS_PER_PAYLOAD:
        _too_many()
    for index, item in enumerate(reads):
        out.add(_our_read(item, f"reads[{index}].", received_at))


def _our_read(item: Any, path: str, received_at: datetime) -> Read:
    if not isinstance(item, dict):
        _fail(path.rstrip(".") or "read", 'a read object {"tag", "time", ...}', item)
    direction = item.get("direction")
    if direction is not None:
        if not isinstance(direction, str):
            _fail(f"{path}direction", "one of IN, OUT, NEAR, GONE or null", direction)
        direction = direction.strip().upper() or None  # "" is how the database says none
        if direction is not None and direction not in DIRECTIONS:
            _fail(f"{path}direction", "one of IN, OUT, NEAR, GONE or null", item["direction"])
    tamper = item.get("tamper")
    if tamper is not None and not isinstance(tamper, bool):
        _fail(f"{path}tamper", "true, false or null", tamper)
    return Read(
        tag=_tag(item.get("tag"), f"{path}tag"),
        time=_time(item.get("time"), f"{path}time", received_at),
        antenna=_antenna(item.get("antenna"), f"{path}antenna"),
        rssi=_number(item.get("rssi"), f"{path}rssi"),
        direction=direction,
        tamper=bool(tamper),
        data=_sensor_data(item.get("data"), f"{path}data"),
    )


def _zebra_tag_event(value: JsonObject, received_at: datetime) -> Read:
    # Zebra FX/FXR IoT Connector: one tag per event, RSSI already in dBm.
    data = value["data"]
    return Read(
        tag=_tag(data.get("idHex"), "data.idHex"),
        time=_time(value.get("timestamp"), "timestamp", received_at),
        antenna=_antenna(data.get("antenna"), "data.antenna"),
        rssi=_number(data.get("peakRssi"), "data.peakRssi"),
        direction=None,
        tamper=False,
        data={},
    )


def _zebra_handheld_event(value: JsonObject, received_at: datetime) -> list[Read]:
    # Zebra RFD40/RFD90 dataEVT: a batch of tags under one envelope timestamp; barcodeData
    # (a scan, not a tag read) is left out. One API reference shows tagData as one object.
    event_time = _time(value.get("timestamp"), "timestamp", received_at)
    tag_data = value["data"]["tagData"]
    if isinstance(tag_data, dict):
        tag_data = [tag_data]
    if not isinstance(tag_data, list):
        _fail("data.tagData", "an array of tag objects", tag_data)
    if len(tag_data) > MAX_READS_PER_PAYLOAD:
        _too_many()
    reads = []
    for index, tag in enumerate(tag_data):
        path = f"data.tagData[{index}]"
        if not isinstance(tag, dict):
            _fail(path, "a tag object", tag)
        # EPCid is the identifier proper; EPC is the EPC bank, normally the same value.
        key = next((k for k in ("EPCid", "EPC", "idHex") if tag.get(k) is not None), "EPCid")
        seen_key = "lastSeenTime" if tag.get("lastSeenTime") is not None else "firstSeenTime"
        seen = tag.get(seen_key)  # milliseconds since epoch, when the handheld reports them
        reads.append(
            Read(
                tag=_tag(tag.get(key), f"{path}.{key}"),
                time=event_time if seen is None else _epoch(seen, 1_000, f"{path}.{seen_key}"),
                antenna=_antenna(tag.get("antenna"), f"{path}.antenna"),
                rssi=_number(tag.get("peakRssi"), f"{path}.peakRssi"),
                direction=None,
                tamper=False,
                data={},
            )
        )
    return reads


def _is_r700(value: JsonObject) -> bool:
    # An R700 event is {"timestamp", "<name>Event": {...}}, "eventType" only on some firmware.
    if "tagInventoryEvent" in value or isinstance(value.get("eventType"), str):
        return True
    return "timestamp" in value and any(
        key.endswith("Event") and isinstance(item, dict) for key, item in value.items()
    )


def _r700_event(value: JsonObject, received_at: datetime) -> Read | None:
    event = value.get("tagInventoryEvent")
    if event is None:
        if value.get("eventType") == "tagInventory":
            _fail("tagInventoryEvent", "an object", None)
        return None  # antennaConnected, inventoryStatus, ...: nothing was read
    if not isinstance(event, dict):
        _fail("tagInventoryEvent", "an object", event)
    if event.get("epcHex") is not None or event.get("epc") is None:
        tag = _tag(event.get("epcHex"), "tagInventoryEvent.epcHex")
    else:  # epcHex can be switched off; epc is the same bytes in URL-safe base64
        tag = _tag(_base64_to_hex(event["epc"], "tagInventoryEvent.epc"), "tagInventoryEvent.epc")
    # lastSeenTime is when the tag answered; timestamp is when the event was queued.
    event_time = _time(value.get("timestamp"), "timestamp", received_at)
    cdbm = _number(event.get("peakRssiCdbm"), "tagInventoryEvent.peakRssiCdbm")
    return Read(
        tag=tag,
        time=_time(event.get("lastSeenTime"), "tagInventoryEvent.lastSeenTime", event_time),
        antenna=_antenna(event.get("antennaPort"), "tagInventoryEvent.antennaPort"),
        rssi=None if cdbm is None else cdbm / 100,  # centi-dBm
        direction=None,
        tamper=False,
        data={},
    )


def _speedway_read(value: JsonObject, received_at: datetime) -> Read:
    flag = value.get("isHeartBeat")
    if flag is not None and not isinstance(flag, bool):
        _fail("isHeartBeat", "true or false", flag)
    return Read(
        tag=_tag(value.get("epc"), "epc"),
        time=_speedway_time(value.get("firstSeenTimestamp"), "firstSeenTimestamp", received_at),
        antenna=_antenna(value.get("antennaPort"), "antennaPort"),
        rssi=_number(value.get("peakRssi"), "peakRssi"),
        direction=None,
        tamper=False,
        data={},
    )


def _speedway_heartbeat(value: JsonObject, received_at: datetime) -> Heartbeat:
    key = "firstSeenTimestamp" if "firstSeenTimestamp" in value else "timestamp"
    return _heartbeat(value, _speedway_time(value.get(key), key, received_at))


def _heartbeat(value: JsonObject, time: datetime) -> Heartbeat:
    uptime = _number(value.get("uptime"), "uptime")
    if uptime is not None and not 0 <= uptime < 2**53:
        _fail("uptime", "a number of seconds, 0 or more", value["uptime"])
    return Heartbeat(
        time=time,
        uptime=None if uptime is None else int(uptime),
        reader_temp=_number(value.get("readerTemp"), "readerTemp"),
        ip=_short_text(value.get("ip"), "ip"),
        version=_short_text(value.get("version"), "version"),
    )


# --- fields -------------------------------------------------------------------------------

_TAG = re.compile(r"[0-9A-Z._:\-]+")
_DIGITS = re.compile(r"[0-9]{1,20}")
_ISO_TIME = re.compile(
    r"(\d{4})-(\d\d)-(\d\d)[Tt ](\d\d):(\d\d)(?::(\d\d)(?:[.,](\d{1,12}))?)?"
    r"\s*(?:[Zz]|([+-])(\d\d)(?::?(\d\d))?)?",
    re.ASCII,
)
_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)


def _tag(value: Any, where: str) -> str:
    # EPC hex in practice; letters, digits and . _ : - are let through for hand-typed and
    # prefixed ids. Spaces, controls and anything else are surely not a tag.
    expected = f"a non-empty tag string of letters and digits (EPC hex), at most {MAX_TAG_LENGTH}"
    if not isinstance(value, str):
        _fail(where, expected, value)
    tag = value.strip().upper()
    # isascii first: upper() turns some non-ASCII letters into ASCII ones ("ﬁ" -> "FI").
    if not value.isascii() or not tag or len(tag) > MAX_TAG_LENGTH or not _TAG.fullmatch(tag):
        _fail(where, expected, value)
    return tag


def _time(value: Any, where: str, default: datetime) -> datetime:
    """An ISO 8601 string (any offset, up to nanoseconds) in UTC; ``default`` when absent."""
    if value is None:
        return default
    expected = "an ISO 8601 date-time string like 2024-05-01T12:00:00Z"
    if not isinstance(value, str) or len(value) > 64:
        _fail(where, expected, value)
    match = _ISO_TIME.fullmatch(value.strip())
    if match is None:
        _fail(where, expected, value)
    year, month, day, hour, minute, second, fraction, sign, off_h, off_m = match.groups()
    try:
        if not sign or (off_h == "00" and off_m in (None, "00")):
            # UTC, as readers nearly always send it: no conversion to make.
            return datetime(
                int(year),
                int(month),
                int(day),
                int(hour),
                int(minute),
                int(second or 0),
                int(fraction[:6].ljust(6, "0")) if fraction else 0,
                tzinfo=UTC,
            )
        offset = timedelta(0)
        if sign:  # "+0300" (Zebra) and "+03:00" alike; a zone-less time is taken as UTC
            offset = timedelta(hours=int(off_h), minutes=int(off_m or 0))
            offset = -offset if sign == "-" else offset
        parsed = datetime(
            int(year),
            int(month),
            int(day),
            int(hour),
            int(minute),
            int(second or 0),
            int((fraction or "0")[:6].ljust(6, "0")),  # nanoseconds are cut to microseconds
            tzinfo=timezone(offset),
        )
        return parsed.astimezone(UTC)
    except (ValueError, OverflowError):
        _fail(where, expected, value)


def _speedway_time(value: Any, where: str, default: datetime) -> datetime:
    # Speedway Connect timestamps come as ISO strings or as integer microseconds since epoch.
    if isinstance(value, str) and _DIGITS.fullmatch(value.strip()):
        return _epoch(int(value.strip()), 1_000_000, where)
    if isinstance(value, int | float) and not isinstance(value, bool):
        return _epoch(value, 1_000_000, where)
    return _time(value, where, default)


def _epoch(value: Any, per_second: int, where: str) -> datetime:
    unit = "milliseconds" if per_second == 1_000 else "microseconds"
    expected = f"{unit} since 1970-01-01 UTC"
    if isinstance(value, bool) or not isinstance(value, int | float):
        _fail(where, expected, value)
    try:
        return _EPOCH + timedelta(microseconds=int(value) * (1_000_000 // per_second))
    except (ValueError, OverflowError):
        _fail(where, expected, value)


def _antenna(value: Any, where: str) -> int:
    if value is None:
        return 0
    if (
        isinstance(value, bool)
        or not isinstance(value, int | float)
        or not float(value).is_integer()
        or not 0 <= value <= MAX_ANTENNA
    ):
        _fail(where, f"an antenna port number 0..{MAX_ANTENNA}", value)
    return int(value)


def _number(value: Any, where: str) -> float | None:
    if value is None:
        return None
    # bool is an int to Python but never a measurement.
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        _fail(where, "a number or null", value)
    return float(value)


def _sensor_data(value: Any, where: str) -> dict[str, float]:
    if value is None:
        return {}
    if not isinstance(value, dict) or len(value) > 64:
        _fail(where, 'an object of numbers like {"cFloat0": 21.5}', value)
    data: dict[str, float] = {}
    for key, item in value.items():
        if len(key) > 64:
            _fail(where, "keys of at most 64 characters", key)
        number = _number(item, f"{where}.{key}")
        if number is not None:  # a null value means "not measured"
            data[key] = number
    return data


def _short_text(value: Any, where: str) -> str | None:
    if value is None:
        return None
    if not isinstance(value, str) or len(value) > 100:
        _fail(where, "a string of at most 100 characters or null", value)
    return value.strip() or None


def _base64_to_hex(value: Any, where: str) -> str:
    if not isinstance(value, str):
        _fail(where, "the EPC in base64", value)
    text = value.strip().replace("-", "+").replace("_", "/")
    try:
        return base64.b64decode(text + "=" * (-len(text) % 4), validate=True).hex()
    except (binascii.Error, ValueError):
        _fail(where, "the EPC in base64", value)


# --- errors ---------------------------------------------------------------------------------


def _fail(where: str, expected: str, value: Any) -> NoReturn:
    raise PayloadError(f"{where}: expected {expected}, got {_describe(value)}")


def _too_many() -> NoReturn:
    raise PayloadError(f"too many reads: at most {MAX_READS_PER_PAYLOAD} per payload")


def _describe(value: Any) -> str:
    """A short JSON-ish picture of what came, so the sender can find it."""
    if value is None:
        return "null"
    if isinstance(value, dict):
        return "an object"
    if isinstance(value, list):
        return "an array"
    try:
        shown = orjson.dumps(value).decode()
    except TypeError:  # an integer past 64 bits, which orjson reads but will not write
        shown = repr(value)
    return shown if len(shown) <= 40 else shown[:37] + "..."


def _as_utc(moment: datetime) -> datetime:
    return moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment.astimezone(UTC)
