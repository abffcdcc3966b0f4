/*
 * asmcrypt/err.h - error codes shared by every asmcrypt_* function.
 *
 * Every library function returns 0 on success or one of these negative
 * codes.  On error no byte of any output (result, carry word, tag,
 * context) is written.  Which code each function returns for which
 * argument, and in which order the checks run, is in asmcrypt/bn.h and
 * asmcrypt/poly1305.h; test/test_badinput.c checks every row of it.
 */
#ifndef ASMCRYPT_ERR_H
#define ASMCRYPT_ERR_H

#define ASMCRYPT_OK       0
#define ASMCRYPT_ENULL   (-1)  /* a required pointer is NULL                  */
#define ASMCRYPT_ESIZE   (-2)  /* num/ewords < 1 (or < 0) or above the maximum */
#define ASMCRYPT_EEVEN   (-3)  /* modulus is even (Montgomery needs it odd)    */
#define ASMCRYPT_ERANGE  (-4)  /* operand not below the modulus; also a wrong
                                  n0 and an output overlapping an input in a
                                  way the function refuses (asmcrypt/bn.h) */
#define ASMCRYPT_ESTATE  (-5)  /* context not initialised or already final     */

#ifdef __cplusplus
extern "C" {
#endif

/* Short English description of an ASMCRYPT_E* code ("ok" for 0). */
const char *asmcrypt_strerror(int code);

#ifdef __cplusplus
}
#endif

#endif
