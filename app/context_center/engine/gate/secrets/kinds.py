"""What a finding is: ``SensitiveSpan`` and the stable kind codes with their labels.

A kind code is part of the JSON contract (the gate's messages, the window's highlighting, the
approval records). A label is a short human description; it never contains the secret.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class SensitiveSpan:
    """One finding: ``text[start:end]`` of the ORIGINAL text is sensitive.

    ``kind`` is a stable code (part of the JSON contract); ``label`` is a short human
    description that never contains the secret itself.
    """

    kind: str
    start: int
    end: int
    label: str

    def as_dict(self) -> dict[str, object]:
        return {"kind": self.kind, "start": self.start, "end": self.end, "label": self.label}


# Stable kind codes.
SECRET_ASSIGNMENT = "secret_assignment"
STATED_SECRET = "stated_secret"
COMMAND_LINE_PASSWORD = "command_line_password"
CREDENTIAL_FILE_LINE = "credential_file_line"
AUTHORIZATION_HEADER = "authorization_header"
COOKIE_HEADER = "cookie_header"
BEARER_TOKEN = "bearer_token"
API_KEY = "api_key"
GITHUB_TOKEN = "github_token"
SLACK_TOKEN = "slack_token"
AWS_ACCESS_KEY = "aws_access_key"
AWS_SECRET_KEY = "aws_secret_key"
AZURE_STORAGE_KEY = "azure_storage_key"
GITLAB_TOKEN = "gitlab_token"
GOOGLE_API_KEY = "google_api_key"
GOOGLE_OAUTH_TOKEN = "google_oauth_token"
STRIPE_KEY = "stripe_key"
NPM_TOKEN = "npm_token"
PYPI_TOKEN = "pypi_token"
DOCKER_TOKEN = "docker_token"
TWILIO_KEY = "twilio_key"
SENDGRID_KEY = "sendgrid_key"
DISCORD_TOKEN = "discord_token"
TELEGRAM_TOKEN = "telegram_token"
MAILCHIMP_KEY = "mailchimp_key"
SQUARE_SECRET = "square_secret"
HUGGINGFACE_TOKEN = "huggingface_token"
SHOPIFY_TOKEN = "shopify_token"
DIGITALOCEAN_TOKEN = "digitalocean_token"
CLOUD_ACCESS_KEY = "cloud_access_key"
VAULT_TOKEN = "vault_token"
BASIC_CREDENTIALS = "basic_credentials"
JWT = "jwt"
PRIVATE_KEY = "private_key"
URL_CREDENTIALS = "url_credentials"
EMAIL = "email"

KINDS: dict[str, str] = {
    SECRET_ASSIGNMENT: "secret assigned to a key, token or password name",
    STATED_SECRET: "password or secret stated in a sentence",
    COMMAND_LINE_PASSWORD: "password on a command line",
    CREDENTIAL_FILE_LINE: "password in a .pgpass or .netrc line",
    AUTHORIZATION_HEADER: "Authorization header",
    COOKIE_HEADER: "Cookie header",
    BEARER_TOKEN: "bearer token",
    API_KEY: "API key (sk-/rk-)",
    GITHUB_TOKEN: "GitHub token",
    SLACK_TOKEN: "Slack token",
    AWS_ACCESS_KEY: "AWS access key id",
    AWS_SECRET_KEY: "AWS secret access key",
    AZURE_STORAGE_KEY: "Azure storage or service bus key",
    GITLAB_TOKEN: "GitLab token",
    GOOGLE_API_KEY: "Google API key",
    GOOGLE_OAUTH_TOKEN: "Google OAuth token",
    STRIPE_KEY: "Stripe secret or restricted key",
    NPM_TOKEN: "npm access token",
    PYPI_TOKEN: "PyPI upload token",
    DOCKER_TOKEN: "Docker access token",
    TWILIO_KEY: "Twilio API key",
    SENDGRID_KEY: "SendGrid API key",
    DISCORD_TOKEN: "Discord bot token",
    TELEGRAM_TOKEN: "Telegram bot token",
    MAILCHIMP_KEY: "Mailchimp API key",
    SQUARE_SECRET: "Square OAuth secret",
    HUGGINGFACE_TOKEN: "Hugging Face token",
    SHOPIFY_TOKEN: "Shopify access token",
    DIGITALOCEAN_TOKEN: "DigitalOcean token",
    CLOUD_ACCESS_KEY: "Alibaba Cloud or Tencent Cloud access key",
    VAULT_TOKEN: "HashiCorp Vault token",
    BASIC_CREDENTIALS: "user and password, base64-encoded",
    JWT: "JSON Web Token",
    PRIVATE_KEY: "private key",
    URL_CREDENTIALS: "user and password in a URL",
    EMAIL: "email address",
}
