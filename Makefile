# The two commands: `make run` and `make test`. Everything they need is installed here when missing.
SHELL := /bin/bash
.SHELLFLAGS := -eu -o pipefail -c
.DEFAULT_GOAL := run

CARGO ?= cargo
NPM ?= npm
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
BIN := target/release/portfolio
# The binary the server, browser and fuzz tests run: the debug build that `cargo test` makes
# anyway, with the same embedded site, so `make test` builds the dependencies once for the
# tests instead of a second time for a release binary.
TEST_BIN := target/debug/portfolio
# web/package.json's dependencies are what building the site needs (React, Vite and the build's
# own tools); its devDependencies what only the checks need (TypeScript, ESLint, Vitest,
# Playwright, the HTML checker). A first `make run` installs the first alone: 145 of 352 MB,
# about 7 s of CPU instead of 19 beside the compilers. Each install leaves a mark of its own.
WEB_BUILD_DEPS := web/node_modules/.portfolio-build-deps
WEB_DEPS := web/node_modules/.portfolio-all-deps
WEB_SOURCES := $(shell find web/src web/public web/scripts -type f 2>/dev/null) web/index.html web/vite.config.ts web/package.json

.PHONY: run test setup web server dist system-libs chromium chromium-shell java postgresql xmllint pdf-tools dovecot python-venv bench-tools font fuzz lint imports fmt-check clippy typecheck eslint unit-web test-build cargo-test generate generated e2e bench soak clean

run: server ## Build everything and serve on http://127.0.0.1:8080 with SQLite under ./data/
	./$(BIN) serve

$(WEB_DEPS): web/package.json web/package-lock.json
	cd web && $(NPM) ci --no-audit --no-fund
	@touch $@ $(WEB_BUILD_DEPS)

# Skipped when every package is there already (after a `make test`).
$(WEB_BUILD_DEPS): web/package.json web/package-lock.json
	@if [ $(WEB_DEPS) -nt web/package.json ] && [ $(WEB_DEPS) -nt web/package-lock.json ]; then :; \
	else cd web && $(NPM) ci --omit=dev --no-audit --no-fund; fi
	@touch $@

# The packages are order-only: installing the checks' packages later builds nothing again.
web/dist/index.html: $(WEB_SOURCES) web/package-lock.json | $(WEB_BUILD_DEPS)
	cd web && $(NPM) run build

web: web/dist/index.html

# A first build makes the site and the server's dependencies side by side (neither needs the
# other): the site's packages and the crates are downloaded while apt-get installs the system's
# libraries (on a new machine), cargo starts while the site builds, and server/build.rs waits for
# the site's exit status (in the file PORTFOLIO_SITE_STATUS names) before the crate that embeds
# it compiles. Once the site is there, it is made first: cargo decides what is stale when it
# starts.
server:
	@if [ -e web/dist/index.html ]; then \
		$(MAKE) --no-print-directory system-libs web && $(CARGO) build --release --locked; \
	else \
		mkdir -p target && rm -f target/site-build.status; \
		{ $(MAKE) --no-print-directory web && site=0 || site=$$?; echo $$site > target/site-build.status; } & \
		{ $(CARGO) fetch --locked --quiet --target "$$(rustc -vV | sed -n 's/^host: //p')" || true; } & fetch=$$!; \
		libs=0; $(MAKE) --no-print-directory system-libs || libs=$$?; \
		wait $$fetch || true; \
		if [ $$libs != 0 ]; then wait || true; exit $$libs; fi; \
		built=0; PORTFOLIO_SITE_STATUS="$(CURDIR)/target/site-build.status" $(CARGO) build --release --locked || built=$$?; \
		wait || true; exit $$built; \
	fi

dist: web system-libs ## The smallest binary, for packaging: target/dist/portfolio (link-time optimised, slower to build)
	$(CARGO) build --profile dist --locked
	@ls -l target/dist/portfolio

system-libs: ## Debian's OpenSSL, SQLite and libwebp headers and pkg-config, which passkeys (webauthn-rs), the SQLite driver and the uploads' WebP encoder build against
	@{ command -v pkg-config >/dev/null && pkg-config --exists openssl sqlite3 libwebp; } || { $(SUDO) apt-get update -qq && $(SUDO) DEBIAN_FRONTEND=noninteractive apt-get install -y -qq libssl-dev libsqlite3-dev libwebp-dev pkg-config; }

chromium: ## Debian's Chromium for Lighthouse (make bench) and the generated pictures
	@command -v /usr/bin/chromium >/dev/null || { $(SUDO) apt-get update -qq && $(SUDO) DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium; }

# The browser tests drive Chromium's headless shell, the same engine without the browser around
# it: the stage takes 30 % less time and CPU than with /usr/bin/chromium (docs/benchmarks.md).
chromium-shell: ## Debian's Chromium headless shell for the browser tests
	@command -v /usr/bin/chromium-headless-shell >/dev/null || { $(SUDO) apt-get update -qq && $(SUDO) DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium-headless-shell; }

# vnu.jar (web/'s dev dependency vnu-jar) needs Java 17 or later, Debian 12's default. The
# package's install script, which downloads a Java runtime when none is found, does not run: npm
# (11.19 here) skips a dependency's install scripts unless package.json's allowScripts lists it.
java: ## Debian's Java runtime for the Nu HTML Checker in the browser tests (e2e/html-validity.test.ts)
	@command -v java >/dev/null || { $(SUDO) apt-get update -qq && $(SUDO) DEBIAN_FRONTEND=noninteractive apt-get install -y -qq default-jre-headless; }

postgresql: ## Debian's PostgreSQL for the server tests on the second engine
	@ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || { $(SUDO) apt-get update -qq && $(SUDO) DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql; }

xmllint: ## Debian's xmllint (libxml2-utils) for the server tests' Atom feed checks (server/tests/feeds/atom.rng)
	@command -v xmllint >/dev/null || { $(SUDO) apt-get update -qq && $(SUDO) DEBIAN_FRONTEND=noninteractive apt-get install -y -qq libxml2-utils; }

# Debian's Dovecot for the tests of the replies' mailbox (scripts/test-dovecot), which start their
# own on free ports. The package's service must never start: while apt-get installs, a
# policy-rc.d that exits 101 refuses every service start (one already there, as in a Docker
# image, is left as it is; ours is removed again, however apt-get ends). Afterwards a system
# Dovecot that started all the same is stopped, and on a machine run by systemd its units are
# disabled, so that none listens on ports 143 and 993 after the next boot either.
dovecot: ## Debian's Dovecot IMAP server (dovecot-imapd) for the tests of the replies' mailbox
	@if [ ! -x /usr/sbin/dovecot ]; then \
		made_policy=; \
		trap '[ -z "$$made_policy" ] || $(SUDO) rm -f /usr/sbin/policy-rc.d' EXIT; \
		if [ ! -e /usr/sbin/policy-rc.d ]; then \
			made_policy=1; \
			printf '#!/bin/sh\nexit 101\n' | $(SUDO) tee /usr/sbin/policy-rc.d >/dev/null; \
			$(SUDO) chmod 755 /usr/sbin/policy-rc.d; \
		fi; \
		$(SUDO) apt-get update -qq; \
		$(SUDO) DEBIAN_FRONTEND=noninteractive apt-get install -y -qq dovecot-imapd; \
		if [ -d /run/systemd/system ]; then \
			$(SUDO) systemctl disable --now -q dovecot.socket dovecot.service 2>/dev/null || true; \
		fi; \
		$(SUDO) /usr/sbin/dovecot stop 2>/dev/null || true; \
	fi

pdf-tools: ## Debian's poppler-utils (pdftotext, pdfinfo, pdffonts) and qpdf for the server tests' resume checks
	@{ command -v pdftotext >/dev/null && command -v qpdf >/dev/null; } || { $(SUDO) apt-get update -qq && $(SUDO) DEBIAN_FRONTEND=noninteractive apt-get install -y -qq poppler-utils qpdf; }

python-venv: ## Debian's venv module for the fuzzer's virtual environment
	@python3 -c 'import ensurepip, venv' 2>/dev/null || { $(SUDO) apt-get update -qq && $(SUDO) DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3-venv; }

# schemathesis (pinned in server/fuzz/requirements.txt, installed into target/fuzz-venv) against
# the API's own OpenAPI document on the running test binary, signed in as the owner.
fuzz: test-build python-venv
	server/fuzz/run.sh $(CURDIR)/$(TEST_BIN)

# The page's web font, subset from Inter (web/scripts/font/README.md). Its output is committed; run
# this only to change the subset. Needs npm and python3's venv; not part of `make test`.
font: python-venv
	web/scripts/font/subset.sh

fmt-check:
	$(CARGO) fmt --all --check

clippy: web system-libs
	$(CARGO) clippy --locked --all-targets -- -D warnings

typecheck: $(WEB_DEPS)
	cd web && $(NPM) run typecheck

eslint: $(WEB_DEPS)
	cd web && $(NPM) run lint

lint: fmt-check clippy typecheck eslint

# No import cycle between the server's files, or the content crate's, and none pointing upward
# (scripts/check-imports.mjs lists any it finds).
imports:
	node scripts/check-imports.mjs
	node scripts/check-imports.mjs --root content/src
	node scripts/check-handlers.mjs

unit-web: $(WEB_DEPS)
	cd web && $(NPM) test

# `make test` lints while it compiles: the tests' build runs the workspace's own crates through
# clippy's driver, as `cargo clippy` does (its lints and rustc's warnings denied), and compiles
# the dependencies once, where a separate `cargo clippy --all-targets` checked them all again
# (about 4 of a cold make test's 20 minutes). Every cargo call of the test stages goes through it,
# so none compiles the crate again.
LINTED := RUSTC_WORKSPACE_WRAPPER=clippy-driver CLIPPY_ARGS=-Dwarnings

# The unit tests and the server suite on SQLite, and at the same time the server suite on
# PostgreSQL in a throwaway cluster; each line of output says which.
test-build: web postgresql system-libs
	$(LINTED) $(CARGO) test --locked --workspace --no-run

# The two engines' suites side by side. PostgreSQL's runs four tests at a time: alone at the end,
# with two, it left the cores partly idle while its tests waited on the cluster (423 -> 380 s;
# docs/benchmarks.md).
cargo-test: test-build xmllint pdf-tools dovecot python-venv
	$(LINTED) scripts/pg-test-cluster run $(CARGO) test --locked --test api -- --test-threads 4 2>&1 | sed -u 's/^/[postgres] /' & pg=$$!; \
	sqlite=0; $(LINTED) $(CARGO) test --locked --workspace 2>&1 | sed -u 's/^/[sqlite] /' || sqlite=$$?; \
	postgres=0; wait $$pg || postgres=$$?; \
	echo "server tests: sqlite exit $$sqlite, postgres exit $$postgres"; \
	[ $$sqlite = 0 ] && [ $$postgres = 0 ]

# The committed files that are generated, each with a header saying so: the content document's
# JSON Schema and TypeScript types (from the Rust types in content/src/document.rs, written
# by a test when UPDATE_CONTENT_SCHEMA is set; the case studies' Markdown tree's types from
# content/src/markdown.rs and a case study's schema from case_study.rs too), and the page
# editor's validators of both (each schema compiled by Ajv in web/scripts/document-validator.mjs, so it runs first); the API's OpenAPI
# document as /api/openapi.json serves it (written by a test when UPDATE_API_DESCRIPTION is set;
# JSON carries no header) and the web's API types made from it by openapi-typescript
# (web/scripts/api-types.mjs, so it runs after).
GENERATED := web/src/content/document.schema.json web/src/content/document.generated.ts \
	web/src/content/markdown.generated.ts \
	web/src/content/case-study.schema.json \
	web/src/dashboard/page-editor/validate-document.generated.js \
	web/src/dashboard/page-editor/validate-case-study.generated.js \
	web/src/api/openapi.json web/src/api/openapi.generated.ts

generate: web $(WEB_DEPS) system-libs ## Write every generated file again from its source
	# --workspace, not -p: one crate alone resolves its dependencies' features apart, and cargo
	# would build them again (109 s in a cold run) instead of using the tests' build.
	UPDATE_CONTENT_SCHEMA=1 UPDATE_API_DESCRIPTION=1 $(LINTED) $(CARGO) test --locked --workspace --lib -- --exact \
	  tests::the_generated_schema_and_types_are_up_to_date \
	  http::api::tests::the_web_copy_of_the_description_is_up_to_date
	cd web && node scripts/document-validator.mjs && node scripts/api-types.mjs

# After cargo-test, whose build it reuses: regenerates in place and fails when a file differs from
# what is committed (or staged).
generated: generate
	@git diff --exit-code --stat -- $(GENERATED) || { echo "make test: generated files differ from their generators' output: run make generate and commit them"; exit 1; }

e2e: test-build $(WEB_DEPS) chromium-shell java python-venv pdf-tools dovecot
	cd web && PORTFOLIO_BIN=$(CURDIR)/$(TEST_BIN) $(NPM) run e2e

# No clippy stage: the test build lints (see LINTED); `make clippy` runs it alone.
TEST_STAGES := imports fmt-check typecheck eslint unit-web cargo-test generated e2e fuzz

# Each stage in turn (the builds it needs first counted in the first stage that needs them), its
# wall time printed as it ends, and all of them again at the end.
test: ## Every check: formats, lints, types, unit, integration and browser tests
	@times=""; all=$$(date +%s); \
	for stage in $(TEST_STAGES); do \
	  start=$$(date +%s); \
	  if ! $(MAKE) --no-print-directory $$stage; then \
	    echo "make test: stage $$stage failed after $$(( $$(date +%s) - start )) s"; exit 1; \
	  fi; \
	  took=$$(( $$(date +%s) - start )); times="$$times$$(printf '  %-11s %4d s' $$stage $$took)\n"; \
	  echo "make test: stage $$stage took $$took s"; \
	done; \
	printf "make test: wall time of each stage\n$$times  %-11s %4d s\n" total $$(( $$(date +%s) - all ))

BENCH_DEPS := bench/node_modules/.package-lock.json

$(BENCH_DEPS): bench/package.json bench/package-lock.json
	cd bench && $(NPM) ci --ignore-scripts --no-audit --no-fund
	@touch $@

PEER_DEPS := bench/peers/node_modules/.package-lock.json

# better-sqlite3 is compiled by its install script, against the headers of the Node that runs it.
$(PEER_DEPS): bench/peers/package.json bench/peers/package-lock.json
	cd bench/peers && $(NPM) ci --build-from-source --nodedir="$$(dirname "$$(dirname "$$(command -v node)")")" --no-audit --no-fund
	@touch $@

bench-tools: ## Debian's nginx and wrk for the bench's peers (the nginx service is not left running), and time(1) for wrk's own CPU time
	@command -v nginx >/dev/null && command -v wrk >/dev/null && test -x /usr/bin/time || { $(SUDO) apt-get update -qq && $(SUDO) DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nginx wrk time && { $(SUDO) service nginx stop >/dev/null 2>&1 || true; }; }

# BENCH_ONLY=peers skips Lighthouse and the Observatory; BENCH_ONLY=site skips the peers.
bench: server chromium postgresql bench-tools $(BENCH_DEPS) $(PEER_DEPS) ## Lighthouse and the HTTP Observatory grade (needs ports 443 and 80), then wrk against nginx and an Express peer (and the contact POST on PostgreSQL), then the soak
	node bench/bench.mjs $(BIN)
	node bench/soak.mjs $(BIN)

# Node's own modules only: nothing to install.
soak: server ## Ten minutes of mixed load with slow clients (SOAK_SECS sets another length): no 5xx, every acknowledged message stored, RSS each minute
	node bench/soak.mjs $(BIN)

clean:
	rm -rf web/dist target
