"""Edit objects as text: a TOML document of an update request's fields, checked and planned.

:mod:`tui.textedit.fields` reads the fields an update may send from its request model;
:mod:`tui.textedit.toml_text` writes and reads TOML values; :mod:`tui.textedit.document` makes
the document of one or several items (and writes problems back into it);
:mod:`tui.textedit.review` turns a saved document into the exact requests (or the problems);
:mod:`tui.textedit.conflicts` compares with the items as the server has them now.
"""
