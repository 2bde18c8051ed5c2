# install_configured.cmake - install files that name installed paths (the
# systemd units, the man pages), filled in at install time: `cmake --install
# build --prefix ~/x` then writes ~/x/bin/sudokud into the units, not the
# prefix the build was configured with. Run by install(CODE) with
#   SUDOKU_CONFIGURED: "source|destination-folder|name;..." (destination
#                      relative to the prefix)
#   SUDOKU_STAGE:      a folder of the build tree to fill them in
#   SUDOKU_DIRS:       "VAR=relative-or-absolute-dir;..." (GNUInstallDirs)
#   PROJECT_VERSION
#   SUDOKU_GZIP_MAN:   man pages gzipped (Debian packages)
foreach(d ${SUDOKU_DIRS})
  string(REPLACE "=" ";" kv "${d}")
  list(GET kv 0 var)
  list(GET kv 1 dir)
  if(IS_ABSOLUTE "${dir}")
    set(CMAKE_INSTALL_FULL_${var} "${dir}")
  else()
    set(CMAKE_INSTALL_FULL_${var} "${CMAKE_INSTALL_PREFIX}/${dir}")
  endif()
endforeach()
foreach(entry ${SUDOKU_CONFIGURED})
  string(REPLACE "|" ";" parts "${entry}")
  list(GET parts 0 src)
  list(GET parts 1 dest)
  list(GET parts 2 name)
  set(staged "${SUDOKU_STAGE}/${dest}/${name}")
  configure_file("${src}" "${staged}" @ONLY)
  # file(INSTALL) adds $DESTDIR itself (cpack and staged installs set it)
  if(IS_ABSOLUTE "${dest}")
    set(where "${dest}")
  else()
    set(where "${CMAKE_INSTALL_PREFIX}/${dest}")
  endif()
  # Debian packages carry man pages gzipped (SUDOKU_DEB); other installs plain
  if(SUDOKU_GZIP_MAN AND dest MATCHES "man/man[0-9]$")
    # as Debian wants them: best compression, no name or timestamp (gzip -9n)
    execute_process(COMMAND gzip -9n -c "${staged}" OUTPUT_FILE "${staged}.gz"
                    RESULT_VARIABLE rc)
    if(NOT rc EQUAL 0)
      message(FATAL_ERROR "gzip -9n ${staged} failed: ${rc}")
    endif()
    set(staged "${staged}.gz")
  endif()
  file(INSTALL "${staged}" DESTINATION "${where}")
endforeach()
