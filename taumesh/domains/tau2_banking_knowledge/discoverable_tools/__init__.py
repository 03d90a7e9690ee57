"""The discoverable tools' implementations, one module per family; importing them fills the registries."""
