# `pecheck validate --exec` under what real commands and machines do (issue
# 14): a command that leaves a background child, one that hangs on its first
# call, Ctrl-C and SIGTERM, a bad TMPDIR, an `exit 130`, a real signal, a
# quoted "{output}", and the `lines` protocol (started once, progress lines
# on stderr when it is not a terminal).
#
#   cmake -DPECHECK=... -DPYTHON=... -DEXAMPLES=... -DWORK_DIR=... -P validate_exec_reliability.cmake
set(good "${PYTHON} ${EXAMPLES}/numpy_tables.py vaswani {rows} {dim} {offset} {dtype} {output}")
set(faulty "${PYTHON} ${EXAMPLES}/faulty_encoding.py")
set(one --check encoding-bounds/unit-interval --cases 2)
set(failures "")
file(REMOVE_RECURSE ${WORK_DIR})
file(MAKE_DIRECTORY ${WORK_DIR})

# pecheck validate --exec COMMAND ARGS...: the status must be `expected`, and
# stdout and stderr together must contain `needle`.
function(expect label expected needle command)
  string(TIMESTAMP started "%s")
  execute_process(COMMAND ${CMAKE_COMMAND} -E env RC_PARAMS=noshrink=1 ${PECHECK} validate --exec "${command}"
                          --convention vaswani ${ARGN}
                  RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err)
  string(TIMESTAMP ended "%s")
  math(EXPR seconds "${ended} - ${started}")
  if(NOT status EQUAL expected)
    set(failures "${failures}\n  ${label}: exit status ${status} (expected ${expected})\n${out}${err}" PARENT_SCOPE)
  elseif(NOT needle STREQUAL "")
    string(FIND "${out}${err}" "${needle}" at)
    if(at EQUAL -1)
      set(failures "${failures}\n  ${label}: the output lacks '${needle}':\n${out}${err}" PARENT_SCOPE)
    endif()
  endif()
  set(last_out "${out}" PARENT_SCOPE)
  set(last_err "${err}" PARENT_SCOPE)
  set(last_seconds "${seconds}" PARENT_SCOPE)
endfunction()

function(expect_absent label text needle)
  string(FIND "${text}" "${needle}" at)
  if(NOT at EQUAL -1)
    set(failures "${failures}\n  ${label}: the output holds '${needle}':\n${text}" PARENT_SCOPE)
  endif()
endfunction()

# Whether the process whose id is in `file` is gone (kill -0 fails).
function(expect_gone label file)
  if(NOT EXISTS ${file})
    set(failures "${failures}\n  ${label}: ${file} was never written" PARENT_SCOPE)
    return()
  endif()
  file(READ ${file} pid)
  string(STRIP "${pid}" pid)
  # SIGKILL lands asynchronously and an orphan is reaped by init: alive means
  # still there, and not a zombie, after 2 s.
  execute_process(COMMAND sh -c "for i in $(seq 20); do kill -0 ${pid} 2>/dev/null || exit 1
                                 [ \"$(cut -d' ' -f3 /proc/${pid}/stat 2>/dev/null)\" = Z ] && exit 1; sleep 0.1; done"
                  RESULT_VARIABLE alive)
  if(alive EQUAL 0)
    execute_process(COMMAND sh -c "kill -9 ${pid}")
    set(failures "${failures}\n  ${label}: process ${pid} outlived pecheck" PARENT_SCOPE)
  endif()
endfunction()

# A background child holding the output pipe: the call ends when the shell
# exits, and the child is killed with its group (it used to "time out").
expect(background-child 0 "conforms: 1 check"
       "${good}; sleep 300 & echo $! > ${WORK_DIR}/background.pid" ${one} --timeout 20)
if(last_seconds GREATER 15)
  set(failures "${failures}\n  background-child: took ${last_seconds} s (each call waited for its child)")
endif()
expect_gone(background-child ${WORK_DIR}/background.pid)

# A hang on the first call is a broken command: stopped after one call.
file(WRITE ${WORK_DIR}/calls "")
expect(first-call-hang 2 "failed on its first call" "echo call >> ${WORK_DIR}/calls; exec ${faulty} hang {rows} {dim} {offset} {dtype} {output}"
       ${one} --timeout 0.5)
string(FIND "${last_err}" "did not finish within 500 ms" at)
if(at EQUAL -1)
  set(failures "${failures}\n  first-call-hang: no 'did not finish within 500 ms':\n${last_err}")
endif()
file(STRINGS ${WORK_DIR}/calls calls)
list(LENGTH calls count)
if(NOT count EQUAL 1)
  set(failures "${failures}\n  first-call-hang: the command ran ${count} times (expected once)")
endif()
# A hang after good calls stops the run too (issue 29): exit 2 naming the call.
file(REMOVE ${WORK_DIR}/called)
expect(later-hang 2 "did not finish within 5000 ms"
       "if [ -e ${WORK_DIR}/called ]; then exec sleep 3600; fi; touch ${WORK_DIR}/called; ${good}" ${one} --timeout 5)

# Exit statuses as they are: `exit 130` is a status, a signal is a signal.
expect(exit-130 2 "exited with status 130" "exit 130; : {rows} {dim} {offset} {output}" ${one})
expect_absent(exit-130 "${last_err}" "was killed by signal")
expect(real-signal 2 "was killed by signal 9" "kill -9 $$; : {rows} {dim} {offset} {output}" ${one})

# A TMPDIR pecheck cannot use is exit 2 naming TMPDIR, before any call.
file(WRITE ${WORK_DIR}/calls "")
execute_process(COMMAND ${CMAKE_COMMAND} -E env TMPDIR=${WORK_DIR}/no-such-directory
                        ${PECHECK} validate --exec "echo call >> ${WORK_DIR}/calls; ${good}" --convention vaswani ${one}
                RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err)
string(FIND "${err}" "TMPDIR=${WORK_DIR}/no-such-directory" at)
file(READ ${WORK_DIR}/calls calls)
if(NOT status EQUAL 2 OR at EQUAL -1 OR NOT calls STREQUAL "")
  set(failures "${failures}\n  bad-tmpdir: exit ${status}, calls '${calls}' (expected 2, none, TMPDIR named):\n${out}${err}")
endif()

# Placeholders are replaced shell-quoted; one written inside its own quotes
# loses them instead of reaching the command as a path with quotes in it.
expect(double-quoted-output 0 "conforms"
       "${PYTHON} ${EXAMPLES}/numpy_tables.py vaswani {rows} {dim} {offset} {dtype} \"{output}\"" ${one})
expect(single-quoted-output 0 "conforms"
       "${PYTHON} ${EXAMPLES}/numpy_tables.py vaswani '{rows}' {dim} {offset} {dtype} '{output}'" ${one})

# Ctrl-C and SIGTERM: the command's group is killed, the temporary directory
# removed, and pecheck dies of the signal (status 128 + N).
foreach(signal IN ITEMS INT TERM)
  file(REMOVE_RECURSE ${WORK_DIR}/tmp-${signal})
  file(MAKE_DIRECTORY ${WORK_DIR}/tmp-${signal})
  set(pid_file ${WORK_DIR}/sleeper-${signal}.pid)
  file(REMOVE ${pid_file})
  set(template "sleep 300 & echo $! > ${pid_file}; wait; : {rows} {dim} {offset} {output}")
  execute_process(
    # env --default-signal: sh starts a background job with SIGINT ignored,
    # which pecheck keeps ignoring, as a background job should.
    COMMAND sh -c "TMPDIR='${WORK_DIR}/tmp-${signal}' env --default-signal=INT '${PECHECK}' validate --exec '${template}' --convention vaswani \
                   --check encoding-bounds/unit-interval --cases 2 --timeout 100 2>'${WORK_DIR}/err-${signal}' & pecheck=$!
                   for i in $(seq 100); do [ -s '${pid_file}' ] && break; sleep 0.1; done
                   kill -${signal} $pecheck; wait $pecheck; echo $?"
    OUTPUT_VARIABLE status OUTPUT_STRIP_TRAILING_WHITESPACE)
  if(signal STREQUAL INT)
    set(expected 130)
  else()
    set(expected 143)
  endif()
  file(READ ${WORK_DIR}/err-${signal} err)
  if(NOT status STREQUAL expected)
    set(failures "${failures}\n  SIG${signal}: pecheck's status ${status} (expected ${expected}):\n${err}")
  endif()
  expect_gone(SIG${signal} ${pid_file})
  file(GLOB left ${WORK_DIR}/tmp-${signal}/*)
  if(NOT left STREQUAL "")
    set(failures "${failures}\n  SIG${signal}: temporary directories left behind: ${left}")
  endif()
endforeach()

# The lines protocol: the command starts once and answers every request;
# progress goes to stderr, one line per check, though stderr is a file here.
set(serve "${PYTHON} ${EXAMPLES}/numpy_tables.py --serve vaswani")
file(WRITE ${WORK_DIR}/starts "")
expect(lines 0 "conforms: 2 checks" "echo start >> ${WORK_DIR}/starts; exec ${serve}" --exec-protocol lines
       --check encoding-bounds/unit-interval --check conformance/any-position --cases 3 --exec-dtype float32
       --exec-dtype bfloat16)
file(STRINGS ${WORK_DIR}/starts starts)
list(LENGTH starts count)
if(NOT count EQUAL 1)
  set(failures "${failures}\n  lines: the command started ${count} times (expected once)")
endif()
foreach(needle IN ITEMS "[1/2] encoding-bounds/unit-interval: held" "[2/2] conformance/any-position: held")
  string(FIND "${last_err}" "${needle}" at)
  if(at EQUAL -1)
    set(failures "${failures}\n  lines: stderr lacks the progress line '${needle}':\n${last_err}")
  endif()
endforeach()
expect(lines-exits 2 "exited with status 0 instead of answering" "true" --exec-protocol lines ${one})
expect(lines-chatter 2 "broke the protocol: it printed 'hello'" "echo hello; cat > /dev/null" --exec-protocol lines
       ${one})
expect(lines-error 2 "answered error no GPU here" "while read line; do echo 'error no GPU here'; done"
       --exec-protocol lines ${one})
expect(lines-hang 2 "did not answer within 500 ms" "exec sleep 3600" --exec-protocol lines ${one} --timeout 0.5)
expect(lines-placeholder 2 "holds {rows}: with --exec-protocol lines" "${good}" --exec-protocol lines ${one})
expect(lines-deviates 1 "failed" "exec ${serve} --angles float32" --exec-protocol lines
       --check conformance/any-position --cases 3)

if(NOT failures STREQUAL "")
  message(FATAL_ERROR "pecheck validate --exec reliability:${failures}")
endif()
