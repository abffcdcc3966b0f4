/* fuzz/fuzz_mont.c - libFuzzer/AFL++ target: fuzz/check_mont.c at every level. */
#include "check_mont.c"
#define FZ_CHECK fz_check_mont
#include "fuzz_driver.h"
