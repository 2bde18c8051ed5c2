/* sudoku/export.h - what libsudoku exports.
 *
 * libsudoku is built with -fvisibility=hidden: a function is part of the
 * library's ABI only when its declaration says SDK_API. The documented SDK
 * (the installed headers) carries it; internal modules (lib/internal/) do
 * not, so `nm -D` of libsudoku.so lists exactly the documented API
 * (tests/abi/exports.txt, checked by a test).
 */
#ifndef SUDOKU_EXPORT_H
#define SUDOKU_EXPORT_H

#define SDK_API __attribute__((visibility("default")))

#endif
