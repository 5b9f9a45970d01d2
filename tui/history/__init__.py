"""What the user did before, to go back to it: the ``:`` commands typed (kept per profile
across runs, :mod:`tui.history.commands`) and the screens visited (back and forward like a
browser, :mod:`tui.history.places`). Plain objects; the UI drives them."""
