"""A store writer run in its own process by the store tests.

``python -m tests.store._writer URL MODE NAME COUNT``: ``append`` appends ``COUNT`` items to
conversation ``conv_shared`` one call at a time; ``forever`` stores responses and appends to
``conv_<NAME>`` until killed. Writing starts at a line on standard input. Each acknowledged
write is printed (flushed) once its call returned.
"""

from __future__ import annotations

import asyncio
import sys

from tests.store.records import item, response
from toolwire.store import open_store


async def main(url: str, mode: str, name: str, count: int) -> None:
    store = await open_store(url)
    print("ready", flush=True)
    sys.stdin.readline()  # "go": several writers start together
    n = 0
    while mode == "forever" or n < count:
        if mode == "forever":
            await store.put_response(response(f"resp_{name}_{n}", items=2))
            print(f"resp_{name}_{n}", flush=True)
        conv = "conv_shared" if mode == "append" else f"conv_{name}"
        await store.append_items(conv, [item(n, name)])
        print(f"msg_{name}_{n}", flush=True)
        if mode == "append":
            await asyncio.sleep(0.005)  # writers started together overlap for sure
        n += 1
    await store.aclose()


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])))
