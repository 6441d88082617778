"""A candidate never carries an e-mail address or a secret as is.

Whatever a candidate shows or saves (statement, title, description, body, name, key and the
quoted evidence) is built from text in which every span ``find_sensitive`` reports is replaced
by ``[email]`` (an e-mail address) or ``[secret]`` (anything else: a password said in a
sentence, an API key, a token, a private key …). Overlapping spans are replaced once.
"""

from __future__ import annotations

EMAIL_MARK = "[email]"
SECRET_MARK = "[secret]"


def redact(text: str) -> tuple[str, tuple[str, ...]]:
    """``text`` with every sensitive span replaced, and the labels of what was found."""
    from context_center.engine.gate.secrets import find_sensitive  # loaded only when needed

    spans = find_sensitive(text)
    if not spans:
        return text, ()
    merged: list[tuple[int, int, bool]] = []  # (start, end, only e-mail addresses)
    for span in spans:
        email = span.kind == "email"
        if merged and span.start < merged[-1][1]:
            start, end, only_email = merged[-1]
            merged[-1] = (start, max(end, span.end), only_email and email)
        else:
            merged.append((span.start, span.end, email))
    out: list[str] = []
    cursor = 0
    for start, end, email in merged:
        out.append(text[cursor:start])
        out.append(EMAIL_MARK if email else SECRET_MARK)
        cursor = end
    out.append(text[cursor:])
    labels = tuple(dict.fromkeys(span.label for span in spans))
    return "".join(out), labels
