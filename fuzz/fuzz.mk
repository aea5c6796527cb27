# Fuzzing (included by the top Makefile).  See fuzz/README.md.
#   make fuzz          every harness for FUZZ_SECONDS (default 60) under
#                      libFuzzer (clang); non-zero exit on any crash; a TAP
#                      line per harness in build/results/fuzz.tap
#   make fuzz-long     the same with FUZZ_SECONDS=600
#   make fuzz-replay   the committed corpora and regressions through a plain
#                      gcc + ASan/UBSan build (no libFuzzer); seconds; a TAP
#                      line per harness in build/results/fuzz-replay.tap
#   make fuzz-min FUZZ_HARNESS=search FUZZ_CRASH=path
#                      minimise a crashing input into build/fuzz/minimized
# Everything builds under build/fuzz/; the repository corpus is copied to a
# scratch corpus there, so fuzzing never rewrites fuzz/corpus by itself.
# Only FUZZ_* variables are defined here; CORE_SRC and HDRS come from the
# top Makefile.

FUZZ_HARNESSES := text movingai search paths graph field
FUZZ_SECONDS ?= 60
FUZZ_CC ?= clang
FUZZ_REPLAY_CC ?= gcc
# FUZZ_EXTRA: extra compiler flags for both builds (e.g. -DFZ_TRACE); such
# builds go to build/fuzz-extra so they never mix with the normal ones.
FUZZ_EXTRA ?=
FUZZ_OUT := build/fuzz$(if $(strip $(FUZZ_EXTRA)),-extra)
FUZZ_WARN := -std=c99 -Wall -Wextra -Werror
FUZZ_CFLAGS := -g -O1 -fno-omit-frame-pointer \
  -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all
FUZZ_REPLAY_CFLAGS := -g -O1 -fno-omit-frame-pointer \
  -fsanitize=address,undefined -fno-sanitize-recover=all
# libFuzzer options for every run (a hang of 10 s counts as a crash)
FUZZ_OPTS ?= -timeout=10 -rss_limit_mb=2048 -print_final_stats=1
FUZZ_SAN_ENV := ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 \
  UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
FUZZ_DEPS := fuzz/fuzz_common.h $(CORE_SRC) $(HDRS)

FUZZ_BINS := $(addprefix $(FUZZ_OUT)/fuzz_,$(FUZZ_HARNESSES))
FUZZ_REPLAYS := $(addprefix $(FUZZ_OUT)/replay_,$(FUZZ_HARNESSES))

$(FUZZ_OUT)/fuzz_%: fuzz/fuzz_%.c $(FUZZ_DEPS)
	@mkdir -p $(FUZZ_OUT)
	$(FUZZ_CC) $(FUZZ_WARN) $(FUZZ_CFLAGS) $(FUZZ_EXTRA) -pthread -Isrc -o $@ $< $(CORE_SRC) -lm

$(FUZZ_OUT)/replay_%: fuzz/fuzz_%.c fuzz/replay.c $(FUZZ_DEPS)
	@mkdir -p $(FUZZ_OUT)
	$(FUZZ_REPLAY_CC) $(FUZZ_WARN) $(FUZZ_REPLAY_CFLAGS) $(FUZZ_EXTRA) -pthread -Isrc -o $@ $< \
	  fuzz/replay.c $(CORE_SRC) -lm

fuzz-build: $(FUZZ_BINS) $(FUZZ_REPLAYS)

# One harness at a time (one fuzzing process).  Each run starts from the
# scratch corpus (seeded from fuzz/corpus, kept between runs) plus the
# regressions; the log is build/fuzz/<harness>.log, crashing inputs land in
# build/fuzz/artifacts/<harness>/.
fuzz: $(FUZZ_BINS)
	@fail=0; mkdir -p build/results; tap=build/results/fuzz.tap; : > $$tap; \
	for h in $(FUZZ_HARNESSES); do \
	  corpus=$(FUZZ_OUT)/corpus/$$h; art=$(FUZZ_OUT)/artifacts/$$h; \
	  mkdir -p $$corpus $$art; \
	  cp -n fuzz/corpus/$$h/* $$corpus/ 2>/dev/null || true; \
	  regs=; [ -d fuzz/regressions/$$h ] && regs=fuzz/regressions/$$h; \
	  dict=; [ -f fuzz/$$h.dict ] && dict=-dict=fuzz/$$h.dict; \
	  echo "fuzz $$h: $(FUZZ_SECONDS) s, log $(FUZZ_OUT)/$$h.log"; \
	  t0=$$(date +%s); \
	  $(FUZZ_SAN_ENV) $(FUZZ_OUT)/fuzz_$$h $(FUZZ_OPTS) $$dict \
	    -max_total_time=$(FUZZ_SECONDS) -artifact_prefix=$$art/ \
	    $$corpus $$regs > $(FUZZ_OUT)/$$h.log 2>&1; rc=$$?; \
	  t1=$$(date +%s); \
	  grep -E '^#[0-9]+[[:space:]]+(DONE|INITED)' $(FUZZ_OUT)/$$h.log | tail -n 1 | sed 's/^/  /'; \
	  grep -E '^stat::(number_of_executed_units|average_exec_per_sec|new_units_added|peak_rss_mb)' \
	    $(FUZZ_OUT)/$$h.log | sed 's/^/  /'; \
	  if [ $$rc -ne 0 ]; then \
	    fail=1; \
	    echo "  CRASH (exit $$rc) after $$((t1 - t0)) s:"; \
	    grep -E 'fuzz invariant failed|ERROR: |SUMMARY: |runtime error|Test unit written' \
	      $(FUZZ_OUT)/$$h.log | head -n 8 | sed 's/^/    /'; \
	    echo "not ok - fuzz $$h: crash (exit $$rc), log $(FUZZ_OUT)/$$h.log" >> $$tap; \
	  else \
	    echo "  ok, $$((t1 - t0)) s, corpus $$(ls $$corpus | wc -l) inputs"; \
	    echo "ok - fuzz $$h: $$((t1 - t0)) s, no crash" >> $$tap; \
	  fi; \
	done; \
	exit $$fail

fuzz-long:
	@$(MAKE) --no-print-directory fuzz FUZZ_SECONDS=600

# The committed corpora and regressions, no libFuzzer: part of the test run.
fuzz-replay: $(FUZZ_REPLAYS)
	@fail=0; mkdir -p build/results; tap=build/results/fuzz-replay.tap; \
	: > $$tap; \
	for h in $(FUZZ_HARNESSES); do \
	  dirs=; \
	  for d in fuzz/corpus/$$h fuzz/regressions/$$h; do \
	    [ -d $$d ] && dirs="$$dirs $$d"; \
	  done; \
	  echo "fuzz-replay $$h:$$dirs"; \
	  if $(FUZZ_SAN_ENV) $(FUZZ_OUT)/replay_$$h $$dirs; then \
	    echo "ok - fuzz-replay $$h" >> $$tap; \
	  else \
	    fail=1; echo "not ok - fuzz-replay $$h" >> $$tap; \
	  fi; \
	done; \
	exit $$fail

# Shrink a crashing input: make fuzz-min FUZZ_HARNESS=search FUZZ_CRASH=file
fuzz-min: $(FUZZ_BINS)
	@test -n "$(FUZZ_HARNESS)" -a -n "$(FUZZ_CRASH)" || \
	  { echo "usage: make fuzz-min FUZZ_HARNESS=<harness> FUZZ_CRASH=<file>"; exit 2; }
	@mkdir -p $(FUZZ_OUT)/minimized
	-$(FUZZ_SAN_ENV) $(FUZZ_OUT)/fuzz_$(FUZZ_HARNESS) -minimize_crash=1 \
	  -max_total_time=60 \
	  -exact_artifact_path=$(FUZZ_OUT)/minimized/$(FUZZ_HARNESS)-$(notdir $(FUZZ_CRASH)) \
	  $(FUZZ_CRASH)
	@echo "minimized: $(FUZZ_OUT)/minimized/$(FUZZ_HARNESS)-$(notdir $(FUZZ_CRASH))"

.PHONY: fuzz fuzz-long fuzz-replay fuzz-build fuzz-min
