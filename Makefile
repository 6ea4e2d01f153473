# SPDX-License-Identifier: GPL-2.0-or-later
# The README's two commands. Both install missing Debian packages (as root), configure
# with Meson and build; `run` then runs gpuenv on this machine, `test` runs the whole
# suite under AddressSanitizer + UndefinedBehaviorSanitizer.
# Everything but gpuenv's own output goes to stderr (recipes are silent, the build tools'
# stdout is redirected), so that `make run ARGS="report --json" > f` writes JSON only.
BUILD ?= build
TEST_BUILD ?= build-test
MESON_WERROR := $(if $(CI),-Dwerror=true,)
ARGS ?=

# Under CI the build is -Werror however its directory came to exist: `meson setup` runs only
# when there is no build.ninja yet (e.g. a `make test` without CI made it first), so the
# option is applied before every CI compile where meson-info says it is not set yet. Without
# CI the directory keeps its setting.
define compile
	@echo "meson compile -C $(1)" >&2
	@if [ -n "$(CI)" ] && ! grep -qs '"name": "werror", "value": true' \
		$(1)/meson-info/intro-buildoptions.json; then meson configure $(1) -Dwerror=true >&2; fi
	@meson compile -C $(1) >&2
endef

.PHONY: all deps test-deps build run test fuzz bench clean

all: build

deps:
	@./scripts/install-deps.sh

test-deps:
	@./scripts/install-deps.sh --test

$(BUILD)/build.ninja:
	@echo "meson setup $(BUILD) $(MESON_WERROR) -Dtests=false" >&2
	@meson setup $(BUILD) $(MESON_WERROR) -Dtests=false >&2

build: deps $(BUILD)/build.ninja
	$(call compile,$(BUILD))

# gpuenv's own verdicts (1 warnings, 2 errors found, 3 could not evaluate) are what `make run`
# is for, not a failure of the command; usage and internal errors (64+) still fail it.
run: build
	@$(BUILD)/tools/gpuenv $(ARGS); rc=$$?; [ $$rc -le 3 ] || exit $$rc

$(TEST_BUILD)/build.ninja:
	meson setup $(TEST_BUILD) $(MESON_WERROR) -Db_sanitize=address,undefined -Db_lundef=false -Dbuildtype=debug

test: test-deps $(TEST_BUILD)/build.ninja
	$(call compile,$(TEST_BUILD))
	meson test -C $(TEST_BUILD) --print-errorlogs --num-processes 2

fuzz: test-deps
	./tests/fuzz/run-fuzzers.sh

bench: build
	./bench/run-all.sh

clean:
	rm -rf $(BUILD) $(TEST_BUILD)
