/*
 * asmcrypt/cpu.h - run-time capabilities and implementation names.
 *
 * Capabilities are detected once per process.  The environment variable
 * ASMCRYPT_CAP, a hexadecimal mask (e.g. ASMCRYPT_CAP=0x1f), is ANDed with
 * what was detected: it can only remove capabilities, never add them.
 * ASMCRYPT_CAP=0 leaves the baseline ISA of the build only.  Bits are per
 * architecture:
 */
#ifndef ASMCRYPT_CPU_H
#define ASMCRYPT_CPU_H

#ifdef __cplusplus
extern "C" {
#endif

/* x86_64 */
#define ASMCRYPT_CAP_X86_BMI1        (1u << 0)
#define ASMCRYPT_CAP_X86_BMI2        (1u << 1)
#define ASMCRYPT_CAP_X86_ADX         (1u << 2)
#define ASMCRYPT_CAP_X86_AVX         (1u << 3)
#define ASMCRYPT_CAP_X86_AVX2        (1u << 4)
#define ASMCRYPT_CAP_X86_AVX512F     (1u << 5)
#define ASMCRYPT_CAP_X86_AVX512VL    (1u << 6)
#define ASMCRYPT_CAP_X86_AVX512BW    (1u << 7)
#define ASMCRYPT_CAP_X86_AVX512IFMA  (1u << 8)

/* 32-bit ARM.  UMAAL is "the build targets ARMv6 or later" (it cannot be
 * detected on Linux; the bit lets a test drive the ARMv4 path on a v6+
 * build).  NEON comes from AT_HWCAP. */
#define ASMCRYPT_CAP_ARM_UMAAL       (1u << 0)
#define ASMCRYPT_CAP_ARM_NEON        (1u << 1)

/* AArch64: Advanced SIMD (always present on Linux AArch64). */
#define ASMCRYPT_CAP_A64_NEON        (1u << 0)

/* MIPS: R2 = the MIPS32R2 instructions run.  R2 and later builds set it
 * from the build's ISA (__mips_isa_rev); o32 MIPS32r1 builds on Linux
 * probe for it at run time (executing one R2 instruction under a
 * temporary SIGILL handler) and then run R2 code where they have it;
 * other builds never set it.  Clearing it makes the modules take their
 * pre-R2 (MIPS I/II/32r1-compatible) instruction sequences. */
#define ASMCRYPT_CAP_MIPS_R2         (1u << 0)
/* MIPS: MSA = the MIPS SIMD Architecture runs (the kernel enables it for
 * the process).  MIPS64 R6 little-endian n64 builds on Linux probe
 * for it at run time (one MSA instruction under a temporary SIGILL
 * handler); Poly1305 then runs its MSA body from 512 bytes.  Other
 * builds never set it. */
#define ASMCRYPT_CAP_MIPS_MSA        (1u << 1)

/* The effective capability mask (detected & ASMCRYPT_CAP). */
unsigned int asmcrypt_cpu_caps(void);

/*
 * Which implementation is active for a primitive: "poly1305",
 * "bn_mont_mul", "mod_exp", "bn_mul_add_words", "bn_mul_words",
 * "bn_mul_sub_words", "bn_sqr_words", "bn_add_words", "bn_sub_words",
 * "bn_cnd_add_words", "bn_cnd_sub_words".  Returns "c" for the C
 * reference, an asm path name ("x86_64-adx", "armv4", "armv6-umaal",
 * "armv7-neon", "mips32r2", ...) otherwise, and NULL for an unknown name.
 * For bn_mont_mul and mod_exp the name is that of the path used for large
 * num; small or odd sizes may decline to a simpler path (on 32-bit ARM,
 * the NEON Montgomery runs the integer code below num 16 and for num not
 * a multiple of 8; on x86_64 a mod_exp of up to 256 bits or of 512 bits
 * runs MULX even where the name is "x86_64-ifma").  The name must match
 * exactly (NULL, "", a prefix or a different case give NULL).  test/test_paths.c
 * checks that the named path is the one that runs, at every level.
 */
const char *asmcrypt_impl(const char *primitive);

#ifdef __cplusplus
}
#endif

#endif
