"""sudokud - a Python client of the sudokud Sudoku rule engine.

    from sudokud import Client
    with Client() as c:                       # the socket sudoctl would use
        print(c.rate("4...3.......6..8...")["er"])
        for r in c.rate(open("top1465.txt")):  # pipelined, in input order
            print(r["puzzle"], r["er"])

See client.py and the README's "Python" section.
"""

from .client import SYSTEM_SOCKET, Client, PuzzleError, SudokudError, default_socket

__all__ = ["Client", "SudokudError", "PuzzleError", "default_socket", "SYSTEM_SOCKET"]
__version__ = "0.1.0"
