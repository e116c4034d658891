"""The web layer: a Starlette application over a :class:`~splendor.server.hub.Hub`.

Routes:

* ``GET /`` and ``GET /t/{table}``: the web client (static files of this package);
* ``GET /favicon.ico``: the icon (``static/favicon.svg``, which the pages link to);
* ``GET /api/components``: the 90 cards and 10 nobles (public facts the client draws);
* ``GET /api/bots``: the names of the operator's bot engines, offered beside the built-in bots,
  and the levels (:mod:`splendor.players.levels`) a seat may name;
* ``POST /api/tables``: open a table; answers its links;
* ``GET /api/tables/{table}``: who sits at a table and how far the game is;
* ``GET /api/tables/{table}/record``: a finished game's record, to download;
* ``WS /ws/{table}``: the game itself (see the protocol in the docs).
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import json
import logging
import time
from collections.abc import AsyncIterator, Mapping, Sequence
from pathlib import Path
from typing import Final
from urllib.parse import urlsplit

from starlette.applications import Starlette
from starlette.datastructures import Headers
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Receive, Scope, Send
from starlette.websockets import WebSocket, WebSocketDisconnect

from splendor.core.components import CARDS, NOBLES
from splendor.formats.component_data import card_data, tokens_data
from splendor.formats.serialization import to_json
from splendor.players.levels import LEVELS
from splendor.server.database import open_store
from splendor.server.engines import LEVEL_BOTS, check_engines
from splendor.server.hub import Hub
from splendor.server.limits import DEFAULT_LIMITS, Limits, throttle
from splendor.server.protocol import MAX_MESSAGE, ServerError, error_message
from splendor.server.store import DEFAULT_DB
from splendor.server.table import Client, Table

__all__ = ["MAX_REQUEST", "create_app"]

_log = logging.getLogger("splendor.server")

#: The largest body ``POST /api/tables`` accepts, in bytes.
MAX_REQUEST: Final = 16384
#: How long a new connection may take to say which seat it is (the default of
#: :attr:`Limits.hello_timeout <splendor.server.limits.Limits.hello_timeout>`).
HELLO_TIMEOUT: Final = DEFAULT_LIMITS.hello_timeout
#: The HTTP status of each refusal of ``POST /api/tables`` that is not a bad request.
_STATUS: Final = {"no_bot_tables": 403, "rate_limited": 429, "too_many_tables": 503}
#: The names a server on this machine always answers to.
_LOOPBACK: Final = frozenset({"localhost", "127.0.0.1", "::1"})

STATIC: Final = Path(__file__).parent / "static"

_HEADERS: Final = {
    "Content-Security-Policy": (
        "default-src 'self'; connect-src 'self' ws: wss:; img-src 'self' data:; "
        "style-src 'self'; script-src 'self'; frame-ancestors 'none'"
    ),
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
}


def components_json() -> dict[str, object]:
    """Every card and noble by id, as ``GET /api/components`` answers them."""
    return {
        "cards": {str(card.id): card_data(card) for card in CARDS},
        "nobles": {
            str(noble.id): {
                "id": noble.id,
                "points": noble.points,
                "requirement": tokens_data(noble.requirement),
            }
            for noble in NOBLES
        },
    }


def levels_json() -> list[dict[str, object]]:
    """The levels a seat may name, as ``GET /api/bots`` lists them under ``levels``.

    Each is ``{"bot": "level:1", "number": 1, "name": "Novice", "about": ...}``,
    weakest first; ``bot`` is what a seat of ``POST /api/tables`` names.
    """
    return [
        {"bot": bot, "number": level.number, "name": level.name, "about": level.about}
        for bot, level in zip(LEVEL_BOTS, LEVELS, strict=True)
    ]


def create_app(
    db: str | Path = DEFAULT_DB,
    *,
    bot_delay: float = 0.6,
    allow_seeds: bool = False,
    limits: Limits = DEFAULT_LIMITS,
    url: str | None = None,
    allowed_hosts: Sequence[str] = (),
    allowed_origins: Sequence[str] = (),
    engines: Mapping[str, str] | None = None,
) -> Starlette:
    """The server as an ASGI application.

    Args:
        db: the SQLite file the games are kept in (``":memory:"`` for none),
            or a database URL (``postgresql://...``; see
            :mod:`splendor.server.database`).
        bot_delay: seconds a bot waits before each move.
        allow_seeds: whether tables may be opened with a chosen ``seed``
            (for tests and demos only: a guessable seed reveals the decks).
        limits: the limits and timeouts (:class:`~splendor.server.limits.Limits`).
        url: the address people reach the server at (``https://games.example``
            behind a proxy); links are built from it. By default, the
            address the server listens on (never the request's ``Host``).
        allowed_hosts: more names the server answers to, besides the host of
            ``url``, the address it listens on and this machine's loopback
            names (``"*"``: any). A request for another ``Host`` gets 400.
        allowed_origins: more origins (``https://other.example``) whose pages
            may open tables and websockets, besides the server's own
            (``"*"``: any). A request from another ``Origin`` gets 403.
        engines: the bot engines the operator offers beside the built-in
            bots: each name's bot spec (``engine:COMMAND``). Seats name them;
            the server starts and ends their processes (see
            :class:`~splendor.server.hub.Hub`).

    Returns:
        The application; its lifespan opens the store and starts the hub
        (``app.state.hub``; tables load when first asked for), and on
        shutdown stops the bots and closes the store.
    """
    state: dict[str, Hub] = {}
    components = components_json()
    levels = levels_json()
    offered = check_engines(engines or {})
    base = None if url is None else url.rstrip("/")

    def hub() -> Hub:
        return state["hub"]

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        throttle("splendor.server")
        store = open_store(db)
        state["hub"] = app.state.hub = Hub(
            store, bot_delay=bot_delay, allow_seeds=allow_seeds, limits=limits, engines=offered
        )
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

    async def bots_endpoint(request: Request) -> Response:
        return JSONResponse({"engines": sorted(offered), "levels": levels})

    async def create(request: Request) -> Response:
        media = request.headers.get("content-type", "").split(";")[0].strip().lower()
        if media != "application/json":
            return _refuse(415, "unsupported_media_type", "a table request is application/json")
        length = request.headers.get("content-length", "")
        if length.isdigit() and int(length) > MAX_REQUEST:
            return _refuse(413, "too_large", f"a request may be at most {MAX_REQUEST} bytes")
        body = b""
        try:
            async with asyncio.timeout(limits.body_timeout):
                async for chunk in request.stream():
                    body += chunk
                    if len(body) > MAX_REQUEST:
                        return _refuse(
                            413, "too_large", f"a request may be at most {MAX_REQUEST} bytes"
                        )
        except TimeoutError:
            return _refuse(
                408, "timeout", f"the body must come within {limits.body_timeout:g} seconds"
            )
        try:
            spec = json.loads(body)
        except (ValueError, RecursionError) as error:
            return _refuse(400, "bad_request", f"not JSON: {error}")
        try:
            table, secrets = await hub().open(spec, client=_address(request.scope))
        except ServerError as error:
            status = _STATUS.get(error.code, 400)
            response = _refuse(status, error.code, str(error))
            if status in (429, 503):
                response.headers["Retry-After"] = "60"
            return response
        home = base or _own_url(request.scope)
        seats = []
        for number, (seat, secret) in enumerate(zip(table.seats, secrets, strict=True)):
            entry: dict[str, object] = {
                "seat": number,
                "name": seat.name,
                "kind": seat.kind,
                "bot": seat.bot,
            }
            if secret is not None:
                entry["link"] = f"{home}/t/{table.id}#{secret}"
                entry["secret"] = secret
            seats.append(entry)
        return JSONResponse(
            {"table": table.id, "spectator": f"{home}/t/{table.id}", "seats": seats},
            status_code=201,
        )

    async def summary(request: Request) -> Response:
        table = await hub().load(request.path_params["table"])
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
        table = await hub().load(request.path_params["table"])
        if table is None:
            return _refuse(404, "not_found", "no such table")
        if not table.is_over:
            # The record holds the seed, and the seed the order of the decks.
            return _refuse(409, "not_over", "the record can be downloaded once the game is over")
        game = table.record
        text = await asyncio.to_thread(lambda: to_json(game, indent=2) + "\n")
        return Response(
            text,
            media_type="application/json",
            headers={"Content-Disposition": f'attachment; filename="splendor-{table.id}.json"'},
        )

    async def play(websocket: WebSocket) -> None:
        await websocket.accept()
        deadline = time.monotonic() + limits.hello_timeout
        table = await hub().load(websocket.path_params["table"])
        if table is None:
            await websocket.send_text(error_message("not_found", "no such table"))
            await websocket.close(4404)
            return
        client = await _hello(websocket, hub(), table, deadline)
        if client is None:
            return
        writer = asyncio.create_task(_write(websocket, client))
        try:
            while not client.closed:
                idle = client.active + limits.idle_timeout - time.monotonic()
                try:
                    message = await asyncio.wait_for(websocket.receive(), max(idle, 0.001))
                except TimeoutError:
                    if client.active + limits.idle_timeout > time.monotonic():
                        continue  # something was sent meanwhile
                    client.push(error_message("idle", "nothing happened for too long"))
                    client.close()
                    break
                client.active = time.monotonic()
                if message["type"] == "websocket.disconnect":
                    break
                text = message.get("text")
                if text is None:
                    client.push(error_message("malformed", "messages are JSON text"))
                    continue
                await hub().handle(client, text)
        finally:
            hub().detach(client)
            await writer

    guard = Middleware(
        _SameSite,
        hosts=[*([] if base is None else [urlsplit(base).hostname or ""]), *allowed_hosts],
        origins=[*([] if base is None else [base]), *allowed_origins],
    )
    limiter = Middleware(
        _Limiter, total=limits.max_connections, per_client=limits.max_connections_per_client
    )
    return Starlette(
        routes=[
            Route("/", page),
            Route("/t/{table}", page),
            Route("/favicon.ico", favicon),
            Route("/api/components", components_endpoint),
            Route("/api/bots", bots_endpoint),
            Route("/api/tables", create, methods=["POST"]),
            Route("/api/tables/{table}", summary),
            Route("/api/tables/{table}/record", record),
            WebSocketRoute("/ws/{table}", play),
            Mount("/static", StaticFiles(directory=STATIC), name="static"),
        ],
        middleware=[limiter, guard],
        lifespan=lifespan,
    )


def _refuse(status: int, code: str, message: str) -> JSONResponse:
    return JSONResponse({"error": code, "message": message}, status_code=status)


def _address(scope: Scope) -> str:
    """The client's address (after a trusted proxy's ``X-Forwarded-For``, as uvicorn sets it)."""
    client = scope.get("client")
    return str(client[0]) if client else ""


def _own_url(scope: Scope) -> str:
    """The server's URL from the address it listens on (the ASGI ``server``), not from ``Host``."""
    scheme = "https" if scope.get("scheme") in ("https", "wss") else "http"
    server = scope.get("server")
    if not server:
        return f"{scheme}://localhost"
    host, port = str(server[0]), server[1]
    if ":" in host:
        host = f"[{host}]"
    if port is None or (scheme, port) in (("http", 80), ("https", 443)):
        return f"{scheme}://{host}"
    return f"{scheme}://{host}:{port}"


def _split_host(text: str) -> tuple[str, int | None] | None:
    """A ``Host`` header (or an origin's netloc) as its lower-case name and port."""
    try:
        parts = urlsplit(f"//{text}")
        return (parts.hostname or "").lower(), parts.port
    except ValueError:
        return None


class _SameSite:
    """Refuse a request for another server's name (``Host``), or from another site's page.

    The ``Host`` must be one the server answers to: this guards against DNS
    rebinding, where another site's name is pointed at this server. A
    request that changes something (any method but ``GET``, ``HEAD`` and
    ``OPTIONS``) and every websocket must come from the server's own pages
    when it says where it comes from (``Origin``, which browsers always
    send on such requests): this guards against cross-site requests. A
    program that sends no ``Origin`` is not a browser page and passes.
    """

    def __init__(self, app: ASGIApp, *, hosts: Sequence[str], origins: Sequence[str]) -> None:
        self.app = app
        self.any_host = "*" in hosts
        self.hosts = {name.lower().strip("[]") for name in hosts} | _LOOPBACK
        self.any_origin = "*" in origins
        self.origins = {
            found for found in (_origin(text) for text in origins if text != "*") if found
        }

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        headers = Headers(scope=scope)
        problem = self._problem(scope, headers)
        if problem is None:
            await self.app(scope, receive, send)
            return
        status, code, message = problem
        _log.warning("refused a request from %s: %s", _address(scope), message)
        if scope["type"] == "websocket":
            await send({"type": "websocket.close", "code": 1008, "reason": message})
            return
        await _refuse(status, code, message)(scope, receive, send)

    def _problem(self, scope: Scope, headers: Headers) -> tuple[int, str, str] | None:
        host = _split_host(headers.get("host", ""))
        server = scope.get("server")
        own = str(server[0]).lower() if server else ""
        if host is None or not host[0]:
            return 400, "bad_host", "the request has no valid Host header"
        if not self.any_host and host[0] not in self.hosts and host[0] != own:
            return 400, "bad_host", f"this server does not answer to {host[0]!r}"
        if scope["type"] == "http" and scope["method"] in ("GET", "HEAD", "OPTIONS"):
            return None
        origin_text = headers.get("origin")
        if origin_text is None or self.any_origin:
            return None
        origin = _origin(origin_text)
        default = 443 if scope.get("scheme") in ("https", "wss") else 80
        if origin is not None and (origin in self.origins or _same(origin, host, default)):
            return None
        return 403, "cross_origin", f"requests from {origin_text[:100]!r} are not allowed"


def _origin(text: str) -> tuple[str, str, int] | None:
    """An origin as (scheme, name, port), the port made explicit; ``None`` if it is not one."""
    try:
        parts = urlsplit(text.strip().lower())
        port = parts.port
    except ValueError:
        return None
    if parts.scheme not in ("http", "https") or not parts.hostname:
        return None
    return parts.scheme, parts.hostname, port or (443 if parts.scheme == "https" else 80)


def _same(origin: tuple[str, str, int], host: tuple[str, int | None], default: int) -> bool:
    """Whether a page of ``origin`` is one of the server named by the ``Host`` header.

    A ``Host`` without a port names the default port of the request's scheme.
    """
    _, name, port = origin
    return name == host[0] and (host[1] or default) == port


class _Limiter:
    """Cap the open HTTP requests and websockets, in all and per client address.

    Above a cap an HTTP request gets 503 and a websocket is accepted and
    closed at once with 1013 (try again later). Each refusal is logged,
    through the rate-limited log.
    """

    def __init__(self, app: ASGIApp, *, total: int, per_client: int) -> None:
        self.app = app
        self.total = total
        self.per_client = per_client
        self.open = 0
        self.by_client: collections.Counter[str] = collections.Counter()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        address = _address(scope)
        if self.open >= self.total or self.by_client[address] >= self.per_client:
            _log.warning("refused a connection from %s: too many connections", address)
            if scope["type"] == "http":
                response = _refuse(503, "busy", "too many connections; try again later")
                response.headers["Retry-After"] = "5"
                await response(scope, receive, send)
            elif (await receive())["type"] == "websocket.connect":
                await send({"type": "websocket.accept"})
                await send({"type": "websocket.close", "code": 1013, "reason": "busy"})
            return
        self.open += 1
        self.by_client[address] += 1
        try:
            await self.app(scope, receive, send)
        finally:
            self.open -= 1
            self.by_client[address] -= 1
            if not self.by_client[address]:
                del self.by_client[address]


async def _hello(websocket: WebSocket, hub: Hub, table: Table, deadline: float) -> Client | None:
    """Read the first message (``join`` with a secret, or ``watch``) and attach the client.

    The connection is closed at ``deadline`` if it has not said which seat
    it is by then, however many other messages it sent.
    """
    while True:
        try:
            message = await asyncio.wait_for(
                websocket.receive(), max(deadline - time.monotonic(), 0.0)
            )
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
