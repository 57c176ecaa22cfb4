#ifndef NEON_CCRYPTO_SHIM_H
#define NEON_CCRYPTO_SHIM_H

#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>

/* HMAC-SHA256 of data under key into out (32 bytes); 1 on success. */
static inline int neon_hmac_sha256(const void *key, int key_len, const unsigned char *data, size_t data_len,
                                   unsigned char out[32]) {
    unsigned int len = 32;
    return HMAC(EVP_sha256(), key, key_len, data, data_len, out, &len) != NULL && len == 32;
}

#endif
