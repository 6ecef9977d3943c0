"""Database backends of the project (set by newsdesk.settings from DATABASE_URL)."""
