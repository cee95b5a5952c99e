# make serve   build the calculator and serve it at http://127.0.0.1:8000/
# make test    run every test (format, lints, native, headless browser, end-to-end)
# make fuzz    hostile requests against the command-line tool (FUZZ_CASES, FUZZ_SEED;
#              PAGE=1: each also in the page's wasm, which must do as the tool does)
# make page-parity  every preset in the page's wasm and the tool: the same answers
# make bench-star  the page's experiment on this computer, three times (docs/star.md)
# make real-runs  the real-run experiments (harness/, docs/real-run.md), one report in
#              real-runs/DATE/report.md (SMOKE=1: tiny sizes, in seconds; MPI=1: also
#              over MPI, after .ci/setup test)
# make mutants cargo-mutants over the verifiers and the fit's statistics (slow:
#              by hand, not in make test; see docs/testing.md)
# make dist    dist/dlt-calc.html (one file, works opened from a file), dist/dlt-calc.zip
#              and dist/schemas/<id>.json (each model's request schema, from `dlt schema`)
# Both install whatever is missing first (see .ci/setup).

PORT ?= 8000

.PHONY: serve test build setup bench-maps bench-star fuzz page-parity dist real-runs mutants

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

# Runs the page's experiment on this computer (docs/star.md) three times in
# headless Chromium and prints its knees, errors, equal/M3 and wall times.
bench-star: build
	@.ci/setup test
	node tests/e2e/bench-star.mjs

# Hostile requests against `dlt` (tests/fuzz.rs), more of them than `make test`
# runs: FUZZ_CASES cases (default 5000) from FUZZ_SEED (default: the test's).
# With PAGE=1, each case also runs in the page's wasm (built first, run in
# Node), which must mark, answer or refuse it as `dlt` does.
FUZZ_CASES ?= 5000
fuzz: $(if $(PAGE),build)
	cargo build --release --bin dlt
	DLT_FUZZ_CASES=$(FUZZ_CASES) $(if $(FUZZ_SEED),DLT_FUZZ_SEED=$(FUZZ_SEED)) $(if $(PAGE),DLT_PAGE=www/pkg) \
	  cargo test --release --test fuzz -- --nocapture

# Mutation testing (docs/testing.md): each group of files with the tests
# that exercise it, one mutant at a time. Every mutant rebuilds the crate:
# in the `quick-release` profile of `make test`, whose dependencies are then
# already built (MUTANTS_TARGET, the target folder; run nothing else in it
# meanwhile), with the crate itself unoptimised and incremental, which
# rebuilds far faster than optimised. Only the group's test files are
# built and run (as cargo arguments: after `--` they would reach the test
# run only, and every test target would be built for each mutant).
# Installs cargo-mutants into MUTANTS_ROOT when missing. MUTANTS_GROUPS picks groups; reports go to
# target/mutants/<group>/mutants.out. cargo-mutants exits 2 when a mutant
# is missed and 3 on a timeout, which its report lists: other codes (a
# failed baseline, wrong usage) stop.
MUTANTS_ROOT ?= $(HOME)/.cargo
MUTANTS_GROUPS ?= verifier m7 m8 stats
MUTANTS_TIMEOUT ?= 300
MUTANTS_TARGET ?= $(CURDIR)/target
MUTANTS_CRATE = --cargo-arg=--config=profile.quick-release.package.dlt-calc.opt-level=0 \
	--cargo-arg=--config=profile.quick-release.incremental=true
mutants:
	@PATH="$(MUTANTS_ROOT)/bin:$$HOME/.cargo/bin:$$PATH"; \
	  command -v cargo-mutants >/dev/null || cargo install --locked cargo-mutants --root "$(MUTANTS_ROOT)"
	@set -f; for group in $(MUTANTS_GROUPS); do \
	  case $$group in \
	    verifier) files="src/core/domain/verify.rs"; tests="verifier verifier_rules installments";; \
	    m7) files="src/models/heterogeneous/verify.rs"; tests="heterogeneous verifier_rules";; \
	    m8) files="src/models/mapreduce/verify.rs"; tests="mapreduce verifier_rules";; \
	    stats) files="src/models/fit/stats/*.rs"; tests="fit_math fit_noise";; \
	    *) echo "no mutants group $$group (verifier, m7, m8, stats)"; exit 2;; \
	  esac; \
	  args="-f $$files"; for t in $$tests; do args="$$args --cargo-arg=--test=$$t"; done; \
	  echo "[mutants] $$group: $$args"; code=0; \
	  PATH="$(MUTANTS_ROOT)/bin:$$HOME/.cargo/bin:$$PATH" CARGO_TARGET_DIR="$(MUTANTS_TARGET)" \
	    cargo mutants --profile quick-release $(MUTANTS_CRATE) --all-features --jobs 1 \
	    --timeout $(MUTANTS_TIMEOUT) --build-timeout 1800 --output target/mutants/$$group $$args \
	    || code=$$?; \
	  [ $$code -eq 0 ] || [ $$code -eq 2 ] || [ $$code -eq 3 ] || exit $$code; \
	done

# Every preset in the page's wasm (in Node) and by `dlt`: the same answers.
page-parity: build
	DLT_PAGE=www/pkg cargo test --release --test page_parity -- --include-ignored --nocapture
