/* tests/unit/test_pipeline.c — (in progress). */
#include "check.h"
#include "util.h"

static void placeholder(void)
{
    CHECK(1);
}

UT_SUITE(UT_CASE(placeholder));
