# astar: one astar/core.so per Lua runtime under build/<version>/.
#   make            build every runtime found (5.1 5.2 5.3 5.4 jit)
#   make test       build, then run the busted specs on every runtime and
#                   the engine's C checks (spec/c/engine_test.c)
#   make demo       the README demo on the bundled map (Lua 5.4)
#   make bench      A* and JPS on every map of ../shared/maps: C, 5.4, LuaJIT
#   make bench-threads  the worker pool's scaling, snapshot() (bench/threads.*)
#   make tsan       many Lua states and pools on many threads, under TSan
#                   and ASan (spec/c/threads_host.c)
#   make asan       specs under AddressSanitizer + UBSan (Lua 5.4)
#   make valgrind   specs under valgrind (Lua 5.4)
#   make gcstress / oom / oom-asan / lint   see spec/c/README.md
#   make fuzz / fuzz-long / fuzz-replay      see fuzz/README.md

CC      ?= cc
OPT     ?= -O2
WARN    := -std=c99 -Wall -Wextra -Werror -Werror=implicit-function-declaration \
           -Wmissing-prototypes -Wstrict-prototypes -Wshadow -pedantic
# -pthread: the worker pool (src/workers.c) runs POSIX threads
PTHREAD ?= -pthread
CFLAGS_ALL = $(OPT) $(WARN) $(PTHREAD) -fPIC $(CFLAGS)

VERSIONS ?= 5.1 5.2 5.3 5.4 jit
INC_5.1 := /usr/include/lua5.1
INC_5.2 := /usr/include/lua5.2
INC_5.3 := /usr/include/lua5.3
INC_5.4 := /usr/include/lua5.4
INC_jit := /usr/include/luajit-2.1
LUA_5.1 := lua5.1
LUA_5.2 := lua5.2
LUA_5.3 := lua5.3
LUA_5.4 := lua5.4
LUA_jit := luajit

CORE_SRC := src/pages.c src/context.c src/zones.c src/links.c src/layer.c src/clearance.c src/units.c src/landmarks.c src/landmarks_query.c src/grid.c src/text.c src/engine.c src/sight.c src/astar_loop.c src/jps.c src/jps_table.c src/subgoal_levels.c src/subgoal.c src/subgoal_search.c src/ida.c src/bidir.c src/theta.c src/find_path.c src/field.c src/field_follow.c src/overlay.c src/path_check.c src/graph.c src/graph_search.c src/graph_field.c src/state_search.c src/snapshot.c src/workers.c
BIND_SRC := src/lua_module.c src/lua_grid.c src/lua_query.c src/lua_query_options.c src/lua_terrain.c src/lua_zones.c src/lua_sliced.c src/lua_pathfinder.c src/lua_sight.c src/lua_args.c src/lua_field.c src/lua_field_build.c src/lua_field_read.c src/lua_path.c src/lua_graph.c src/lua_graph_query.c src/lua_graph_field.c src/lua_search.c src/lua_links.c src/lua_snapshot.c src/lua_tokens.c src/lua_workers.c src/lua_prepare.c src/lua_landmarks.c
HDRS     := $(wildcard src/*.h)

all: $(foreach v,$(VERSIONS),build/$(v)/astar/core.so)

build/%/astar/core.so: $(CORE_SRC) $(BIND_SRC) $(HDRS)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) -fvisibility=hidden -I$(INC_$*) -Isrc -shared -o $@ $(CORE_SRC) $(BIND_SRC) $(LDFLAGS)

# The core alone, with no Lua headers on the include path: proves it knows
# nothing of Lua, and gives the C benchmark driver.
build/core/libastar.a: $(CORE_SRC) $(HDRS)
	@mkdir -p build/core
	$(foreach s,$(CORE_SRC),$(CC) $(CFLAGS_ALL) -Isrc -c $(s) -o build/core/$(notdir $(s:.c=.o)) &&) true
	ar rcs $@ $(addprefix build/core/,$(notdir $(CORE_SRC:.c=.o)))

build/bench/cdriver: bench/cdriver.c build/core/libastar.a
	@mkdir -p build/bench
	$(CC) $(CFLAGS_ALL) -Isrc -o $@ bench/cdriver.c build/core/libastar.a -lm

build/bench/zones: bench/zones.c build/core/libastar.a
	@mkdir -p build/bench
	$(CC) $(CFLAGS_ALL) -Isrc -o $@ bench/zones.c build/core/libastar.a -lm

build/bench/threads: bench/threads.c build/core/libastar.a
	@mkdir -p build/bench
	$(CC) $(CFLAGS_ALL) -Isrc -o $@ bench/threads.c build/core/libastar.a -lm

# Worker threads (issue 16): the pool's scaling on brc202d in C, LuaJIT
# and Lua 5.4, the main thread's share, snapshot() (bench/threads.lua).
bench-threads: build/bench/threads build/5.4/astar/core.so build/jit/astar/core.so
	build/bench/threads $(BENCH_DIR)/brc202d.map
	$(LUA_jit) bench/threads.lua $(BENCH_DIR)
	$(LUA_5.4) bench/threads.lua $(BENCH_DIR)

# The busted specs on every runtime, SPEC_JOBS of them at a time, then the
# engine's C checks (sliced searches, two contexts, a map untouched by
# searches): TAP in build/results.
SPEC_JOBS ?= 2
test: all build/c/engine_test
	@s=0; SPEC_JOBS=$(SPEC_JOBS) scripts/run-specs $(VERSIONS) || s=1; $(MAKE) --no-print-directory engine-test || s=1; exit $$s

build/c/engine_test: spec/c/engine_test.c build/core/libastar.a
	@mkdir -p build/c
	$(CC) $(OPT) -g $(WARN) $(PTHREAD) -D_POSIX_C_SOURCE=200809L -Isrc -o $@ spec/c/engine_test.c build/core/libastar.a -lm

engine-test: build/c/engine_test
	@mkdir -p build/results
	@echo "== engine checks (C, spec/c/engine_test.c)"
	@build/c/engine_test $(BENCH_DIR) > build/results/engine.tap; st=$$?; \
	  grep -v '^ok ' build/results/engine.tap; exit $$st

test-%: build/%/astar/core.so
	scripts/run-specs $*

demo: build/5.4/astar/core.so
	$(LUA_5.4) examples/demo.lua

# The terminal examples, non-interactive, on 5.4, 5.1 and LuaJIT (CI runs
# this); the LÖVE demo's scripted check needs love and xvfb-run.
ROGUELIKE_TURNS ?= 60
examples: build/5.4/astar/core.so build/5.1/astar/core.so build/jit/astar/core.so
	$(LUA_5.4) examples/demo.lua --no-color > /dev/null
	$(foreach v,5.4 5.1 jit,$(LUA_$(v)) examples/romania.lua > /dev/null && $(LUA_$(v)) examples/dungeon.lua > /dev/null && $(LUA_$(v)) examples/puzzle8.lua > /dev/null &&) true
	$(foreach v,5.4 5.1 jit,$(LUA_$(v)) examples/roguelike/main.lua --demo $(ROGUELIKE_TURNS) --no-color > /dev/null &&) true
	@echo "examples: demo, roguelike, romania, dungeon and puzzle8 ran"

love-selftest: build/jit/astar/core.so
	@mkdir -p build/love
	xvfb-run -a -s '-screen 0 1280x800x24' love examples/love --selftest build/love/selftest.png
	xvfb-run -a -s '-screen 0 1280x800x24' love examples/love-threads --selftest build/love/threads.png

# BENCH_DIR: any directory of .map/.map.scen; BENCH_ARGS: e.g. --every 10
BENCH_DIR ?= ../shared/maps
BENCH_ARGS ?=
bench: build/5.4/astar/core.so build/jit/astar/core.so build/bench/cdriver build/bench/zones
	$(LUA_5.4) bench/suite.lua $(BENCH_ARGS) $(BENCH_DIR)
	build/bench/zones $(BENCH_DIR)

# Sanitizers: the 5.4 module built with ASan+UBSan, run by the stock lua5.4
# with the ASan runtime preloaded.  Any report fails the run.
SAN_FLAGS := -O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined,float-cast-overflow -fno-sanitize-recover=all
build/asan/astar/core.so: $(CORE_SRC) $(BIND_SRC) $(HDRS)
	@mkdir -p $(dir $@)
	$(CC) $(WARN) $(PTHREAD) $(SAN_FLAGS) -fPIC -I$(INC_5.4) -Isrc -shared -o $@ $(CORE_SRC) $(BIND_SRC)

# Every 7th MovingAI scenario (ASTAR_SCENARIO_STEP): the plain 5.4 and
# LuaJIT runs check every one's cost; ASan looks for memory faults.
asan: build/asan/astar/core.so
	ASTAR_SCENARIO_STEP=7 ASAN_OPTIONS=detect_leaks=0:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
	LD_PRELOAD="$$($(CC) -print-file-name=libasan.so) $$($(CC) -print-file-name=libubsan.so)" \
	  scripts/run-specs asan

build/valgrind/astar/core.so: $(CORE_SRC) $(BIND_SRC) $(HDRS)
	@mkdir -p $(dir $@)
	$(CC) $(WARN) $(PTHREAD) -O1 -g -fPIC -I$(INC_5.4) -Isrc -shared -o $@ $(CORE_SRC) $(BIND_SRC)

# ... and the threads' stress host (spec/c/threads_host.c, four states):
# attach and release from many states leaves nothing behind.
build/oom/threads_host: spec/c/threads_host.c
	@mkdir -p $(dir $@)
	$(CC) $(WARN) $(PTHREAD) -O1 -g -I$(INC_5.4) -o $@ $< -llua5.4 -lm -ldl

valgrind: build/valgrind/astar/core.so build/oom/threads_host
	@s=0; scripts/run-specs valgrind || s=1; \
	echo "== threads_host under valgrind"; \
	valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite \
	  build/oom/threads_host --cpath 'build/valgrind/?.so' --states 4 --rounds 30 \
	  spec/c/threads_stress.lua > build/results/threads-valgrind.tap || { s=1; \
	  grep -q '^not ok' build/results/threads-valgrind.tap || \
	  echo "not ok - threads_host under valgrind exited with an error" >> build/results/threads-valgrind.tap; }; \
	cat build/results/threads-valgrind.tap; exit $$s

clean:
	rm -rf build

.PHONY: all test engine-test demo examples love-selftest bench bench-threads asan valgrind clean

# Reliability targets live beside their sources (fuzzing, OOM host, GC
# stress, static checks); each fragment adds its own targets.
-include fuzz/fuzz.mk
-include spec/c/checks.mk
-include scripts/release.mk
