# The pecheck command line outside validate: bad usage exits 2 with one line
# on stderr that names the command, flag or value; help states defaults and
# cites files that exist; counts of one read in the singular.
#
#   cmake -DPECHECK=... -DSOURCE_DIR=... -DWORK_DIR=... -P cli_usage.cmake
file(REMOVE_RECURSE ${WORK_DIR})
file(MAKE_DIRECTORY ${WORK_DIR})
set(failures "")

include(${CMAKE_CURRENT_LIST_DIR}/expect_refused.cmake)

expect_refused("unknown command" "unknown command 'frob'; commands: conventions, table, check" frob)
expect_refused("unknown command with flags" "unknown command 'valdiate'" valdiate pe.npy --json)
set(table table --convention vaswani --dim 8 --output ${WORK_DIR}/pe.npy)
expect_refused("table --rows 0" "--rows: expected a whole number >= 1, got '0'" ${table} --rows 0)
expect_refused("table --rows -3" "--rows" ${table} --rows -3)
expect_refused("table --dim 0" "--dim" table --convention vaswani --rows 4 --dim 0 --output ${WORK_DIR}/pe.npy)
expect_refused("table --offset -1" "--offset" ${table} --rows 4 --offset -1)
if(EXISTS ${WORK_DIR}/pe.npy)
  set(failures "${failures}\n  a refused table command wrote its file")
endif()
expect_refused("check --seed -1" "--seed: expected a seed" check encoding-bounds/unit-interval --seed -1)
expect_refused("report --seed -1" "--seed: expected a seed" report --quick --seed -1 --output-dir ${WORK_DIR}/r)
expect_refused("check --list with an id" "--list" check --list encoding-bounds/unit-interval)
expect_refused("check --list --seed" "--seed" check --list --seed 3)
expect_refused("bench --threads 0" "--threads: expected a whole number >= 1, got '0'" bench --threads 0)
expect_refused("bench --repetitions -2" "--repetitions" bench --repetitions -2)

# Help states the defaults and cites files that exist.
execute_process(COMMAND ${PECHECK} table --help OUTPUT_VARIABLE help)
if(NOT help MATCHES "--impl[^\n]*fast[^\n]*reference[^\n]*\\[?=?fast\\]?")
  set(failures "${failures}\n  table --help does not show --impl's default (fast):\n${help}")
endif()
foreach(command IN ITEMS validate table check report bench)
  execute_process(COMMAND ${PECHECK} ${command} --help OUTPUT_VARIABLE help)
  string(REGEX MATCHALL "[a-z_]+/[a-z_/]+\\.(hpp|cpp|json)" cited "${help}")
  foreach(path IN LISTS cited)
    if(NOT EXISTS ${SOURCE_DIR}/${path})
      set(failures "${failures}\n  ${command} --help cites ${path}, which does not exist")
    endif()
  endforeach()
endforeach()

# A count of one is singular: a one-row table.
execute_process(COMMAND ${PECHECK} table --convention vaswani --rows 1 --dim 8 --output ${WORK_DIR}/one.npy)
execute_process(COMMAND ${PECHECK} validate ${WORK_DIR}/one.npy OUTPUT_VARIABLE text ERROR_VARIABLE err)
if(NOT text MATCHES "table: 1 row x 8 columns" OR text MATCHES "[^0-9]1 (rows|entries|checks|cases)[^a-z]")
  set(failures "${failures}\n  a one-row table is not described in the singular:\n${text}${err}")
endif()
execute_process(COMMAND ${PECHECK} check encoding-bounds/unit-interval OUTPUT_VARIABLE text)
if(text MATCHES "[^0-9]1 cases")
  set(failures "${failures}\n  check prints '1 cases':\n${text}")
endif()

if(NOT failures STREQUAL "")
  message(FATAL_ERROR "pecheck command line:${failures}")
endif()
