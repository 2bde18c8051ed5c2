# package.cmake - Debian packages with CPack (`cpack -G DEB` in a build tree
# configured by packaging/build-debs.sh: prefix /usr, config in /etc, no
# RPATH, units in /lib/systemd). Five packages, one per install component:
#
#   sudokud          runtime   the daemon, sudoctl, sudoctl-parallel, the config,
#                              systemd units, docs
#   libsudokuN       lib       the SDK's shared library (N: its SOVERSION)
#   sudokud-plugins  plugins   the technique plugins
#   libsudoku-dev    dev       the SDK headers, libsudoku.so, sudoku.pc (plugin authors)
#   python3-sudokud  python    the Python client module
#
# Dependencies are written out (dpkg-shlibdeps cannot see a library built in
# the same run); packaging/smoke-test.sh installs them, runs them from the
# installed paths and removes them.
set(SUDOKU_DEB_RELEASE 1 CACHE STRING "Debian revision of the packages")
set(SUDOKU_DEB_MAINTAINER "sudokud developers <sudokud-dev@example.org>" CACHE STRING
  "Maintainer field of the packages")
set(deb_version "${PROJECT_VERSION}-${SUDOKU_DEB_RELEASE}")
# the library package is named after the soname: libsudoku.so.2 -> libsudoku2
get_target_property(sdk_soversion sudoku_sdk SOVERSION)
set(lib_package libsudoku${sdk_soversion})

# Every package carries /usr/share/doc/<package>/{copyright,changelog.Debian.gz}.
set(deb_packages sudokud:runtime ${lib_package}:lib sudokud-plugins:plugins libsudoku-dev:dev
  python3-sudokud:python)
string(TIMESTAMP deb_date "%a, %d %b %Y %H:%M:%S +0000" UTC)
set(deb_doc ${CMAKE_BINARY_DIR}/deb-doc)
foreach(pc ${deb_packages})
  string(REPLACE ":" ";" pc ${pc})
  list(GET pc 0 pkg)
  list(GET pc 1 comp)
  file(MAKE_DIRECTORY ${deb_doc}/${pkg})
  configure_file(${CMAKE_CURRENT_LIST_DIR}/copyright ${deb_doc}/${pkg}/copyright COPYONLY)
  file(WRITE ${deb_doc}/${pkg}/changelog.Debian
    "${pkg} (${deb_version}) unstable; urgency=medium\n\n"
    "  * Built with CPack from the sudokud source tree (packaging/).\n\n"
    " -- ${SUDOKU_DEB_MAINTAINER}  ${deb_date}\n")
  execute_process(COMMAND gzip -9nf ${deb_doc}/${pkg}/changelog.Debian)
  if(SUDOKU_DEB)
    install(FILES ${deb_doc}/${pkg}/copyright ${deb_doc}/${pkg}/changelog.Debian.gz
      DESTINATION ${CMAKE_INSTALL_DATAROOTDIR}/doc/${pkg} COMPONENT ${comp})
  endif()
endforeach()

set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME sudokud)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_CONTACT "${SUDOKU_DEB_MAINTAINER}")
set(CPACK_DEBIAN_PACKAGE_MAINTAINER "${SUDOKU_DEB_MAINTAINER}")
set(CPACK_DEBIAN_PACKAGE_RELEASE ${SUDOKU_DEB_RELEASE})
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEB_COMPONENT_INSTALL ON)
set(CPACK_COMPONENTS_ALL runtime lib plugins dev python)
set(CPACK_STRIP_FILES ON)
set(CPACK_SET_DESTDIR ON) # /etc/sudokud is an absolute destination
set(CPACK_DEBIAN_PACKAGE_CONTROL_STRICT_PERMISSION ON)
# a shlibs file for the library package (plugins have no soname: CPack says
# so and skips them)
set(CPACK_DEBIAN_PACKAGE_GENERATE_SHLIBS ON)
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "Sudoku rule engine")

set(libc "libc6 (>= 2.34)")
set(CPACK_DEBIAN_RUNTIME_PACKAGE_NAME sudokud)
set(CPACK_DEBIAN_RUNTIME_PACKAGE_SECTION misc)
# sudokud and sudoctl link the library statically; the plugins need the SDK's
set(CPACK_DEBIAN_RUNTIME_PACKAGE_DEPENDS
  "sudokud-plugins (= ${deb_version}), ${libc}, libuv1 (>= 1.44), libmsgpackc2 (>= 4.0)")
set(CPACK_DEBIAN_RUNTIME_PACKAGE_RECOMMENDS "parallel") # sudoctl-parallel
set(CPACK_DEBIAN_RUNTIME_PACKAGE_CONTROL_EXTRA ${CMAKE_CURRENT_LIST_DIR}/sudokud/conffiles)
set(CPACK_COMPONENT_RUNTIME_DESCRIPTION "Sudoku rule engine: daemon and client
 sudokud loads deduction techniques as plugins and answers solve, rate,
 explain, hint and trace requests over a Unix socket (MessagePack-RPC);
 sudoctl is its command-line client. Ratings on the Sudoku Explainer scale,
 explanations step by step in HoDoKu notation.")

set(CPACK_DEBIAN_LIB_PACKAGE_NAME ${lib_package})
set(CPACK_DEBIAN_LIB_PACKAGE_SECTION libs)
set(CPACK_DEBIAN_LIB_PACKAGE_DEPENDS "${libc}")
# ldconfig by trigger; these (empty) maintainer scripts keep CPack from
# writing ones that call ldconfig
set(CPACK_DEBIAN_LIB_PACKAGE_CONTROL_EXTRA ${CMAKE_CURRENT_LIST_DIR}/lib/triggers
  ${CMAKE_CURRENT_LIST_DIR}/lib/postinst ${CMAKE_CURRENT_LIST_DIR}/lib/postrm)
set(CPACK_COMPONENT_LIB_DESCRIPTION "Sudoku rule engine: plugin SDK library
 libsudoku is what technique plugins link: the grid model, the step record,
 technique options, and the ALS, fish and link enumerators.")

set(CPACK_DEBIAN_PLUGINS_PACKAGE_NAME sudokud-plugins)
set(CPACK_DEBIAN_PLUGINS_PACKAGE_SECTION misc)
set(CPACK_DEBIAN_PLUGINS_PACKAGE_DEPENDS "${lib_package} (= ${deb_version}), ${libc}")
set(CPACK_COMPONENT_PLUGINS_DESCRIPTION "Sudoku rule engine: technique plugins
 The deduction techniques sudokud loads: singles, intersections, subsets,
 fish, single-digit patterns, colouring, wings, uniqueness, ALS, chains,
 forcing chains and nets, Sudoku Explainer's chaining family, templates and
 bifurcation.")

set(CPACK_DEBIAN_DEV_PACKAGE_NAME libsudoku-dev)
set(CPACK_DEBIAN_DEV_PACKAGE_SECTION libdevel)
set(CPACK_DEBIAN_DEV_PACKAGE_DEPENDS "${lib_package} (= ${deb_version})")
set(CPACK_COMPONENT_DEV_DESCRIPTION "Sudoku rule engine: plugin SDK
 Headers, the libsudoku.so link and sudoku.pc, for technique plugins built
 out of tree (docs/PLUGINS.md).")

set(CPACK_DEBIAN_PYTHON_PACKAGE_NAME python3-sudokud)
set(CPACK_DEBIAN_PYTHON_PACKAGE_SECTION python)
set(CPACK_DEBIAN_PYTHON_PACKAGE_ARCHITECTURE all)
set(CPACK_DEBIAN_PYTHON_PACKAGE_DEPENDS "python3, python3-msgpack")
set(CPACK_DEBIAN_PYTHON_PACKAGE_CONTROL_EXTRA ${CMAKE_CURRENT_LIST_DIR}/python3-sudokud/postinst
  ${CMAKE_CURRENT_LIST_DIR}/python3-sudokud/prerm)
set(CPACK_COMPONENT_PYTHON_DESCRIPTION "Sudoku rule engine: Python client
 A client module for sudokud: solve, rate, explain and hint single puzzles
 or pipelined batches in input order, with errors as exceptions.")

include(CPack)
