"""How objects connect, on screen: the Relations tab of a detail screen and the ``:xray`` trees.

The impact of a delete in its confirmation belongs to the action flow
(``screens.actions.impact``).
"""
