"""Object storage and image transfers, headless: planning, streaming through pre-signed URLs,
conflict policy and progress accounting. Screens only draw the progress and collect choices."""
