/*
 * apps/speed_caps.c - which capability levels select distinct
 * implementations, and a description of the machine.
 *
 * Levels are found without knowing the architecture's bits: starting from
 * everything detected, clear the highest remaining bit, one at a time, down
 * to 0 (baseline ISA).  Each level is named by asmcrypt_impl() at that
 * level; levels that select the C reference or a name already seen are
 * dropped, so each asm path gets exactly one column (the richest mask that
 * selects it).
 */
#include <stdio.h>
#include <string.h>
#include "internal.h"
#include "speed.h"

int sp_levels(const char *primitive, sp_level *out, int max)
{
    unsigned int mask = asmcrypt_cpu_caps();
    int n = 0, i, seen;

    for (;;) {
        const char *name;

        asmcrypt_cpucap_restrict(mask);
        name = asmcrypt_impl(primitive);
        if (name != NULL && strcmp(name, "c") != 0 && n < max) {
            for (seen = 0, i = 0; i < n; i++)
                if (strcmp(out[i].name, name) == 0)
                    seen = 1;
            if (!seen) {
                out[n].mask = mask;
                snprintf(out[n].name, sizeof(out[n].name), "%s", name);
                n++;
            }
        }
        if (mask == 0)
            break;
        for (i = 31; i >= 0; i--)
            if (mask & (1u << i)) {
                mask &= ~(1u << i);
                break;
            }
    }
    asmcrypt_cpucap_restrict(SP_ALLCAPS);
    return n;
}

static void field(const char *line, char *out, size_t len)
{
    const char *v = strchr(line, ':');
    size_t l;

    if (v == NULL)
        return;
    v++;
    while (*v == ' ' || *v == '\t')
        v++;
    l = strcspn(v, "\n");
    snprintf(out, len, "%.*s", (int)l, v);
}

/* /proc/cpuinfo model name (x86, ARM "Processor", MIPS "cpu model"), plus
 * x86 family/model numbers: VMs often show a vague name. */
const char *sp_cpu_model(void)
{
    static char model[192];
    char line[512], name[128] = "unknown", fam[16] = "", mod[16] = "";
    FILE *f;

    if (model[0] != '\0')
        return model;
    f = fopen("/proc/cpuinfo", "r");
    while (f != NULL && fgets(line, sizeof(line), f) != NULL) {
        if (line[0] == '\n')
            break;                      /* first processor only */
        if (strncmp(line, "model name", 10) == 0 ||
            strncmp(line, "cpu model", 9) == 0 ||
            strncmp(line, "Processor", 9) == 0)
            field(line, name, sizeof(name));
        else if (strncmp(line, "cpu family", 10) == 0)
            field(line, fam, sizeof(fam));
        else if (strncmp(line, "model\t", 6) == 0)
            field(line, mod, sizeof(mod));
    }
    if (f != NULL)
        fclose(f);
    if (fam[0] != '\0' && mod[0] != '\0')
        snprintf(model, sizeof(model), "%s (family %s, model %s)", name, fam, mod);
    else
        snprintf(model, sizeof(model), "%s", name);
    return model;
}

/* Named bits for the build's architecture, hex mask otherwise. */
void sp_caps_string(unsigned int caps, char *buf, size_t len)
{
    static const struct { unsigned int bit; const char *name; } names[] = {
#if defined(__x86_64__)
        { ASMCRYPT_CAP_X86_BMI1, "bmi1" }, { ASMCRYPT_CAP_X86_BMI2, "bmi2" },
        { ASMCRYPT_CAP_X86_ADX, "adx" }, { ASMCRYPT_CAP_X86_AVX, "avx" },
        { ASMCRYPT_CAP_X86_AVX2, "avx2" }, { ASMCRYPT_CAP_X86_AVX512F, "avx512f" },
        { ASMCRYPT_CAP_X86_AVX512VL, "avx512vl" }, { ASMCRYPT_CAP_X86_AVX512BW, "avx512bw" },
        { ASMCRYPT_CAP_X86_AVX512IFMA, "avx512ifma" },
#elif defined(__arm__)
        { ASMCRYPT_CAP_ARM_UMAAL, "umaal" }, { ASMCRYPT_CAP_ARM_NEON, "neon" },
#elif defined(__aarch64__)
        { ASMCRYPT_CAP_A64_NEON, "neon" },
#elif defined(__mips__)
        { ASMCRYPT_CAP_MIPS_R2, "r2" }, { ASMCRYPT_CAP_MIPS_MSA, "msa" },
#endif
        { 0, NULL }
    };
    size_t i, used;

    used = (size_t)snprintf(buf, len, "0x%x", caps);
    for (i = 0; names[i].name != NULL && used < len; i++)
        if (caps & names[i].bit)
            used += (size_t)snprintf(buf + used, len - used, " %s", names[i].name);
}
