/* no_symbol.c - a shared object that is not a sudokud plugin (no
 * sudoku_techniques symbol): the loader must refuse it. */
__attribute__((visibility("default"))) int not_a_plugin(void)
{
    return 42;
}
