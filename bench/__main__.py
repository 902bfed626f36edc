"""Run every benchmark with its default sizes."""

import asyncio

from bench import lists

if __name__ == "__main__":
    asyncio.run(lists.main(lists.parse_args([])))
