"""Compile the numba kernels once before the test workers start (``.ci/run``): the workers then
load them from the checkout's cache instead of each compiling them while a test waits. numba
holds the interpreter lock while it compiles (20 s and more on a loaded machine), so a live
server in the same worker answered nothing meanwhile, and a browser test waiting on it could
time out."""

from __future__ import annotations

from random import Random

from blot.bazar import PASS, Deal, bid, random_deal
from blot.server.hub import warm_solver
from blot.solver.bazar_playout import Playouts
from blot.solver.tfe_playout import TfePlayouts
from blot.three_five_eight import HEARTS, Phase
from blot.three_five_eight import Deal as TfeDeal


def main() -> None:
    warm_solver()  # both games' double-dummy kernels, as blot serve warms them
    deal = Deal(random_deal(Random(1)).hands, dealer=0)
    for call in (bid(8, "H"), PASS, PASS, PASS):
        deal.apply(call)
    tfe = TfeDeal.random(Random(1), dealer=0)
    tfe.apply(HEARTS)
    while tfe.phase is not Phase.PLAY:
        tfe.apply(tfe.legal_actions()[0])
    for player in ("random", "basic", "heuristic"):
        Playouts(deal).run(player, 1)
        TfePlayouts(tfe).run(player, 1)


if __name__ == "__main__":
    main()
