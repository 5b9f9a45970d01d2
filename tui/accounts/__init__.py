"""Several accounts: the account named on screen, switching, lists across accounts."""
