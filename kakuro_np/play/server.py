"""The play page's web server: the standard library's, on 127.0.0.1, one game.

Each ``/api/*`` request is one method of ``game.Game`` (see ``CONTRACT.md``); the
page's files come from ``static/``. A request the game refuses, or one it cannot
read, answers 400 with the error and the unchanged state; the server itself
never stops on a bad request.

What the server trusts
----------------------
Only its own page, in a browser on this machine:

- every request must name the server as ``Host: 127.0.0.1:PORT`` or
  ``localhost:PORT`` (a page of another site that renames itself to 127.0.0.1,
  DNS rebinding, sends its own name), and a request with an ``Origin`` must come
  from one of those two: else 403;
- at start the server draws a random token (``secrets``). The page's HTML
  carries it as ``<meta name="kakuro-token" content="...">``, and each ``/api/``
  request must send it in the ``X-Kakuro-Token`` header: else 403. Another
  site's page can send requests here, but cannot read the page to learn it;
- a POST body must be ``application/json`` (415 otherwise: a cross-site form or
  ``text/plain`` post would need no preflight) and at most ``MOST_BODY`` bytes
  (413), read within ``READ_SECONDS`` (408) before the game is touched;
- at most ``MOST_CLIENTS`` connections are served at once, each idle at most
  ``READ_SECONDS``; a client that leaves early is dropped without a word.

No request holds the game while it reads from a client, and the library's work
(the status, check, hint, solve) runs outside the game's lock with a time limit
(``game.ANSWER_SECONDS``), so one slow client or question stalls no other.

Examples
--------
>>> import json, threading, urllib.request
>>> import kakuro_np as kn
>>> server = make_server(Game(kn.read("x ; 4 0 ; 3 0\\n0 3 ; _ ; _\\n0 4 ; _ ; _")), port=0)
>>> threading.Thread(target=server.serve_forever, daemon=True).start()
>>> ask = urllib.request.Request(server.url + "api/state", headers=server.api_headers())
>>> with urllib.request.urlopen(ask) as answer:
...     json.load(answer)["status"]["text"]
'unique, easy (10.1)'
>>> server.shutdown(); server.server_close()
"""

from __future__ import annotations

import hmac
import json
import secrets
import socket
import sys
import threading
import traceback
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from importlib import resources
from urllib.parse import parse_qs, urlsplit

from .game import ANSWER_SECONDS, Game, MoveError

#: The largest request body read (a puzzle file of 40x40 cells with every mark fits).
MOST_BODY = 1 << 20
#: The longest a client may take to send a request, or stay idle between two.
READ_SECONDS = 10.0
#: The most connections served at once; more are closed at once.
MOST_CLIENTS = 32
#: The header that carries the server's token, and the page's meta tag that holds it.
TOKEN_HEADER = "X-Kakuro-Token"
TOKEN_META = '<meta name="kakuro-token" content="">'
#: The page's files: path -> (file in static/, content type).
PAGES = {"/": ("index.html", "text/html; charset=utf-8"),
         "/index.html": ("index.html", "text/html; charset=utf-8"),
         "/play.js": ("play.js", "text/javascript; charset=utf-8"),
         "/play.css": ("play.css", "text/css; charset=utf-8")}


class BadRequest(ValueError):
    """A request that cannot be read (its status code and message)."""

    def __init__(self, message, status=HTTPStatus.BAD_REQUEST):
        super().__init__(message)
        self.status = status


def _cell_query(query: str) -> list:
    """The ``[row, col]`` of a ``cell=r,c`` query."""
    text = parse_qs(query).get("cell", [""])[0]
    try:
        r, c = (int(x) for x in text.split(","))
    except ValueError:
        raise BadRequest(f"cell is 'row,col', got {text!r}") from None
    return [r, c]


def _answer_api(game: Game, method: str, path: str, query: str, body):
    """The JSON answer of one API request."""
    from ..formats import FORMATS
    gets = {"/api/state": game.state, "/api/formats": lambda: {"formats": list(FORMATS)},
            "/api/combos": lambda: game.combos(_cell_query(query))}
    posts = {"/api/move": game.move, "/api/undo": lambda _: game.undo(),
             "/api/redo": lambda _: game.redo(), "/api/check": lambda _: game.check(),
             "/api/hint": lambda _: game.hint(), "/api/solve": lambda _: game.solve(),
             "/api/restart": lambda _: game.restart(), "/api/pause": game.pause,
             "/api/marks": lambda _: game.fill_marks(),
             "/api/save": game.save, "/api/load": game.load, "/api/new": game.new,
             "/api/edit": game.edit, "/api/mode": game.mode, "/api/fill": lambda _: game.fill()}
    if method == "GET" and path in gets:
        return gets[path]()
    if method == "POST" and path in posts:
        return posts[path](body)
    if path in gets or path in posts:
        raise BadRequest(f"{path} takes {'GET' if path in gets else 'POST'}",
                         HTTPStatus.METHOD_NOT_ALLOWED)
    raise BadRequest(f"no such path: {path}", HTTPStatus.NOT_FOUND)


class Handler(BaseHTTPRequestHandler):
    """Serves the page's files and its API for ``self.server.game``."""

    server_version = "kakuro-np-play"
    timeout = READ_SECONDS          # the socket's: a request line, headers or body too slow

    def do_GET(self):
        self._handle("GET")

    def do_POST(self):
        self._handle("POST")

    def _handle(self, method):
        url = urlsplit(self.path)
        refused = self.server.refusal(self.headers, api=url.path.startswith("/api/"))
        if refused:
            self.close_connection = True
            return self._send(HTTPStatus.FORBIDDEN, json.dumps({"error": refused}).encode(),
                              "application/json")
        if method == "GET" and url.path in PAGES:
            return self._send(HTTPStatus.OK, self.server.page(url.path), PAGES[url.path][1])
        game = self.server.game
        try:
            body = self._body() if method == "POST" else None
            answer, status = _answer_api(game, method, url.path, url.query, body), 200
        except (BadRequest, MoveError) as e:
            if isinstance(e, BadRequest) and e.status == HTTPStatus.REQUEST_TIMEOUT:
                self.close_connection = True
                return self._send(e.status, json.dumps({"error": str(e)}).encode(),
                                  "application/json")
            answer = {"error": str(e), "state": game.state()}
            status = getattr(e, "status", HTTPStatus.BAD_REQUEST)
        except Exception as e:          # a bug: say so, keep serving
            traceback.print_exc(file=sys.stderr)
            answer = {"error": f"the server failed: {type(e).__name__}: {e}",
                      "state": game.state()}
            status = HTTPStatus.INTERNAL_SERVER_ERROR
        self._send(status, json.dumps(answer).encode(), "application/json")

    def _body(self):
        """The request's JSON object ({} for an empty body), read before the game is touched."""
        kind = (self.headers.get("Content-Type") or "").split(";")[0].strip().lower()
        if self.headers.get("Transfer-Encoding"):
            raise BadRequest("send the body with a Content-Length", HTTPStatus.LENGTH_REQUIRED)
        try:
            n = int(self.headers.get("Content-Length") or 0)
        except ValueError:
            raise BadRequest("Content-Length is not a number") from None
        if n < 0:
            raise BadRequest("Content-Length is negative")
        if n > MOST_BODY:
            self.close_connection = True
            raise BadRequest(f"the request is {n:,} bytes; at most {MOST_BODY:,}",
                             HTTPStatus.REQUEST_ENTITY_TOO_LARGE)
        if n and kind != "application/json":
            raise BadRequest(f"the body must be application/json, not {kind or 'untyped'}",
                             HTTPStatus.UNSUPPORTED_MEDIA_TYPE)
        try:
            raw = self.rfile.read(n) if n > 0 else b""
        except (socket.timeout, TimeoutError):
            raise BadRequest(f"the body took longer than {READ_SECONDS:g} s",
                             HTTPStatus.REQUEST_TIMEOUT) from None
        if len(raw) < n:
            self.close_connection = True
            raise BadRequest(f"the body ended after {len(raw):,} of {n:,} bytes")
        if not raw.strip():
            return {}
        try:
            body = json.loads(raw)
        except (ValueError, UnicodeDecodeError, RecursionError) as e:
            raise BadRequest(f"the body is not JSON: {e}") from None
        if not isinstance(body, dict):
            raise BadRequest("the body must be a JSON object")
        return body

    def _send(self, status, data: bytes, kind: str):
        try:
            self.send_response(status)
            self.send_header("Content-Type", kind)
            self.send_header("Content-Length", str(len(data)))
            self.send_header("Cache-Control", "no-store")
            self.send_header("X-Content-Type-Options", "nosniff")
            self.send_header("X-Frame-Options", "DENY")
            self.send_header("Referrer-Policy", "no-referrer")
            self.end_headers()
            self.wfile.write(data)
        except (ConnectionError, TimeoutError, socket.timeout):    # the client left
            self.close_connection = True

    def log_message(self, format, *args):
        if self.server.verbose:
            super().log_message(format, *args)


class PlayServer(ThreadingHTTPServer):
    """An HTTP server holding one ``game``; ``url`` is where to open it, ``token`` its secret."""
    daemon_threads = True

    def __init__(self, address, game: Game, verbose=False):
        super().__init__(address, Handler)
        self.game, self.verbose = game, verbose
        self.token = secrets.token_urlsafe(32)
        host, port = self.server_address[:2]
        self.url = f"http://{host}:{port}/"
        self.hosts = {f"127.0.0.1:{port}", f"localhost:{port}"}
        self.origins = {f"http://{name}" for name in self.hosts}
        self.clients = threading.BoundedSemaphore(MOST_CLIENTS)

    def api_headers(self) -> dict:
        """The headers the page sends with each ``/api/`` request (for scripts and tests)."""
        return {TOKEN_HEADER: self.token, "Content-Type": "application/json"}

    def refusal(self, headers, api: bool):
        """Why a request with these headers is refused (403), or None when it is the page's."""
        host = (headers.get("Host") or "").strip().lower()
        if host not in self.hosts:
            return f"this server answers only as {' or '.join(sorted(self.hosts))}"
        origin = headers.get("Origin")
        if origin is not None and origin.strip().lower() not in self.origins:
            return "requests from other sites are refused"
        if api and not hmac.compare_digest((headers.get(TOKEN_HEADER) or "").encode(),
                                           self.token.encode()):
            return f"a missing or wrong {TOKEN_HEADER}: reload the page"
        return None

    def page(self, path: str) -> bytes:
        """The page's file at ``path``; the HTML carries the token."""
        data = resources.files(__package__).joinpath("static", PAGES[path][0]).read_bytes()
        if path in ("/", "/index.html"):
            data = data.replace(TOKEN_META.encode(),
                                TOKEN_META.replace('""', f'"{self.token}"').encode())
        return data

    def process_request(self, request, client_address):
        """Serve the connection on its own thread, unless MOST_CLIENTS are served already."""
        if not self.clients.acquire(blocking=False):
            self.shutdown_request(request)
            return
        try:
            super().process_request(request, client_address)
        except BaseException:
            self.clients.release()
            raise

    def process_request_thread(self, request, client_address):
        try:
            super().process_request_thread(request, client_address)
        finally:
            self.clients.release()

    def handle_error(self, request, client_address):
        """A client that left or stalled is no error; anything else is printed."""
        if isinstance(sys.exc_info()[1], (ConnectionError, TimeoutError, socket.timeout)):
            return
        super().handle_error(request, client_address)


def make_server(game: Game, port: int = 0, verbose=False,
                answer_seconds=ANSWER_SECONDS) -> PlayServer:
    """A server for ``game`` on 127.0.0.1 (``port`` 0: a free one); OSError when the port is taken.

    The game answers each request within ``answer_seconds`` (its ``answer_seconds``).
    """
    game.answer_seconds = answer_seconds
    return PlayServer(("127.0.0.1", port), game, verbose)


def serve(game: Game, port: int = 0, open_browser: bool = True, verbose=False) -> None:
    """Serve ``game`` until interrupted, opening the page in a browser unless told not to."""
    server = make_server(game, port, verbose)
    print(f"kakuro-np play: {server.url} (Ctrl+C to stop)", file=sys.stderr, flush=True)
    if open_browser:
        import webbrowser
        threading.Timer(0.2, webbrowser.open, (server.url,)).start()
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
