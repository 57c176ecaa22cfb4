#ifndef NEONSYNC_CHIREDIS_SHIM_H
#define NEONSYNC_CHIREDIS_SHIM_H
#include <hiredis/hiredis.h>

/* errstr is a char[128], which imports as a tuple: hand Swift a pointer. */
static inline const char *neon_redis_errstr(const redisContext *c) { return c->errstr; }

/* The reply types are macros. */
static inline int neon_redis_reply_string(void) { return REDIS_REPLY_STRING; }
static inline int neon_redis_reply_array(void) { return REDIS_REPLY_ARRAY; }
static inline int neon_redis_reply_integer(void) { return REDIS_REPLY_INTEGER; }
static inline int neon_redis_reply_nil(void) { return REDIS_REPLY_NIL; }
static inline int neon_redis_reply_status(void) { return REDIS_REPLY_STATUS; }
static inline int neon_redis_reply_error(void) { return REDIS_REPLY_ERROR; }

#endif
