# embed.cmake - turn a text file into a C string constant (the HTML report's
# script and style live in their own files and are compiled into sudoctl, so
# the page needs no network and no installed data).
#   cmake -DIN=file -DOUT=file.c -DNAME=symbol -P embed.cmake
file(READ ${IN} content HEX)
string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," bytes "${content}")
file(WRITE ${OUT} "/* generated from ${IN} by embed.cmake */\n"
  "const char ${NAME}[] = {${bytes}0x00};\n")
