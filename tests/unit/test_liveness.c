#include "check.h"
static void placeholder(void) { CHECK(1); }
UT_SUITE(UT_CASE(placeholder));
