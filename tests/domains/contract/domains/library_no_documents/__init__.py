"""library without its documents: the catalogue search finds nothing, the KNOWLEDGE check fails."""

import dataclasses

from library import plugin as library

plugin = dataclasses.replace(library, name="library_no_documents", documents_file=None)
