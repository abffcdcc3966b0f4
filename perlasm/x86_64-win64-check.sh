#!/bin/sh
# perlasm/x86_64-win64-check.sh - run the mingw64 flavour of the x86_64
# modules under the Win64 calling convention, on Linux.
#
#   perlasm/x86_64-win64-check.sh [SRCDIR]      (default: this tree)
#
# Each module is translated with FLAVOUR=mingw64; the COFF/SEH-only lines
# (.def, .seh_*, the .rdata section name) are dropped so that the code
# assembles as ELF, and a driver calls the entry points through a thunk
# that passes arguments in rcx, rdx, r8, r9 and on the stack (32-byte
# shadow space), with canaries in every Win64 callee-saved register (rbx,
# rbp, rdi, rsi, r12-r15, xmm6-15).  Results are compared with the C
# references, at every capability level of this CPU.  It checks the
# translator's argument shuffle, stack-argument offsets and register
# saves; the SEH unwind data itself is only checked by the assembler
# (x86_64-w64-mingw32-gcc -c) when that compiler is installed, and here
# for the two entries that run inside another function's body: the
# prologues of bn_mont_sqrn_x86_64 and bn_mont_sqrn_mul_x86_64 must give
# the same unwind directives as bn_mul_mont's.  Every
# crypto/*/asm/*x86_64*.pl of the tree must be in the module list below.
# Prints "win64-check: N passed, N failed"; exit status 1 on failure.
set -eu
SRC=${1:-$(cd "$(dirname "$0")/.." && pwd)}
CC=${CC:-cc}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT

strip_coff() {
    grep -v -E '^\.seh_|^\.def ' "$1" | sed 's/^\.section \.rdata,"dr"/.section .rodata/'
}
MODS="crypto/poly1305/asm/poly1305-x86_64 crypto/bn/asm/x86_64-mont crypto/bn/asm/x86_64-words"
# Checks made here in the shell, added to the driver's counts at the end.
shp=0 shf=0
sh_check() {    # sh_check WHAT OK(0/1)
    if [ "$2" -eq 1 ]; then shp=$((shp + 1)); else shf=$((shf + 1)); echo "FAIL: $1"; fi
}
# Every x86_64 module of the tree is one the driver runs: a new script
# must be added to MODS and to the driver, not be left out unseen.
for pl in "$SRC"/crypto/*/asm/*x86_64*.pl; do
    [ -f "$pl" ] || continue
    m=${pl#"$SRC"/}; m=${m%.pl}
    case " $MODS " in *" $m "*) ok=1 ;; *) ok=0 ;; esac
    sh_check "$m.pl is not in this check's module list" $ok
done
for m in $MODS; do
    b=$(basename $m)
    perl "$SRC/$m.pl" mingw64 "$T/$b.win.S"
    if command -v x86_64-w64-mingw32-gcc >/dev/null 2>&1; then
        x86_64-w64-mingw32-gcc -c "$T/$b.win.S" -o "$T/$b.coff.o"
    fi
    strip_coff "$T/$b.win.S" > "$T/$b.S"
done

# u64 call_ms(fn, a1..a6, u64 *clobbered): Win64 call, canary check.
cat > "$T/thunk.S" <<'EOF'
.text
.globl call_ms
.type call_ms,@function
call_ms:
	pushq	%rbx
	pushq	%rbp
	pushq	%r12
	pushq	%r13
	pushq	%r14
	pushq	%r15
	subq	$56,%rsp		# shadow 32 + args 5, 6 + pad
	movq	%rdi,%rax		# fn
	movq	%rsi,%r10		# a1
	movq	%rdx,%r11		# a2
	movq	%r9,%rdx		# a5 -> stack
	movq	%rdx,32(%rsp)
	movq	112(%rsp),%rdx		# a6 (7th SysV arg: 56 + 48 + 8)
	movq	%rdx,40(%rsp)
	movq	%r8,%r9			# a4 -> r9
	movq	%rcx,%r8		# a3 -> r8
	movq	%r10,%rcx		# a1 -> rcx
	movq	%r11,%rdx		# a2 -> rdx
	movabsq	$0x1111111111111111,%rbx
	movabsq	$0x2222222222222222,%rbp
	movabsq	$0x3333333333333333,%rdi
	movabsq	$0x4444444444444444,%rsi
	movabsq	$0x5555555555555555,%r12
	movabsq	$0x6666666666666666,%r13
	movabsq	$0x7777777777777777,%r14
	movabsq	$0x0888888888888888,%r15
	movq	%rbx,%xmm6
	movq	%rbp,%xmm7
	movq	%rdi,%xmm8
	movq	%rsi,%xmm9
	movq	%r12,%xmm10
	movq	%r13,%xmm11
	movq	%r14,%xmm12
	movq	%r15,%xmm13
	movq	%rbx,%xmm14
	movq	%rbp,%xmm15
	callq	*%rax
	movq	%rax,48(%rsp)		# result
	xorl	%r10d,%r10d
	movabsq	$0x1111111111111111,%r11
	cmpq	%r11,%rbx
	setne	%r10b
	movabsq	$0x2222222222222222,%r11
	cmpq	%r11,%rbp
	setne	%al
	orb	%al,%r10b
	movabsq	$0x3333333333333333,%r11
	cmpq	%r11,%rdi
	setne	%al
	orb	%al,%r10b
	movabsq	$0x4444444444444444,%r11
	cmpq	%r11,%rsi
	setne	%al
	orb	%al,%r10b
	movabsq	$0x5555555555555555,%r11
	cmpq	%r11,%r12
	setne	%al
	orb	%al,%r10b
	movabsq	$0x6666666666666666,%r11
	cmpq	%r11,%r13
	setne	%al
	orb	%al,%r10b
	movabsq	$0x7777777777777777,%r11
	cmpq	%r11,%r14
	setne	%al
	orb	%al,%r10b
	movabsq	$0x0888888888888888,%r11
	cmpq	%r11,%r15
	setne	%al
	orb	%al,%r10b
	movq	%xmm6,%r11
	cmpq	%rbx,%r11
	setne	%al
	orb	%al,%r10b
	movq	%xmm7,%r11
	cmpq	%rbp,%r11
	setne	%al
	orb	%al,%r10b
	movq	%xmm8,%r11
	cmpq	%rdi,%r11
	setne	%al
	orb	%al,%r10b
	movq	%xmm9,%r11
	cmpq	%rsi,%r11
	setne	%al
	orb	%al,%r10b
	movq	%xmm10,%r11
	cmpq	%r12,%r11
	setne	%al
	orb	%al,%r10b
	movq	%xmm11,%r11
	cmpq	%r13,%r11
	setne	%al
	orb	%al,%r10b
	movq	%xmm12,%r11
	cmpq	%r14,%r11
	setne	%al
	orb	%al,%r10b
	movq	%xmm13,%r11
	cmpq	%r15,%r11
	setne	%al
	orb	%al,%r10b
	movq	%xmm14,%r11
	cmpq	%rbx,%r11
	setne	%al
	orb	%al,%r10b
	movq	%xmm15,%r11
	cmpq	%rbp,%r11
	setne	%al
	orb	%al,%r10b
	movq	120(%rsp),%r11		# clobbered pointer (8th SysV arg)
	movzbl	%r10b,%r10d
	movq	%r10,(%r11)
	movq	48(%rsp),%rax
	addq	$56,%rsp
	popq	%r15
	popq	%r14
	popq	%r13
	popq	%r12
	popq	%rbp
	popq	%rbx
	ret
.section .note.GNU-stack,"",@progbits
EOF

cat > "$T/drv.c" <<'EOF'
#include <stdio.h>
#include <string.h>
#include "internal.h"

typedef unsigned long long u64;
u64 call_ms(void *fn, u64 a1, u64 a2, u64 a3, u64 a4, u64 a5, u64 a6, u64 *bad);
static int pass, fail;
static u64 rs = 0x9e3779b97f4a7c15ull;
static u64 rnd(void) { rs ^= rs << 13; rs ^= rs >> 7; rs ^= rs << 17; return rs; }
static void check(int ok, u64 bad, const char *what, unsigned caps, long n)
{
    if (ok && !bad) { pass++; return; }
    fail++;
    if (fail < 20)
        printf("FAIL %s caps %x n %ld%s\n", what, caps, n, bad ? " (callee-saved register clobbered)" : "");
}

static void poly(unsigned caps)
{
    static unsigned char msg[5000] __attribute__((aligned(16)));
    static const long lens[] = { 0, 16, 100, 200, 300, 700, 1000, 3000, 4999 };
    unsigned char key[32], tag[16], ref[16];
    unsigned i, k;

    for (i = 0; i < sizeof(msg); i++) msg[i] = (unsigned char)rnd();
    for (i = 0; i < sizeof(lens) / sizeof(lens[0]); i++) {
        u64 ctx[64] __attribute__((aligned(64))), rc[64] __attribute__((aligned(64)));
        void *f[2] = { 0, 0 };
        unsigned char last[16] = { 0 };
        size_t len = lens[i], full = len & ~(size_t)15;
        u64 bad = 0, b;
        int r;

        for (k = 0; k < 32; k++) key[k] = (unsigned char)rnd();
        r = (int)call_ms((void *)poly1305_init, (u64)ctx, (u64)key, (u64)f, 0, 0, 0, &b); bad |= b;
        call_ms(f[0], (u64)ctx, (u64)msg, full, 1, 0, 0, &b); bad |= b;
        if (len > full) {
            memcpy(last, msg + full, len - full);
            last[len - full] = 1;
            call_ms(f[0], (u64)ctx, (u64)last, 16, 0, 0, 0, &b); bad |= b;
        }
        call_ms(f[1], (u64)ctx, (u64)tag, (u64)(key + 16), 0, 0, 0, &b); bad |= b;
        poly1305_ref64_init(rc, key);
        poly1305_ref64_blocks(rc, msg, full, 1);
        if (len > full) poly1305_ref64_blocks(rc, last, 16, 0);
        poly1305_ref64_emit(rc, ref, (const unsigned int *)(key + 16));
        check(r == 1 && memcmp(tag, ref, 16) == 0, bad, "poly1305", caps, (long)len);
    }
}

/* bn_mont_sqrn_x86_64 (b == NULL: r1 = a squared count times) or
 * bn_mont_sqrn_mul_x86_64 (r1 = a in place, squared count times, then
 * times b) under the Win64 convention, against bn_mul_mont_c; a decline
 * (no BMI2+ADX, num % 8 != 0) must leave r1 as it was. */
static void sqrn(const char *name, unsigned caps, BN_ULONG *r1, BN_ULONG *r2, const BN_ULONG *a,
                 const BN_ULONG *b, const BN_ULONG *m, const BN_ULONG *n0, int num, int count)
{
    const unsigned mulx = ASMCRYPT_CAP_X86_BMI2 | ASMCRYPT_CAP_X86_ADX;
    int k, takes = num % 8 == 0 && (caps & mulx) == mulx;
    u64 bad, ret;

    memcpy(r1, a, num * sizeof(BN_ULONG));
    ret = b ? call_ms((void *)bn_mont_sqrn_mul_x86_64, (u64)r1, (u64)b, (u64)m, (u64)n0, (u64)num, (u64)count, &bad)
            : call_ms((void *)bn_mont_sqrn_x86_64, (u64)r1, (u64)a, (u64)m, (u64)n0, (u64)num, (u64)count, &bad);
    memcpy(r2, a, num * sizeof(BN_ULONG));
    if (ret) {
        for (k = 0; k < count; k++)
            bn_mul_mont_c(r2, r2, r2, m, n0, num);
        if (b)
            bn_mul_mont_c(r2, r2, b, m, n0, num);
    }
    check((long)ret == takes && memcmp(r1, r2, num * sizeof(BN_ULONG)) == 0, bad, name, caps, num);
}

static void bn(unsigned caps)
{
    static const int nums[] = { 1, 2, 3, 4, 5, 7, 8, 9, 16, 17, 32 };
    BN_ULONG a[32], b[32], m[32], r1[33], r2[33], n0;
    unsigned i;
    int k;

    for (i = 0; i < sizeof(nums) / sizeof(nums[0]); i++) {
        int num = nums[i];
        u64 bad, ret;

        for (k = 0; k < num; k++) { a[k] = rnd(); b[k] = rnd(); m[k] = rnd(); }
        m[0] |= 1; m[num - 1] |= 1ull << 63;
        for (k = 0; k < num; k++) { a[k] &= ~(1ull << 63); b[k] &= ~(1ull << 63); }
        n0 = asmcrypt_bn_mont_n0(m);
        ret = call_ms((void *)bn_mul_mont, (u64)r1, (u64)a, (u64)b, (u64)m, (u64)&n0, (u64)num, &bad);
        if (ret) {
            bn_mul_mont_c(r2, a, b, m, &n0, num);
            check(memcmp(r1, r2, num * sizeof(BN_ULONG)) == 0, bad, "bn_mul_mont", caps, num);
        } else {
            check(1, bad, "bn_mul_mont (declined)", caps, num);
        }
        sqrn("bn_mont_sqrn_x86_64", caps, r1, r2, a, NULL, m, &n0, num, 3);
        sqrn("bn_mont_sqrn_mul_x86_64", caps, r1, r2, a, b, m, &n0, num, 2);
        for (k = 0; k < num; k++) r1[k] = r2[k] = rnd();
        ret = call_ms((void *)bn_mul_add_words, (u64)r1, (u64)a, (u64)num, (u64)b[0], 0, 0, &bad);
        check(ret == bn_mul_add_words_c(r2, a, num, b[0]) &&
              memcmp(r1, r2, num * sizeof(BN_ULONG)) == 0, bad, "bn_mul_add_words", caps, num);
        ret = call_ms((void *)bn_cnd_sub_words, (u64)r1, (u64)a, (u64)b, (u64)num, 1, 0, &bad);
        check(ret == bn_cnd_sub_words_c(r2, a, b, num, 1) &&
              memcmp(r1, r2, num * sizeof(BN_ULONG)) == 0, bad, "bn_cnd_sub_words", caps, num);
    }
}

int main(void)
{
    unsigned all = asmcrypt_cpucap_detected();
    unsigned levels[] = { 0xffffffffu, 0xffu, 0x1fu, 0xfu, 0x9u, 0u };
    unsigned i;

    for (i = 0; i < sizeof(levels) / sizeof(levels[0]); i++) {
        asmcrypt_cpucap_restrict(levels[i]);
        poly(all & levels[i]);
        bn(all & levels[i]);
    }
    printf("win64-check: %d passed, %d failed\n", pass, fail);
    return fail != 0;
}
EOF

cat > "$T/conf.h" <<'EOF'
#define ASMCRYPT_WORD_BITS 64
EOF
mkdir -p "$T/asmcrypt" && mv "$T/conf.h" "$T/asmcrypt/conf.h"
$CC -std=gnu99 -O1 -Wall -Wa,--noexecstack -I"$T" -I"$SRC/include" -I"$SRC/crypto" -I"$SRC/crypto/bn" -o "$T/drv" \
    "$T/drv.c" "$T/thunk.S" "$T/poly1305-x86_64.S" "$T/x86_64-mont.S" "$T/x86_64-words.S" \
    "$SRC/crypto/cpucap.c" "$SRC/crypto/arch/cpucap_x86_64.c" "$SRC/crypto/poly1305/poly1305_ref64.c" \
    "$SRC"/crypto/bn/bn_mont.c "$SRC"/crypto/bn/bn_words.c "$SRC"/crypto/bn/bn_api.c \
    "$SRC"/crypto/bn/bn_dispatch.c "$SRC"/crypto/bn/bn_exp.c "$SRC"/crypto/bn/bn_exp_util.c \
    "$SRC"/crypto/err.c
# bn_mont_sqrn_x86_64 and bn_mont_sqrn_mul_x86_64 jump into bn_mul_mont's
# body (its s8 / sqr8 code and epilogue): while they run there, a Win64
# unwinder reads bn_mul_mont's unwind data, so their prologues must be
# the same, directive for directive (the function name aside).
seh_prologue() {    # seh_prologue FILE FUNC: .seh_ lines of FUNC's prologue
    awk -v f="$2" '$0 == ".seh_proc " f {p = 1; next} p && /^\.seh_endprologue/ {exit} p && /^\.seh_/' "$1"
}
ref=$(seh_prologue "$T/x86_64-mont.win.S" bn_mul_mont)
for f in bn_mont_sqrn_x86_64 bn_mont_sqrn_mul_x86_64; do
    ok=0
    [ -n "$ref" ] && [ "$(seh_prologue "$T/x86_64-mont.win.S" $f)" = "$ref" ] && ok=1
    sh_check "$f: Win64 unwind data differs from bn_mul_mont's" $ok
done

set +e
"$T/drv" > "$T/drv.out"
rc=$?
set -e
sed '$d' "$T/drv.out"
last=$(tail -n 1 "$T/drv.out")
p=$(echo "$last" | sed -n 's/^win64-check: \([0-9]*\) passed, \([0-9]*\) failed$/\1/p')
f=$(echo "$last" | sed -n 's/^win64-check: \([0-9]*\) passed, \([0-9]*\) failed$/\2/p')
if [ -z "$p" ]; then echo "$last"; p=0; f=1; fi
[ "$rc" -eq 0 ] || [ "$f" -gt 0 ] || f=1
echo "win64-check: $((p + shp)) passed, $((f + shf)) failed"
[ $((f + shf)) -eq 0 ]
