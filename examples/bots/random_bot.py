#!/usr/bin/env python3
"""The smallest bot of the blot bot protocol (docs/bot-protocol.md): it needs no rules at all.

It answers every decision with any element of "legal", chosen at random (seeded by the game's
"seed", so that a blot arena run with the same --seed plays the same). Try it:

    blot arena --game 3-5-8 --a "cmd:python3 examples/bots/random_bot.py" --b random --deals 20
"""

import json
import random
import sys

rng = random.Random()


def send(message):
    print(json.dumps(message), flush=True)


for line in sys.stdin:
    message = json.loads(line)
    kind = message["type"]
    if kind == "hello":
        send(
            {
                "type": "hello",
                "protocol": 1,
                "name": "random (Python)",
                "author": "blot examples",
                "games": ["bazar-blot", "3-5-8"],
            }
        )
    elif kind == "new_game":
        rng.seed(message["seed"])
    elif kind == "act":
        send({"type": "action", "id": message["id"], "action": rng.choice(message["legal"])})
    elif kind == "bye":
        break
