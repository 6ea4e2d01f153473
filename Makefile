# SPDX-License-Identifier: GPL-2.0-or-later
# The README's two commands. Both install missing Debian packages (as root), configure
# with Meson and build; `run` then runs gpuenv on this machine, `test` runs the whole
# suite under AddressSanitizer + UndefinedBehaviorSanitizer.
BUILD ?= build
TEST_BUILD ?= build-test
MESON_WERROR := $(if $(CI),-Dwerror=true,)
ARGS ?=

.PHONY: all deps test-deps build run test fuzz bench clean

all: build

deps:
	@./scripts/install-deps.sh

test-deps:
	@./scripts/install-deps.sh --test

$(BUILD)/build.ninja:
	meson setup $(BUILD) $(MESON_WERROR) -Dtests=false

build: deps $(BUILD)/build.ninja
	meson compile -C $(BUILD)

# gpuenv's own verdicts (1 warnings, 2 errors found, 3 could not evaluate) are what `make run`
# is for, not a failure of the command; usage and internal errors (64+) still fail it.
run: build
	@./$(BUILD)/tools/gpuenv $(ARGS); rc=$$?; [ $$rc -le 3 ] || exit $$rc

$(TEST_BUILD)/build.ninja:
	meson setup $(TEST_BUILD) $(MESON_WERROR) -Db_sanitize=address,undefined -Db_lundef=false -Dbuildtype=debug

test: test-deps $(TEST_BUILD)/build.ninja
	meson compile -C $(TEST_BUILD)
	meson test -C $(TEST_BUILD) --print-errorlogs --num-processes 2

fuzz: test-deps
	./tests/fuzz/run-fuzzers.sh

bench: build
	./bench/run-all.sh

clean:
	rm -rf $(BUILD) $(TEST_BUILD)
