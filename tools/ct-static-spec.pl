# tools/ct-static-spec.pl - what is public at each exported entry, for
# tools/ct-static.pl.  Returned as a hash (loaded with `do`).
#
# args: the C arguments in order, "name:kind", kind one of
#   ptr         a pointer (public value); what is loaded through it is SECRET
#   ptr:public  a pointer to public data (the modulus, n0, a state the
#               caller owns but that holds no secret)
#   public      a public scalar (lengths, num, the padbit, sizes)
#   secret      a secret scalar (a word operand, a multiplier, a condition,
#               a table index)
# public: per pointer argument, byte ranges [from, to) of the object that
#   hold public fields (flags that say which powers of r are cached, a
#   base-2^26 marker): loads inside them are public.  Per arch, since the
#   layouts differ.
# exempt: a reason; the entry is not analysed (only for functions that are
#   not constant-time by contract, and so named in docs/constant-time.md).
#
# The modulus (np) and n0 are public: Montgomery arithmetic is
# constant-time in the operands and the exponent, not in the modulus (as
# in OpenSSL's BN_FLG_CONSTTIME contract; RSA moduli are public keys).
# Montgomery's rp is output only; the word primitives' rp is an operand
# (bn_mul_add_words reads it) and secret like every other loaded word.
#
my $mont  = ['rp:ptr', 'ap:ptr', 'bp:ptr', 'np:ptr:public', 'n0:ptr:public', 'num:public'];
my $w1    = ['rp:ptr', 'ap:ptr', 'num:public', 'w:secret'];        # mul_add / mul / mul_sub
my $w2    = ['rp:ptr', 'ap:ptr', 'bp:ptr', 'num:public'];          # add / sub
my $cnd   = ['rp:ptr', 'ap:ptr', 'bp:ptr', 'num:public', 'cond:secret'];
my $init  = ['ctx:ptr', 'key:ptr', 'func:ptr'];
my $blks  = ['ctx:ptr', 'inp:ptr', 'len:public', 'padbit:public'];
my $emit  = ['ctx:ptr', 'mac:ptr', 'nonce:ptr'];

my %common = (
    bn_mul_mont       => { args => $mont },
    bn_mul_add_words  => { args => $w1 },
    bn_mul_words      => { args => $w1 },
    bn_mul_sub_words  => { args => $w1 },
    bn_sqr_words      => { args => ['rp:ptr', 'ap:ptr', 'num:public'] },
    bn_add_words      => { args => $w2 },
    bn_sub_words      => { args => $w2 },
    bn_cnd_add_words  => { args => $cnd },
    bn_cnd_sub_words  => { args => $cnd },
    bn_mul_comba4     => { args => ['rp:ptr', 'ap:ptr', 'bp:ptr'] },
    bn_mul_comba8     => { args => ['rp:ptr', 'ap:ptr', 'bp:ptr'] },
    bn_sqr_comba4     => { args => ['rp:ptr', 'ap:ptr'] },
    bn_sqr_comba8     => { args => ['rp:ptr', 'ap:ptr'] },
    # OpenSSL's bn_div_words(h, l, d): a division of public words (OpenSSL
    # uses it on the divisor's top words in BN_div, never in the
    # constant-time paths); asmcrypt's API does not export it.
    bn_div_words      => { exempt => 'variable-time by contract (OpenSSL bn_div_words; divq/branch on its operands)' },
    poly1305_init     => { args => $init },
    poly1305_blocks   => { args => $blks },
    poly1305_emit     => { args => $emit },
    # modexp helpers: radix-2^52 AMM (operands secret, n public, n0 public
    # scalar, kl public) and the constant-time table gathers (idx secret).
    bn_amm52_x86_64   => { args => ['r:ptr', 'a:ptr', 'b:ptr', 'n:ptr:public', 'n0:public', 'kl:public'] },
    # the window's squarings in one call: operand secret, the rest public
    bn_mont_sqrn_x86_64 => { args => ['rp:ptr', 'ap:ptr', 'np:ptr:public', 'n0:ptr:public', 'num:public', 'count:public'] },
    # a whole window: rp squared count times in place, then times bp
    bn_mont_sqrn_mul_x86_64 => { args => ['rp:ptr', 'bp:ptr', 'np:ptr:public', 'n0:ptr:public', 'num:public', 'count:public'] },
    bn_gather52_x86_64      => { args => ['out:ptr', 'tab:ptr', 'idx:secret', 'L:public'] },
    bn_gather64_avx2_x86_64 => { args => ['out:ptr', 'tab:ptr', 'idx:secret', 'L:public'] },
    bn_gather5_armv8        => { args => ['out:ptr', 'tab:ptr', 'idx:secret', 'S:public'] },
    bn_gather5_armv8_gpr    => { args => ['out:ptr', 'tab:ptr', 'idx:secret', 'S:public'] },
    bn_gather5_armv7_neon   => { args => ['out:ptr', 'tab:ptr', 'idx:secret', 'S:public'] },
    bn_gather5_armv4        => { args => ['out:ptr', 'tab:ptr', 'idx:secret', 'S:public'] },
    # OpenSSL's chacha20-poly1305 helpers: out, in, otp pointers, len public
    xor128_encrypt_n_pad => { args => ['out:ptr', 'inp:ptr', 'otp:ptr', 'len:public'] },
    xor128_decrypt_n_pad => { args => ['out:ptr', 'inp:ptr', 'otp:ptr', 'len:public'] },
    # the planted leaks (test/ct-static.sh): the same contracts
    ct_leak_table        => { args => ['out:ptr', 'in:ptr', 'len:public'] },
    ct_leak_branchy_exp  => { args => ['rp:ptr', 'ap:ptr', 'ep:ptr', 'ewords:public', 'np:ptr:public', 'n0:public', 'num:public'] },
);

# Public fields of the Poly1305 state, per arch (see each module's layout
# comment): flags saying which powers are cached / which radix h is in.
# Secret: h, r, s and the powers themselves.
my %x86_64 = (
    # 48: u32 flags (1 r^2..r^4, 2 R16A, 4 R16Q valid)
    poly1305_blocks        => { args => $blks, public => { ctx => [[48, 52]] } },
    poly1305_blocks_avx    => { args => $blks, public => { ctx => [[48, 52]] } },
    poly1305_blocks_avx2   => { args => $blks, public => { ctx => [[48, 52]] } },
    poly1305_blocks_avx512 => { args => $blks, public => { ctx => [[48, 52]] } },
    poly1305_blocks_avx512ifma => { args => $blks, public => { ctx => [[48, 52]] } },
    poly1305_emit_avx      => { args => $emit, public => { ctx => [[48, 52]] } },
    poly1305_emit          => { args => $emit, public => { ctx => [[48, 52]] } },
);

return {
    common => \%common,
    x86_64 => \%x86_64,
    aarch64 => {
        # 24: u32 is_base2_26, 48: u32 powers valid
        map({ $_ => { args => $blks, public => { ctx => [[24, 28], [48, 52]] } } } qw(poly1305_blocks poly1305_blocks_neon)),
        poly1305_emit => { args => $emit, public => { ctx => [[24, 28], [48, 52]] } },
    },
    arm => {
        # 52: u32 NEON tables ready (poly1305-armv4.pl state layout)
        map({ $_ => { args => $blks, public => { ctx => [[52, 56]] } } } qw(poly1305_blocks poly1305_blocks_neon)),
        poly1305_emit => { args => $emit, public => { ctx => [[52, 56]] } },
    },
    # the n64 R6 MSA block function: poly1305_blocks' arguments
    mips => { poly1305_blocks_msa => { args => $blks } },
    # kernel-mode and OpenSSL-mode names -> the spec of the plain name
    aliases => [
        [qr/^poly1305_init_(x86_64|arm|arm64|mips)$/, 'poly1305_init'],
        [qr/^poly1305_block_init(_arch)?$/,           'poly1305_init'],
        [qr/^poly1305_blocks_(x86_64|arm|arm64|mips|mips32|mips32r2)$/, 'poly1305_blocks'],
        [qr/^poly1305_emit_(x86_64|arm|arm64|mips)$/, 'poly1305_emit'],
    ],
};
