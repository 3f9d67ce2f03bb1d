"""A bot program for the tests: ``teebot.py FOLDER COMMAND …`` runs the bot program COMMAND and
passes every line between blot and it, writing each into FOLDER/<its process id>.log as well:
``> `` and the line blot sent, ``< `` and the program's answer."""

import os
import subprocess
import sys
from pathlib import Path


def main(folder: str, command: list[str]) -> None:
    log = (Path(folder) / f"{os.getpid()}.log").open("w", encoding="utf-8")
    bot = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    assert bot.stdin is not None and bot.stdout is not None
    for line in sys.stdin:
        log.write("> " + line)
        bot.stdin.write(line)
        bot.stdin.flush()
        if line.startswith(('{"type":"hello"', '{"type":"act"')):  # blot writes compact JSON
            answer = bot.stdout.readline()
            log.write("< " + answer)
            sys.stdout.write(answer)
            sys.stdout.flush()
        log.flush()
    bot.stdin.close()
    bot.wait()


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2:])
