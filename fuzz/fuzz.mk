# fuzz/fuzz.mk - differential fuzz targets (fuzz/README.md, docs/fuzzing.md),
# included by the Makefile that Configure writes.  Uses SRCDIR, CC,
# CPPFLAGS, CFLAGS, LDFLAGS, EMULATOR, CAP_LEVELS, PEER_CFLAGS and
# libasmcrypt.a.
#
#   make fuzz [FUZZ_S=N]  native builds: the libFuzzer targets (FUZZ_CC,
#                         default clang, -fsanitize=fuzzer,address,undefined)
#                         each run N seconds (default 10) on a fresh copy of
#                         its seed corpus in fuzzwork/<target>
#   make fuzz-build       only build them (fuzzbin/fuzz_<target>)
#   make fuzz-replay      any build, cross too: the plain-C replay drivers
#                         (the row's CC and CFLAGS, -DFUZZ_STANDALONE) run
#                         through EMULATOR over fuzz/corpus/<target>
#   FUZZ_ARGS=...         extra libFuzzer options for `make fuzz`
#
# Every target runs at every level of this build's CAP_LEVELS in-process
# (-DFUZZ_CAP_LEVELS); OpenSSL is an extra oracle when Configure found it.

FUZZ_TARGETS = words mont poly1305 modexp
FUZZ_CC     ?= clang
FUZZ_S      ?= 10
FUZZ_ARGS   ?=
FUZZ_SAN     = -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all
FUZZ_EMPTY   =
FUZZ_SPACE   = $(FUZZ_EMPTY) $(FUZZ_EMPTY)
FUZZ_COMMA   = ,
FUZZ_LEVELS  = $(subst $(FUZZ_SPACE),$(FUZZ_COMMA),$(strip $(addprefix 0x,$(CAP_LEVELS))))
FUZZ_SSL     = $(if $(findstring -DHAVE_OPENSSL,$(PEER_CFLAGS)),yes)
FUZZ_DEFS    = -DFUZZ_CAP_LEVELS=$(FUZZ_LEVELS) $(if $(FUZZ_SSL),-DFUZZ_OPENSSL)
FUZZ_LIBS    = $(if $(FUZZ_SSL),-lcrypto)
FUZZ_DEPS    = $(wildcard $(SRCDIR)/fuzz/*.c $(SRCDIR)/fuzz/*.h) $(HEADERS) Makefile
FUZZ_BIN     = $(addprefix fuzzbin/fuzz_,$(FUZZ_TARGETS))
FUZZ_REPLAY  = $(addprefix fuzzbin/replay_,$(FUZZ_TARGETS))

fuzzbin/fuzz_%: $(SRCDIR)/fuzz/fuzz_%.c $(FUZZ_DEPS) libasmcrypt.a
	@if [ -n "$(strip $(CROSS))" ]; then \
	  echo "make fuzz: native builds only (cross: make fuzz-replay)"; exit 1; fi
	@mkdir -p $(@D)
	$(FUZZ_CC) -O1 -g $(FUZZ_SAN) -std=c99 -Wall -Wextra $(CPPFLAGS) $(FUZZ_DEFS) \
	  $< libasmcrypt.a $(FUZZ_LIBS) -o $@

fuzzbin/replay_%: $(SRCDIR)/fuzz/fuzz_%.c $(FUZZ_DEPS) libasmcrypt.a
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CFLAGS) -DFUZZ_STANDALONE $(FUZZ_DEFS) \
	  $< libasmcrypt.a $(LDFLAGS) $(FUZZ_LIBS) -o $@

fuzz-build: $(FUZZ_BIN)

# -max_len: the Poly1305 target reads up to 4 KiB of message after its
# header; the others need far less.
fuzz: $(FUZZ_BIN)
	@for t in $(FUZZ_TARGETS); do \
	  rm -rf fuzzwork/$$t && mkdir -p fuzzwork/$$t && \
	  cp $(SRCDIR)/fuzz/corpus/$$t/* fuzzwork/$$t/ && \
	  echo "fuzz_$$t: $(FUZZ_S) s, levels $(FUZZ_LEVELS)" && \
	  (cd fuzzwork && ../fuzzbin/fuzz_$$t -max_total_time=$(FUZZ_S) -max_len=4200 \
	     -print_final_stats=1 $(FUZZ_ARGS) $$t >$$t.log 2>&1); rc=$$?; \
	  grep -E 'stat::number_of_executed_units|MISMATCH|ERROR' fuzzwork/$$t.log; \
	  if [ $$rc -ne 0 ]; then echo "fuzz_$$t: FAILED (fuzzwork/$$t.log)"; exit 1; fi; \
	done

fuzz-replay: $(FUZZ_REPLAY)
	@fail=0; for t in $(FUZZ_TARGETS); do \
	  printf 'replay_%s: ' $$t; \
	  $(EMULATOR) ./fuzzbin/replay_$$t $(SRCDIR)/fuzz/corpus/$$t || fail=1; \
	done; exit $$fail

# test/test_fuzz_replay.c includes the check files
obj/test/test_fuzz_replay.o: $(wildcard $(SRCDIR)/fuzz/*.c $(SRCDIR)/fuzz/*.h)

CLEAN_EXTRA += fuzzbin fuzzwork

.PHONY: fuzz fuzz-build fuzz-replay
