/* single_digit.h - techniques of the single-digit plugin defined in xchain.c. */
#ifndef SINGLE_DIGIT_H
#define SINGLE_DIGIT_H
#include "sudoku/technique.h"
extern const sdk_technique sd_turbot_fish, sd_x_chain;
#endif
