"""Games in play (see docs/web.md, "Server structure")."""
