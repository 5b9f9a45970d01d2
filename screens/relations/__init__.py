"""How objects connect, on screen: the Relations tab of a detail screen, the impact of a delete
in its confirmation with the clean-up it offers, and the ``:xray`` trees."""
