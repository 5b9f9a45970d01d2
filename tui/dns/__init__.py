"""DNS zones as text: parsing and writing zone files, and the plan that applies an edited zone."""
