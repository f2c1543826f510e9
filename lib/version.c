/* lib/version.c — the version of the library that is actually loaded. */
#include <waveasm/waveasm.h>

const char *wa_version_string(void)
{
    return WA_VERSION_STRING;
}

unsigned wa_version_number(void)
{
    return WA_VERSION_NUMBER;
}
