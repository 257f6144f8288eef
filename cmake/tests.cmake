# Tests, oracles and fuzz targets (included by CMakeLists.txt when OTV_TESTS is on).
# ---- tests ----
enable_testing()
set(OTV_TEST_ENV "OTV_FONTS=${CMAKE_CURRENT_SOURCE_DIR}/tests/fonts;OTV_ROOT=${CMAKE_CURRENT_SOURCE_DIR};OTVAR=$<TARGET_FILE:otvar_cli>;OTV_FONT_CACHE=${CMAKE_CURRENT_BINARY_DIR}/fonts-cache")

file(GLOB OTV_UNIT_TESTS CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/tests/unit/test_*.c)
foreach(t ${OTV_UNIT_TESTS})
  get_filename_component(n ${t} NAME_WE)
  add_executable(${n} ${t})
  target_include_directories(${n} PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}/src ${CMAKE_CURRENT_SOURCE_DIR}/tests/unit)
  target_compile_options(${n} PRIVATE ${OTV_TEST_WARNINGS} -D_POSIX_C_SOURCE=200809L)
  target_link_libraries(${n} PRIVATE otvar)
  if(n STREQUAL "test_threads")
    target_link_libraries(${n} PRIVATE Threads::Threads)
  endif()
  add_test(NAME unit/${n} COMMAND ${n})
  set_tests_properties(unit/${n} PROPERTIES ENVIRONMENT "${OTV_TEST_ENV}" LABELS unit)
endforeach()

# the layers of docs/architecture.md: no include or call cycle among the library's files, every
# dependency downward (reads the sources and, with nm, the library's object files)
find_program(OTV_NM nm)
find_program(OTV_PYTHON3 NAMES python3)
if(OTV_NM AND OTV_PYTHON3)
  add_test(NAME unit/layers COMMAND ${OTV_PYTHON3} ${CMAKE_CURRENT_SOURCE_DIR}/scripts/check-layers.py
                                    ${CMAKE_CURRENT_BINARY_DIR})
  set_tests_properties(unit/layers PROPERTIES LABELS unit)
endif()
# the house style (.clang-format), as clang-format 14 applies it (skipped without it)
add_test(NAME unit/format COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/scripts/check-format.sh
                                  ${CMAKE_CURRENT_SOURCE_DIR})
set_tests_properties(unit/format PROPERTIES LABELS unit SKIP_RETURN_CODE 77)

if(OTV_ORACLE)
  if(NOT HB_FOUND OR NOT FT_FOUND)
    message(FATAL_ERROR "OTV_ORACLE needs libharfbuzz-dev and libfreetype-dev (or -DOTV_ORACLE=OFF)")
  endif()
  file(GLOB OTV_ORACLE_TESTS CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/tests/oracle/test_*.c)
  file(GLOB OTV_ORACLE_LIB CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/tests/oracle/oracle_*.c)
  foreach(t ${OTV_ORACLE_TESTS})
    get_filename_component(n ${t} NAME_WE)
    add_executable(${n} ${t} ${OTV_ORACLE_LIB})
    target_include_directories(${n} PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}/src ${CMAKE_CURRENT_SOURCE_DIR}/tests/unit ${CMAKE_CURRENT_SOURCE_DIR}/tests/oracle)
    target_compile_options(${n} PRIVATE ${OTV_TEST_WARNINGS} -D_POSIX_C_SOURCE=200809L)
    target_link_libraries(${n} PRIVATE otvar PkgConfig::HB PkgConfig::FT m)
    add_test(NAME oracle/${n} COMMAND ${n})
    set_tests_properties(oracle/${n} PROPERTIES ENVIRONMENT "${OTV_TEST_ENV}" LABELS oracle)
  endforeach()
endif()

find_program(OTV_DEBIAN_PYTHON NAMES python3 PATHS /usr/bin NO_DEFAULT_PATH)
file(GLOB OTV_PY_TESTS CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/tests/oracle/test_*.py)
foreach(t ${OTV_PY_TESTS})
  get_filename_component(n ${t} NAME_WE)
  add_test(NAME fonttools/${n} COMMAND ${OTV_DEBIAN_PYTHON} ${t})
  set_tests_properties(fonttools/${n} PROPERTIES ENVIRONMENT "${OTV_TEST_ENV}" LABELS oracle
                       SKIP_RETURN_CODE 77)
endforeach()

file(GLOB OTV_CLI_TESTS CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/tests/cli/test_*.sh)
foreach(t ${OTV_CLI_TESTS})
  get_filename_component(n ${t} NAME_WE)
  add_test(NAME cli/${n} COMMAND bash ${t})
  set_tests_properties(cli/${n} PROPERTIES ENVIRONMENT "${OTV_TEST_ENV}" LABELS cli)
endforeach()

# ---- fuzz targets: libFuzzer builds (clang) and replay of regressions in every build ----
file(GLOB OTV_FUZZ_TARGETS CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/fuzz/fuzz_*.c)
foreach(t ${OTV_FUZZ_TARGETS})
  get_filename_component(n ${t} NAME_WE)
  string(REGEX REPLACE "^fuzz_" "" short ${n})
  # fuzz_woff drives the CLI's decoder (tools/util_woff.c): only where zlib and Brotli link
  set(extra_src "")
  set(extra_libs "")
  if(short STREQUAL "woff")
    if(NOT OTV_WOFF_LIBS)
      continue()
    endif()
    set(extra_src ${CMAKE_CURRENT_SOURCE_DIR}/tools/util_woff.c ${CMAKE_CURRENT_SOURCE_DIR}/tools/util_woff_enc.c)
    set(extra_libs ${OTV_WOFF_LIBS})
  endif()
  # fuzz_cli runs the subcommands in process: every CLI source but main, and what they link
  # (where zlib and Brotli link, which also tells an i386 build with amd64 .pc files apart)
  if(short STREQUAL "cli")
    if(NOT OTV_WOFF_LIBS)
      continue()
    endif()
    set(extra_src ${OTV_CMD_SRC} ${OTV_TOOL_LIB_SRC})
    set(extra_libs ${OTV_WOFF_LIBS} Threads::Threads)
    if(PNG_FOUND)
      list(APPEND extra_libs PkgConfig::PNG)
    endif()
  endif()
  # fuzz_designspace drives the CLI's designspace reader (tools/designspace.c): where expat links
  if(short STREQUAL "designspace")
    if(NOT (EXPAT_FOUND AND OTV_EXPAT_LINKS))
      continue()
    endif()
    set(extra_src ${CMAKE_CURRENT_SOURCE_DIR}/tools/designspace.c)
    set(extra_libs PkgConfig::EXPAT)
  endif()
  add_executable(replay_${short} ${t} ${CMAKE_CURRENT_SOURCE_DIR}/fuzz/replay.c ${extra_src})
  target_include_directories(replay_${short} PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}/src ${CMAKE_CURRENT_SOURCE_DIR}/fuzz ${CMAKE_CURRENT_SOURCE_DIR}/tools)
  target_compile_options(replay_${short} PRIVATE ${OTV_TEST_WARNINGS} -D_POSIX_C_SOURCE=200809L)
  target_compile_definitions(replay_${short} PRIVATE $<$<BOOL:${extra_libs}>:OTV_HAVE_ZLIB=1 OTV_HAVE_BROTLI=1 OTV_HAVE_BROTLI_ENC=1>)
  target_link_libraries(replay_${short} PRIVATE otvar ${extra_libs})
  if(short STREQUAL "cli")
    target_include_directories(replay_${short} PRIVATE ${CMAKE_CURRENT_BINARY_DIR}/generated)
    target_compile_definitions(replay_${short} PRIVATE _DEFAULT_SOURCE $<$<BOOL:${PNG_FOUND}>:OTV_HAVE_PNG=1>)
  endif()
  # the seed corpora are replayed too where they hold chosen cases (fuzz_cli's argument
  # choices, the hostile layout seeds of fuzz_instance and fuzz_layout)
  set(extra_inputs "")
  if(short STREQUAL "cli" OR short STREQUAL "instance" OR short STREQUAL "layout")
    set(extra_inputs ${CMAKE_CURRENT_SOURCE_DIR}/fuzz/corpus/${short})
  endif()
  add_test(NAME fuzz-replay/${short}
           COMMAND replay_${short} ${CMAKE_CURRENT_SOURCE_DIR}/fuzz/regressions/${short} ${CMAKE_CURRENT_SOURCE_DIR}/tests/fonts ${CMAKE_CURRENT_SOURCE_DIR}/fonts ${extra_inputs})
  set_tests_properties(fuzz-replay/${short} PROPERTIES ENVIRONMENT "${OTV_TEST_ENV}" LABELS fuzz)
  if(OTV_FUZZ)
    add_executable(${n} ${t} ${extra_src})
    target_include_directories(${n} PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}/src ${CMAKE_CURRENT_SOURCE_DIR}/fuzz ${CMAKE_CURRENT_SOURCE_DIR}/tools)
    target_compile_definitions(${n} PRIVATE $<$<BOOL:${extra_libs}>:OTV_HAVE_ZLIB=1 OTV_HAVE_BROTLI=1 OTV_HAVE_BROTLI_ENC=1>)
    target_link_options(${n} PRIVATE -fsanitize=fuzzer)
    target_link_libraries(${n} PRIVATE otvar ${extra_libs})
    if(short STREQUAL "cli")
      target_include_directories(${n} PRIVATE ${CMAKE_CURRENT_BINARY_DIR}/generated)
      target_compile_definitions(${n} PRIVATE _DEFAULT_SOURCE $<$<BOOL:${PNG_FOUND}>:OTV_HAVE_PNG=1>)
    endif()
  endif()
endforeach()


# ---- the WebAssembly page (web/, tests/web/): its runner builds the module and drives the page
# in headless Chromium; it says SKIP (exit 77) without clang's wasm32-wasi target or Chromium ----
add_test(NAME web/wasm COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/tests/web/run.sh ${CMAKE_CURRENT_BINARY_DIR}/wasm)
set_tests_properties(web/wasm PROPERTIES ENVIRONMENT "${OTV_TEST_ENV}" LABELS web SKIP_RETURN_CODE 77)

# ---- the Python package (python/, tests/python/): pytest against fontTools and the CLI, and an
# offline pip install; SKIP (exit 77) without pytest. A sanitizer build's library is loaded with
# its runtimes preloaded (run.sh) ----
add_test(NAME python/pytest COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/tests/python/run.sh)
set_tests_properties(python/pytest PROPERTIES
  ENVIRONMENT "${OTV_TEST_ENV};OTVAR_LIBRARY=$<TARGET_FILE:otvar_shared>;OTVAR_WOFF_LIBRARY=$<TARGET_FILE:otvar_woff>"
  LABELS python SKIP_RETURN_CODE 77)

# ---- the HTML specimen (otvar specimen --html, tests/web/specimen_html.sh): the page, and
# screenshots of it in headless Chromium (those checks say SKIP without chromium) ----
add_test(NAME web/specimen_html COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/tests/web/specimen_html.sh)
set_tests_properties(web/specimen_html PROPERTIES ENVIRONMENT "${OTV_TEST_ENV}" LABELS web)
