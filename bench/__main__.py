"""Run every benchmark with its default sizes; `--quick` for smaller ones where they exist."""

import asyncio
import sys

from bench import (
    backlog,
    bundle,
    exports,
    images,
    import_screen,
    imports,
    ingest,
    latency,
    lighthouse,
    lists,
    mixed,
    parsing,
    queries,
    startup,
)

if __name__ == "__main__":
    quick = ["--quick"] if "--quick" in sys.argv[1:] else []
    bundle.main(bundle.parse_args([]))
    startup.main(startup.parse_args([]))
    lighthouse.main(lighthouse.parse_args([]))
    asyncio.run(lists.main(lists.parse_args([])))
    parsing.main(parsing.parse_args([]))
    asyncio.run(ingest.main(ingest.parse_args([])))
    asyncio.run(latency.main(latency.parse_args([])))
    asyncio.run(backlog.main(backlog.parse_args([])))
    # 20 calls a query: at 10M events a zone-durations call alone takes a second or more.
    asyncio.run(queries.main(queries.parse_args(["--requests", "20", *quick])))
    exports.main(exports.parse_args(quick))
    images.main(images.parse_args([]))
    mixed.main(mixed.parse_args([]))
    asyncio.run(imports.main(imports.parse_args([])))
    import_screen.main(import_screen.parse_args([]))
