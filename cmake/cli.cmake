# The otvar command (included by CMakeLists.txt when OTV_CLI is on).
# ---- CLI: the command table is generated from tools/cmd_*.c ----
file(GLOB OTV_CMD_SRC CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/tools/cmd_*.c)
list(SORT OTV_CMD_SRC)
set(OTV_CMD_LIST "")
foreach(f ${OTV_CMD_SRC})
  get_filename_component(n ${f} NAME_WE)
  string(REGEX REPLACE "^cmd_" "" n ${n})
  string(APPEND OTV_CMD_LIST "OTV_CMD(${n})\n")
endforeach()
file(CONFIGURE OUTPUT ${CMAKE_CURRENT_BINARY_DIR}/generated/otv_cmds.h CONTENT "${OTV_CMD_LIST}")
file(GLOB OTV_TOOL_LIB_SRC CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/tools/util_*.c)
add_executable(otvar_cli ${CMAKE_CURRENT_SOURCE_DIR}/tools/otvar.c ${OTV_CMD_SRC} ${OTV_TOOL_LIB_SRC})
set_target_properties(otvar_cli PROPERTIES OUTPUT_NAME otvar)
target_include_directories(otvar_cli PRIVATE ${CMAKE_CURRENT_BINARY_DIR}/generated ${CMAKE_CURRENT_SOURCE_DIR}/tools ${CMAKE_CURRENT_SOURCE_DIR}/src)
target_compile_options(otvar_cli PRIVATE ${OTV_WARNINGS} -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE)
target_link_libraries(otvar_cli PRIVATE otvar)
if(PNG_FOUND)
  target_link_libraries(otvar_cli PRIVATE PkgConfig::PNG)
  target_compile_definitions(otvar_cli PRIVATE OTV_HAVE_PNG=1)
endif()
# fuzz_woff needs zlib and Brotli (both halves); checked by linking, since an i386 build finds
# the amd64 .pc files
set(OTV_WOFF_LIBS "")
if(ZLIB_FOUND AND BROTLIDEC_FOUND AND BROTLIENC_FOUND)
  include(CheckCSourceCompiles)
  set(CMAKE_REQUIRED_INCLUDES ${ZLIB_INCLUDE_DIRS} ${BROTLIDEC_INCLUDE_DIRS})
  set(CMAKE_REQUIRED_LIBRARIES ${ZLIB_LINK_LIBRARIES} ${BROTLIDEC_LINK_LIBRARIES} ${BROTLIENC_LINK_LIBRARIES})
  check_c_source_compiles("#include <brotli/decode.h>
#include <brotli/encode.h>
#include <zlib.h>
int main(void) { return (int)BrotliDecoderVersion() + (int)BrotliEncoderVersion() + zlibVersion()[0]; }" OTV_WOFF_LINKS)
  unset(CMAKE_REQUIRED_LIBRARIES)
  unset(CMAKE_REQUIRED_INCLUDES)
  if(OTV_WOFF_LINKS)
    set(OTV_WOFF_LIBS PkgConfig::ZLIB PkgConfig::BROTLIDEC PkgConfig::BROTLIENC)
  endif()
endif()
# the WOFF codecs found (CMakeLists.txt: the same set as libotvar_woff's)
target_link_libraries(otvar_cli PRIVATE ${OTV_WOFF_CODECS})
target_compile_definitions(otvar_cli PRIVATE ${OTV_WOFF_DEFS})
find_package(Threads)
if(Threads_FOUND)
  target_link_libraries(otvar_cli PRIVATE Threads::Threads)
endif()
# text shaping for render/specimen/shape (tools/util_shape.c): HarfBuzz, and FriBidi for
# mixed-direction lines; CLI only (the library stays libc + libm). Without HarfBuzz the CLI lays
# out through cmap (and says so); without FriBidi a line is one run in its first strong direction.
option(OTV_WITH_HARFBUZZ "Shape text in the CLI with HarfBuzz (and FriBidi when found)" ON)
if(OTV_WITH_HARFBUZZ AND PKG_CONFIG_FOUND)
  pkg_check_modules(FRIBIDI IMPORTED_TARGET fribidi)
  # checked by linking, as the WOFF codecs are (an i386 build finds the amd64 .pc files)
  if(HB_FOUND)
    include(CheckCSourceCompiles)
    set(CMAKE_REQUIRED_INCLUDES ${HB_INCLUDE_DIRS})
    set(CMAKE_REQUIRED_LIBRARIES ${HB_LINK_LIBRARIES})
    check_c_source_compiles("#include <hb.h>
int main(void) { return (int)hb_version_atleast(1, 0, 0) - 1; }" OTV_HB_LINKS)
    unset(CMAKE_REQUIRED_LIBRARIES)
    unset(CMAKE_REQUIRED_INCLUDES)
  endif()
  if(HB_FOUND AND OTV_HB_LINKS)
    # on Linux HarfBuzz is opened at first use (tools/hb_dl.h): commands that do not shape skip
    # loading it and glib, graphite2, FreeType and PCRE2, a third of the CLI's start-up
    if(CMAKE_SYSTEM_NAME STREQUAL "Linux")
      set(OTV_HB_DLOPEN_DEFAULT ON)
    else()
      set(OTV_HB_DLOPEN_DEFAULT OFF)
    endif()
    option(OTV_HB_DLOPEN "Open HarfBuzz (libharfbuzz.so.0) at first use instead of linking it"
           ${OTV_HB_DLOPEN_DEFAULT})
    if(OTV_HB_DLOPEN)
      target_include_directories(otvar_cli PRIVATE ${HB_INCLUDE_DIRS})
      target_link_libraries(otvar_cli PRIVATE ${CMAKE_DL_LIBS})
      target_compile_definitions(otvar_cli PRIVATE OTV_HB_DLOPEN=1)
    else()
      target_link_libraries(otvar_cli PRIVATE PkgConfig::HB)
    endif()
    target_compile_definitions(otvar_cli PRIVATE OTV_HAVE_HARFBUZZ=1)
    if(FRIBIDI_FOUND)
      target_link_libraries(otvar_cli PRIVATE PkgConfig::FRIBIDI)
      target_compile_definitions(otvar_cli PRIVATE OTV_HAVE_FRIBIDI=1)
    endif()
  endif()
endif()
# the sample texts of specimens, per script (fonts/samples.txt, found like Karla by cli_data_file)
if(OTV_CLI)
  install(FILES ${CMAKE_CURRENT_SOURCE_DIR}/fonts/samples.txt DESTINATION ${CMAKE_INSTALL_DATADIR}/otvar)
endif()
# `otvar build` reads designspace documents with expat (scripts/deps.sh: libexpat1-dev); without
# it the command says so at run time. Checked by linking, as HarfBuzz is (an i386 build finds
# the amd64 .pc files).
if(PKG_CONFIG_FOUND)
  pkg_check_modules(EXPAT IMPORTED_TARGET expat)
endif()
if(EXPAT_FOUND)
  include(CheckCSourceCompiles)
  set(CMAKE_REQUIRED_INCLUDES ${EXPAT_INCLUDE_DIRS})
  set(CMAKE_REQUIRED_LIBRARIES ${EXPAT_LINK_LIBRARIES})
  check_c_source_compiles("#include <expat.h>
int main(void) { XML_Parser p = XML_ParserCreate(0); XML_ParserFree(p); return 0; }" OTV_EXPAT_LINKS)
  unset(CMAKE_REQUIRED_LIBRARIES)
  unset(CMAKE_REQUIRED_INCLUDES)
endif()
if(EXPAT_FOUND AND OTV_EXPAT_LINKS)
  target_sources(otvar_cli PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}/tools/designspace.c)
  target_link_libraries(otvar_cli PRIVATE PkgConfig::EXPAT)
  target_compile_definitions(otvar_cli PRIVATE OTV_HAVE_EXPAT=1)
endif()
# Start-up (docs/build.md "Start-up"): the CLI's own dependencies (libpng, zlib, Brotli, FriBidi,
# expat) linked from their static archives (Debian's lib*-dev ship them) when all of a
# dependency's archives are found and the result links: each shared library costs the dynamic
# loader an open, mmaps, relocations and symbol look-ups at every command's start. glibc (libc,
# libm, libdl) stays dynamic, HarfBuzz stays opened at first use (tools/hb_dl.h); the installable
# libraries (libotvar, libotvar_woff) are not affected. The linker flags (-O1, --as-needed,
# --hash-style=gnu) and -fno-plt (the CLI's own objects only) shorten the rest. Not with HarfBuzz
# linked (OTV_HB_DLOPEN off): its FreeType would load the shared libpng, zlib and Brotli anyway.
option(OTV_CLI_STATIC_DEPS "Link the otvar command's dependencies from their static archives" ON)
set(otv_hb_linked OFF)
if(HB_FOUND AND OTV_HB_LINKS AND NOT OTV_HB_DLOPEN)
  set(otv_hb_linked ON)
endif()
if(OTV_CLI_STATIC_DEPS AND CMAKE_SYSTEM_NAME STREQUAL "Linux" AND NOT otv_hb_linked)
  get_target_property(otv_cli_libs otvar_cli LINK_LIBRARIES)
  # archive names per imported target; the shared pieces (brotlicommon, zlib) go last, once
  set(otv_static_PNG png16)
  set(otv_static_ZLIB z)
  set(otv_static_BROTLIDEC brotlidec)
  set(otv_static_BROTLIENC brotlienc)
  set(otv_static_FRIBIDI fribidi)
  set(otv_static_EXPAT expat)
  set(otv_static_tail "")
  set(otv_new_libs "")
  set(otv_static_ok ON)
  foreach(lib ${otv_cli_libs})
    string(REGEX REPLACE "^PkgConfig::" "" dep "${lib}")
    if(NOT lib MATCHES "^PkgConfig::" OR NOT DEFINED otv_static_${dep})
      list(APPEND otv_new_libs ${lib})
      continue()
    endif()
    set(names ${otv_static_${dep}})
    target_include_directories(otvar_cli PRIVATE ${${dep}_INCLUDE_DIRS}) # the target's, kept
    if(dep STREQUAL "PNG")
      list(APPEND otv_static_tail z)
    elseif(dep MATCHES "^BROTLI")
      list(APPEND otv_static_tail brotlicommon)
    endif()
    foreach(n ${names})
      find_library(OTV_STATIC_${n} NAMES lib${n}.a HINTS ${${dep}_LIBRARY_DIRS} NO_CACHE)
      if(NOT OTV_STATIC_${n})
        set(otv_static_ok OFF)
      endif()
      list(APPEND otv_new_libs ${OTV_STATIC_${n}})
    endforeach()
  endforeach()
  list(REMOVE_DUPLICATES otv_static_tail)
  list(REMOVE_ITEM otv_static_tail z)
  foreach(n ${otv_static_tail} z) # zlib last: libpng's archive needs it
    if(NOT n STREQUAL "z" OR (PNG_FOUND OR ZLIB_FOUND))
      find_library(OTV_STATIC_${n} NAMES lib${n}.a NO_CACHE)
      if(NOT OTV_STATIC_${n})
        set(otv_static_ok OFF)
      endif()
      list(APPEND otv_new_libs ${OTV_STATIC_${n}})
    endif()
  endforeach()
  list(APPEND otv_new_libs m)
  if(otv_static_ok)
    # checked by linking, as the shared ones are (an i386 build finds the amd64 archives)
    include(CheckCSourceCompiles)
    set(CMAKE_REQUIRED_LIBRARIES ${otv_new_libs})
    list(FILTER CMAKE_REQUIRED_LIBRARIES EXCLUDE REGEX "^(otvar|Threads::Threads)$")
    check_c_source_compiles("int main(void) { return 0; }" OTV_CLI_STATIC_LINKS)
    unset(CMAKE_REQUIRED_LIBRARIES)
    if(OTV_CLI_STATIC_LINKS)
      set_property(TARGET otvar_cli PROPERTY LINK_LIBRARIES ${otv_new_libs})
    endif()
  endif()
  if(NOT CMAKE_VERSION VERSION_LESS 3.18) # CheckLinkerFlag
    include(CheckLinkerFlag)
    check_linker_flag(C "-Wl,-O1,--as-needed,--hash-style=gnu" OTV_CLI_LDFLAGS_OK)
  endif()
  if(OTV_CLI_LDFLAGS_OK)
    target_link_options(otvar_cli PRIVATE "-Wl,-O1,--as-needed,--hash-style=gnu")
  endif()
  target_compile_options(otvar_cli PRIVATE -fno-plt)
  # The whole command static, glibc included (-static-pie): no dynamic loader at start (no
  # libc/libm to map, relocate and look symbols up in: docs/build.md "Start-up"). Release builds
  # only, and only when the static dependencies above linked: sanitizers cannot link statically
  # and valgrind cannot replace malloc in a static program (scripts/test.sh's RelWithDebInfo
  # build). HarfBuzz stays opened at first use: dlopen from a static glibc program works when
  # the run time's glibc is the one linked (Debian's), checked by running such a program here.
  if(CMAKE_BUILD_TYPE STREQUAL "Release" AND NOT OTV_SANITIZE AND NOT OTV_TSAN AND NOT OTV_FUZZ
     AND NOT CMAKE_C_FLAGS MATCHES "-fsanitize")
    set(OTV_CLI_STATIC_DEFAULT ON)
  else()
    set(OTV_CLI_STATIC_DEFAULT OFF)
  endif()
  option(OTV_CLI_STATIC "Link the otvar command fully static (-static-pie; Release builds)"
         ${OTV_CLI_STATIC_DEFAULT})
  if(OTV_CLI_STATIC AND OTV_CLI_STATIC_LINKS AND NOT CMAKE_CROSSCOMPILING
     AND NOT CMAKE_VERSION VERSION_LESS 3.14) # CMAKE_REQUIRED_LINK_OPTIONS
    include(CheckCSourceRuns)
    set(CMAKE_REQUIRED_LIBRARIES ${otv_new_libs} ${CMAKE_DL_LIBS})
    list(FILTER CMAKE_REQUIRED_LIBRARIES EXCLUDE REGEX "^(otvar|Threads::Threads)$")
    set(CMAKE_REQUIRED_LINK_OPTIONS -static-pie)
    if(OTV_HB_DLOPEN AND HB_FOUND AND OTV_HB_LINKS)
      check_c_source_runs("#include <dlfcn.h>
int main(void) {
  void *h = dlopen(\"libharfbuzz.so.0\", RTLD_NOW | RTLD_LOCAL);
  void *(*create)(void) = h ? (void *(*)(void))dlsym(h, \"hb_buffer_create\") : 0;
  void (*destroy)(void *) = h ? (void (*)(void *))dlsym(h, \"hb_buffer_destroy\") : 0;
  if (!create || !destroy) return 1;
  destroy(create());
  return 0;
}" OTV_CLI_STATIC_RUNS)
    else()
      check_c_source_runs("int main(void) { return 0; }" OTV_CLI_STATIC_RUNS)
    endif()
    unset(CMAKE_REQUIRED_LINK_OPTIONS)
    unset(CMAKE_REQUIRED_LIBRARIES)
    if(OTV_CLI_STATIC_RUNS)
      target_link_options(otvar_cli PRIVATE -static-pie)
      target_compile_definitions(otvar_cli PRIVATE OTV_CLI_STATIC_BINARY=1)
    endif()
  endif()
endif()
