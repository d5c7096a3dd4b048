"""Python bindings of the mtia-compiler dialects (op builders, types, enums)."""
