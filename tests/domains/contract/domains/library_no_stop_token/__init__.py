"""library without its own stop token: the member's ###BYE### no longer ends the conversation."""

import dataclasses

from library import plugin as library

from taumesh.models import STOP_TOKEN

plugin = dataclasses.replace(library, name="library_no_stop_token", user_stop_tokens=(STOP_TOKEN,))
