"""The session: settings, API token, login, data folder, terminal checks, the running session."""
