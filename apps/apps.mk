# apps/apps.mk - builds apps/speed; included by the top Makefile.
# Uses SRCDIR, CC, CPPFLAGS, CFLAGS, LDFLAGS, libasmcrypt.a and, from
# Configure's link tests, PEER_CFLAGS (-DHAVE_OPENSSL=1 ...) and PEER_LIBS.

SPEED_SRC := $(sort $(wildcard $(SRCDIR)/apps/speed*.c))
SPEED_OBJ := $(patsubst $(SRCDIR)/%.c,obj/%.o,$(SPEED_SRC))

apps: apps/speed

$(SPEED_OBJ): CPPFLAGS += $(PEER_CFLAGS)
$(SPEED_OBJ): $(wildcard $(SRCDIR)/apps/*.h)

apps/speed: $(SPEED_OBJ) libasmcrypt.a
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -o $@ $(SPEED_OBJ) libasmcrypt.a $(LDFLAGS) $(PEER_LIBS)

CLEAN_EXTRA += apps/speed
