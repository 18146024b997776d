"""A self-contained HTML report comparing systems (a leaf: nothing imports it)."""
