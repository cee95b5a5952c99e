"""The data the chunks are cut from: generated lines of random text (seeded)
or a file."""

import random

from .protocol import LINE, MB, StarError


class Source:
    """The data chunks are cut from: a generated pool of random text lines, or a file."""

    def __init__(self, path=None, size_mb=0.0, seed=1):
        if path:
            with open(path, "rb") as f:
                self.pool = f.read()
            self.lines = False
            if not self.pool:
                raise StarError(f"input {path} is empty")
        else:
            self.pool = generate_lines(int(size_mb * MB) + LINE, seed)
            self.lines = True
        self.offset = 0

    def chunk(self, size):
        """`size` bytes, the next ones after the previous chunk (wrapping around)."""
        pool = self.pool
        if size > len(pool):
            return (pool * (size // len(pool) + 1))[:size]
        start = self.offset if self.offset + size <= len(pool) else 0
        if self.lines:
            start -= start % LINE
        self.offset = start + size
        return memoryview(pool)[start:start + size]


def generate_lines(size, seed):
    """`size` bytes of lines of 99 random letters and digits each (seeded)."""
    rng = random.Random(seed)
    alphabet = (b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789" * 5)[:256]
    per_block = 10000
    out = bytearray()
    while len(out) < size:
        raw = rng.randbytes(99 * per_block).translate(alphabet)
        out += b"\n".join(raw[i:i + 99] for i in range(0, len(raw), 99)) + b"\n"
    return bytes(out[:size])


def chunk_bytes(size_mb, lines):
    size = int(round(size_mb * MB))
    if lines and size >= LINE:
        size -= size % LINE
    return max(size, 1)
