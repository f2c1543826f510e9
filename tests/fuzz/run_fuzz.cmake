# A short libFuzzer run for ctest: a fresh working corpus, the seeds next to it,
# a time limit and a fixed -seed. Fails if the fuzzer reports anything (crash,
# leak, timeout, sanitizer report, failed property); the input that did it is
# left in WORK/artifacts.
#   cmake -DFUZZER=... -DWORK=... [-DSEEDS=...] [-DDICT=...] -DSECONDS=... -DRANDOM_SEED=... -P run_fuzz.cmake
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK}/corpus ${WORK}/artifacts)
set(args -max_total_time=${SECONDS} -seed=${RANDOM_SEED} -timeout=20 -rss_limit_mb=2048
         -max_len=16384 -print_final_stats=1 -artifact_prefix=${WORK}/artifacts/)
if(DICT)
  list(APPEND args -dict=${DICT})
endif()
list(APPEND args ${WORK}/corpus)
if(SEEDS)
  list(APPEND args ${SEEDS})
endif()
execute_process(COMMAND ${FUZZER} ${args} RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  file(GLOB found ${WORK}/artifacts/*)
  message(FATAL_ERROR "fuzzer exited with ${rc}; reproduce with: ${FUZZER} ${found}")
endif()
