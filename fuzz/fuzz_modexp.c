/* fuzz/fuzz_modexp.c - libFuzzer/AFL++ target: fuzz/check_modexp.c at every level. */
#include "check_modexp.c"
#define FZ_CHECK fz_check_modexp
#include "fuzz_driver.h"
