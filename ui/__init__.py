"""pygame front end."""
