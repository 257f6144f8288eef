# Benchmarks (included by CMakeLists.txt when OTV_BENCH is on).
# ---- benchmarks ----
if(OTV_BENCH AND HB_FOUND AND FT_FOUND)
  file(GLOB OTV_BENCHES CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/bench/bench_*.c)
  foreach(b ${OTV_BENCHES})
    get_filename_component(n ${b} NAME_WE)
    add_executable(${n} ${b})
    target_include_directories(${n} PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}/src ${CMAKE_CURRENT_SOURCE_DIR}/bench)
    target_compile_options(${n} PRIVATE ${OTV_TEST_WARNINGS} -D_POSIX_C_SOURCE=200809L)
    target_link_libraries(${n} PRIVATE otvar PkgConfig::HB PkgConfig::FT m)
  endforeach()
endif()
# The floor under a build command (bench/floor_build.c, for bench/bench_build.py): linked as the
# otvar command is (the same sources of its helpers, libraries and link options, -static-pie
# in Release builds), so that only the building differs.
if(OTV_BENCH AND TARGET otvar_cli)
  add_executable(floor_build ${CMAKE_CURRENT_SOURCE_DIR}/bench/floor_build.c ${OTV_TOOL_LIB_SRC})
  foreach(p INCLUDE_DIRECTORIES COMPILE_DEFINITIONS COMPILE_OPTIONS LINK_LIBRARIES LINK_OPTIONS)
    get_target_property(v otvar_cli ${p})
    if(v)
      set_property(TARGET floor_build PROPERTY ${p} "${v}")
    endif()
  endforeach()
endif()
