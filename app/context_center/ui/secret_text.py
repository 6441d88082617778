"""What kind of secret was found, in the window's language: ``SensitiveSpan.kind`` → label.

The engine names each kind in English (``engine/gate/secrets/kinds.py`` KINDS); the window
shows the label of the kind, and a list of labels as the gate joined them (", "). A kind or
label this table does not know is shown as the engine wrote it.
"""

from __future__ import annotations

from context_center.ui.i18n import ENGLISH, QT_TRANSLATE_NOOP, Texts, current_language

LABELS = Texts(
    "SecretText",
    {
        "secret_assignment": QT_TRANSLATE_NOOP(
            "SecretText", "secret assigned to a key, token or password name"
        ),
        "stated_secret": QT_TRANSLATE_NOOP("SecretText", "password or secret stated in a sentence"),
        "command_line_password": QT_TRANSLATE_NOOP("SecretText", "password on a command line"),
        "credential_file_line": QT_TRANSLATE_NOOP(
            "SecretText", "password in a .pgpass or .netrc line"
        ),
        "authorization_header": QT_TRANSLATE_NOOP("SecretText", "Authorization header"),
        "cookie_header": QT_TRANSLATE_NOOP("SecretText", "Cookie header"),
        "bearer_token": QT_TRANSLATE_NOOP("SecretText", "bearer token"),
        "api_key": QT_TRANSLATE_NOOP("SecretText", "API key (sk-/rk-)"),
        "github_token": QT_TRANSLATE_NOOP("SecretText", "GitHub token"),
        "slack_token": QT_TRANSLATE_NOOP("SecretText", "Slack token"),
        "aws_access_key": QT_TRANSLATE_NOOP("SecretText", "AWS access key id"),
        "aws_secret_key": QT_TRANSLATE_NOOP("SecretText", "AWS secret access key"),
        "azure_storage_key": QT_TRANSLATE_NOOP("SecretText", "Azure storage or service bus key"),
        "gitlab_token": QT_TRANSLATE_NOOP("SecretText", "GitLab token"),
        "google_api_key": QT_TRANSLATE_NOOP("SecretText", "Google API key"),
        "google_oauth_token": QT_TRANSLATE_NOOP("SecretText", "Google OAuth token"),
        "stripe_key": QT_TRANSLATE_NOOP("SecretText", "Stripe secret or restricted key"),
        "npm_token": QT_TRANSLATE_NOOP("SecretText", "npm access token"),
        "pypi_token": QT_TRANSLATE_NOOP("SecretText", "PyPI upload token"),
        "docker_token": QT_TRANSLATE_NOOP("SecretText", "Docker access token"),
        "twilio_key": QT_TRANSLATE_NOOP("SecretText", "Twilio API key"),
        "sendgrid_key": QT_TRANSLATE_NOOP("SecretText", "SendGrid API key"),
        "discord_token": QT_TRANSLATE_NOOP("SecretText", "Discord bot token"),
        "telegram_token": QT_TRANSLATE_NOOP("SecretText", "Telegram bot token"),
        "mailchimp_key": QT_TRANSLATE_NOOP("SecretText", "Mailchimp API key"),
        "square_secret": QT_TRANSLATE_NOOP("SecretText", "Square OAuth secret"),
        "huggingface_token": QT_TRANSLATE_NOOP("SecretText", "Hugging Face token"),
        "shopify_token": QT_TRANSLATE_NOOP("SecretText", "Shopify access token"),
        "digitalocean_token": QT_TRANSLATE_NOOP("SecretText", "DigitalOcean token"),
        "cloud_access_key": QT_TRANSLATE_NOOP(
            "SecretText", "Alibaba Cloud or Tencent Cloud access key"
        ),
        "vault_token": QT_TRANSLATE_NOOP("SecretText", "HashiCorp Vault token"),
        "basic_credentials": QT_TRANSLATE_NOOP("SecretText", "user and password, base64-encoded"),
        "jwt": QT_TRANSLATE_NOOP("SecretText", "JSON Web Token"),
        "private_key": QT_TRANSLATE_NOOP("SecretText", "private key"),
        "url_credentials": QT_TRANSLATE_NOOP("SecretText", "user and password in a URL"),
        "email": QT_TRANSLATE_NOOP("SecretText", "email address"),
    },
)
SEPARATOR = Texts("SecretText", {"sep": QT_TRANSLATE_NOOP("SecretText", ", ")})
# Longest first: a label may hold ", " itself, and one may begin another.
_BY_LABEL = sorted(
    ((label, kind) for kind, label in LABELS.source.items()), key=lambda p: -len(p[0])
)


def secret_label(kind: str, label: str) -> str:
    """A finding's label (``kind`` its stable code; ``label`` the engine's words)."""
    if kind in LABELS.source and LABELS.source[kind] == label:
        return LABELS[kind]
    return label


def secret_labels(text: str) -> str:
    """A list of labels joined with ", " (as the gate writes them), each translated; the text
    as written when a part is no known label."""
    if current_language() == ENGLISH:
        return text
    out: list[str] = []
    rest = text
    while rest:
        for label, kind in _BY_LABEL:
            if rest == label or rest.startswith(label + ", "):
                out.append(LABELS[kind])
                rest = rest[len(label) + 2 :]
                break
        else:
            return text
    return SEPARATOR["sep"].join(out)
