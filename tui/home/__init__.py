"""The operator's home: overview and its cost, watchlist, activity log and the set-up doctor."""
