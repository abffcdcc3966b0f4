/*
 * crypto/err.c - asmcrypt_strerror().
 */
#include "asmcrypt/err.h"

const char *asmcrypt_strerror(int code)
{
    switch (code) {
    case ASMCRYPT_OK:     return "ok";
    case ASMCRYPT_ENULL:  return "required pointer is NULL";
    case ASMCRYPT_ESIZE:  return "size out of range";
    case ASMCRYPT_EEVEN:  return "modulus is even";
    case ASMCRYPT_ERANGE: return "operand not below the modulus, wrong n0, or refused overlap";
    case ASMCRYPT_ESTATE: return "context not initialised";
    default:              return "unknown error";
    }
}
