# make serve   build the calculator and serve it at http://127.0.0.1:8000/
# make test    run every test (format, lints, native, headless browser, end-to-end)
# make fuzz    hostile requests against the command-line tool (FUZZ_CASES, FUZZ_SEED)
# make real-runs  the real-run experiments (harness/, docs/real-run.md), one report in
#              real-runs/DATE/report.md (SMOKE=1: tiny sizes, in seconds; MPI=1: also
#              over MPI, after .ci/setup test)
# make dist    dist/dlt-calc.html (one file, works opened from a file), dist/dlt-calc.zip
#              and dist/schemas/<id>.json (each model's request schema, from `dlt schema`)
# Both install whatever is missing first (see .ci/setup).

PORT ?= 8000

.PHONY: serve test build setup bench-maps fuzz dist real-runs

setup:
	@.ci/setup

# The page's wasm: Cargo.toml's wasm-release profile (small code, the LP
# solver fast), then Binaryen's wasm-opt from npm (.ci/wasm-opt; Debian's
# wasm-opt breaks the module, so wasm-pack is told not to run one).
# www/pkg/source holds the hash of the sources it was built from (taken
# before the build, so that an edit during it counts as a change): a page
# built from the same sources (by `make test`, in another target folder, or
# by an earlier `make serve`) is not built again, so `make serve` starts in
# seconds after either.
WASM_OPT = .ci/wasm-opt/node_modules/.bin/wasm-opt
SOURCE = $$(cat Cargo.toml Cargo.lock $$(find src -type f | sort) | sha256sum | cut -c1-16)
build: setup
	@hash=$(SOURCE); \
	if [ -f www/pkg/dlt_calc_bg.wasm ] && [ "$$(cat www/pkg/source 2>/dev/null)" = "$$hash" ]; then \
	  echo "[build] www/pkg is built from these sources already"; exit 0; fi; \
	rm -f www/pkg/source; \
	PATH="$$HOME/.cargo/bin:$$PATH" DLT_BUILD=$$hash \
	  wasm-pack build --mode no-install --no-opt --profile wasm-release --target web --out-dir www/pkg --no-typescript --no-pack && \
	echo "[build] wasm-opt -O3 www/pkg/dlt_calc_bg.wasm" && \
	$(WASM_OPT) -O3 www/pkg/dlt_calc_bg.wasm -o www/pkg/dlt_calc_bg.opt.wasm && \
	mv www/pkg/dlt_calc_bg.opt.wasm www/pkg/dlt_calc_bg.wasm && \
	echo $$hash > www/pkg/source

serve: build
	@echo "serving the calculator at http://127.0.0.1:$(PORT)/ (Ctrl-C stops)"
	@python3 -m http.server $(PORT) --bind 127.0.0.1 --directory www

test:
	@.ci/test

# The schemas are written by the release `dlt`, built first, or by the `dlt`
# that DLT_BIN names (`make test` gives the one its release-mode tests built).
dist: build
	@[ -n "$(DLT_BIN)" ] || PATH="$$HOME/.cargo/bin:$$PATH" cargo build --release --bin dlt
	@DLT_BIN="$(DLT_BIN)" python3 .ci/dist.py

# The real-run harness's experiments with the release `dlt` (harness/,
# docs/real-run.md): each one's folder and one report under real-runs/.
real-runs:
	@PATH="$$HOME/.cargo/bin:$$PATH" cargo build --release --bin dlt
	python3 -m harness real-runs --dlt target/release/dlt $(if $(SMOKE),--smoke) $(if $(MPI),--mpi) $(if $(OUT),--out $(OUT))

# Times the reference map and Table 1 in headless Chromium and natively.
bench-maps: build
	@.ci/setup test
	cargo build --release --bin dlt
	node tests/e2e/bench-maps.mjs

# Hostile requests against `dlt` (tests/fuzz.rs), more of them than `make test`
# runs: FUZZ_CASES cases (default 5000) from FUZZ_SEED (default: the test's).
FUZZ_CASES ?= 5000
fuzz:
	cargo build --release --bin dlt
	DLT_FUZZ_CASES=$(FUZZ_CASES) $(if $(FUZZ_SEED),DLT_FUZZ_SEED=$(FUZZ_SEED)) \
	  cargo test --release --test fuzz -- --nocapture
