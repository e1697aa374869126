"""WEC over WiFi: the application (CLI, session orchestration, data dirs, saves)."""
