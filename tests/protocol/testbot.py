"""A bot program for the tests: ``testbot.py MODE [N]`` plays at random; from its N-th decision
(default 1) on, ``crash`` exits, ``hang`` stops answering, ``garbage`` writes a line that is no
JSON, ``illegal`` answers an action not offered, ``wrong-id`` answers another decision's id.
``talk`` writes to stdout before the hello, ``stderr`` writes to its standard error at every
decision, ``spew`` writes N megabytes there at every decision, ``listen`` asks for the events,
``old`` speaks protocol 2, ``chess`` plays only chess (and says so on standard error), ``fork``
starts a child that sleeps a minute and writes the child's process id to the file ``N``."""

import json
import random
import subprocess
import sys
import time


def send(message: object) -> None:
    print(json.dumps(message), flush=True)


def main(mode: str, argument: str) -> None:
    decisions = 0
    when = int(argument) if argument.isdigit() else 1
    if mode == "talk":
        print("starting up...", flush=True)
    if mode == "chess":
        print("this bot plays chess only", file=sys.stderr, flush=True)
    if mode == "fork":
        child = subprocess.Popen(["sleep", "60"])
        with open(argument, "w") as file:
            file.write(str(child.pid))
    for line in sys.stdin:
        message = json.loads(line)
        if message["type"] == "hello":
            games = ["chess"] if mode == "chess" else ["bazar-blot", "3-5-8"]
            send(
                {
                    "type": "hello",
                    "protocol": 2 if mode == "old" else 1,
                    "name": f"test {mode}",
                    "author": "tests",
                    "games": games,
                    "events": mode == "listen",
                }
            )
        elif message["type"] == "act":
            decisions += 1
            action = random.choice(message["legal"])
            if mode == "stderr":
                print(f"SECRET-DEBUG decision {decisions}", file=sys.stderr, flush=True)
            elif mode == "spew":
                for _ in range(when * 1024):
                    sys.stderr.write(f"decision {decisions} " + "x" * 1000 + "\n")
                sys.stderr.flush()
            elif decisions >= when:
                if mode == "crash":
                    sys.exit(3)
                if mode == "hang":
                    time.sleep(60)
                if mode == "garbage":
                    print("this is not json", flush=True)
                    continue
                if mode == "illegal":
                    action = "ZZ"
                if mode == "wrong-id":
                    message["id"] += 100
            send({"type": "action", "id": message["id"], "action": action})
        elif message["type"] == "bye":
            break


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2] if len(sys.argv) > 2 else "1")
