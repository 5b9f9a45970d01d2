"""A replay server for the listing benchmark: pages encoded once, up front, served in parallel.

Served by uvicorn, the simulator answers one request at a time and spends milliseconds of CPU on
every page (filtering, building and encoding the records), so a benchmark against it measures
the simulator as much as the client. A real API answers its pages in parallel. This server is
fed from the simulator's own data (the same instances, the same page envelopes, the same bytes),
but asks the simulator for every page once, before it listens. Per request it then only parses
the request line, waits the fixed latency (concurrently for every connection) and sends bytes.

Routes: ``GET /v4/profile`` (the small request that measures one round trip) and
``GET /v4/compute/instances?page=P&page_size=S`` for the page sizes given at start; anything
else answers 404.

Run: .venv/bin/python benchmarks/replay_server.py [--scale 10000] [--latency 0.05] [--port 0]
It prints ``replay server at http://127.0.0.1:PORT/v4`` once it listens.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tui.simulator import DEMO_TOKENS
from tui.simulator.server import build_simulator

PREFIX = "/v4"
LIST_PATH = f"{PREFIX}/compute/instances"
PROFILE_PATH = f"{PREFIX}/profile"
DEFAULT_PAGE_SIZE = 100
"""The reference's default ``page_size`` when a request names none."""

Pages = dict[tuple[int, int], bytes]
"""(page, page_size) -> the simulator's answer body."""


async def record(scale: int, page_sizes: list[int]) -> tuple[bytes, Pages]:
    """Ask an in-process simulator for its profile and every instance page of each size.

    Args:
        scale: Extra instances to seed (as ``cloudtui sim --scale``).
        page_sizes: Page sizes to record.

    Returns:
        The profile's body and every page's body.
    """
    sim = build_simulator(scale=scale)
    headers = {"Authorization": f"Bearer {DEMO_TOKENS['unrestricted']}"}
    pages: Pages = {}
    async with httpx.AsyncClient(
        transport=httpx.ASGITransport(app=sim), base_url=f"http://sim{PREFIX}", headers=headers
    ) as client:
        profile = (await client.get("/profile")).raise_for_status().content
        for size in page_sizes:
            page, last = 1, 1
            while page <= last:
                answer = await client.get(
                    "/compute/instances", params={"page": page, "page_size": size}
                )
                pages[(page, size)] = answer.raise_for_status().content
                last = int(answer.json()["pages"])
                page += 1
    return profile, pages


def _answer(status: int, body: bytes) -> bytes:
    reason = {200: b"OK", 404: b"Not Found"}.get(status, b"Error")
    head = b"HTTP/1.1 %d %s\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n"
    return head % (status, reason, len(body)) + body


class ReplayServer:
    """Answers from recorded bytes after a fixed latency, every connection concurrently."""

    def __init__(self, profile: bytes, pages: Pages, latency: float) -> None:
        """Keep the answers, encoded once as complete HTTP responses.

        Args:
            profile: Body of ``GET /profile``.
            pages: Body of each instance page.
            latency: Seconds to wait before each answer.
        """
        self.latency = latency
        self.profile = _answer(200, profile)
        self.pages = {key: _answer(200, body) for key, body in pages.items()}
        self.not_found = _answer(404, b'{"errors": [{"reason": "Not found"}]}')

    def route(self, target: str) -> bytes:
        """The whole response for a request target (path and query)."""
        parts = urlsplit(target)
        if parts.path == PROFILE_PATH:
            return self.profile
        if parts.path == LIST_PATH:
            query = parse_qs(parts.query)
            try:
                page = int(query.get("page", ["1"])[0])
                size = int(query.get("page_size", [str(DEFAULT_PAGE_SIZE)])[0])
            except ValueError:
                return self.not_found
            return self.pages.get((page, size), self.not_found)
        return self.not_found

    async def handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        """Serve one keep-alive connection (the client never pipelines, so one at a time)."""
        try:
            while True:
                head = await reader.readuntil(b"\r\n\r\n")
                target = head.split(b" ", 2)[1].decode("latin-1")
                answer = self.route(target)
                await asyncio.sleep(self.latency)
                writer.write(answer)
                await writer.drain()
        except (asyncio.IncompleteReadError, ConnectionError, IndexError):
            pass
        finally:
            writer.close()


async def serve(args: argparse.Namespace) -> None:
    """Record the pages, listen, announce the real address, serve until killed."""
    sizes = [int(s) for s in args.page_sizes.split(",")]
    profile, pages = await record(args.scale, sizes)
    replay = ReplayServer(profile, pages, args.latency)
    server = await asyncio.start_server(replay.handle, "127.0.0.1", args.port, backlog=256)
    port = server.sockets[0].getsockname()[1]
    print(f"replay server at http://127.0.0.1:{port}{PREFIX}", flush=True)
    async with server:
        await server.serve_forever()


def main(argv: list[str] | None = None) -> None:
    """Parse flags and serve."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scale", type=int, default=10000, help="extra instances (default 10000)")
    parser.add_argument(
        "--latency", type=float, default=0.05, help="seconds before each answer (default 0.05)"
    )
    parser.add_argument("--port", type=int, default=0, help="TCP port (default 0: any free one)")
    parser.add_argument(
        "--page-sizes", default="100,500", help="page sizes to record (default 100,500)"
    )
    asyncio.run(serve(parser.parse_args(argv)))


if __name__ == "__main__":
    main()
