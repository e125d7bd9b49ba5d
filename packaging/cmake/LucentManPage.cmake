# @brief Script (cmake -P) that writes the man page lucent(1): `lucent --help` verbatim as the
# synopsis, so the two cannot drift apart, then the sections of assets/man/lucent-sections.roff.
# Needs LUCENT_EXE, VERSION, DATE, SUMMARY, SECTIONS and OUTPUT (-D before -P).
execute_process(COMMAND ${LUCENT_EXE} --help OUTPUT_VARIABLE help RESULT_VARIABLE rc)
if(NOT rc EQUAL 0 OR help STREQUAL "")
  message(FATAL_ERROR "${LUCENT_EXE} --help failed (${rc}): cannot write the man page")
endif()
# "usage: " opens the first line and the others are indented under it: drop both so the synopsis
# starts at the margin and keeps its own alignment.
string(REGEX REPLACE "^usage: " "" help "${help}")
string(REGEX REPLACE "\n       " "\n" help "${help}")
# roff: a backslash is an escape, a leading dot or quote a request, and '-' a hyphen, not a minus.
string(REPLACE "\\" "\\e" help "${help}")
string(REPLACE "-" "\\-" help "${help}")
string(REGEX REPLACE "(^|\n)([.'])" "\\1\\\\&\\2" help "${help}")
file(READ ${SECTIONS} sections)
file(WRITE ${OUTPUT}
  ".\\\" Generated from `lucent --help` and assets/man/lucent-sections.roff; edit those, not this.\n"
  ".TH LUCENT 1 \"${DATE}\" \"lucent ${VERSION}\" \"User Commands\"\n"
  ".SH NAME\nlucent \\- ${SUMMARY}\n"
  ".SH SYNOPSIS\n.nf\n${help}.fi\n"
  "${sections}")
