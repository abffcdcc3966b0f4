/*
 * apps/speed_main.c - command line of apps/speed, the asmcrypt benchmark.
 *
 *   speed [options] [poly1305|mont|modexp|words|<table>...]
 *
 * With no selector everything is measured.  Tables: poly1305, mont_mul,
 * mont_sqr, mod_exp, bn_mul_add_words (or mul_add), bn_mul_sub_words, ...
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "internal.h"
#include "speed.h"

static const char *const selectors[] = {
    "poly1305", "mont", "mont_mul", "mont_sqr", "modexp", "mod_exp", "words",
    "bn_mul_add_words", "bn_mul_sub_words", "bn_mul_words", "bn_sqr_words",
    "bn_add_words", "bn_sub_words", "bn_cnd_add_words", "bn_cnd_sub_words",
    "mul_add", "mul_sub", "mul", "sqr", "add", "sub", "cnd_add", "cnd_sub",
};

static void usage(int code)
{
    fprintf(code ? stderr : stdout,
        "usage: speed [options] [poly1305|mont|modexp|words|TABLE ...]\n"
        "  TABLE      poly1305 mont_mul mont_sqr mod_exp bn_<op>_words (or <op>:\n"
        "             mul_add mul_sub mul sqr add sub cnd_add cnd_sub)\n"
        "  -s LIST    word-primitive sizes in limbs (default 1-10,100)\n"
        "  -t SEC     seconds of timed work per cell over all rounds (default 0.2)\n"
        "  -r N       rounds (default 7); figures are medians over rounds\n"
        "  -u UNIT    cyc (est. core cycles, x86_64), tsc (TSC ticks) or ns\n"
        "  --mhz F    without a TSC: report cycles as ns x F/1000\n"
        "  --csv      machine-readable CSV on stdout\n"
        "  --json     machine-readable JSON on stdout\n"
        "  -v         more tables (per call, throughput for words)\n"
        "  -q         no progress line on stderr\n"
        "  --ref NAME ratios to column NAME in the rows that have it (e.g.\n"
        "             --ref x86_64-avx2 poly1305: the API's cost over that asm)\n"
        "Cells run round-robin within a row; every implementation is checked\n"
        "against the C reference before it is timed (exit 3 on mismatch).\n");
    exit(code);
}

static const char *need(int argc, char **argv, int *i)
{
    if (*i + 1 >= argc)
        usage(2);
    return argv[++*i];
}

static void parse(sp_opts *o, int argc, char **argv)
{
    int i;
    size_t k;

    memset(o, 0, sizeof(*o));
    o->seconds = 0.2;
    o->rounds = 7;
    o->unit = sp_have_tsc() ? SP_U_CYC : SP_U_NS;
    o->nsizes = sp_parse_sizes("1-10,100", o->sizes, SP_MAXROW);
    for (i = 1; i < argc; i++) {
        const char *a = argv[i];

        if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0)
            usage(0);
        else if (strcmp(a, "-s") == 0) {
            o->nsizes = sp_parse_sizes(need(argc, argv, &i), o->sizes, SP_MAXROW);
            if (o->nsizes <= 0)
                sp_die("bad size list '%s' (e.g. 1-10,100; at most %d sizes)",
                       argv[i], SP_MAXROW);
            for (k = 0; k < (size_t)o->nsizes; k++)
                if (o->sizes[k] > ASMCRYPT_BN_MAX_WORDS)
                    sp_die("size %ld above %d limbs", o->sizes[k], ASMCRYPT_BN_MAX_WORDS);
        } else if (strcmp(a, "-t") == 0) {
            o->seconds = atof(need(argc, argv, &i));
            if (o->seconds <= 0)
                sp_die("bad -t value '%s'", argv[i]);
        } else if (strcmp(a, "-r") == 0) {
            o->rounds = atoi(need(argc, argv, &i));
            if (o->rounds < 1 || o->rounds > 101)
                sp_die("-r wants 1..101");
        } else if (strcmp(a, "-u") == 0) {
            const char *u = need(argc, argv, &i);

            if (strcmp(u, "cyc") == 0)
                o->unit = SP_U_CYC;
            else if (strcmp(u, "tsc") == 0)
                o->unit = SP_U_TSC;
            else if (strcmp(u, "ns") == 0)
                o->unit = SP_U_NS;
            else
                sp_die("unknown unit '%s' (cyc, tsc, ns)", u);
        } else if (strcmp(a, "--mhz") == 0) {
            o->mhz = atof(need(argc, argv, &i));
            if (o->mhz <= 0)
                sp_die("bad --mhz value");
            if (!sp_have_tsc())
                o->unit = SP_U_CYC;
        } else if (strcmp(a, "--csv") == 0)
            o->format = SP_CSV;
        else if (strcmp(a, "--json") == 0)
            o->format = SP_JSON;
        else if (strcmp(a, "-v") == 0)
            o->verbose = 1;
        else if (strcmp(a, "-q") == 0)
            o->quiet = 1;
        else if (strcmp(a, "--ref") == 0)
            o->ref_name = need(argc, argv, &i);
        else if (a[0] == '-')
            usage(2);
        else {
            for (k = 0; k < sizeof(selectors) / sizeof(selectors[0]); k++)
                if (strcmp(a, selectors[k]) == 0)
                    break;
            if (k == sizeof(selectors) / sizeof(selectors[0]))
                sp_die("unknown primitive '%s' (try --help)", a);
            if (o->nselect == (int)(sizeof(o->select) / sizeof(o->select[0])))
                sp_die("too many selectors");
            o->select[o->nselect++] = a;
        }
    }
    if (o->unit == SP_U_CYC && !sp_have_tsc() && o->mhz <= 0)
        o->unit = SP_U_NS;
}

int main(int argc, char **argv)
{
    sp_opts o;

    asmcrypt_cpucap_init();
    sp_timer_init();
    parse(&o, argc, argv);
    sp_report_begin(&o);
    sp_bench(&o);
    sp_report_end(&o);
    return 0;
}
