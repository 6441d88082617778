"""One module per tab of the main window; each tab is a :class:`~context_center.ui.tabs.base.Tab`."""
