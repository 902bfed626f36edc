"""`python -m tagtrack.processing`: the processing child that `tagtrack serve` starts."""

from tagtrack.processing.process import child_main

try:
    import uvloop
except ImportError:  # pragma: no cover - uvloop comes with uvicorn[standard]
    import asyncio

    asyncio.run(child_main())
else:
    uvloop.run(child_main())
