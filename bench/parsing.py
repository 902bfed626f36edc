"""Reader payload parsing alone: microseconds of Python per read, for every format.

Each format's body holds `--batch` reads as its readers send them (our batch, our NDJSON,
Zebra IoT Connector events, a Zebra handheld dataEVT, Impinj R700 events, Impinj Speedway
Connect lines), built before any clock starts. The figure is `parse_payload` per read; the
baseline is `orjson.loads` of the same body in the same run (line by line for NDJSON),
which only turns the bytes into Python objects and checks nothing.
"""

import argparse
import random
import time
from collections.abc import Callable, Sequence
from datetime import UTC, datetime, timedelta
from functools import partial

import orjson

from bench.common import Figure, report
from tagtrack.ingest.formats import parse_payload

T0 = datetime(2026, 3, 2, 8, 0, tzinfo=UTC)
TARGET_US = 5.0


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--batch", type=int, default=500, help="reads per body")
    parser.add_argument("--rounds", type=int, default=200, help="bodies parsed per format")
    return parser.parse_args(argv)


def _ndjson(objects: list[object]) -> bytes:
    return b"\n".join(orjson.dumps(o) for o in objects) + b"\n"


def bodies(batch: int, seed: int = 7) -> dict[str, bytes]:
    """One body of `batch` reads per format, with real-looking tags, times and fields."""
    rng = random.Random(seed)
    tags = [rng.randbytes(12).hex() for _ in range(batch)]
    times = [T0 + timedelta(milliseconds=rng.randrange(10**6)) for _ in range(batch)]
    ants = [rng.randrange(1, 5) for _ in range(batch)]
    rssi = [-rng.randrange(30, 80) for _ in range(batch)]
    rows = list(zip(tags, times, ants, rssi, strict=True))
    ours = [
        {"tag": t.upper(), "time": at.isoformat(), "antenna": a, "rssi": r} for t, at, a, r in rows
    ]
    zebra_fx = [
        {"data": {"eventNum": n, "format": "epc", "idHex": t, "antenna": a, "peakRssi": r},
         "timestamp": at.strftime("%Y-%m-%dT%H:%M:%S.%f")[:-3] + "+0000", "type": "SIMPLE"}
        for n, (t, at, a, r) in enumerate(rows)
    ]  # fmt: skip
    handheld = {
        "type": "FAST_READ",
        "timestamp": T0.isoformat(),
        "data": {
            "tagData": [
                {"EPCid": t, "EPC": t, "peakRssi": r, "eventNum": n, "seenCount": 1,
                 "lastSeenTime": int(at.timestamp() * 1000)}
                for n, (t, at, _a, r) in enumerate(rows)
            ]
        },
    }  # fmt: skip
    r700 = [
        {"timestamp": at.isoformat().replace("+00:00", "Z"), "eventType": "tagInventory",
         "tagInventoryEvent": {"epcHex": t.upper(), "antennaPort": a, "antennaName": "Dock",
                               "peakRssiCdbm": r * 100,
                               "lastSeenTime": at.isoformat().replace("+00:00", "Z")}}
        for t, at, a, r in rows
    ]  # fmt: skip
    speedway = [
        {"antennaPort": a, "epc": t.upper(), "peakRssi": r, "isHeartBeat": False,
         "firstSeenTimestamp": at.strftime("%Y-%m-%dT%H:%M:%S.%fZ")}
        for t, at, a, r in rows
    ]  # fmt: skip
    return {
        "ours, batch": orjson.dumps({"batchId": "bench-1", "reads": ours}),
        "ours, NDJSON": _ndjson(list(ours)),
        "Zebra FX, array": orjson.dumps(zebra_fx),
        "Zebra handheld dataEVT": orjson.dumps(handheld),
        "Impinj R700, array": orjson.dumps(r700),
        "Speedway Connect, NDJSON": _ndjson(list(speedway)),
    }


def per_read_us(call: Callable[[], object], reads: int, rounds: int) -> float:
    """Median microseconds per read over `rounds` calls (after a few to warm up)."""
    for _ in range(5):
        call()
    samples = []
    for _ in range(rounds):
        started = time.perf_counter()
        call()
        samples.append(time.perf_counter() - started)
    samples.sort()
    return samples[len(samples) // 2] / reads * 1e6


def orjson_only(body: bytes) -> Callable[[], object]:
    if body.lstrip()[:1] == b"[" or body.count(b"\n") < 2:
        return lambda: orjson.loads(body)
    lines = body.split(b"\n")
    return lambda: [orjson.loads(line) for line in lines if line]


def main(args: argparse.Namespace) -> None:
    received = datetime.now(UTC)
    figures = []
    for name, body in bodies(args.batch).items():
        reads = len(parse_payload(body, received_at=received).reads)
        assert reads == args.batch, f"{name}: {reads} reads"
        parse = per_read_us(partial(parse_payload, body, received_at=received), reads, args.rounds)
        loads = per_read_us(orjson_only(body), reads, args.rounds)
        figures.append(
            Figure(f"{name} ({len(body) // reads} B/read)", parse, "µs/read", "orjson.loads", loads,
                   target=f"<= {TARGET_US:g}")
        )  # fmt: skip
    report("parsing", f"bodies of {args.batch} reads, median of {args.rounds}", figures)


if __name__ == "__main__":
    main(parse_args())
