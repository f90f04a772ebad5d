"""The play page's web server: the standard library's, on 127.0.0.1, one game.

Each ``/api/*`` request is one method of ``game.Game`` (see ``CONTRACT.md``),
taken one at a time under a lock; the page's files come from ``static/``. A
request the game refuses, or one it cannot read, answers 400 with the error and
the unchanged state; the server itself never stops on a bad request.

Examples
--------
>>> import json, threading, urllib.request
>>> import kakuro_np as kn
>>> server = make_server(Game(kn.read("x ; 4 0 ; 3 0\\n0 3 ; _ ; _\\n0 4 ; _ ; _")), port=0)
>>> threading.Thread(target=server.serve_forever, daemon=True).start()
>>> with urllib.request.urlopen(server.url + "api/state") as answer:
...     json.load(answer)["status"]["text"]
'unique, easy (10.1)'
>>> server.shutdown(); server.server_close()
"""

from __future__ import annotations

import json
import sys
import threading
import traceback
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from importlib import resources
from urllib.parse import parse_qs, urlsplit

from .game import Game, MoveError

#: The largest request body read (a puzzle file of 40x40 cells with every mark fits).
MOST_BODY = 1 << 20
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
             "/api/edit": game.edit, "/api/mode": game.mode}
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

    def do_GET(self):
        self._handle("GET")

    def do_POST(self):
        self._handle("POST")

    def _handle(self, method):
        url = urlsplit(self.path)
        if method == "GET" and url.path in PAGES:
            name, kind = PAGES[url.path]
            data = resources.files(__package__).joinpath("static", name).read_bytes()
            return self._send(HTTPStatus.OK, data, kind)
        game = self.server.game
        with self.server.lock:
            try:
                body = self._body() if method == "POST" else None
                answer, status = _answer_api(game, method, url.path, url.query, body), 200
            except BadRequest as e:
                answer, status = {"error": str(e), "state": game.state()}, e.status
            except MoveError as e:
                answer, status = {"error": str(e), "state": game.state()}, 400
            except Exception as e:          # a bug: say so, keep serving
                traceback.print_exc(file=sys.stderr)
                answer = {"error": f"the server failed: {type(e).__name__}: {e}",
                          "state": game.state()}
                status = HTTPStatus.INTERNAL_SERVER_ERROR
        self._send(status, json.dumps(answer).encode(), "application/json")

    def _body(self):
        """The request's JSON object ({} for an empty body)."""
        try:
            n = int(self.headers.get("Content-Length") or 0)
        except ValueError:
            raise BadRequest("Content-Length is not a number") from None
        if n > MOST_BODY:
            raise BadRequest(f"the request is {n:,} bytes; at most {MOST_BODY:,}",
                             HTTPStatus.REQUEST_ENTITY_TOO_LARGE)
        raw = self.rfile.read(n) if n > 0 else b""
        if not raw.strip():
            return {}
        try:
            body = json.loads(raw)
        except (ValueError, UnicodeDecodeError) as e:
            raise BadRequest(f"the body is not JSON: {e}") from None
        if not isinstance(body, dict):
            raise BadRequest("the body must be a JSON object")
        return body

    def _send(self, status, data: bytes, kind: str):
        self.send_response(status)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(data)))
        self.send_header("Cache-Control", "no-store")
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, format, *args):
        if self.server.verbose:
            super().log_message(format, *args)


class PlayServer(ThreadingHTTPServer):
    """An HTTP server holding one ``game``; ``url`` is where to open it."""
    daemon_threads = True

    def __init__(self, address, game: Game, verbose=False):
        super().__init__(address, Handler)
        self.game, self.lock, self.verbose = game, threading.Lock(), verbose
        host, port = self.server_address[:2]
        self.url = f"http://{host}:{port}/"


def make_server(game: Game, port: int = 0, verbose=False) -> PlayServer:
    """A server for ``game`` on 127.0.0.1 (``port`` 0: a free one); OSError when the port is taken."""
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
