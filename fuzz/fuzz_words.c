/* fuzz/fuzz_words.c - libFuzzer/AFL++ target: fuzz/check_words.c at every level. */
#include "check_words.c"
#define FZ_CHECK fz_check_words
#include "fuzz_driver.h"
