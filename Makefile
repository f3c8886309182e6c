# Hanji: `make run` opens the sample blog, `make test` runs every test.
# Both install what is missing first (Debian/Ubuntu; apt-get needs root or sudo).

SHELL := /bin/bash
CARGO ?= cargo
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

VNU := .cache/vnu/node_modules/vnu-jar/build/dist/vnu.jar

.PHONY: run test deps test-deps lint unit html bench

run: deps
	$(CARGO) build --quiet
	-$(CARGO) run --quiet -- check content
	$(CARGO) run --quiet -- serve content

test: deps test-deps lint unit html

lint:
	$(CARGO) fmt --check
	$(CARGO) clippy --all-targets --locked -- -D warnings

unit:
	$(CARGO) test --locked

# The exported sample blog must have zero errors in the Nu HTML Checker.
html: $(VNU)
	rm -rf .cache/sample-site
	$(CARGO) run --quiet -- export content --out .cache/sample-site --quiet
	java -jar $(VNU) --errors-only --skip-non-html .cache/sample-site
	@echo "Nu HTML Checker: no errors in $$(find .cache/sample-site -name '*.html' | wc -l) pages"

$(VNU):
	@command -v java >/dev/null || { $(SUDO) apt-get update -q && $(SUDO) apt-get install -y -q default-jre-headless; }
	@command -v npm >/dev/null || { $(SUDO) apt-get update -q && $(SUDO) apt-get install -y -q npm; }
	npm install --prefix .cache/vnu --no-save --no-audit --no-fund vnu-jar@26.9.27

bench: deps
	$(CARGO) bench --bench core

# What a fresh Debian 12 / Ubuntu 22.04+ machine needs to build and test Hanji.
deps:
	@command -v cc >/dev/null && command -v pkg-config >/dev/null || \
	  { $(SUDO) apt-get update -q && $(SUDO) apt-get install -y -q build-essential pkg-config; }
	@command -v $(CARGO) >/dev/null || { echo "Rust is missing: install it from https://rustup.rs (cargo 1.89 or newer)"; exit 1; }
	@$(CARGO) fmt --version >/dev/null 2>&1 || rustup component add rustfmt
	@$(CARGO) clippy --version >/dev/null 2>&1 || rustup component add clippy

# What the tests need besides: the test of `hanji serve`'s live reload drives
# a headless Chromium.
test-deps:
	@command -v chromium >/dev/null && command -v chromedriver >/dev/null || \
	  { $(SUDO) apt-get update -q && $(SUDO) apt-get install -y -q chromium chromium-driver; }
