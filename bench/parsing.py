"""Reader payload parsing alone: microseconds of Python per read, for every format.

Each format's body holds `--batch` reads as its readers send them (our batch, our NDJSON,
Zebra IoT Connector events, a Zebra handheld dataEVT, Impinj R700 events, Impinj Speedway
Connect lines), built before any clock starts. The figures are `parse_payload` per read
(the typed fast path of ingest/fast.py) and `parse_carefully` (the careful rules alone, which
is how every body was read before the fast path); the baseline is `orjson.loads` of the same
body in the same run (line by line for NDJSON), which turns the bytes into Python objects
and checks nothing.
"""

import argparse
import time
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from functools import partial

import orjson

from bench.common import Figure, report
from tagtrack.ingest.formats import parse_carefully, parse_payload
from tests.reader_bodies import bodies

TARGET_US = 5.0


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--batch", type=int, default=500, help="reads per body")
    parser.add_argument("--rounds", type=int, default=200, help="bodies parsed per format")
    return parser.parse_args(argv)


def per_read_us(call: Callable[[], object], reads: int, rounds: int) -> float:
    """Microseconds per read of the fastest of `rounds` calls (after a few to warm up): on a
    shared machine the slower ones measure the neighbours."""
    for _ in range(5):
        call()
    samples = []
    for _ in range(rounds):
        started = time.perf_counter()
        call()
        samples.append(time.perf_counter() - started)
    return min(samples) / reads * 1e6


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
        loads = per_read_us(orjson_only(body), reads, args.rounds)
        for parser in (parse_payload, parse_carefully):
            spent = per_read_us(partial(parser, body, received_at=received), reads, args.rounds)
            figures.append(
                Figure(f"{name} ({len(body) // reads} B/read), {parser.__name__}", spent,
                       "µs/read", "orjson.loads", loads,
                       target=f"<= {TARGET_US:g}" if parser is parse_payload else "")
            )  # fmt: skip
    report("parsing", f"bodies of {args.batch} reads, fastest of {args.rounds}", figures)


if __name__ == "__main__":
    main(parse_args())
