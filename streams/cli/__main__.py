"""`python -m groundwire.streams.cli`: the `groundwire` command without the console script."""

from groundwire.streams.cli import main

main()
