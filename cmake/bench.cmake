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
