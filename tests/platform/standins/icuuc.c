/* A stand-in for Windows' icuuc.dll (ICU's converters, part of Windows 10 1903 and later), which Wine 8.0
 * lacks and Qt6Core.dll imports. Built only into the Wine test prefix (make test-windows), never shipped:
 * it offers no converter, so Qt uses its own UTF-8/UTF-16/Latin-1 codecs, as it does for every text
 * blindchess reads or writes. */
#include <stddef.h>
#include <stdint.h>

#define EXPORT __declspec(dllexport)
enum { U_FILE_ACCESS_ERROR = 4 };

EXPORT void *ucnv_open(const char *name, int *status) { (void)name; if (status) *status = U_FILE_ACCESS_ERROR; return NULL; }
EXPORT void ucnv_close(void *converter) { (void)converter; }
EXPORT void ucnv_reset(void *converter) { (void)converter; }
EXPORT int32_t ucnv_countAvailable(void) { return 0; }
EXPORT const char *ucnv_getAvailableName(int32_t n) { (void)n; return NULL; }
EXPORT const char *ucnv_getStandardName(const char *name, const char *standard, int *status)
{ (void)name; (void)standard; if (status) *status = U_FILE_ACCESS_ERROR; return NULL; }
EXPORT const char *ucnv_getName(const void *converter, int *status) { (void)converter; if (status) *status = U_FILE_ACCESS_ERROR; return NULL; }
EXPORT int8_t ucnv_getMaxCharSize(const void *converter) { (void)converter; return 1; }
EXPORT void ucnv_getToUCallBack(const void *c, void **action, const void **context) { (void)c; if (action) *action = NULL; if (context) *context = NULL; }
EXPORT void ucnv_getFromUCallBack(const void *c, void **action, const void **context) { (void)c; if (action) *action = NULL; if (context) *context = NULL; }
EXPORT void ucnv_setToUCallBack(void *c, void *a, const void *x, void **oa, const void **ox, int *status)
{ (void)c; (void)a; (void)x; (void)oa; (void)ox; if (status) *status = U_FILE_ACCESS_ERROR; }
EXPORT void ucnv_setFromUCallBack(void *c, void *a, const void *x, void **oa, const void **ox, int *status)
{ (void)c; (void)a; (void)x; (void)oa; (void)ox; if (status) *status = U_FILE_ACCESS_ERROR; }
EXPORT void ucnv_cbToUWriteUChars(void *args, const void *source, int32_t length, int32_t offset, int *status)
{ (void)args; (void)source; (void)length; (void)offset; if (status) *status = U_FILE_ACCESS_ERROR; }
EXPORT void ucnv_cbFromUWriteUChars(void *args, const void **source, const void *limit, int32_t offset, int *status)
{ (void)args; (void)source; (void)limit; (void)offset; if (status) *status = U_FILE_ACCESS_ERROR; }
EXPORT void ucnv_toUnicode(void *c, void **t, const void *tl, const char **s, const char *sl, int32_t *o, int8_t f, int *status)
{ (void)c; (void)t; (void)tl; (void)s; (void)sl; (void)o; (void)f; if (status) *status = U_FILE_ACCESS_ERROR; }
EXPORT void ucnv_fromUnicode(void *c, char **t, const char *tl, const void **s, const void *sl, int32_t *o, int8_t f, int *status)
{ (void)c; (void)t; (void)tl; (void)s; (void)sl; (void)o; (void)f; if (status) *status = U_FILE_ACCESS_ERROR; }
EXPORT int32_t ucnv_toUCountPending(const void *c, int *status) { (void)c; if (status) *status = U_FILE_ACCESS_ERROR; return 0; }
EXPORT int32_t ucnv_fromUCountPending(const void *c, int *status) { (void)c; if (status) *status = U_FILE_ACCESS_ERROR; return 0; }
EXPORT void UCNV_FROM_U_CALLBACK_SUBSTITUTE(void) { }
EXPORT void UCNV_TO_U_CALLBACK_SUBSTITUTE(void) { }
