#!/usr/bin/env python3
"""A policy trained on blot's environments, playing through the bot protocol (a ``cmd:`` bot):
it observes each decision's JSON view exactly as the environment did in training
(``blot.env.program.Observer``) and plays its policy's most likely legal action.

    python examples/train/reinforce.py --game 3-5-8 --save policy.npz
    blot arena --game 3-5-8 --a "cmd:python examples/train/policy_bot.py policy.npz" --b basic

Needs the ``rl`` extra (``pip install -e '.[rl]'``).
"""

import json
import sys

import numpy as np

from blot.env.program import Observer

weights = np.load(sys.argv[1])
w, b = weights["w"], weights["b"]
observer = None


def send(message):
    print(json.dumps(message), flush=True)


for line in sys.stdin:
    message = json.loads(line)
    kind = message["type"]
    if kind == "hello":
        name = f"linear policy ({weights['game']})"
        send(
            {
                "type": "hello",
                "protocol": 1,
                "name": name,
                "author": "blot examples",
                "games": [str(weights["game"])],
            }
        )
    elif kind == "new_game":
        observer = Observer(message)
    elif kind == "act":
        seen = observer.observe(message["view"])
        logits = np.where(seen["action_mask"] > 0, w @ seen["observation"] + b, -np.inf)
        action = observer.action(message["view"], int(np.argmax(logits)))
        send({"type": "action", "id": message["id"], "action": action})
    elif kind == "bye":
        break
