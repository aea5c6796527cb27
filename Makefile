# astar: one astar/core.so per Lua runtime under build/<version>/.
#   make            build every runtime found (5.1 5.2 5.3 5.4 jit)
#   make test       build, then run the busted specs on every runtime and
#                   the engine's C checks (spec/c/engine_test.c)
#   make demo       the README demo on the bundled map (Lua 5.4)
#   make bench      A* and JPS on every map of ../shared/maps: C, 5.4, LuaJIT
#   make asan       specs under AddressSanitizer + UBSan (Lua 5.4)
#   make valgrind   specs under valgrind (Lua 5.4)
#   make gcstress / oom / oom-asan / lint   see spec/c/README.md
#   make fuzz / fuzz-long / fuzz-replay      see fuzz/README.md

CC      ?= cc
OPT     ?= -O2
WARN    := -std=c99 -Wall -Wextra -Werror -Werror=implicit-function-declaration \
           -Wmissing-prototypes -Wstrict-prototypes -Wshadow -pedantic
CFLAGS_ALL = $(OPT) $(WARN) -fPIC $(CFLAGS)

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

CORE_SRC := src/context.c src/zones.c src/links.c src/layer.c src/clearance.c src/units.c src/grid.c src/text.c src/engine.c src/sight.c src/astar_loop.c src/jps.c src/ida.c src/bidir.c src/theta.c src/find_path.c src/field.c src/field_follow.c src/overlay.c src/path_check.c src/graph.c src/graph_search.c src/graph_field.c src/state_search.c
BIND_SRC := src/lua_module.c src/lua_grid.c src/lua_query.c src/lua_terrain.c src/lua_zones.c src/lua_sliced.c src/lua_pathfinder.c src/lua_sight.c src/lua_args.c src/lua_field.c src/lua_path.c src/lua_graph.c src/lua_graph_field.c src/lua_search.c src/lua_links.c
HDRS     := $(wildcard src/*.h)

all: $(foreach v,$(VERSIONS),build/$(v)/astar/core.so)

build/%/astar/core.so: $(CORE_SRC) $(BIND_SRC) $(HDRS)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) -I$(INC_$*) -Isrc -shared -o $@ $(CORE_SRC) $(BIND_SRC) $(LDFLAGS)

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

# The busted specs on every runtime, then the engine's C checks (sliced
# searches, two contexts, a map untouched by searches): TAP in build/results.
test: all build/c/engine_test
	@s=0; scripts/run-specs $(VERSIONS) || s=1; $(MAKE) --no-print-directory engine-test || s=1; exit $$s

build/c/engine_test: spec/c/engine_test.c build/core/libastar.a
	@mkdir -p build/c
	$(CC) $(OPT) -g $(WARN) -D_POSIX_C_SOURCE=200809L -Isrc -o $@ spec/c/engine_test.c build/core/libastar.a -lm

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
	$(CC) $(WARN) $(SAN_FLAGS) -fPIC -I$(INC_5.4) -Isrc -shared -o $@ $(CORE_SRC) $(BIND_SRC)

asan: build/asan/astar/core.so
	ASAN_OPTIONS=detect_leaks=0:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
	LD_PRELOAD="$$($(CC) -print-file-name=libasan.so) $$($(CC) -print-file-name=libubsan.so)" \
	  scripts/run-specs asan

build/valgrind/astar/core.so: $(CORE_SRC) $(BIND_SRC) $(HDRS)
	@mkdir -p $(dir $@)
	$(CC) $(WARN) -O1 -g -fPIC -I$(INC_5.4) -Isrc -shared -o $@ $(CORE_SRC) $(BIND_SRC)

valgrind: build/valgrind/astar/core.so
	scripts/run-specs valgrind

clean:
	rm -rf build

.PHONY: all test engine-test demo examples love-selftest bench asan valgrind clean

# Reliability targets live beside their sources (fuzzing, OOM host, GC
# stress, static checks); each fragment adds its own targets.
-include fuzz/fuzz.mk
-include spec/c/checks.mk
-include scripts/release.mk
