"""Run every benchmark with its default sizes."""

import asyncio

from bench import ingest, lists

if __name__ == "__main__":
    asyncio.run(lists.main(lists.parse_args([])))
    asyncio.run(ingest.main(ingest.parse_args([])))
