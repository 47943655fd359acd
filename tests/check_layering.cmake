# The front ends' layering, as ARCHITECTURE.md draws it (issue 23): the desk's views and its
# window reach the fabric only through the session, and none of them assembles a commit plan.
# Run as `cmake -DSOURCE_DIR=... -P check_layering.cmake`; fails naming each file and what it does.
file(GLOB live_headers RELATIVE "${SOURCE_DIR}/core/live" "${SOURCE_DIR}/core/live/*.h")
list(APPEND live_headers LiveRead.h)  # the session's own window on weft_live
file(GLOB_RECURSE front_ends "${SOURCE_DIR}/views/*.h" "${SOURCE_DIR}/views/*.cpp" "${SOURCE_DIR}/app/gui/*.h"
     "${SOURCE_DIR}/app/gui/*.cpp" "${SOURCE_DIR}/app/serve/*.h" "${SOURCE_DIR}/app/serve/*.cpp")
set(problems "")
foreach(file IN LISTS front_ends)
    file(READ "${file}" text)
    file(RELATIVE_PATH name "${SOURCE_DIR}" "${file}")
    foreach(header IN LISTS live_headers)
        string(FIND "${text}" "#include \"${header}\"" at)
        if(NOT at EQUAL -1)
            string(APPEND problems "  ${name} includes ${header} (core/live: the session's to use)\n")
        endif()
    endforeach()
    foreach(call IN ITEMS "CommitPlan " "buildCommitPlan(" "planCommitChange(" "planReconfiguration(" "commitPlan(")
        string(FIND "${text}" "${call}" at)
        if(NOT at EQUAL -1)
            string(APPEND problems "  ${name} assembles or counts a plan (${call}): the session's to do\n")
        endif()
    endforeach()
endforeach()
if(problems)
    message(FATAL_ERROR "front ends out of their layer:\n${problems}")
endif()
list(LENGTH front_ends count)
message(STATUS "${count} front-end files: none includes core/live, none assembles a plan")
