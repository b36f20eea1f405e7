"""Each system's move families: the options a search enumerates."""
