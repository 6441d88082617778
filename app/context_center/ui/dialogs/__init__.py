"""Dialogs opened by the tabs (always through ``AppContext.exec_dialog``, never ``exec()``)."""
