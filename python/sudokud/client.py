"""client.py - a Python client of sudokud over its Unix socket.

The wire is MessagePack-RPC (docs/PROTOCOL.md): a request is
[0, msgid, method, [params]], the answer [1, msgid, error, result]. Many
requests may be in flight on one connection and answers come back in any
order, matched by msgid. A batch is sent as requests of `chunk` puzzles,
at most `window` of them in flight, and its results are yielded in input
order while later requests are still being worked on: constant memory, the
daemon's workers kept busy, however long the input (an endless generator
works too).

Only Debian's python3-msgpack is needed.
"""

import os
import socket as _socket
import subprocess
import time

import msgpack

__all__ = ["Client", "SudokudError", "PuzzleError", "default_socket", "SYSTEM_SOCKET"]

SYSTEM_SOCKET = "/run/sudokud/sudokud.sock"

# Errors of a whole request that concern its puzzles (each gets the error)
# rather than the request itself; as sudoctl.
_PER_PUZZLE = {"plugin-crashed", "deadline-exceeded", "internal", "too-large", "bad-format",
               "conflict", "no-solution", "multiple-solutions"}


def default_socket():
    """The socket sudoctl uses: $XDG_RUNTIME_DIR/sudokud.sock (the per-user
    daemon), else the system-wide /run/sudokud/sudokud.sock."""
    x = os.environ.get("XDG_RUNTIME_DIR")
    if x:
        return os.path.join(x, "sudokud.sock")
    return SYSTEM_SOCKET


class SudokudError(Exception):
    """An error answer: `code` and `message` as on the wire (bad-format,
    unknown-profile, busy, ...; docs/PROTOCOL.md lists them)."""

    def __init__(self, code, message):
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message


class PuzzleError(SudokudError):
    """One puzzle failed (invalid, no solution, several, a deadline...):
    `puzzle` is the text sent, `index` its place in the batch (0 for a single
    puzzle)."""

    def __init__(self, code, message, puzzle=None, index=0):
        super().__init__(code, message)
        self.puzzle = puzzle
        self.index = index


def _chunks(puzzles, n):
    """Lists of n puzzles; line ends dropped, blank and '#' lines skipped (so
    that an open file is a batch)."""
    chunk = []
    for p in puzzles:
        if not isinstance(p, str):
            raise TypeError(f"a puzzle is a str, not {type(p).__name__}")
        p = p.rstrip("\r\n")
        if not p.strip() or p.startswith("#"):
            continue
        chunk.append(p)
        if len(chunk) == n:
            yield chunk
            chunk = []
    if chunk:
        yield chunk


class Client:
    """A connection to sudokud.

    Client(socket=None): the socket sudoctl would use when None (see
    default_socket); `system=True` the system-wide daemon. `timeout` bounds
    each wait for the daemon in seconds (None: no bound). `autostart=True`
    lets `sudoctl` start a per-user daemon when none answers on the default
    socket (sudoctl must be on PATH, or give its path).

    Every puzzle method takes one puzzle (a str) and returns its result (a
    dict, the fields of docs/PROTOCOL.md), or raises PuzzleError; or an
    iterable of puzzles (an open file works: line ends are dropped, blank
    and '#' lines skipped) and returns an iterator of results in the same
    order. One batch is read at a time; the other methods may be called
    while it runs. In a batch a failed puzzle raises PuzzleError when its turn comes, unless
    errors="yield", which yields the PuzzleError in its place and goes on.
    """

    def __init__(self, socket=None, *, system=False, timeout=None, autostart=False,
                 sudoctl="sudoctl", chunk=None, window=16):
        own_default = socket is None and not system
        self.path = SYSTEM_SOCKET if system else (socket or default_socket())
        self.timeout = timeout
        self.chunk = chunk
        self.window = max(1, int(window))
        self._next_id = 1
        self._unpacker = msgpack.Unpacker(raw=False, strict_map_key=False)
        self._packer = msgpack.Packer(use_bin_type=True)
        self._early = {}  # answers read while waiting for another msgid
        self._abandoned = set()  # msgids of batches dropped before their end
        self.busy_retries = 0  # requests sent again after a `busy` answer
        try:
            self._sock = self._connect()
        except OSError as e:
            if not (autostart and own_default):
                raise ConnectionError(f"cannot reach sudokud at {self.path}: {e.strerror or e}; "
                                      f"start it with `sudokud --socket {self.path} &`") from e
            # sudoctl knows how to start a per-user daemon (the same socket)
            subprocess.run([sudoctl, "status"], stdout=subprocess.DEVNULL,
                           stderr=subprocess.DEVNULL, timeout=30, check=False)
            try:
                self._sock = self._connect()
            except OSError as e2:
                raise ConnectionError(f"cannot reach sudokud at {self.path}: {e2.strerror or e2} "
                                      f"(`{sudoctl} status` did not start one)") from e2

    def _connect(self):
        s = _socket.socket(_socket.AF_UNIX, _socket.SOCK_STREAM)
        try:
            s.settimeout(self.timeout)
            s.connect(self.path)
        except OSError:
            s.close()
            raise
        return s

    # ---- the connection --------------------------------------------------------

    def close(self):
        if self._sock is not None:
            self._sock.close()
            self._sock = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
        return False

    def __del__(self):
        try:
            self.close()
        except Exception:
            pass

    def _send(self, method, params):
        if self._sock is None:
            raise ConnectionError("the client is closed")
        msgid = self._next_id
        self._next_id = self._next_id % 0xFFFFFFFF + 1
        self._sock.sendall(self._packer.pack([0, msgid, method, [params]]))
        return msgid

    def _read(self):
        """The next message from the daemon."""
        while True:
            for m in self._unpacker:
                return m
            try:
                data = self._sock.recv(1 << 16)
            except _socket.timeout as e:
                raise TimeoutError(f"sudokud did not answer within {self.timeout} s") from e
            if not data:
                raise ConnectionError(f"sudokud closed the connection ({self.path})")
            self._unpacker.feed(data)

    def _answer(self, msgid):
        """(error, result) of msgid's answer; other answers are kept."""
        if msgid in self._early:
            return self._early.pop(msgid)
        while True:
            m = self._read()
            if not isinstance(m, list) or not m or m[0] != 1:
                continue  # a notification (progress)
            _, mid, err, res = m
            if mid == 0 and err is not None:  # the daemon could not read a request
                raise SudokudError(err.get("code", "?"), err.get("message", ""))
            if mid == msgid:
                return err, res
            if mid in self._abandoned:  # a batch that was not read to its end
                self._abandoned.discard(mid)
                continue
            self._early[mid] = (err, res)

    def call(self, method, params=None):
        """One raw call: the result, or SudokudError. Retries while busy."""
        delay = 0.005
        while True:
            err, res = self._answer(self._send(method, params or {}))
            if err is None:
                return res
            if err.get("code") == "busy" and delay < 5:
                time.sleep(delay)
                delay *= 2
                continue
            raise SudokudError(err.get("code", "?"), err.get("message", ""))

    # ---- batches -------------------------------------------------------------------

    def _batch(self, method, puzzles, params, chunk, errors):
        """Results of puzzles in order, requests pipelined (see the module doc)."""
        if errors not in ("raise", "yield"):
            raise ValueError("errors is 'raise' or 'yield'")
        source = _chunks(puzzles, chunk)
        inflight = []  # [msgid, chunk, first index, retries], in input order
        try:
            yield from self._batch_loop(method, params, source, inflight, errors)
        finally:
            # left early (break, an exception): answers still to come are dropped
            for r in inflight:
                if self._early.pop(r[0], None) is None:
                    self._abandoned.add(r[0])

    def _batch_loop(self, method, params, source, inflight, errors):
        index = 0
        exhausted = False
        while True:
            while not exhausted and len(inflight) < self.window:
                c = next(source, None)
                if c is None:
                    exhausted = True
                    break
                inflight.append([self._send(method, dict(params, puzzles=c)), c, index, 0])
                index += len(c)
            if not inflight:
                return
            head = inflight[0]
            err, res = self._answer(head[0])
            if err is not None and err.get("code") == "busy":
                head[3] += 1  # the daemon's queue is full: send it again, backing off
                self.busy_retries += 1
                if head[3] > 2000:
                    raise SudokudError("busy", err.get("message", ""))
                time.sleep(min(head[3], 20) * 0.005)
                head[0] = self._send(method, dict(params, puzzles=head[1]))
                continue
            inflight.pop(0)
            _, c, first, _ = head
            if err is not None:
                code, msg = err.get("code", "?"), err.get("message", "")
                if code not in _PER_PUZZLE:
                    raise SudokudError(code, msg)
                results = [{"puzzle": p, "error": err} for p in c]
            else:
                results = res.get("results") or []
            for i, p in enumerate(c):
                r = results[i] if i < len(results) else {
                    "puzzle": p, "error": {"code": "internal",
                                           "message": "the daemon's answer has no result for it"}}
                e = r.get("error") if isinstance(r, dict) else None
                if e:
                    pe = PuzzleError(e.get("code", "?"), e.get("message", ""), p, first + i)
                    if errors == "raise":
                        raise pe
                    yield pe
                else:
                    yield r

    def _puzzles(self, method, puzzles, params, chunk, errors):
        params = {k: v for k, v in params.items() if v is not None and v is not False}
        if isinstance(puzzles, str):
            err, res = self._answer(self._send(method, dict(params, puzzle=puzzles)))
            delay = 0.005
            while err is not None and err.get("code") == "busy" and delay < 5:
                time.sleep(delay)
                delay *= 2
                err, res = self._answer(self._send(method, dict(params, puzzle=puzzles)))
            if err is not None:
                code, msg = err.get("code", "?"), err.get("message", "")
                if code in _PER_PUZZLE:
                    raise PuzzleError(code, msg, puzzles, 0)
                raise SudokudError(code, msg)
            return res
        return self._batch(method, puzzles, params, self.chunk or chunk, errors)

    # ---- the methods -----------------------------------------------------------------

    def solve(self, puzzles, *, logic=False, profile=None, no_guess=False, errors="raise"):
        """{puzzle, status: unique|multiple|none, solution, solutions, ...}."""
        return self._puzzles("solve", puzzles,
                             {"logic": logic, "profile": profile, "no_guess": no_guess},
                             32 if logic else 256, errors)

    def rate(self, puzzles, *, profile=None, no_guess=False, timing=False, errors="raise"):
        """{puzzle, er, ep, ed, level, score, hardest, solved, steps, ...}."""
        return self._puzzles("rate", puzzles,
                             {"profile": profile, "no_guess": no_guess, "timing": timing},
                             256, errors)

    def explain(self, puzzles, *, profile=None, no_guess=False, trace=False, max_trace=None,
                errors="raise"):
        """{puzzle, solved, status, steps: [{technique, name, difficulty,
        placements, eliminations, text, ...}]}."""
        return self._puzzles("explain", puzzles,
                             {"profile": profile, "no_guess": no_guess, "trace": trace,
                              "max_trace": max_trace}, 8, errors)

    def hint(self, puzzles, *, techniques=None, all=False, profile=None, errors="raise"):
        """{puzzle, steps}: the next step (all=True: every step of the
        position; techniques: only these ids)."""
        if isinstance(techniques, str):
            techniques = [t for t in techniques.split(",") if t]
        return self._puzzles("hint", puzzles,
                             {"techniques": list(techniques) if techniques else None,
                              "all": all, "profile": profile}, 32, errors)

    def trace(self, puzzles, assumption, *, als=False, errors="raise"):
        """{puzzle, assumption, lines, contradiction, summary}: what follows
        from assuming a candidate ("r2c2=1" or "r2c2<>1")."""
        return self._puzzles("trace", puzzles, {"assumption": assumption, "als": als}, 8, errors)

    def techniques(self, profile=None):
        """The techniques of a profile, in order: [{id, name, difficulty, ...}]."""
        return self.call("techniques", {"profile": profile} if profile else {})["techniques"]

    def status(self):
        """{version, uptime, pid, workers, busy, queued, ...}."""
        return self.call("status")

    def reload(self):
        """Make the daemon re-read its config: {ok, techniques, generation}."""
        return self.call("reload")
