"""The play page's web server: the standard library's, on 127.0.0.1, one game.

Each ``/api/*`` request is one method of ``game.Game`` (see ``CONTRACT.md``); the
page's files come from ``static/``. A request the game refuses, or one it cannot
read, answers 400 with the error and the unchanged state; one the library gives
up on (the grid is too large or too hard: ``game.TOO_LARGE``, ``game.GaveUp``)
answers 422, a time limit 503, a bug 500 (``failure``). An error's answer carries
the state as it stands (``Game.snapshot``: what failed is not asked again), every
answer is strict JSON (no NaN or Infinity), and the server itself never stops on
a bad request.

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
  (413), read before the game is touched;
- a connection waits at most ``READ_SECONDS`` for each read from its client (and
  between two requests), a whole request (its line, headers and body) may take
  ``REQUEST_SECONDS`` from its first byte (408 for a body; else the connection
  is closed), and an answer is written within ``SEND_SECONDS``;
- one client address holds at most ``MOST_PER_ADDRESS`` connections and the
  server at most ``MOST_CLIENTS``: a connection past either closes the one that
  has waited longest on its client (for a request, its bytes, or the reading of
  an answer). One at work on the game is never closed for another; when every
  one is, the new one is refused. So clients that trickle bytes shut no one out:
  the page's requests are whole in a moment, theirs never are;
- a client that leaves early is dropped without a word.

No request holds a lock while it waits on a client: the game's is taken only once
a request is read, and the library's work (the status, check, hint, solve) runs
outside it with a time limit (``game.ANSWER_SECONDS``), so one slow client or
question stalls no other. The server's own lock guards its book of connections
and is held only to read or change it.

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
import io
import json
import secrets
import socket
import sys
import threading
import time
import traceback
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from importlib import resources
from urllib.parse import parse_qs, urlsplit

from ..errors import SolveTimeout
from .game import ANSWER_SECONDS, TOO_LARGE, Game, MoveError, why_too_large

#: The largest request body read (a puzzle file of 40x40 cells with every mark fits).
MOST_BODY = 1 << 20
#: The longest a connection waits for each read from its client (and between two requests).
READ_SECONDS = 10.0
#: The longest a whole request (its line, headers and body) may take from its first byte.
REQUEST_SECONDS = 10.0
#: The longest an answer may take to be written to its client.
SEND_SECONDS = 10.0
#: The most connections served at once.
MOST_CLIENTS = 32
#: The most connections one client address may hold at once.
MOST_PER_ADDRESS = 8
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


def failure(error: Exception) -> tuple:
    """``(status, message)`` of the answer to a request that raised ``error``.

    Examples
    --------
    >>> from kakuro_np.errors import BudgetError
    >>> status, said = failure(BudgetError("it would pass 10,000,000 rows"))
    >>> int(status), said
    (422, 'this grid is too large to work out here (it would pass 10,000,000 rows)')
    >>> int(failure(KeyError("x"))[0])
    500
    """
    if isinstance(error, (BadRequest, MoveError)):
        return HTTPStatus(getattr(error, "status", HTTPStatus.BAD_REQUEST)), str(error)
    if isinstance(error, TOO_LARGE):
        return (HTTPStatus.UNPROCESSABLE_ENTITY,
                f"this grid is too large to work out here ({why_too_large(error)})")
    if isinstance(error, SolveTimeout):
        return (HTTPStatus.SERVICE_UNAVAILABLE,
                f"the work took too long ({error}); ask again in a moment")
    if isinstance(error, ValueError):       # the library refused the grid (a PuzzleError...)
        return HTTPStatus.UNPROCESSABLE_ENTITY, f"the library cannot work on this grid: {error}"
    return (HTTPStatus.INTERNAL_SERVER_ERROR,
            f"the server failed: {type(error).__name__}: {error}")


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
             "/api/edit": game.edit, "/api/mode": game.mode, "/api/fill": lambda _: game.fill(),
             "/api/book": game.add_to_book}
    if method == "GET" and path in gets:
        return gets[path]()
    if method == "POST" and path in posts:
        return posts[path](body)
    if path in gets or path in posts:
        raise BadRequest(f"{path} takes {'GET' if path in gets else 'POST'}",
                         HTTPStatus.METHOD_NOT_ALLOWED)
    raise BadRequest(f"no such path: {path}", HTTPStatus.NOT_FOUND)


class ClientReader(io.RawIOBase):
    """A client's bytes, for ``io.BufferedReader``: each read waits at most ``idle`` seconds,
    and the reads of one request end ``whole`` seconds after its first byte (``TimeoutError``).

    Parameters
    ----------
    sock : socket.socket
    idle : float
        The longest one read waits.
    whole : float
        The longest a request may take from its first byte (``next_request`` starts one).
    """

    def __init__(self, sock, idle: float, whole: float):
        super().__init__()
        self.sock, self.idle, self.whole = sock, idle, whole
        self.deadline = None            # None: waiting for the first byte of a request

    def readable(self) -> bool:
        return True

    def next_request(self) -> None:
        """The next bytes read start a request: its deadline runs from the first of them."""
        self.deadline = None

    def readinto(self, buffer) -> int:
        wait = self.idle
        if self.deadline is not None:
            wait = min(wait, self.deadline - time.monotonic())
            if wait <= 0:
                raise TimeoutError(f"the request took longer than {self.whole:g} s")
        self.sock.settimeout(wait)
        try:
            n = self.sock.recv_into(buffer)
        except TimeoutError:
            if self.deadline is not None and time.monotonic() >= self.deadline:
                raise TimeoutError(f"the request took longer than {self.whole:g} s") from None
            raise TimeoutError(f"the client sent nothing for longer than {self.idle:g} s") \
                from None
        if n and self.deadline is None:
            self.deadline = time.monotonic() + self.whole
        return n


class Handler(BaseHTTPRequestHandler):
    """Serves the page's files and its API for ``self.server.game``."""

    server_version = "kakuro-np-play"
    timeout = READ_SECONDS                  # the longest one read from the client waits
    request_seconds = REQUEST_SECONDS       # the longest a whole request takes

    def setup(self):
        super().setup()
        self.rfile.close()
        self.reader = ClientReader(self.connection, self.timeout, self.request_seconds)
        self.rfile = io.BufferedReader(self.reader)

    def handle_one_request(self):
        self.reader.next_request()
        super().handle_one_request()

    def do_GET(self):
        self._handle("GET")

    def do_POST(self):
        self._handle("POST")

    def _handle(self, method):
        url = urlsplit(self.path)
        refused = self.server.refusal(self.headers, api=url.path.startswith("/api/"))
        if refused:
            self.close_connection = True
            return self._send_json(HTTPStatus.FORBIDDEN, {"error": refused})
        if method == "GET" and url.path in PAGES:
            return self._send(HTTPStatus.OK, self.server.page(url.path), PAGES[url.path][1])
        game = self.server.game
        try:
            body = self._body() if method == "POST" else None
        except BadRequest as e:
            if e.status == HTTPStatus.REQUEST_TIMEOUT:
                self.close_connection = True
                return self._send_json(e.status, {"error": str(e)})
            return self._send_json(e.status, self._error(str(e), game))
        if not self.server.at_work(self.request):      # closed for another client meanwhile
            self.close_connection = True
            return
        try:
            answer, status = _answer_api(game, method, url.path, url.query, body), HTTPStatus.OK
        except Exception as e:          # an answer all the same; the game goes on
            status, said = failure(e)
            if status == HTTPStatus.INTERNAL_SERVER_ERROR:
                traceback.print_exc(file=sys.stderr)
            answer = self._error(said, game)
        self._send_json(status, answer)

    @staticmethod
    def _error(said: str, game: Game) -> dict:
        """An error's answer: ``said`` and the state as it stands (left out if even that fails)."""
        try:
            return {"error": said, "state": game.snapshot()}
        except Exception:
            traceback.print_exc(file=sys.stderr)
            return {"error": said}

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
        except TimeoutError as e:
            raise BadRequest(f"the body did not come: {e}", HTTPStatus.REQUEST_TIMEOUT) from None
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

    def _send_json(self, status, answer: dict):
        """Send ``answer`` as strict JSON; one JSON cannot hold (NaN, Infinity) is a 500."""
        try:
            data = json.dumps(answer, allow_nan=False).encode()
        except (ValueError, TypeError) as e:
            traceback.print_exc(file=sys.stderr)
            status = HTTPStatus.INTERNAL_SERVER_ERROR
            said = f"the server failed: the answer is not JSON: {e}"
            data = json.dumps({"error": said}).encode()
        self._send(status, data, "application/json")

    def _send(self, status, data: bytes, kind: str):
        self.server.waiting(self.request)            # on the client, to read the answer
        try:
            self.connection.settimeout(SEND_SECONDS)
            self.send_response(status)
            self.send_header("Content-Type", kind)
            self.send_header("Content-Length", str(len(data)))
            self.send_header("Cache-Control", "no-store")
            self.send_header("X-Content-Type-Options", "nosniff")
            self.send_header("X-Frame-Options", "DENY")
            self.send_header("Referrer-Policy", "no-referrer")
            self.end_headers()
            self.wfile.write(data)
        except OSError:                 # the client left, was too slow, or was closed for another
            self.close_connection = True

    def log_message(self, format, *args):
        if self.server.verbose:
            super().log_message(format, *args)


class Connection:
    """A connection served: its socket, its client's address, since when it has waited on
    its client (None: at work on the game), and whether it was closed for another."""
    __slots__ = ("sock", "address", "waiting_since", "closed")

    def __init__(self, sock, address):
        self.sock, self.address = sock, address
        self.waiting_since, self.closed = time.monotonic(), False

    def close(self) -> None:
        """Wake the thread that waits on the client: its reads end, its writes fail."""
        try:
            self.sock.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass


class PlayServer(ThreadingHTTPServer):
    """An HTTP server holding one ``game``; ``url`` is where to open it, ``token`` its secret.

    ``most_clients`` and ``most_per_address`` (``MOST_CLIENTS``, ``MOST_PER_ADDRESS``) bound
    the connections served, as the module says.
    """
    daemon_threads = True
    request_queue_size = 128            # a burst of connects is not dropped (retried in 1 s)

    def __init__(self, address, game: Game, verbose=False):
        super().__init__(address, Handler)
        self.game, self.verbose = game, verbose
        self.token = secrets.token_urlsafe(32)
        host, port = self.server_address[:2]
        self.url = f"http://{host}:{port}/"
        self.hosts = {f"127.0.0.1:{port}", f"localhost:{port}"}
        self.origins = {f"http://{name}" for name in self.hosts}
        self.most_clients, self.most_per_address = MOST_CLIENTS, MOST_PER_ADDRESS
        self.connections = {}           # socket -> Connection
        self.connections_lock = threading.Lock()

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

    # -- the connections' book ------------------------------------------------------
    def admit(self, sock, address) -> bool:
        """Book a new connection, closing for it the one that has waited longest on its
        client where its address or the server is at its most; False when none can go."""
        closing = []
        with self.connections_lock:
            served = [c for c in self.connections.values() if not c.closed]
            admitted = (_make_room([c for c in served if c.address == address[0]],
                                   self.most_per_address, closing)
                        and _make_room([c for c in served if not c.closed],
                                       self.most_clients, closing))
            if admitted:
                self.connections[sock] = Connection(sock, address[0])
        for connection in closing:
            connection.close()
        return admitted

    def at_work(self, sock) -> bool:
        """Mark a connection at work on the game (never closed for another); False when it
        was closed for another already."""
        with self.connections_lock:
            connection = self.connections.get(sock)
            if connection is None or connection.closed:
                return False
            connection.waiting_since = None
            return True

    def waiting(self, sock) -> None:
        """Mark a connection waiting on its client (to read an answer, to send the next
        request) from now on."""
        with self.connections_lock:
            connection = self.connections.get(sock)
            if connection is not None and connection.waiting_since is None:
                connection.waiting_since = time.monotonic()

    def process_request(self, request, client_address):
        """Serve the connection on its own thread, unless it cannot be booked (``admit``)."""
        if not self.admit(request, client_address):
            self.shutdown_request(request)
            return
        try:
            super().process_request(request, client_address)
        except BaseException:
            self._forget(request)
            raise

    def process_request_thread(self, request, client_address):
        try:
            super().process_request_thread(request, client_address)
        finally:
            self._forget(request)

    def _forget(self, sock) -> None:
        with self.connections_lock:
            self.connections.pop(sock, None)

    def handle_error(self, request, client_address):
        """A client that left or stalled is no error; anything else is printed."""
        if isinstance(sys.exc_info()[1], (ConnectionError, TimeoutError)):
            return
        super().handle_error(request, client_address)


def _make_room(connections: list, most: int, closing: list) -> bool:
    """Mark closed, and add to ``closing``, the connections of ``connections`` that have
    waited longest on their clients until fewer than ``most`` are left; False when those
    left are all at work."""
    open_ones = [c for c in connections if not c.closed]
    waiting = sorted((c for c in open_ones if c.waiting_since is not None),
                     key=lambda c: c.waiting_since)
    while len(open_ones) >= most:
        if not waiting:
            return False
        oldest = waiting.pop(0)
        oldest.closed = True
        open_ones.remove(oldest)
        closing.append(oldest)
    return True


def make_server(game: Game, port: int = 0, verbose=False,
                answer_seconds=ANSWER_SECONDS) -> PlayServer:
    """A server for ``game`` on 127.0.0.1 (``port`` 0: a free one); OSError when the port is taken.

    The game answers each request within ``answer_seconds`` (its ``answer_seconds``), and
    its timer waits for the page's first request (``Game.wait_for_page``).
    """
    server = PlayServer(("127.0.0.1", port), game, verbose)
    game.answer_seconds = answer_seconds
    game.wait_for_page()
    return server


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
