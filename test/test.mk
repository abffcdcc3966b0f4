# test/test.mk - test programs that are not hosted test_*.c programs,
# included by the Makefile that Configure writes.  Uses SRCDIR, CC,
# CPPFLAGS, CFLAGS, FLAVOUR, EMULATOR and HEADERS.
#
#   make probe-test   o32 MIPS32r1 builds (the ones whose R2 capability
#                     bit comes from crypto/arch/cpucap_mips.c's run-time
#                     probe): test/mips_r2_probe.c, freestanding, with
#                     cpucap_mips.c compiled in, run on qemu cores without
#                     R2 (4Kc, 4KEcR1) and with it (24Kf, 74Kf) by
#                     test/mips-r2-probe.sh.  Part of `make test` there
#                     (PROBE_TEST=yes: test/run.sh runs it once).
# Debian's MIPS libc is R2 code, so a hosted program cannot run on an R1
# core: hence no libc at all (-nostdlib, the program's own __start and
# system calls), no PIC (-fno-pic -mno-abicalls -G0) and a static link.

# __mips_isa_rev of this build's compiler and flags (o32 only)
PROBE_ISA_REV := $(if $(filter o32,$(FLAVOUR)),$(shell echo __mips_isa_rev | $(CC) $(CFLAGS) -E -P -x c - 2>/dev/null))

ifeq ($(strip $(PROBE_ISA_REV)),1)
PROBE_TEST   = yes
PROBE_CFLAGS = $(filter-out -fPIC -fpic -fPIE -fpie,$(CFLAGS)) \
               -ffreestanding -fno-pic -mno-abicalls -G0 -nostdlib -static
PROBE_SRC    = $(SRCDIR)/test/mips_r2_probe.c $(SRCDIR)/crypto/arch/cpucap_mips.c

testbin/mips_r2_probe: $(PROBE_SRC) $(HEADERS) Makefile
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(PROBE_CFLAGS) -o $@ $(PROBE_SRC) -lgcc

tests: testbin/mips_r2_probe

probe-test: testbin/mips_r2_probe
	@$(SHELL) $(SRCDIR)/test/mips-r2-probe.sh testbin/mips_r2_probe \
	  '$(firstword $(filter qemu-%,$(EMULATOR)))'
else
probe-test:
	@echo "probe-test: not an o32 MIPS32r1 build; nothing to test"; echo "0 passed, 0 failed"
endif

.PHONY: probe-test
