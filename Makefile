# make serve   build the calculator and serve it at http://127.0.0.1:8000/
# make test    run every test (format, lints, native, headless browser, end-to-end)
# Both install whatever is missing first (see .ci/setup).

PORT ?= 8000

.PHONY: serve test build setup bench-maps

setup:
	@.ci/setup

build: setup
	@PATH="$$HOME/.cargo/bin:$$PATH" wasm-pack build --mode no-install --release --target web --out-dir www/pkg --no-typescript --no-pack

serve: build
	@echo "serving the calculator at http://127.0.0.1:$(PORT)/ (Ctrl-C stops)"
	@python3 -m http.server $(PORT) --bind 127.0.0.1 --directory www

test:
	@.ci/test

# Times the reference map and Table 1 in headless Chromium and natively.
bench-maps: build
	cargo build --release --bin dlt
	node tests/e2e/bench-maps.mjs
