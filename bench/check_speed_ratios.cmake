# check_speed_ratios.cmake - runs `speed_ratios --divide 256` and checks that
# it succeeds and prints the four rows, each with a ratio and the count of
# pairs it is the median of, and the load.
execute_process(COMMAND ${SPEED_RATIOS} --divide 256
                RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "speed_ratios failed (${status}):\n${out}\n${err}")
endif()
set(number "[0-9]+\\.[0-9][0-9]")
foreach(row "4 MiB in 4 KiB, none" "1024 x 256 B, none" "65536 x 64 B, none, packed")
  if(NOT out MATCHES "\\| ${row} \\| ${number} s, ${number} GB/s, ${number} M desc/s, [0-9]+ MiB \\| ${number} s, ${number} GB/s, ${number} M desc/s \\| ${number} \\([1-9][0-9]* pairs?\\) \\|")
    message(FATAL_ERROR "no row '${row}' with figures and a ratio in:\n${out}")
  endif()
endforeach()
if(NOT out MATCHES "\\| 4 MiB checked in 4 KiB vs memory floor \\| ${number} s, [0-9]+ MiB \\| ${number} s, [0-9]+ MiB \\| ${number} x floor \\([1-9][0-9]* pairs?\\) \\|")
  message(FATAL_ERROR "no memory-floor row in:\n${out}")
endif()
if(NOT out MATCHES "load average [0-9]")
  message(FATAL_ERROR "no load average in:\n${out}")
endif()
