"""Run every benchmark with its default sizes (each a couple of minutes at most)."""

import asyncio

from bench import backlog, bundle, imports, ingest, latency, lists, queries

if __name__ == "__main__":
    bundle.main(bundle.parse_args([]))
    asyncio.run(lists.main(lists.parse_args([])))
    asyncio.run(ingest.main(ingest.parse_args([])))
    asyncio.run(latency.main(latency.parse_args([])))
    asyncio.run(backlog.main(backlog.parse_args([])))
    asyncio.run(queries.main(queries.parse_args([])))
    asyncio.run(imports.main(imports.parse_args([])))
