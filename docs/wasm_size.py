#!/usr/bin/env python3
"""What a WebAssembly module holds: its sections, and its code by crate and by function.

    python3 docs/wasm_size.py www/pkg/dlt_calc_bg.wasm [--top 25]

Reads the module's sections and the function names of its `name` section
(a module built without names is shown by function index only) and prints
Markdown tables of sizes, raw and gzipped (`gzip -9` of the bytes alone,
so the gzipped sizes of parts add up to more than the whole's). A
function's crate is the first path segment of its demangled name
(`<serde_json::de::Deserializer<R> as ...>::f` is serde_json's; a generic
function is its own crate's, whatever it was instantiated with).
Python 3 standard library only.
"""

import argparse
import collections
import gzip
import re
import sys

SECTIONS = {0: "custom", 1: "type", 2: "import", 3: "function", 4: "table", 5: "memory",
            6: "global", 7: "export", 8: "start", 9: "element", 10: "code", 11: "data",
            12: "data count"}


def leb(data, pos):
    """An unsigned LEB128 number at `pos`, and the position after it."""
    result = shift = 0
    while True:
        byte = data[pos]
        pos += 1
        result |= (byte & 0x7F) << shift
        shift += 7
        if byte < 0x80:
            return result, pos


def name_at(data, pos):
    """A length-prefixed UTF-8 name at `pos`, and the position after it."""
    n, pos = leb(data, pos)
    return data[pos:pos + n].decode("utf-8", "replace"), pos + n


def sections(data):
    """(id, name, start, end) of each section; `name` is a custom section's own."""
    if data[:4] != b"\0asm":
        sys.exit("not a WebAssembly module")
    pos, out = 8, []
    while pos < len(data):
        sid = data[pos]
        size, start = leb(data, pos + 1)
        end = start + size
        name = SECTIONS.get(sid, str(sid))
        if sid == 0:
            name = "custom " + name_at(data, start)[0]
        out.append((sid, name, pos, end))
        pos = end
    return out


def imported_functions(data, start):
    """How many functions the import section brings in (they come first in the index space)."""
    count, pos = leb(data, start)
    functions = 0
    for _ in range(count):
        _, pos = name_at(data, pos)
        _, pos = name_at(data, pos)
        kind = data[pos]
        pos += 1
        if kind == 0:
            functions += 1
            _, pos = leb(data, pos)
        elif kind == 1:
            pos += 1
            flags, pos = leb(data, pos)
            _, pos = leb(data, pos)
            if flags & 1:
                _, pos = leb(data, pos)
        elif kind == 2:
            flags, pos = leb(data, pos)
            _, pos = leb(data, pos)
            if flags & 1:
                _, pos = leb(data, pos)
        elif kind == 3:
            pos += 2
        else:
            _, pos = leb(data, pos + 1)
    return functions


def bodies(data, start):
    """The bytes of each function body of the code section, in index order."""
    count, pos = leb(data, start)
    out = []
    for _ in range(count):
        size, body = leb(data, pos)
        out.append(data[pos:body + size])
        pos = body + size
    return out


def function_names(data, start, end):
    """Function index → name, from the `name` custom section."""
    _, pos = name_at(data, start)
    names = {}
    while pos < end:
        kind = data[pos]
        size, pos = leb(data, pos + 1)
        if kind == 1:
            count, p = leb(data, pos)
            for _ in range(count):
                index, p = leb(data, p)
                names[index], p = name_at(data, p)
        pos += size
    return names


def demangle(name):
    """Rust's legacy mangling (`_ZN4core3fmt5write17h…E`) as `core::fmt::write`, and
    a demangled name without its hashes (`::h…`, `core[…]`)."""
    if not name.startswith("_ZN"):
        return re.sub(r"::h[0-9a-f]{16}$|\[[0-9a-f]{16}\]", "", name)
    pos, parts = 3, []
    while pos < len(name) and name[pos].isdigit():
        digits = re.match(r"\d+", name[pos:]).group()
        pos += len(digits)
        parts.append(name[pos:pos + int(digits)])
        pos += int(digits)
    if parts and re.fullmatch(r"h[0-9a-f]{16}", parts[-1]):
        parts.pop()
    text = "::".join(parts)
    for code, char in (("$LT$", "<"), ("$GT$", ">"), ("$u20$", " "), ("$RF$", "&"),
                       ("$BP$", "*"), ("$C$", ","), ("$u7b$", "{"), ("$u7d$", "}"),
                       ("$u27$", "'"), ("$u5b$", "["), ("$u5d$", "]"), ("..", "::")):
        text = text.replace(code, char)
    return text


def crate(name):
    """The crate a demangled function name belongs to."""
    text = re.sub(r"^(<|&|mut |dyn |\*const |\*mut |\[)+", "", name)
    match = re.match(r"[A-Za-z_][A-Za-z0-9_]*(?=::)", text)
    return match.group() if match else "(other: " + re.split(r"[^A-Za-z0-9_.$]", text or "?")[0] + ")"


def gz(data):
    return len(gzip.compress(data, 9))


def table(title, rows, total):
    print(f"\n| {title} | raw bytes | share | gzipped bytes |")
    print("|---|---:|---:|---:|")
    for name, raw, packed in rows:
        print(f"| {name} | {raw:,} | {100 * raw / total:.1f} % | {packed:,} |")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("module")
    parser.add_argument("--top", type=int, default=25, help="how many crates and functions")
    args = parser.parse_args()
    data = open(args.module, "rb").read()
    print(f"{args.module}: {len(data):,} bytes, {gz(data):,} gzipped")
    found = sections(data)
    rows = [(name, end - pos, gz(data[pos:end])) for _, name, pos, end in found]
    table("section", sorted(rows, key=lambda r: -r[1]), len(data))
    imports = next((imported_functions(data, leb(data, p + 1)[1]) for s, _, p, _ in found if s == 2), 0)
    code = next((bodies(data, leb(data, p + 1)[1]) for s, _, p, _ in found if s == 10), [])
    names = next((function_names(data, leb(data, p + 1)[1], e) for _, n, p, e in found
                  if n == "custom name"), {})
    functions = [(demangle(names.get(imports + i, f"function[{imports + i}]")), body)
                 for i, body in enumerate(code)]
    by_crate = collections.defaultdict(list)
    for name, body in functions:
        by_crate[crate(name)].append(body)
    rows = [(name, sum(map(len, b)), gz(b"".join(b))) for name, b in by_crate.items()]
    rows.sort(key=lambda r: -r[1])
    table(f"crate (code section, {len(code)} functions)", rows[:args.top], len(data))
    functions.sort(key=lambda f: -len(f[1]))
    rows = [(f"`{name[:110]}`", len(body), gz(body)) for name, body in functions[:args.top]]
    table("function", rows, len(data))


if __name__ == "__main__":
    main()
