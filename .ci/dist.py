#!/usr/bin/env python3
"""Builds the calculator for carrying around (`make dist`, after `make build`):

- dist/dlt-calc.html: one self-contained file that works opened from a
  file (file://), e.g. from a USB stick: the style, the page's modules, the
  wasm (base64) and the worker are inside it. Browsers run module scripts
  from blob: URLs on a file page but start only classic workers there, so
  the worker is the wasm-bindgen module turned into a classic script.
- dist/dlt-calc.zip: the static folder (www/), for any web server.
- dist/schemas/<id>.json: the JSON Schema of the requests of each model,
  printed by the native `dlt schema <id>` (`make dist` builds it first,
  or DLT_BIN names one built already), for editors and tools that write
  requests.
"""
import base64
import json
import os
import re
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
WWW = ROOT / "www"
DIST = ROOT / "dist"
DLT = ROOT / (os.environ.get("DLT_BIN") or "target/release/dlt")
# The page's modules, each after the modules it imports.
MODULES = ["pkg/dlt_calc.js", "js/core.js", "js/cache.js", "js/form.js", "js/compute.js", "js/dom.js",
           "js/wide.js",
           "js/measurements.js", "js/fields.js", "js/machines.js", "js/link.js", "js/result.js", "js/section.js",
           "js/pooled.js", "js/exercises.js", "js/star.js", "js/app.js"]


def read(path):
    return (WWW / path).read_text(encoding="utf-8")


def classic(module):
    """The wasm-bindgen module as a classic script (its exports as globals)."""
    text = re.sub(r"^export (class|function|async function|const|let) ", r"\1 ", module, flags=re.M)
    text = re.sub(r"^export \{[^}]*\};?\s*$", "", text, flags=re.M)
    if re.search(r"^\s*(export|import)\b", text, flags=re.M):
        sys.exit("dist: the wasm-bindgen module has an import or export this script does not handle")
    return text.replace("import.meta.url", "self.location.href")


def worker_script():
    """worker.js with its import replaced by the classic module's globals."""
    body = read("js/worker.js")
    body, n = re.subn(r"^import init, \{ runWithPartials \} from '\.\./pkg/dlt_calc\.js';$",
                      "const init = __wbg_init;", body, flags=re.M)
    if n != 1:
        sys.exit("dist: js/worker.js does not import the module as expected")
    return classic(read("pkg/dlt_calc.js")) + "\n" + body


def script_json(value):
    """JSON that cannot end the script element it is written in."""
    return json.dumps(value).replace("</", "<\\/").replace("<!--", "<\\!--")


def page(wasm_b64):
    html = read("index.html")
    style = read("style.css")
    # The notice for a page opened from a file does not apply to this one,
    # and its scripts are inline and blob: URLs, which its policy allows.
    html, n = re.subn(r'\s*<script src="js/notice.js"></script>', "", html)
    html, c = re.subn(r"script-src 'self' 'wasm-unsafe-eval'; style-src 'self'",
                      "script-src 'unsafe-inline' blob: 'wasm-unsafe-eval'; style-src 'unsafe-inline'", html)
    html = html.replace("worker-src 'self'", "worker-src blob:").replace("default-src 'self'", "default-src 'none'")
    if c != 1:
        sys.exit("dist: index.html does not have the expected Content-Security-Policy")
    html, m = re.subn(r'\s*<link rel="stylesheet" href="style.css">', "", html)
    html, k = re.subn(r'\s*<script type="module" src="js/app.js"></script>', "", html)
    if (n, m, k) != (1, 1, 1):
        sys.exit("dist: index.html does not have the expected head")
    html = re.sub(r'\s*<link rel="manifest"[^>]*>', "", html)
    icon = "data:image/svg+xml;base64," + base64.b64encode((WWW / "icon.svg").read_bytes()).decode()
    html = html.replace('href="icon.svg"', f'href="{icon}"')
    sources = {path: read(path) for path in MODULES}
    loader = f"""
<script>
// The single-file calculator: every module becomes a blob: URL, imports
// rewritten to them; the wasm is decoded once and handed to the page and
// to each worker.
(() => {{
  const wasmB64 = {json.dumps(wasm_b64)};
  const bytes = Uint8Array.from(atob(wasmB64), (c) => c.charCodeAt(0));
  const url = (text) => URL.createObjectURL(new Blob([text], {{ type: 'text/javascript' }}));
  const sources = {script_json(sources)};
  const urls = {{}};
  const specifier = (from, to) => new URL(to, 'https://x/' + from).pathname.slice(1);
  for (const path of {json.dumps(MODULES)}) {{
    const text = sources[path].replace(/(from\\s+|import\\s*\\()'([^']+)'/g,
      (all, head, to) => head + "'" + urls[specifier(path, to)] + "'");
    urls[path] = url(text);
  }}
  const workerSource = {script_json(worker_script())};
  globalThis.dltBundle = {{
    wasm: {{ module_or_path: bytes }},
    moduleSource: sources['pkg/dlt_calc.js'],
    worker: url('self.dltWasm = {{ module_or_path: Uint8Array.from(atob(' + JSON.stringify(wasmB64)
      + '), (c) => c.charCodeAt(0)) }};\\n' + workerSource),
  }};
  import(urls['js/app.js']).catch((err) => {{
    document.getElementById('status-text').textContent = 'The calculator could not be loaded: ' + err;
  }});
}})();
</script>"""
    html = html.replace("</head>", f"<style>\n{style}</style>\n</head>")
    return html.replace("</body>", loader + "\n</body>")


def dlt(*args):
    """The standard output of the native `dlt` with `args`."""
    return subprocess.run([DLT, *args], check=True, capture_output=True, text=True).stdout


def schemas():
    """dist/schemas/<id>.json for every id `dlt schema` lists; the folder is
    made anew, so a renamed model leaves no stale schema behind."""
    if not DLT.exists():
        sys.exit(f"dist: {DLT} is missing; run cargo build --release --bin dlt first")
    folder = DIST / "schemas"
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    for line in dlt("schema").splitlines():
        ident = line.split()[0]
        text = dlt("schema", ident)
        if json.loads(text).get("$id", "").rsplit(":", 1)[-1] != ident:
            sys.exit(f"dist: the schema of {ident} does not have its $id")
        (folder / f"{ident}.json").write_text(text, encoding="utf-8")
    return sorted(folder.glob("*.json"))


def main():
    wasm = WWW / "pkg" / "dlt_calc_bg.wasm"
    if not wasm.exists():
        sys.exit("dist: www/pkg is missing; run make build first")
    DIST.mkdir(exist_ok=True)
    single = DIST / "dlt-calc.html"
    single.write_text(page(base64.b64encode(wasm.read_bytes()).decode()), encoding="utf-8")
    archive = DIST / "dlt-calc.zip"
    with zipfile.ZipFile(archive, "w", zipfile.ZIP_DEFLATED) as z:
        for path in sorted(WWW.rglob("*")):
            if path.is_file() and not path.name.startswith("."):
                z.write(path, Path("dlt-calc") / path.relative_to(WWW))
    for f in (single, archive):
        print(f"{f.relative_to(ROOT)}: {f.stat().st_size / 1e6:.1f} MB")
    for f in schemas():
        print(f"{f.relative_to(ROOT)}: {f.stat().st_size / 1e3:.1f} kB")


main()
