# Install rules (included by CMakeLists.txt): the libraries (shared with soname libotvar.so.MAJOR,
# static), the headers, otvar.pc, the CMake package (find_package(otvar)), the CLI with its data
# (the label font, found relative to the binary) and the manual pages.
include(CMakePackageConfigHelpers)
install(TARGETS otvar otvar_shared otvar_woff EXPORT otvarTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
        RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(FILES ${CMAKE_CURRENT_SOURCE_DIR}/include/otvar.h ${CMAKE_CURRENT_SOURCE_DIR}/include/otvar_woff.h
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(EXPORT otvarTargets NAMESPACE otvar:: DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/otvar)
configure_package_config_file(${CMAKE_CURRENT_SOURCE_DIR}/cmake/otvarConfig.cmake.in
                              ${CMAKE_CURRENT_BINARY_DIR}/otvarConfig.cmake
                              INSTALL_DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/otvar)
write_basic_package_version_file(${CMAKE_CURRENT_BINARY_DIR}/otvarConfigVersion.cmake
                                 VERSION ${PROJECT_VERSION} COMPATIBILITY SameMajorVersion)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/otvarConfig.cmake
              ${CMAKE_CURRENT_BINARY_DIR}/otvarConfigVersion.cmake
        DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/otvar)
# pkg-config: absolute or prefix-relative install directories both work
if(IS_ABSOLUTE "${CMAKE_INSTALL_LIBDIR}")
  set(OTV_PC_LIBDIR "${CMAKE_INSTALL_LIBDIR}")
else()
  set(OTV_PC_LIBDIR "\${exec_prefix}/${CMAKE_INSTALL_LIBDIR}")
endif()
if(IS_ABSOLUTE "${CMAKE_INSTALL_INCLUDEDIR}")
  set(OTV_PC_INCLUDEDIR "${CMAKE_INSTALL_INCLUDEDIR}")
else()
  set(OTV_PC_INCLUDEDIR "\${prefix}/${CMAKE_INSTALL_INCLUDEDIR}")
endif()
configure_file(${CMAKE_CURRENT_SOURCE_DIR}/cmake/otvar.pc.in ${CMAKE_CURRENT_BINARY_DIR}/otvar.pc @ONLY)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/otvar.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
if(OTV_CLI)
  install(TARGETS otvar_cli RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
  install(FILES ${CMAKE_CURRENT_SOURCE_DIR}/fonts/Karla-VF.ttf ${CMAKE_CURRENT_SOURCE_DIR}/fonts/OFL.txt
          DESTINATION ${CMAKE_INSTALL_DATADIR}/otvar)
  install(FILES ${CMAKE_CURRENT_SOURCE_DIR}/man/otvar.1 DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
endif()
install(FILES ${CMAKE_CURRENT_SOURCE_DIR}/man/otvar.3 DESTINATION ${CMAKE_INSTALL_MANDIR}/man3)
