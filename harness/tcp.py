"""The originator's connection to one worker over TCP."""

import json
import socket

from .protocol import StarError, handshake, now, parse_address, send_json, send_paced


class Worker:
    """The originator's connection to one worker."""

    def __init__(self, address, timeout):
        self.address = address
        self.timeout = timeout
        self.sock = None
        self.reader = None
        self.hello = {}
        self.rtt = 0.0
        # Reports read while waiting for another (a buffering worker's `done`
        # may come before the next chunk's `received`), oldest first.
        self.early = []

    def connect(self):
        if self.sock:
            return
        try:
            sock = socket.create_connection(parse_address(self.address), timeout=10)
        except ConnectionRefusedError:
            raise StarError(f"worker {self.address} refused the connection: "
                            "is `harness worker` listening there?") from None
        except OSError as e:
            raise StarError(f"cannot reach worker {self.address}: {e.strerror or e}") from None
        sock.settimeout(self.timeout)
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.sock, self.reader = sock, sock.makefile("rb")
        self.hello, self.rtt = handshake(self)

    def close(self):
        if self.sock:
            for closing in (self.reader, self.sock):
                try:
                    closing.close()
                except OSError:
                    pass
        self.sock = self.reader = None
        self.early = []

    def ask(self, message, op):
        self.send(message)
        return self.expect(op)

    def send(self, message):
        try:
            send_json(self.sock, message)
        except OSError as e:
            raise self.lost(e) from None

    def send_data(self, data, rate):
        try:
            send_paced(self.sock, data, rate)
        except OSError as e:
            raise self.lost(e) from None

    def expect(self, op):
        for k, message in enumerate(self.early):
            if message.get("op") == op:
                return self.early.pop(k)
        while True:
            message = self.read()
            if message.get("op") == "error":
                raise StarError(f"worker {self.address}: {message.get('error')}")
            if message.get("op") == op:
                return message
            if message.get("op") not in ("done", "received"):
                raise StarError(f"worker {self.address} answered {message.get('op')!r}, "
                                f"not {op!r}")
            message["_arrived"] = now()  # when it came, not when it is asked for
            self.early.append(message)

    def read(self):
        try:
            line = self.reader.readline()
        except socket.timeout:
            raise StarError(f"worker {self.address} sent nothing for {self.timeout:g} s "
                            "(raise --timeout for longer chunks)") from None
        except OSError as e:
            raise self.lost(e) from None
        if not line:
            raise self.lost(None)
        return json.loads(line)

    def lost(self, error):
        why = f" ({error.strerror or error})" if error else ""
        return StarError(f"worker {self.address} closed the connection{why}: "
                         "did it die? (its own output says why)")
