# install_configured.cmake - install files that name installed paths (the
# systemd units, the man pages), filled in at install time: `cmake --install
# build --prefix ~/x` then writes ~/x/bin/sudokud into the units, not the
# prefix the build was configured with. Run by install(CODE) with
#   SUDOKU_CONFIGURED: "source|destination-folder|name;..." (destination
#                      relative to the prefix)
#   SUDOKU_STAGE:      a folder of the build tree to fill them in
#   SUDOKU_DIRS:       "VAR=relative-or-absolute-dir;..." (GNUInstallDirs)
#   PROJECT_VERSION
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
  if(IS_ABSOLUTE "${dest}")
    set(where "$ENV{DESTDIR}${dest}")
  else()
    set(where "$ENV{DESTDIR}${CMAKE_INSTALL_PREFIX}/${dest}")
  endif()
  file(INSTALL "${staged}" DESTINATION "${where}")
endforeach()
