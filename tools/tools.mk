# tools/tools.mk - measurement and constant-time tooling, included by the
# Makefile that Configure writes (see tools/ and docs/perf/README.md).
#
#   make tools      the qemu plugin (host compiler) and the two drivers
#   make ct-test    constant-time check by trace equivalence (part of
#                   `make test`: CT_TEST=yes below)
#   make icount     instruction counts for this build -> icount-$(TARGET).md
#   make mca        llvm-mca cycle estimates for this build -> mca-$(TARGET).md

CT_TEST = yes
# Row name for the report headings (tools/perf-all.sh sets it).
ROW ?=
# Extra tools/icount-report.pl options (test/icount-gate.sh: --gate --raw F).
ICOUNT_FLAGS ?=

TOOLS_PLUGIN  = toolbin/libicount.so
TOOLS_DRV_OBJ = obj/tools/drv_probe.o obj/tools/drv_util.o obj/tools/drv_jobs.o
# qemu for the tools: the target's emulator, or the host's qemu-user when
# the build is native (tracing needs qemu even there).
TOOLS_EMU     = $(if $(strip $(EMULATOR)),$(EMULATOR),qemu-$(shell uname -m) -cpu max)
TOOLS_HOSTCC  = $(if $(strip $(HOSTCC)),$(HOSTCC),cc)

tools: $(TOOLS_PLUGIN) toolbin/icount_driver toolbin/ct_driver

$(TOOLS_PLUGIN): $(SRCDIR)/tools/qemu-icount.c Makefile
	@mkdir -p $(@D)
	$(TOOLS_HOSTCC) -O2 -Wall -Wextra -shared -fPIC -o $@ $<

# -fno-optimize-sibling-calls: asmcrypt_probe must be reached by a real
# call (the plugin finds the end of a call at the caller's return address).
TOOLS_CFLAGS  = $(CPPFLAGS) -I$(SRCDIR)/tools $(CFLAGS) -fno-optimize-sibling-calls

obj/tools/%.o: $(SRCDIR)/tools/%.c $(SRCDIR)/tools/drv.h $(SRCDIR)/tools/routines.h $(HEADERS) Makefile
	@mkdir -p $(@D)
	$(CC) $(TOOLS_CFLAGS) -c $< -o $@

# The routine table (tools/routines.h), with the peers (OpenSSL, GMP,
# libsodium) for apps/speed and the counting driver, and without them
# (obj/tools/routines.o, the rule above) for the constant-time drivers
# and the tests (Makefile.in's TEST_UTIL).
obj/tools/routines_peers.o: $(SRCDIR)/tools/routines.c $(SRCDIR)/tools/routines.h $(HEADERS) Makefile
	@mkdir -p $(@D)
	$(CC) $(TOOLS_CFLAGS) $(PEER_CFLAGS) -c $< -o $@

# Static when the toolchain can (stable addresses, symbols in one image,
# no dynamic loader in the counts); dynamic otherwise.
toolbin/icount_driver: obj/tools/icount_main.o obj/tools/routines_peers.o $(TOOLS_DRV_OBJ) libasmcrypt.a
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -static -o $@ $^ $(PEER_LIBS) $(LDFLAGS) 2>/dev/null || \
	$(CC) $(CFLAGS) -o $@ $^ $(PEER_LIBS) $(LDFLAGS)

toolbin/ct_driver: obj/tools/ct_main.o obj/tools/ct_leaks.o obj/tools/routines.o $(TOOLS_DRV_OBJ) libasmcrypt.a
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -static -o $@ $^ $(LDFLAGS) 2>/dev/null || \
	$(CC) $(CFLAGS) -o $@ $^ $(LDFLAGS)

ct-test: tools
	@if ! command -v $(firstword $(filter qemu-%,$(TOOLS_EMU))) >/dev/null 2>&1; then \
	    echo "ct-test: no qemu-user for this build; skipped"; echo "0 passed, 0 failed"; \
	else \
	    $(PERL) $(SRCDIR)/tools/ct-check.pl --plugin $(TOOLS_PLUGIN) \
	      --emulator '$(TOOLS_EMU)' --keep testlogs/ct toolbin/ct_driver $(CAP_LEVELS); \
	fi

icount: tools
	$(PERL) $(SRCDIR)/tools/icount-report.pl $(ICOUNT_FLAGS) --plugin $(TOOLS_PLUGIN) \
	  --emulator '$(TOOLS_EMU)' --target '$(TARGET)' --cflags '$(CFLAGS)' --row '$(ROW)' \
	  --out icount-$(TARGET).md toolbin/icount_driver $(CAP_LEVELS)

mca: asm-sources
	$(SHELL) $(SRCDIR)/tools/mca.sh --cc '$(CC)' --cflags '$(CPPFLAGS) $(CFLAGS)' \
	  --target '$(TARGET)' --row '$(ROW)' --src '$(SRCDIR)' --out mca-$(TARGET).md $(ASM_S)

asm-sources: $(ASM_S)

CLEAN_EXTRA += toolbin obj/tools icount-*.md mca-*.md

.PHONY: tools ct-test icount mca asm-sources

# Secret-taint driver for valgrind memcheck (test/ct-taint.sh, the
# ct-taint row; needs valgrind/memcheck.h from Debian's valgrind package).
toolbin/ct_taint: obj/tools/ct_taint.o obj/tools/ct_leaks.o obj/tools/routines.o $(TOOLS_DRV_OBJ) libasmcrypt.a
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -o $@ $^ $(LDFLAGS)

# dudect-style timing measurement (x86_64; docs/perf/dudect.md).  Never a
# test: `make dudect` prints the table, DUDECT_N measurements per case.
DUDECT_N ?= 20000
toolbin/dudect: obj/tools/dudect.o obj/tools/ct_leaks.o obj/tools/routines.o $(TOOLS_DRV_OBJ) libasmcrypt.a
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -o $@ $^ $(LDFLAGS) -lm

dudect: toolbin/dudect
	./toolbin/dudect -n $(DUDECT_N) $(CAP_LEVELS)

.PHONY: dudect
