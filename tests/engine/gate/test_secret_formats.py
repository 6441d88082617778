"""The credential formats, statements and obfuscations added for issue 17 (each failed before).

Every fake is assembled from pieces so that no literal token sits in the source.
"""

from __future__ import annotations

import base64
from urllib.parse import quote

import pytest

from context_center.engine.gate.secrets import find_sensitive

HEX32 = "0123456789abcdef" * 2
TWILIO = "S" + "K" + HEX32
SENDGRID = (
    "S" + "G." + "Ab3dEf6hIj9kLm2nOp5qRs" + "." + "Tu8vWx1yZa4bCd7eFg0hIj3kLm6nOp9qRs2tUv5wXy8"
)
AZURE = "A1b+" * 21 + "Q9=="  # 88 characters
DOCKER = "dck" + "r_pat_" + "KvrEXuiW223PSAnZ6wqZ5BuhNL3"
GHP = "gh" + "p_" + "A1b2C3d4E5" * 3 + "f6G7h8"
STRIPE = "sk" + "_live_" + "51H8kQ2mN7pR3tV8w9xY0zA1"
AKIA = "AK" + "IA" + "IOSFODNN7EXAMPLE"


def found(text: str) -> list[tuple[str, str]]:
    return [(s.kind, text[s.start : s.end]) for s in find_sensitive(text)]


def covered(text: str, secret: str) -> bool:
    start = text.index(secret)
    end = start + len(secret)
    return any(s.start < end and start < s.end for s in find_sensitive(text))


# --------------------------------------------------------------------------- service shapes


@pytest.mark.parametrize(
    ("text", "secret", "kind"),
    [
        (f"Twilio API key {TWILIO} for SMS", TWILIO, "twilio_key"),
        (f"SENDGRID_API_KEY={SENDGRID}", SENDGRID, "sendgrid_key"),
        (f"邮件用 SendGrid，key 是 {SENDGRID}", SENDGRID, "sendgrid_key"),
        (f"DefaultEndpointsProtocol=https;AccountName=a;AccountKey={AZURE};", AZURE, None),
        (f"docker token {DOCKER}", DOCKER, "docker_token"),
        ("vault login " + "hv" + "s." + "x" * 30, "hv" + "s." + "x" * 30, "vault_token"),
        ("gitlab-runner register --token " + "gl" + "rt-" + "Ab3d" * 5, "gl" + "rt-", None),
    ],
)
def test_service_shapes(text: str, secret: str, kind: str | None) -> None:
    assert covered(text, secret), found(text)
    if kind is not None:
        assert kind in {k for k, _ in found(text)}


def test_twilio_inside_a_longer_word_is_not_a_key() -> None:
    assert "twilio_key" not in {k for k, _ in found("xSK" + HEX32)}


# --------------------------------------------------------------------------- prose


@pytest.mark.parametrize(
    ("text", "value"),
    [
        (
            "the secret access key is wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
            "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
        ),
        ("password is hunter2", "hunter2"),
        ("The staging password is hunter2, don't share it.", "hunter2"),
        ("Set the root password to S3cr3t-Pa55 after install.", "S3cr3t-Pa55"),
        ("The API key for the geocoder is 23d4ff8fe36c99f6.", "23d4ff8fe36c99f6"),
        ("ssh root@10.0.0.9 with password Hunter22", "Hunter22"),
        ("密码是 hunter2", "hunter2"),
        ("管理员密码设置为 Tr0ub4dor&3x", "Tr0ub4dor&3x"),
        ("测试环境数据库的密码是Passw0rd!2024，别提交。", "Passw0rd!2024"),
        ("服务器 root 密码 Hunter22", "Hunter22"),
        ("Redis 的 requirepass 是 Hunter22", "Hunter22"),
        ("Wi-Fi 密码是 88888888", "88888888"),
        ("数据库密码用 hunter2xyz", "hunter2xyz"),
        ("redis 密码使用 s3cr3t-Pa55", "s3cr3t-Pa55"),
        ("测试库密码用的是 Passw0rd!2024，别外传。", "Passw0rd!2024"),
        ("token 用 Xk9_fj3kLm2Q", "Xk9_fj3kLm2Q"),
    ],
)
def test_secrets_stated_in_prose(text: str, value: str) -> None:
    assert ("stated_secret", value) in found(text), found(text)


@pytest.mark.parametrize(
    "text",
    [
        "The password is required for the admin panel.",
        "Minimum password is 12 characters.",
        "The token is valid for one hour.",
        "The access token is a JWT signed with RS256.",
        "密钥是 RSA 2048 位的。",
        "私钥是 PEM 格式。",
        "密码是 8 位以上的字母数字组合。",
        "密码用 bcrypt 加密存储。",
        "令牌用 JWT，密钥用 RSA 2048 位的。",
        "the password reset flow sends an email",
    ],
)
def test_prose_about_credentials_is_not_a_secret(text: str) -> None:
    assert found(text) == []


# --------------------------------------------------------------------------- command lines, files


@pytest.mark.parametrize(
    ("text", "value", "kind"),
    [
        ("mysql -u root -pS3cr3t-Pa55 production", "S3cr3t-Pa55", "command_line_password"),
        ("mysqldump -uroot -p'Tr0ub4dor&3x' shop", "Tr0ub4dor&3x", "command_line_password"),
        ("sshpass -p 'hunter2' ssh deploy@10.0.0.5", "hunter2", "command_line_password"),
        ("sshpass -pS3cr3t scp a.tgz ops@10.1.2.3:/srv", "S3cr3t", "command_line_password"),
        (f"docker login -u ci -p {DOCKER} reg.example.com", DOCKER, "command_line_password"),
        ("redis-cli -h cache -a S3cr3t-Pa55 ping", "S3cr3t-Pa55", "command_line_password"),
        ("curl -u admin:Tr0ub4dor https://ci.example.com", "Tr0ub4dor", "command_line_password"),
        ("mysql --user=root --password=S3cr3t-Pa55 app", "S3cr3t-Pa55", "secret_assignment"),
        ("db.example.com:5432:billing:app:S3cr3t-Pa55", "S3cr3t-Pa55", "credential_file_line"),
        ("*:5432:*:postgres:Passw0rd", "Passw0rd", "credential_file_line"),
        ("machine api.example.com login alice password S3cr3t", "S3cr3t", "credential_file_line"),
        ("mongosh -u admin -p S3cr3t-Pa55 mongodb://db", "S3cr3t-Pa55", "command_line_password"),
        ("sqlcmd -S db -U sa -P S3cr3t-Pa55 -Q 'select 1'", "S3cr3t-Pa55", "command_line_password"),
        (
            "ldapsearch -x -D cn=admin -w S3cr3t-Pa55 -b dc=x",
            "S3cr3t-Pa55",
            "command_line_password",
        ),
        ("smbclient //fs/share -U alice%S3cr3t-Pa55", "S3cr3t-Pa55", "command_line_password"),
        ("openssl rsa -in k.pem -passin pass:S3cr3t-Pa55", "S3cr3t-Pa55", "command_line_password"),
        (
            "helm registry login reg.example.com -u ci --password S3cr3t",
            "S3cr3t",
            "command_line_password",
        ),
    ],
)
def test_command_lines_and_credential_files(text: str, value: str, kind: str) -> None:
    assert (kind, value) in found(text), found(text)


@pytest.mark.parametrize(
    "text",
    [
        "mysql -u root -p app_db",
        "mysql -h db -P 3306 -u app -p",
        "docker run -p 8080:80 nginx",
        "ssh -p 2222 deploy@10.0.0.7",
        "redis-cli -h cache -p 6379 ping",
        'sshpass -p "$SSHPASS" ssh host',
        'curl -u "$USER:$TOKEN" https://x.example.com',
        "localhost:5432:*:postgres:*",
        "root:x:0:0:root:/root:/bin/bash",
        "the meeting is at 10:30:00:00 UTC",
    ],
)
def test_ports_prompts_and_placeholders_are_not_passwords(text: str) -> None:
    assert found(text) == []


# --------------------------------------------------------------------------- not secrets


@pytest.mark.parametrize(
    "text",
    [
        "CLIENT_SECRET_FILE=/etc/app/client_secret.json",
        "git clone https://git@bitbucket.org/team/repo.git",
        "secretName: my-app-tls",
        "token_type: bearer",
        "TOKEN_URL=https://auth.example.com/oauth/token",
        'API_KEY = os.getenv("API_KEY")',
        "self.password = password",
        "const token = await getToken();",
        "token: ${{ secrets.GITHUB_TOKEN }}",
        "password: ${DB_PASSWORD:-postgres}",
        "password: !vault |",
        'curl -H "Authorization: Bearer $TOKEN" https://api.example.com',
        "ssh deploy@build.example.com 'systemctl restart app'",
        "scp dist.tgz ops@staging.example.com:/srv/app",
    ],
)
def test_references_code_and_logins_are_not_secrets(text: str) -> None:
    assert found(text) == []


def test_query_parameter_after_another_is_still_a_key() -> None:
    text = "https://api.example.com/geo?format=json&api_key=23d4ff8fe36c99f6117bc942a49d6287"
    assert ("secret_assignment", "23d4ff8fe36c99f6117bc942a49d6287") in found(text)


def test_quoted_value_runs_to_its_closing_quote() -> None:
    text = 'password: "correct horse battery staple"'
    assert found(text) == [("secret_assignment", "correct horse battery staple")]


# --------------------------------------------------------------------------- obfuscated


@pytest.mark.parametrize(
    ("text", "secret"),
    [
        ("echo " + base64.b64encode(GHP.encode()).decode() + " | base64 -d", "Z2hw"),
        ("cfg " + base64.b64encode(b"password=S3cr3t-Pa55").decode(), "cGFzc3dvcmQ9"),
        ("hex: " + STRIPE.encode().hex(), STRIPE.encode().hex()),
        ("bytes: " + " ".join(f"{b:02x}" for b in GHP.encode()), "67 68 70"),
        ("data=" + quote(f"api_key={HEX32}", safe=""), HEX32),
        ("token%3D" + GHP.replace("_", "%5F"), "ghp%5F"),
        ("stripe " + STRIPE.translate(str.maketrans("eo", "ео")), "sk_liv"),  # Cyrillic е о
        ("aws id " + "ΑΚΙΑ" + AKIA[4:], "ΑΚΙΑ"),  # Greek capitals
        (f'TOKEN = ("{GHP[:20]}"\n         "{GHP[20:]}")', GHP[:20]),
        (f"key: {STRIPE[:14]}\n{STRIPE[14:]}", STRIPE[:14]),
        (f'k = "{AKIA[:10]}" + "{AKIA[10:]}"', AKIA[:10]),
        (f"S = '{STRIPE[:12]}' \\\n    '{STRIPE[12:]}'", STRIPE[:12]),
        ("token " + " ".join(GHP[:24]) + GHP[24:], "g h p _"),
        ("write to alice.smith (at) example.com", "alice.smith"),
        ("联系人：wang.fang [at] example [dot] cn", "wang.fang"),
        ("reach me: alice at example dot com", "alice at"),
        ('{"auth": "' + base64.b64encode(b"ci-bot:Passw0rd!2024").decode() + '"}', "Y2kt"),
    ],
)
def test_obfuscated_secrets_are_found(text: str, secret: str) -> None:
    assert covered(text, secret), found(text)


def test_obfuscated_spans_point_into_the_original_text() -> None:
    encoded = base64.b64encode(GHP.encode()).decode()
    text = f"before {encoded} after"
    spans = [s for s in find_sensitive(text) if s.kind == "github_token"]
    assert [text[s.start : s.end] for s in spans] == [encoded]
    percent = "x token=" + GHP.replace("_", "%5F") + " y"
    hits = [percent[s.start : s.end] for s in find_sensitive(percent) if s.kind == "github_token"]
    assert hits == [GHP.replace("_", "%5F")]
    split = f'T = "{GHP[:20]}" + "{GHP[20:]}"'
    hits = [split[s.start : s.end] for s in find_sensitive(split) if s.kind == "github_token"]
    assert hits == [f'{GHP[:20]}" + "{GHP[20:]}']


@pytest.mark.parametrize(
    "text",
    [
        "sha256: e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
        'Base64 "SGVsbG8sIHdvcmxkIQ==" decodes to Hello, world!',
        "https://example.com/search?q=password%20reset%20email&page=2",
        "Привет, мир: пароль хранится в сейфе.",
        "a b c d e f g h i j",
        "fingerprint aa:bb:cc:dd:ee:ff:00:11:22:33:44:55:66:77:88:99",
    ],
)
def test_encodings_of_nothing_secret_are_not_findings(text: str) -> None:
    assert found(text) == []
