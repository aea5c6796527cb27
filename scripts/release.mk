# Shipping (issue 21), included by the top Makefile:
#   make windows      astar/core.dll for 64-bit Windows (LÖVE 11), cross-built
#                     with MinGW-w64 against a LuaJIT 2.1 built from Debian's
#                     own source package (lua51.dll, luajit.exe)
#   make wine-smoke   spec/windows/smoke.lua on that luajit.exe under Wine:
#                     TAP in build/results/wine64.tap
#   make dist         the release into build/dist/: LÖVE archives for Linux
#                     and Windows, the source tarball, its rockspec and a
#                     binary rock (Lua 5.4, Linux)
#   make dist-check   what each archive holds, checked: TAP in
#                     build/results/dist.tap
#   make love-packed  the PathDemo as a .love file with the Linux binary
#                     beside it, and as a fused game with the binary inside,
#                     both through astar.love's setup(), under xvfb
# Paths are relative to the repository root.

VERSION := $(shell sed -n 's/^\#define ASTAR_VERSION "\(.*\)"/\1/p' src/astar.h)

# ---- Windows (x86-64) ----
# LUAJIT_SRC: an unpacked LuaJIT 2.1 source tree.  By default Debian's
# source package, fetched once into build/deps (needs a deb-src entry:
# scripts/setup-debian --ci adds one).  MINGW: the cross compilers' prefix.
MINGW      ?= x86_64-w64-mingw32-
LUAJIT_SRC ?= build/deps/luajit
WIN        := build/win64
# __USE_MINGW_ANSI_STDIO: MinGW's own C99 printf, so numbers in messages
# read as on Linux (msvcrt prints 1e+020 for 1e20)
WIN_CFLAGS := $(OPT) $(WARN) -D__USE_MINGW_ANSI_STDIO=1

$(LUAJIT_SRC)/src/luajit.h:
	@rm -rf build/deps/fetch && mkdir -p build/deps/fetch
	cd build/deps/fetch && apt-get source luajit
	rm -rf $(LUAJIT_SRC) && mv build/deps/fetch/luajit-*/ $(LUAJIT_SRC)
	@test -f $@

# Only lua51.dll and luajit.exe (the default targets of LuaJIT's src/
# Makefile for Windows with BUILDMODE=dynamic), in a copy of the tree.
$(WIN)/lua51.dll: $(LUAJIT_SRC)/src/luajit.h
	rm -rf $(WIN)/luajit && mkdir -p $(WIN) && cp -r $(LUAJIT_SRC) $(WIN)/luajit
	$(MAKE) -s -C $(WIN)/luajit/src HOST_CC="$(CC)" CROSS=$(MINGW) \
	  TARGET_SYS=Windows BUILDMODE=dynamic > $(WIN)/luajit-build.log
	cp $(WIN)/luajit/src/lua51.dll $(WIN)/luajit/src/luajit.exe $(WIN)/

$(WIN)/luajit.exe: $(WIN)/lua51.dll

# Linked against LuaJIT's lua51.dll, the DLL LÖVE 11 ships under that name;
# libgcc and MinGW's winpthreads (pthreads for the worker threads) linked
# in, so the module needs only Windows' own DLLs beside it (a plain
# -pthread would import libwinpthread-1.dll; dist-check rejects that).
WIN_LIBS   := -Wl,-Bstatic -lwinpthread -Wl,-Bdynamic
$(WIN)/astar/core.dll: $(CORE_SRC) $(BIND_SRC) $(HDRS) $(WIN)/lua51.dll
	@mkdir -p $(dir $@)
	$(MINGW)gcc $(WIN_CFLAGS) -I$(WIN)/luajit/src -Isrc -shared -static-libgcc \
	  -s -o $@ $(CORE_SRC) $(BIND_SRC) $(WIN)/lua51.dll $(WIN_LIBS)

windows: $(WIN)/astar/core.dll $(WIN)/luajit.exe

# Wine keeps its configuration in a prefix of our own under build/.
WINE       ?= wine
WINE_ENV   := WINEPREFIX=$(CURDIR)/build/wineprefix WINEDEBUG=-all WINEDLLOVERRIDES="mscoree,mshtml="
wine-smoke: windows
	@mkdir -p build/results
	@echo "== smoke spec on Windows LuaJIT under Wine (spec/windows/smoke.lua)"
	@$(WINE_ENV) $(WINE) $(WIN)/luajit.exe spec/windows/smoke.lua \
	  'build/win64/?.dll' > build/results/wine64.tap 2> build/wine-smoke.err; \
	  rc=$$?; tr -d '\r' < build/results/wine64.tap > build/results/wine64.tmp && \
	  mv build/results/wine64.tmp build/results/wine64.tap; \
	  grep -v '^ok ' build/results/wine64.tap; \
	  echo "wine64: $$(grep -c '^ok ' build/results/wine64.tap) passed, $$(grep -c '^not ok ' build/results/wine64.tap) failed (exit $$rc)"; \
	  if [ $$rc -ne 0 ]; then cat build/wine-smoke.err; \
	    grep -q '^not ok ' build/results/wine64.tap || \
	      echo "not ok - the Wine smoke run exited with status $$rc" >> build/results/wine64.tap; \
	    exit 1; fi

# The same spec on this machine's LuaJIT and module (what Wine must match).
smoke-native: build/jit/astar/core.so
	$(LUA_jit) spec/windows/smoke.lua 'build/jit/?.so'

.PHONY: windows wine-smoke smoke-native

# ---- LÖVE, as shipped ----
love-packed: build/jit/astar/core.so
	scripts/love-packed

.PHONY: love-packed

# ---- the release ----
dist: build/jit/astar/core.so $(WIN)/astar/core.dll
	scripts/dist $(VERSION)

dist-check:
	scripts/check-dist $(VERSION)

.PHONY: dist dist-check
