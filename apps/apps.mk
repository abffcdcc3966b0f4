# apps/apps.mk - builds apps/speed; included by the top Makefile.
# Uses SRCDIR, CC, CPPFLAGS, CFLAGS, LDFLAGS, libasmcrypt.a and, from
# Configure's link tests, PEER_CFLAGS (-DHAVE_OPENSSL=1 ...) and PEER_LIBS.
# What it measures is the routine table, tools/routines.c, built with the
# peers (obj/tools/routines_peers.o, tools/tools.mk).

SPEED_SRC := $(sort $(wildcard $(SRCDIR)/apps/speed*.c))
SPEED_OBJ := $(patsubst $(SRCDIR)/%.c,obj/%.o,$(SPEED_SRC))

apps: apps/speed

$(SPEED_OBJ): CPPFLAGS += -I$(SRCDIR)/tools $(PEER_CFLAGS)
$(SPEED_OBJ): $(wildcard $(SRCDIR)/apps/*.h) $(SRCDIR)/tools/routines.h

apps/speed: $(SPEED_OBJ) obj/tools/routines_peers.o libasmcrypt.a
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -o $@ $(SPEED_OBJ) obj/tools/routines_peers.o libasmcrypt.a $(LDFLAGS) $(PEER_LIBS)

CLEAN_EXTRA += apps/speed

# Smoke run: every implementation is verified against the C reference
# before it is timed, so a near-zero-time run is a cross-implementation
# check (exit 3 on mismatch).  Not part of `make test`: no timing there.
speed-check: apps/speed
	$(EMULATOR) apps/speed -q -t 0.001 -r 1 --csv > /dev/null

.PHONY: speed-check
