/* fuzz/fuzz_poly1305.c - libFuzzer/AFL++ target: fuzz/check_poly1305.c at every level. */
#include "check_poly1305.c"
#define FZ_CHECK fz_check_poly1305
#include "fuzz_driver.h"
