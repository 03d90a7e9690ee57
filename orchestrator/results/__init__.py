"""What a run writes: results records and files, τ²'s and the MT fork's layouts, manifests and figures."""
