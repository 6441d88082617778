"""Small reusable widgets: the safe Markdown browser, the diff view, badges."""
