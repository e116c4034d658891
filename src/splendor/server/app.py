"""The web layer: a Starlette application over a :class:`~splendor.server.hub.Hub`.

Routes:

* ``GET /`` and ``GET /t/{table}``: the web client (static files of this package);
* ``GET /favicon.ico``: the icon (``static/favicon.svg``, which the pages link to);
* ``GET /api/components``: the 90 cards and 10 nobles (public facts the client draws);
* ``POST /api/tables``: open a table; answers its links;
* ``GET /api/tables/{table}``: who sits at a table and how far the game is;
* ``GET /api/tables/{table}/record``: a finished game's record, to download;
* ``WS /ws/{table}``: the game itself (see the protocol in the docs).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Final

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from splendor.core.components import CARDS, NOBLES
from splendor.core.gems import Tokens
from splendor.formats.serialization import to_json
from splendor.server.hub import MAX_MESSAGE, Client, Hub, ServerError, Table, error_message
from splendor.server.store import DEFAULT_DB, Store

__all__ = ["MAX_REQUEST", "create_app"]

_log = logging.getLogger("splendor.server")

#: The largest body ``POST /api/tables`` accepts, in bytes.
MAX_REQUEST: Final = 16384
#: How long a new connection may take to say which seat it is.
HELLO_TIMEOUT: Final = 30.0

STATIC: Final = Path(__file__).parent / "static"

_HEADERS: Final = {
    "Content-Security-Policy": (
        "default-src 'self'; connect-src 'self' ws: wss:; img-src 'self' data:; "
        "style-src 'self'; script-src 'self'; frame-ancestors 'none'"
    ),
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
}


def _tokens(tokens: Tokens) -> dict[str, int]:
    return {gem.value: count for gem, count in tokens.items() if count}


def components_json() -> dict[str, object]:
    """Every card and noble by id, as ``GET /api/components`` answers them."""
    return {
        "cards": {
            str(card.id): {
                "id": card.id,
                "tier": card.tier,
                "bonus": card.bonus.value,
                "points": card.points,
                "cost": _tokens(card.cost),
            }
            for card in CARDS
        },
        "nobles": {
            str(noble.id): {
                "id": noble.id,
                "points": noble.points,
                "requirement": _tokens(noble.requirement),
            }
            for noble in NOBLES
        },
    }


def create_app(
    db: str | Path = DEFAULT_DB,
    *,
    bot_delay: float = 0.6,
    allow_seeds: bool = False,
) -> Starlette:
    """The server as an ASGI application.

    Args:
        db: the SQLite file the games are kept in (``":memory:"`` for none).
        bot_delay: seconds a bot waits before each move.
        allow_seeds: whether tables may be opened with a chosen ``seed``
            (for tests and demos only: a guessable seed reveals the decks).

    Returns:
        The application; its lifespan opens the store, resumes the unfinished
        games, and on shutdown stops the bots and closes the store.
    """
    state: dict[str, Hub] = {}
    components = components_json()

    def hub() -> Hub:
        return state["hub"]

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        store = Store(db)
        state["hub"] = Hub(store, bot_delay=bot_delay, allow_seeds=allow_seeds)
        await state["hub"].start()
        try:
            yield
        finally:
            await state["hub"].stop()
            store.close()

    async def page(request: Request) -> Response:
        return FileResponse(STATIC / "index.html", headers=_HEADERS)

    async def favicon(request: Request) -> Response:
        # The SVG icon, also where browsers look for an icon without being told.
        return FileResponse(
            STATIC / "favicon.svg",
            media_type="image/svg+xml",
            headers={"Cache-Control": "max-age=86400"},
        )

    async def components_endpoint(request: Request) -> Response:
        return JSONResponse(components, headers={"Cache-Control": "max-age=3600"})

    async def create(request: Request) -> Response:
        body = b""
        async for chunk in request.stream():
            body += chunk
            if len(body) > MAX_REQUEST:
                return _refuse(413, "too_large", f"a request may be at most {MAX_REQUEST} bytes")
        try:
            spec = json.loads(body)
        except (ValueError, RecursionError) as error:
            return _refuse(400, "bad_request", f"not JSON: {error}")
        try:
            table, secrets = hub().create(spec)
        except ServerError as error:
            return _refuse(400, error.code, str(error))
        base = str(request.base_url).rstrip("/")
        seats = []
        for number, (seat, secret) in enumerate(zip(table.seats, secrets, strict=True)):
            entry: dict[str, object] = {
                "seat": number,
                "name": seat.name,
                "kind": seat.kind,
                "bot": seat.bot,
            }
            if secret is not None:
                entry["link"] = f"{base}/t/{table.id}#{secret}"
                entry["secret"] = secret
            seats.append(entry)
        return JSONResponse(
            {"table": table.id, "spectator": f"{base}/t/{table.id}", "seats": seats},
            status_code=201,
        )

    async def summary(request: Request) -> Response:
        table = hub().table(request.path_params["table"])
        if table is None:
            return _refuse(404, "not_found", "no such table")
        return JSONResponse(
            {
                "table": table.id,
                "version": table.version,
                "over": table.is_over,
                "seats": table.seats_json(),
            }
        )

    async def record(request: Request) -> Response:
        table = hub().table(request.path_params["table"])
        if table is None:
            return _refuse(404, "not_found", "no such table")
        if not table.is_over:
            # The record holds the seed, and the seed the order of the decks.
            return _refuse(409, "not_over", "the record can be downloaded once the game is over")
        return Response(
            to_json(table.record, indent=2) + "\n",
            media_type="application/json",
            headers={"Content-Disposition": f'attachment; filename="splendor-{table.id}.json"'},
        )

    async def play(websocket: WebSocket) -> None:
        await websocket.accept()
        table = hub().table(websocket.path_params["table"])
        if table is None:
            await websocket.send_text(error_message("not_found", "no such table"))
            await websocket.close(4404)
            return
        client = await _hello(websocket, hub(), table)
        if client is None:
            return
        writer = asyncio.create_task(_write(websocket, client))
        try:
            while True:
                message = await websocket.receive()
                if message["type"] == "websocket.disconnect":
                    break
                text = message.get("text")
                if text is None:
                    client.push(error_message("malformed", "messages are JSON text"))
                    continue
                await hub().handle(client, text)
                if client.closed:
                    break
        finally:
            hub().detach(client)
            await writer

    return Starlette(
        routes=[
            Route("/", page),
            Route("/t/{table}", page),
            Route("/favicon.ico", favicon),
            Route("/api/components", components_endpoint),
            Route("/api/tables", create, methods=["POST"]),
            Route("/api/tables/{table}", summary),
            Route("/api/tables/{table}/record", record),
            WebSocketRoute("/ws/{table}", play),
            Mount("/static", StaticFiles(directory=STATIC), name="static"),
        ],
        lifespan=lifespan,
    )


def _refuse(status: int, code: str, message: str) -> JSONResponse:
    return JSONResponse({"error": code, "message": message}, status_code=status)


async def _hello(websocket: WebSocket, hub: Hub, table: Table) -> Client | None:
    """Read the first message (``join`` with a secret, or ``watch``) and attach the client."""
    while True:
        try:
            message = await asyncio.wait_for(websocket.receive(), HELLO_TIMEOUT)
        except TimeoutError:
            await websocket.send_text(error_message("timeout", "say join or watch first"))
            await websocket.close(4408)
            return None
        if message["type"] == "websocket.disconnect":
            return None
        text = message.get("text")
        problem = _hello_problem(text)
        if problem is not None:
            await websocket.send_text(error_message("malformed", problem))
            continue
        assert isinstance(text, str)
        hello = json.loads(text)
        try:
            return hub.attach(table, hello.get("secret") if hello["type"] == "join" else None)
        except ServerError as error:
            await websocket.send_text(error_message(error.code, str(error)))
            await websocket.close(4403)
            return None


def _hello_problem(text: object) -> str | None:
    if not isinstance(text, str):
        return "messages are JSON text"
    if len(text) > MAX_MESSAGE:
        return f"a message may be at most {MAX_MESSAGE} characters"
    try:
        hello = json.loads(text)
    except (ValueError, RecursionError):
        return "not JSON"
    if not isinstance(hello, dict) or hello.get("type") not in ("join", "watch"):
        return 'the first message is {"type": "join", "secret": ...} or {"type": "watch"}'
    if hello["type"] == "join" and not isinstance(hello.get("secret"), str):
        return "join needs the seat's secret"
    return None


async def _write(websocket: WebSocket, client: Client) -> None:
    """Send the client's messages in order until it is closed or the socket fails."""
    try:
        while (text := await client.next()) is not None:
            await websocket.send_text(text)
        with contextlib.suppress(Exception):
            await websocket.close()
    except (WebSocketDisconnect, RuntimeError, OSError):
        client.close()
