"""dmasim - drive the dmasim simulator from Python (docs/python.md).

Every simulation runs in its own `dmasim` process (SystemC elaborates once
per process), so this package only writes configs, runs the binary and
reads what it wrote:

    import dmasim
    report = dmasim.run({"workload": {"entries": 64}}, dma__channels=2)
    df = dmasim.sweep({"sweep": {"workload.chain_depth": [1, 2, 4]}})
    dmasim.plot(df, "throughput.png", x="workload.chain_depth", series=[])

Keyword arguments are --set assignments; `__` stands for the dot of a
dotted key (dma__channels=2 is --set dma.channels=2).
"""
from ._frontend import DmasimError, binary, load, plot, run, sweep, version

__all__ = ["DmasimError", "binary", "load", "plot", "run", "sweep", "version"]
