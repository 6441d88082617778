"""A labelled corpus for the write gate's secret detection, in English and Chinese.

Every case is one string a developer might paste into a memory: a credential in an everyday
format, an obfuscated credential, or a benign developer string. ``tests/engine/gate/
test_secret_corpus.py`` holds the gate to its targets on it (>= 97 % of the everyday ones,
>= 75 % of the obfuscated ones, <= 2 % false positives) and ``bench/bench_secrets.py``
prints the per-class figures.

A positive case is caught when some span of ``find_sensitive`` overlaps its ``secret``; a
benign case is a false positive when ``find_sensitive`` reports anything at all. The
credentials are fakes, made from a seeded generator or assembled from pieces so that no
literal token sits in this file (scanners and push protection would rightly complain).
"""

from __future__ import annotations

import base64
import random
import string
from dataclasses import dataclass
from urllib.parse import quote

OBFUSCATED = "obfuscated"
BENIGN = "benign"


@dataclass(frozen=True, slots=True)
class Case:
    """``cls`` is the class (``benign``, ``obfuscated`` or an everyday class); ``secret`` is
    the part a span must overlap (None for benign cases)."""

    cls: str
    lang: str  # "en" or "zh"
    text: str
    secret: str | None = None


_rng = random.Random(20261130)
_ALNUM = string.ascii_letters + string.digits
_HEX = "0123456789abcdef"
_B64 = _ALNUM + "+/"
_URLSAFE = _ALNUM + "_-"


def _fake(alphabet: str, n: int) -> str:
    return "".join(_rng.choice(alphabet) for _ in range(n))


def _p(cls: str, lang: str, text: str, secret: str) -> Case:
    assert secret in text, (text, secret)
    return Case(cls, lang, text, secret)


def _b(lang: str, text: str) -> Case:
    return Case(BENIGN, lang, text)


# --------------------------------------------------------------------------- fake credentials

AKIA = "AK" + "IA" + _fake(string.ascii_uppercase + "234567", 16)
AWS_SECRET = _fake(_B64, 40)
AZURE_KEY = _fake(_B64, 86) + "=="
GOOGLE = "AI" + "za" + _fake(_URLSAFE, 35)
DO_TOKEN = "dop" + "_v1_" + _fake(_HEX, 64)
ALIYUN = "LT" + "AI" + "5t" + _fake(_ALNUM, 18)
TENCENT = "AK" + "ID" + _fake(_ALNUM, 32)
GHP = "gh" + "p_" + _fake(_ALNUM, 36)
GHO = "gh" + "o_" + _fake(_ALNUM, 36)
GITHUB_PAT = "github" + "_pat_" + _fake(_ALNUM, 22) + "_" + _fake(_ALNUM, 59)
GLPAT = "gl" + "pat-" + _fake(_URLSAFE, 20)
BITBUCKET = "AT" + "BB" + _fake(_ALNUM, 28)
TWILIO_SK = "S" + "K" + _fake(_HEX, 32)
TWILIO_TOKEN = _fake(_HEX, 32)
SENDGRID = "S" + "G." + _fake(_URLSAFE, 22) + "." + _fake(_URLSAFE, 43)
STRIPE_LIVE = "sk" + "_live_" + _fake(_ALNUM, 24)
STRIPE_RK = "rk" + "_live_" + _fake(_ALNUM, 24)
SLACK_BOT = "xo" + "xb-" + _fake(string.digits, 12) + "-" + _fake(string.digits, 13) + "-"
SLACK_BOT += _fake(_ALNUM, 24)
SLACK_HOOK = "https://hooks.slack.com/services/T" + _fake(string.ascii_uppercase, 8)
SLACK_HOOK += "/B" + _fake(string.ascii_uppercase, 8) + "/" + _fake(_ALNUM, 24)
NPM = "np" + "m_" + _fake(_ALNUM, 36)
PYPI = "py" + "pi-AgEIcHlwaS5vcmc" + _fake(_URLSAFE, 80)
OPENAI = "sk" + "-proj-" + _fake(_URLSAFE, 48)
ANTHROPIC = "sk" + "-ant-api03-" + _fake(_URLSAFE, 93) + "AA"
DOCKER = "dck" + "r_pat_" + _fake(_URLSAFE, 27)
DISCORD = "M" + _fake(_ALNUM, 23) + "." + _fake(_URLSAFE, 6) + "." + _fake(_URLSAFE, 27)
TELEGRAM = _fake(string.digits, 10) + ":AA" + _fake(_URLSAFE, 33)
MAILCHIMP = _fake(_HEX, 32) + "-us" + "14"
SQUARE = "sq" + "0csp-" + _fake(_URLSAFE, 43)
HUGGINGFACE = "h" + "f_" + _fake(string.ascii_letters, 34)
SHOPIFY = "shp" + "at_" + _fake(_HEX, 32)
DATADOG = _fake(_HEX, 32)
JWT_HEADER = base64.urlsafe_b64encode(b'{"alg":"HS256","typ":"JWT"}').decode().rstrip("=")
JWT_BODY = base64.urlsafe_b64encode(b'{"sub":"42","name":"ci"}').decode().rstrip("=")
JWT = JWT_HEADER + "." + JWT_BODY + "." + _fake(_URLSAFE, 43)
BEARER = _fake(_URLSAFE, 40)
SESSION = _fake(_HEX, 32)
PEM_RSA = (
    "-----BEGIN RSA "
    + "PRIVATE KEY-----\n"
    + _fake(_B64, 64)
    + "\n"
    + _fake(_B64, 40)
    + "\n-----END RSA "
    + "PRIVATE KEY-----"
)
OPENSSH = (
    "-----BEGIN OPENSSH "
    + "PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA"
    + _fake(_B64, 40)
    + "\n-----END OPENSSH "
    + "PRIVATE KEY-----"
)
PGP = (
    "-----BEGIN PGP "
    + "PRIVATE KEY BLOCK-----\n\nlQOYBF"
    + _fake(_B64, 50)
    + "\n-----END PGP "
    + "PRIVATE KEY BLOCK-----"
)
GCP_JSON_KEY = "-----BEGIN " + "PRIVATE KEY-----\\nMIIEv" + _fake(_B64, 60)
GCP_JSON_KEY += "\\n-----END " + "PRIVATE KEY-----\\n"
PW = "Tr0ub4dor&" + "3x"
PW2 = "S3cr3t" + "-Pa55"
PW3 = "hunter" + "2"
PW4 = "Passw0rd" + "!2024"

# --------------------------------------------------------------------------- everyday formats

EVERYDAY: list[Case] = [
    # cloud
    _p("cloud", "en", f"aws_access_key_id = {AKIA}", AKIA),
    _p("cloud", "en", f"aws_secret_access_key = {AWS_SECRET}", AWS_SECRET),
    _p("cloud", "en", f"export AWS_SECRET_ACCESS_KEY {AWS_SECRET}", AWS_SECRET),
    _p(
        "cloud",
        "en",
        "DefaultEndpointsProtocol=https;AccountName=acmelogs;AccountKey="
        + AZURE_KEY
        + ";EndpointSuffix=core.windows.net",
        AZURE_KEY,
    ),
    _p("cloud", "zh", f"Azure 存储的连接串里 AccountKey={AZURE_KEY} 要保密", AZURE_KEY),
    _p("cloud", "en", f'maps key: "{GOOGLE}"', GOOGLE),
    _p("cloud", "en", f'{{"type": "service_account", "private_key": "{GCP_JSON_KEY}"}}', "MIIEv"),
    _p("cloud", "en", f"doctl auth init -t {DO_TOKEN}", DO_TOKEN),
    _p("cloud", "zh", f"阿里云 AccessKey ID：{ALIYUN}", ALIYUN),
    _p("cloud", "zh", f"腾讯云密钥 SecretId {TENCENT}", TENCENT),
    # version control
    _p("vcs", "en", f"export GITHUB_TOKEN={GHP}", GHP),
    _p("vcs", "en", f"gh auth login --with-token <<< {GHO}", GHO),
    _p("vcs", "en", f"fine-grained token: {GITHUB_PAT}", GITHUB_PAT),
    _p("vcs", "zh", f"GitLab 个人令牌 {GLPAT}，有效期一年", GLPAT),
    _p("vcs", "en", f"git clone https://oauth2:{GLPAT}@gitlab.example.com/x/y.git", GLPAT),
    _p(
        "vcs",
        "en",
        f"git remote set-url origin https://ci:{BITBUCKET}@bitbucket.org/t/r.git",
        BITBUCKET,
    ),
    _p("vcs", "en", f'curl -H "Authorization: token {GHP}" https://api.github.com/user', GHP),
    # SaaS keys
    _p("saas", "en", f"Twilio API key {TWILIO_SK} for the SMS worker", TWILIO_SK),
    _p("saas", "en", f"TWILIO_AUTH_TOKEN={TWILIO_TOKEN}", TWILIO_TOKEN),
    _p("saas", "en", f"SENDGRID_API_KEY={SENDGRID}", SENDGRID),
    _p("saas", "zh", f"邮件服务用的是 SendGrid，key 是 {SENDGRID}", SENDGRID),
    _p("saas", "en", f"stripe.api_key = '{STRIPE_LIVE}'", STRIPE_LIVE),
    _p("saas", "en", f"restricted key {STRIPE_RK} (read-only)", STRIPE_RK),
    _p("saas", "en", f"SLACK_BOT_TOKEN={SLACK_BOT}", SLACK_BOT),
    _p("saas", "zh", f"告警推送到 Slack：{SLACK_HOOK}", SLACK_HOOK),
    _p("saas", "en", f"//registry.npmjs.org/:_authToken={NPM}", NPM),
    _p("saas", "en", f"[pypi]\nusername = __token__\npassword = {PYPI}", PYPI),
    _p("saas", "en", f"OPENAI_API_KEY={OPENAI}", OPENAI),
    _p("saas", "zh", f"Claude 的 key：{ANTHROPIC}", ANTHROPIC),
    _p("saas", "en", f"docker login -u ci --password-stdin <<< {DOCKER}", DOCKER),
    _p("saas", "zh", f"Docker Hub 访问令牌 {DOCKER}", DOCKER),
    _p("saas", "en", f"DISCORD_BOT_TOKEN={DISCORD}", DISCORD),
    _p("saas", "en", f"telegram bot {TELEGRAM}", TELEGRAM),
    _p("saas", "en", f"mailchimp key {MAILCHIMP}", MAILCHIMP),
    _p("saas", "en", f"SQUARE_APPLICATION_SECRET={SQUARE}", SQUARE),
    _p("saas", "en", f"huggingface-cli login --token {HUGGINGFACE}", HUGGINGFACE),
    _p("saas", "zh", f"Shopify 后台令牌：{SHOPIFY}", SHOPIFY),
    _p("saas", "en", f"DD_API_KEY={DATADOG}", DATADOG),
    # key = value
    _p("assignment", "en", f"DB_PASSWORD={PW3}", PW3),
    _p("assignment", "en", f'password: "{PW}"', PW),
    _p("assignment", "en", f"SECRET_KEY = 'django-insecure-{_fake(_ALNUM, 30)}'", "django"),
    _p("assignment", "en", f'{{"api_key": "{DATADOG}"}}', DATADOG),
    _p("assignment", "en", f"client_secret: {PW2}", PW2),
    _p("assignment", "en", f"spring.datasource.password={PW2}", PW2),
    _p("assignment", "en", f'<add key="ApiKey" value="{DATADOG}" />', DATADOG),
    _p("assignment", "en", f"<password>{PW}</password>", PW),
    _p("assignment", "en", f"mysql --user=root --password={PW2} app", PW2),
    _p("assignment", "zh", f"密码：{PW4}", PW4),
    _p("assignment", "zh", f"数据库密码={PW2}", PW2),
    _p("assignment", "zh", f"AccessKey Secret: {AWS_SECRET}", AWS_SECRET),
    _p("assignment", "en", f"PGPASSWORD={PW3} psql -h db -U app", PW3),
    # URLs with credentials
    _p("url", "en", f"DATABASE_URL=postgres://app:{PW2}@db.internal:5432/app", PW2),
    _p("url", "en", f"mongodb+srv://admin:{PW3}@cluster0.abcde.mongodb.net/test", PW3),
    _p("url", "zh", f"缓存地址 redis://:{PW2}@10.0.0.8:6379/0", PW2),
    _p("url", "en", f"amqp://worker:{PW}@rabbit:5672/", PW),
    # headers
    _p("header", "en", f"Authorization: Bearer {BEARER}", BEARER),
    _p("header", "en", f"Cookie: sessionid={SESSION}; csrftoken=abc", SESSION),
    _p("header", "en", f"token {JWT}", JWT),
    _p("header", "zh", f"请求头里带上 X-Api-Key: {DATADOG}", DATADOG),
    # command lines
    _p("cli", "en", f"mysql -u root -p{PW2} production", PW2),
    _p("cli", "en", f"mysqldump -uroot -p'{PW}' shop > shop.sql", PW),
    _p("cli", "en", f"sshpass -p '{PW3}' ssh deploy@10.0.0.5", PW3),
    _p("cli", "en", f"sshpass -p{PW2} scp build.tgz ops@10.1.2.3:/srv", PW2),
    _p("cli", "en", f"db.example.com:5432:billing:billing_app:{PW2}", PW2),
    _p("cli", "zh", f"~/.pgpass 里写了：*:5432:*:postgres:{PW4}", PW4),
    _p("cli", "en", f"docker login -u ci -p {DOCKER} registry.example.com", DOCKER),
    _p("cli", "en", f"redis-cli -h cache -a {PW2} ping", PW2),
    _p("cli", "en", f"curl -u admin:{PW} https://jenkins.example.com/api/json", PW),
    _p("cli", "en", f"machine api.example.com login alice password {PW2}", PW2),
    # private keys
    _p("private_key", "en", PEM_RSA, PEM_RSA[35:60]),
    _p("private_key", "en", "deploy key:\n" + OPENSSH, "b3BlbnNzaC1rZXktdjEAAAAA"),
    _p("private_key", "zh", "签名用的私钥如下\n" + PGP, "lQOYBF"),
    # email
    _p("email", "en", "Contact alice.smith@example.com for access.", "alice.smith@example.com"),
    _p("email", "zh", "维护者邮箱：zhang.wei@example.cn", "zhang.wei@example.cn"),
    # secrets stated in prose
    _p("prose", "en", f"the secret access key is {AWS_SECRET}", AWS_SECRET),
    _p("prose", "en", f"The staging password is {PW3}, don't share it.", PW3),
    _p("prose", "en", f"admin password is {PW} for now", PW),
    _p("prose", "en", f"The API key for the geocoder is {DATADOG}.", DATADOG),
    _p("prose", "en", f"Set the root password to {PW2} after install.", PW2),
    _p("prose", "zh", f"密码是 {PW3}", PW3),
    _p("prose", "zh", f"测试环境数据库的密码是{PW4}，别提交到仓库。", PW4),
    _p("prose", "zh", f"登录口令为 {PW2}", PW2),
    _p("prose", "zh", f"管理员密码设置为 {PW}", PW),
    _p("prose", "zh", f"数据库密码用 {PW3}", PW3),
    _p("prose", "zh", f"新的 API 密钥是 {DATADOG}", DATADOG),
]

# --------------------------------------------------------------------------- obfuscated


def _confusable(text: str) -> str:
    """Latin letters swapped for Cyrillic look-alikes (а е о р с х)."""
    return text.translate(str.maketrans("aeopcx", "аеорсх"))


_STRIPE_OBF = "sk" + "_live_" + _fake(_ALNUM, 24)
_GHP_OBF = "gh" + "p_" + _fake(_ALNUM, 36)

OBFUSCATED_CASES: list[Case] = [
    _p(
        OBFUSCATED,
        "en",
        "echo " + base64.b64encode(GHP.encode()).decode() + " | base64 -d",
        base64.b64encode(GHP.encode()).decode(),
    ),
    _p(
        OBFUSCATED,
        "en",
        "creds (base64): " + base64.b64encode(f"aws_access_key_id={AKIA}".encode()).decode(),
        base64.b64encode(f"aws_access_key_id={AKIA}".encode()).decode(),
    ),
    _p(
        OBFUSCATED,
        "zh",
        "配置（base64 编码）：" + base64.b64encode(f"password={PW2}".encode()).decode(),
        base64.b64encode(f"password={PW2}".encode()).decode(),
    ),
    _p(OBFUSCATED, "en", "hex: " + _STRIPE_OBF.encode().hex(), _STRIPE_OBF.encode().hex()),
    _p(OBFUSCATED, "en", "key = bytes.fromhex('" + GHP.encode().hex() + "')", GHP.encode().hex()),
    _p(
        OBFUSCATED,
        "en",
        "https://example.com/cb?code=1&data=" + quote(f"api_key={DATADOG}", safe=""),
        quote(f"api_key={DATADOG}", safe=""),
    ),
    _p(
        OBFUSCATED,
        "en",
        "token%3D" + quote(GHP, safe="").replace("_", "%5F"),
        quote(GHP, safe="").replace("_", "%5F"),
    ),
    _p(OBFUSCATED, "en", "stripe " + _confusable(STRIPE_LIVE), _confusable(STRIPE_LIVE)[8:]),
    _p(OBFUSCATED, "zh", "令牌 " + _confusable(_GHP_OBF), _confusable(_GHP_OBF)[6:]),
    _p(OBFUSCATED, "en", f'TOKEN = ("{GHP[:20]}"\n         "{GHP[20:]}")', GHP[:20]),
    _p(OBFUSCATED, "en", f"key: {STRIPE_LIVE[:14]}\n{STRIPE_LIVE[14:]}", STRIPE_LIVE[:14]),
    _p(OBFUSCATED, "en", f'k = "{AKIA[:10]}" + "{AKIA[10:]}"', AKIA[:10]),
    _p(OBFUSCATED, "en", "write to alice.smith (at) example.com", "alice.smith"),
    _p(OBFUSCATED, "zh", "联系人：wang.fang [at] example [dot] cn", "wang.fang"),
    _p(OBFUSCATED, "en", "ｇｈｐ＿" + "".join(chr(ord(c) + 0xFEE0) for c in GHP[4:]), "ｇｈｐ＿"),
    _p(OBFUSCATED, "en", GHP[:8] + "\u200b" + GHP[8:20] + "\u200d" + GHP[20:], GHP[:8]),
]

# --------------------------------------------------------------------------- benign

_SHA = _fake(_HEX, 40)
_SHA256 = _fake(_HEX, 64)
_B64_BLOB = base64.b64encode(bytes(_rng.randrange(256) for _ in range(60))).decode()

BENIGN_CASES: list[Case] = [
    # the known false positives
    _b("en", "CLIENT_SECRET_FILE=/etc/app/client_secret.json"),
    _b("en", "git clone https://git@bitbucket.org/team/repo.git"),
    # configuration, references, placeholders
    _b("en", "git@github.com:owner/repo.git"),
    _b("en", "password_min_length=12"),
    _b("en", "max_tokens: 4096"),
    _b("en", 'SECRET_KEY = os.environ["SECRET_KEY"]'),
    _b("en", "API_KEY=${API_KEY}"),
    _b("en", "token: <your-token>"),
    _b("en", "token: ${{ secrets.GITHUB_TOKEN }}"),
    _b("en", "password: !vault |"),
    _b("en", 'API_KEY = os.getenv("API_KEY")'),
    _b("en", "SECRET_KEY = env('DJANGO_SECRET_KEY')"),
    _b("en", "client = Client(api_key=api_key, timeout=30)"),
    _b("en", "self.password = password"),
    _b("en", "token = request.headers.get('X-Token')"),
    _b("en", 'PASSWORD_HASHERS = ["django.contrib.auth.hashers.Argon2PasswordHasher"]'),
    _b("en", "secretName: my-app-tls"),
    _b("en", "SECRET_NAME=prod/db/credentials"),
    _b("en", "private_key_path: ~/.ssh/id_ed25519"),
    _b("en", "token_type: bearer"),
    _b("en", "TOKEN_URL=https://auth.example.com/oauth/token"),
    _b("en", "auth_token=None"),
    _b("en", '"password": "********"'),
    _b("en", "export AWS_PROFILE=dev"),
    _b("en", "export NODE_ENV=production"),
    _b("en", "TOKEN_EXPIRY_SECONDS=3600"),
    _b("en", "JWT_ALGORITHM=HS256"),
    _b("en", "primary_key=True"),
    _b("en", 'curl -H "Authorization: Bearer $TOKEN" https://api.example.com/v1/me'),
    _b("en", "Authorization: Bearer <token>"),
    _b("en", "def check_password(password: str) -> bool:"),
    _b("en", "kubectl create secret generic db-creds --from-file=./password.txt"),
    _b("en", "echo $CR_PAT | docker login ghcr.io -u USERNAME --password-stdin"),
    _b("en", "mysql -u root -p app_db"),
    _b("en", "sshpass -f ~/.ssh/pw.txt ssh deploy@10.0.0.5"),
    _b("en", "docker run -p 8080:80 -e PORT=80 nginx:1.25"),
    _b("en", "ssh -p 2222 deploy@10.0.0.7"),
    _b("en", "psql -h localhost -U postgres -d app"),
    _b("en", 'curl -u "$JENKINS_USER:$JENKINS_TOKEN" https://jenkins.example.com'),
    _b("en", "localhost:5432:*:postgres:*"),
    _b("en", "root:x:0:0:root:/root:/bin/bash"),
    _b("en", "the meeting is at 10:30:00:00 UTC"),
    # prose about credentials
    _b("en", "Rotate the API key every 90 days."),
    _b("en", "Store the token in the keychain, never in git."),
    _b("en", "The password is required for the admin panel."),
    _b("en", "The API key is stored in 1Password under Infra."),
    _b("en", "Minimum password is 12 characters."),
    _b("en", "The token is valid for one hour."),
    _b("en", "the secret is in Vault at kv/app"),
    _b("en", "Set the password to something long and random."),
    _b("en", "Secret Santa is on Friday."),
    _b("en", "The password reset flow sends a link by email."),
    _b("en", "Tokens are counted per turn; the token budget is 8000."),
    # identifiers, hashes, encodings
    _b("en", f"git checkout {_SHA}"),
    _b("en", f"sha256: {_SHA256}"),
    _b("en", "request id 123e4567-e89b-12d3-a456-426614174000"),
    _b("en", f"logo.png base64: {_B64_BLOB}"),
    _b("en", "color: #ff00ff; background: #0a0a0a"),
    _b("en", "https://example.com/search?q=password%20reset%20email&page=2"),
    _b("en", "open %2Fvar%2Flog%2Fapp.log in the viewer"),
    _b("en", "docker pull ghcr.io/owner/image@sha256:" + _SHA256),
    _b("en", "test_password_reset_flow_sends_email_once"),
    _b("en", "AKIDEXAMPLE is the placeholder id in the AWS SigV4 test suite"),
    # code and package names with @
    _b("en", "@pytest.fixture"),
    _b("en", '"@babel/core": "^7.23.0"'),
    _b("en", "npm i webpack@5.88.2"),
    _b("en", "go get golang.org/x/crypto@v0.17.0"),
    _b("en", 'f"{user}@{host}"'),
    _b("en", "ping @alice about the release"),
    _b("en", "ssh deploy@build.example.com 'systemctl restart app'"),
    _b("en", "scp dist.tgz ops@staging.example.com:/srv/app"),
    # look-alike text that is just another language
    _b("en", "Привет, мир: пароль хранится в сейфе."),
    _b("en", "Γεια σου κόσμε, το κλειδί είναι στο Vault."),
    # Chinese prose and config
    _b("zh", "请把 API 密钥放在环境变量里，不要写进代码。"),
    _b("zh", "密码至少 12 位，包含数字和字母。"),
    _b("zh", "密码为空时返回 401。"),
    _b("zh", "私钥是 PEM 格式，公钥放在 docs/keys 目录。"),
    _b("zh", "密钥是 RSA 2048 位的。"),
    _b("zh", "密码是 8 位以上的字母数字组合。"),
    _b("zh", "令牌有效期为 7 天，过期后自动刷新。"),
    _b("zh", "请设置环境变量 OPENAI_API_KEY 后再运行。"),
    _b("zh", "密码：请向管理员索取"),
    _b("zh", "访问令牌存放在 Vault 的 kv/app 路径下。"),
    _b("zh", "默认密码为空，首次登录时修改。"),
    _b("zh", "项目使用 pnpm 管理依赖，测试命令是 pytest -q。"),
    _b("zh", "密钥轮换周期：90 天"),
    _b("zh", "用 base64 编码图片后再上传，接口是 /api/v1/upload。"),
    _b("zh", "部署脚本在 scripts/deploy.sh，执行前先 ssh 到跳板机。"),
    _b("zh", "数据库连接池大小为 20，超时时间 30 秒。"),
    _b("zh", "token 数量上限是 4096。"),
    _b("zh", "登录失败 5 次后锁定账号，口令需每 90 天更换。"),
    _b("zh", "客户端证书路径：/etc/app/client.pem"),
    _b("zh", "提交信息里写上 issue 编号，例如 #1234。"),
]

# --------------------------------------------------------------------------- second batch
# Written after the detector had been tuned on the cases above, without running it on these
# first: they measure how well the rules carry over to strings nobody tuned them on.

YA29 = "ya" + "29.a0" + _fake(_URLSAFE, 60)
GLRT = "gl" + "rt-" + _fake(_URLSAFE, 20)
AGE_KEY = "AGE-SECRET" + "-KEY-1" + _fake(string.ascii_uppercase + string.digits, 58)
PW5 = "Hunter" + "22"
PW6 = "Admin@" + "2024"

EVERYDAY += [
    _p("saas", "en", f"STRIPE_SECRET_KEY=sk_test_{_fake(_ALNUM, 24)}", "sk_test_"),
    _p("assignment", "en", f"heroku config:set API_TOKEN={DATADOG}", DATADOG),
    _p("assignment", "en", "kind: Secret\ndata:\n  password: cGFzc3dvcmQxMjM=", "cGFzc3dvcmQxMjM="),
    _p("vcs", "en", f"git config --global github.token {GHP}", GHP),
    _p("saas", "en", f"npm config set //registry.npmjs.org/:_authToken={NPM}", NPM),
    _p("header", "en", '{"Authorization": "Basic YWRtaW46c2VjcmV0"}', "YWRtaW46c2VjcmV0"),
    _p("header", "en", "Proxy-Authorization: Basic YWRtaW46c2VjcmV0", "YWRtaW46c2VjcmV0"),
    _p("cloud", "en", f"aws configure set aws_secret_access_key {AWS_SECRET}", AWS_SECRET),
    _p(
        "cloud",
        "en",
        f'{{"keyName": "key1", "permissions": "FULL", "value": "{AZURE_KEY}"}}',
        AZURE_KEY,
    ),
    _p("cloud", "en", f"gcloud auth print-access-token -> {YA29}", YA29),
    _p("prose", "en", f"ssh root@10.0.0.9 with password {PW5}", PW5),
    _p("url", "en", f'psql "postgresql://report:{PW2}@db.internal/reports"', PW2),
    _p("url", "en", f"jdbc:mysql://db:3306/app?user=app&password={PW2}", PW2),
    _p("assignment", "en", f"Server=db;Database=app;User Id=sa;Password={PW2};", PW2),
    _p("prose", "zh", f"服务器 root 密码 {PW5}", PW5),
    _p("assignment", "zh", f"账号：admin 密码：{PW6}", PW6),
    _p("prose", "zh", "Wi-Fi 密码是 88888888", "88888888"),
    _p("vcs", "zh", f"把 token 设置为 {GHP}", GHP),
    _p("cloud", "zh", f"临时密钥：{TENCENT}", TENCENT),
    _p("cli", "en", f"wget --user=admin --password={PW2} https://files.example.com/a.tgz", PW2),
    _p("url", "en", f"git clone https://alice:{GHP}@github.com/acme/app.git", GHP),
    _p("assignment", "en", f"TF_VAR_db_password={PW2}", PW2),
    _p("assignment", "en", f"ansible_ssh_pass: {PW5}", PW5),
    _p("assignment", "en", f"DB_PASS={PW5}", PW5),
    _p("assignment", "en", "MYSQL_ROOT_PASSWORD: example", "example"),
    _p("saas", "en", f"OPENROUTER_KEY=sk-or-v1-{_fake(_HEX, 64)}", "sk-or-v1-"),
    _p("vcs", "en", f"gitlab-runner register --token {GLRT}", GLRT),
    _p(
        "private_key",
        "en",
        "-----BEGIN EC "
        + "PRIVATE KEY-----\nMHcCAQEE"
        + _fake(_B64, 40)
        + "\n-----END EC "
        + "PRIVATE KEY-----",
        "MHcCAQEE",
    ),
    _p("private_key", "en", f"age key: {AGE_KEY}", AGE_KEY),
    _p("url", "en", f"mongodb://root:{PW5}@mongo:27017/", PW5),
]

BENIGN_CASES += [
    _b(
        "en",
        "See https://docs.github.com/en/authentication/keeping-your-account-and-data-secure"
        "/creating-a-personal-access-token",
    ),
    _b("en", "The secret sauce is caching."),
    _b("en", "Password managers like 1Password and Bitwarden are allowed."),
    _b("en", "token = tokenizer.encode(text)"),
    _b("en", "for token in tokens:"),
    _b("en", "if password != confirm_password:"),
    _b("en", "password_hash = bcrypt.hashpw(password, salt)"),
    _b("en", 'assert response.json()["token_type"] == "bearer"'),
    _b("en", "The API returns 401 when the token expired."),
    _b("en", 'export PATH="$HOME/.local/bin:$PATH"'),
    _b("en", "Use `gh auth token` to print your token."),
    _b("en", "Refresh tokens live for 30 days; access tokens for 15 minutes."),
    _b("en", "api_version: 2024-06-01"),
    _b("en", "secret_scanning: enabled"),
    _b("en", "The key insight is that caching helps."),
    _b("en", "UUID v4: 9b2d3c4e-1f6a-4b8c-9d0e-1a2b3c4d5e6f"),
    _b("en", 'Base64 "SGVsbG8sIHdvcmxkIQ==" decodes to Hello, world!'),
    _b("en", 'ssh-keygen -t ed25519 -f ~/.ssh/deploy_key -N ""'),
    _b("en", "gpg --list-secret-keys --keyid-format=long"),
    _b("en", "openssl rand -hex 32 > secret.key"),
    _b("en", "docker run -e POSTGRES_PASSWORD_FILE=/run/secrets/db postgres:16"),
    _b("en", "kubectl get secret app-tls -o jsonpath='{.data.tls\\.crt}'"),
    _b("en", "TOKEN_LIMIT=4096"),
    _b("en", "const token = await getToken();"),
    _b("en", "token: str = Field(..., min_length=20)"),
    _b("en", 'password = getpass.getpass("Password: ")'),
    _b("en", "SECRET_KEY = secrets.token_urlsafe(50)"),
    _b("en", "api_key = None  # set in settings"),
    _b("en", '"apiKey": process.env.API_KEY,'),
    _b("en", "cookie: { secure: true, httpOnly: true }"),
    _b("en", 'git log --author="alice"'),
    _b("en", "The pgpass file format is hostname:port:database:username:password"),
    _b("en", "DATABASE_URL=postgres://localhost/app"),
    _b("en", "redis-cli -h cache -p 6379 ping"),
    _b("en", "curl -u $USER https://intranet.example.com"),
    _b("en", "mysql -h db -P 3306 -u app -p"),
    _b("zh", "令牌桶算法限制每秒 100 个请求。"),
    _b("zh", "密码学课程的作业在 docs/crypto.md。"),
    _b("zh", "登录接口返回的 token 有效期是 2 小时。"),
    _b("zh", "请勿在日志中打印密钥或令牌。"),
    _b("zh", "用户名为 admin 的账号只读。"),
    _b("zh", "密钥管理服务（KMS）负责轮换。"),
    _b("zh", "测试账号的密码需要找运维申请。"),
    _b("zh", "配置项 password_min_length 默认为 8。"),
]

# --------------------------------------------------------------------------- third batch
# Written after the second batch had been fixed, again without running the detector on it
# first (the held-out figures in the report come from this batch alone: HELD_OUT).

HVS = "hv" + "s." + _fake(_URLSAFE, 90)
HF2 = "h" + "f_" + _fake(string.ascii_letters, 34)
SLACK_OBF = "xo" + "xp-" + _fake(string.digits, 11) + "-" + _fake(string.digits, 12) + "-"
SLACK_OBF += _fake(string.digits, 12) + "-" + _fake(_HEX, 32)
STRIPE_SPLIT = "sk" + "_live_" + _fake(_ALNUM, 24)
GREEK_AKIA = "ΑΚΙΑ" + AKIA[4:]  # Greek capital alpha, kappa, iota
OAUTH_SECRET = _fake(_ALNUM, 40)
WECOM_SECRET = _fake(_URLSAFE, 43)
FEISHU_SECRET = _fake(_ALNUM, 32)

_HELD_OUT_POSITIVES = [
    _p("saas", "en", f"export HF_TOKEN={HF2}", HF2),
    _p(
        "cloud",
        "en",
        '{"auths": {"https://index.docker.io/v1/": {"auth": "'
        + base64.b64encode(b"ci-bot:" + PW4.encode()).decode()
        + '"}}}',
        base64.b64encode(b"ci-bot:" + PW4.encode()).decode(),
    ),
    _p("saas", "en", f"[pypi]\n  password: {PYPI}", PYPI),
    _p("header", "en", f"Set-Cookie: __Host-session={SESSION}; Secure; HttpOnly", SESSION),
    _p("header", "en", f"X-Auth-Token: {DATADOG}", DATADOG),
    _p("url", "en", f"client_id=web&client_secret={PW2}&grant_type=client_credentials", PW2),
    _p("assignment", "en", f"oauth_token_secret={OAUTH_SECRET}", OAUTH_SECRET),
    _p("assignment", "en", f'"privateKey": "{GCP_JSON_KEY}"', "MIIEv"),
    _p(
        "url",
        "en",
        f"SENTRY_DSN=https://{_fake(_HEX, 32)}:{_fake(_HEX, 32)}@sentry.io/12",
        "@sentry",
    ),
    _p("assignment", "en", f'smtp_password: "{PW}"', PW),
    _p("assignment", "en", f"default_pass = {PW5}", PW5),
    _p("prose", "zh", f"Redis 的 requirepass 是 {PW5}", PW5),
    _p("prose", "zh", f"生产库账号 app，密码 {PW4}", PW4),
    _p("assignment", "zh", f"邮箱密码：{PW5}", PW5),
    _p("assignment", "zh", f"企业微信 Secret：{WECOM_SECRET}", WECOM_SECRET),
    _p(
        "assignment",
        "zh",
        f"支付宝私钥：MIIEvQIBADANBgkqhkiG9w0BAQEFAASC{_fake(_B64, 40)}",
        "MIIEvQ",
    ),
    _p("assignment", "zh", f"飞书 app_secret = {FEISHU_SECRET}", FEISHU_SECRET),
    _p("saas", "en", f"gh secret set NPM_TOKEN --body {NPM}", NPM),
    _p("saas", "en", f"vault login {HVS}", HVS),
    _p("assignment", "en", f'curl "https://api.example.com/data?apikey={DATADOG}"', DATADOG),
    _p(
        "private_key",
        "en",
        "-----BEGIN DSA "
        + "PRIVATE KEY-----\nMIIBuw"
        + _fake(_B64, 40)
        + "\n-----END DSA "
        + "PRIVATE KEY-----",
        "MIIBuw",
    ),
    _p("cloud", "en", f"AWS_SESSION_TOKEN=IQoJb3JpZ2luX2Vj{_fake(_B64, 60)}", "IQoJb3"),
    _p("cloud", "en", f'provider "aws" {{ access_key = "{AKIA}" }}', AKIA),
    _p("saas", "en", f"atlassian API token: ATATT3xFfGF0{_fake(_URLSAFE, 60)}", "ATATT3"),
    _p("cli", "en", f"mysql -uadmin -p{PW5} -h db", PW5),
    _p("url", "en", f"psql postgres://u:{PW2}@localhost/db", PW2),
    _p("prose", "en", "The wifi passphrase is CorrectHorse9", "CorrectHorse9"),
]
_HELD_OUT_OBFUSCATED = [
    _p(
        OBFUSCATED,
        "en",
        "b64: " + base64.b64encode(SLACK_OBF.encode()).decode(),
        base64.b64encode(SLACK_OBF.encode()).decode(),
    ),
    _p(OBFUSCATED, "en", "token " + " ".join(GHP[:24]) + GHP[24:], " ".join(GHP[:4])),
    _p(OBFUSCATED, "en", "key " + GHP[:10] + "\u00ad" + GHP[10:], GHP[:10]),
    _p(
        OBFUSCATED,
        "en",
        f"STRIPE = '{STRIPE_SPLIT[:12]}' \\\n    '{STRIPE_SPLIT[12:]}'",
        STRIPE_SPLIT[:12],
    ),
    _p(OBFUSCATED, "en", "mailto:alice%40example.com", "alice%40example.com"),
    _p(OBFUSCATED, "en", "reach me: alice at example dot com", "alice at example"),
    _p(OBFUSCATED, "en", "bytes: " + " ".join(f"{b:02x}" for b in GHP.encode()), "67 68 70"),
    _p(OBFUSCATED, "en", f"aws id {GREEK_AKIA}", GREEK_AKIA),
    _p(OBFUSCATED, "zh", "密码：" + "".join(chr(ord(c) + 0xFEE0) for c in PW5), "Ｈ"),
]
_HELD_OUT_BENIGN = [
    _b("en", 'sshpass -p "$SSHPASS" ssh deploy@10.0.0.5'),
    _b("en", 'mysql -u root -p"$MYSQL_PWD" app'),
    _b("en", 'docker login -u "$USER" -p "$TOKEN" registry.example.com'),
    _b("en", "The default admin password must be changed on first login."),
    _b("en", "Passwords are hashed with argon2id."),
    _b("en", "The access token is a JWT signed with RS256."),
    _b("en", "Our API key format is sk_live_ followed by 24 characters."),
    _b("en", "password reset tokens expire after 1 hour"),
    _b("en", "Run `make secrets` to decrypt the sops file."),
    _b("en", "sops --decrypt secrets.enc.yaml > secrets.yaml"),
    _b("en", "export KUBECONFIG=~/.kube/config"),
    _b("en", "AUTH0_DOMAIN=acme.eu.auth0.com"),
    _b("en", "CLIENT_ID=3f2a1b0c9d8e7f6a"),
    _b(
        "en",
        "PUBLIC_KEY=ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIB" + _fake(_B64, 40) + " alice@laptop",
    ),
    _b(
        "en",
        '"integrity": "sha512-'
        + base64.b64encode(bytes(_rng.randrange(256) for _ in range(64))).decode()
        + '"',
    ),
    _b(
        "en",
        "data:image/png;base64,"
        + base64.b64encode(
            b"\x89PNG\r\n\x1a\n" + bytes(_rng.randrange(256) for _ in range(40))
        ).decode(),
    ),
    _b("en", "Bearer authentication is configured in nginx."),
    _b("en", "Authorization header is missing"),
    _b("en", "token_endpoint: https://login.example.com/oauth2/v2.0/token"),
    _b("en", "jwt_secret_key_path: /etc/app/jwt.key"),
    _b("en", "SECRET_KEY_FALLBACKS = []"),
    _b("en", "password: ${DB_PASSWORD:-postgres}"),
    _b("en", "npm publish --access public --otp 123456"),
    _b("en", 'git commit -m "fix: rotate leaked token handling"'),
    _b("en", "The secret key base is generated by rails secret."),
    _b("en", "access_key_id is shown in the console; the secret is shown once."),
    _b("en", "Use a password of at least 12 characters."),
    _b("zh", "请联系管理员重置密码。"),
    _b("zh", "密码错误次数过多，请 5 分钟后重试。"),
    _b("zh", "API Key 在控制台的“安全设置”里生成。"),
    _b("zh", "把 .env 加入 .gitignore，避免泄露密钥。"),
    _b("zh", "令牌过期时返回 HTTP 401。"),
    _b("zh", "私钥文件路径：~/.ssh/id_rsa"),
    _b("zh", "默认端口为 5432，用户为 postgres。"),
    _b("zh", "秘钥长度为 256 位。"),
    _b("zh", "本地开发时 token 可以随便填，比如 test。"),
    _b("zh", "数据库密码存放在 KMS 中，应用启动时读取。"),
    _b("zh", "x-api-key 请求头必须携带。"),
]
HELD_OUT: list[Case] = _HELD_OUT_POSITIVES + _HELD_OUT_OBFUSCATED + _HELD_OUT_BENIGN
# What the detector scored on the third batch the first time it ran on it, before the fixes it
# prompted (Docker's base64 "auth", requirepass, Vault tokens, spaced letters, "at … dot",
# spaced hex, ${VAR:-default}): the honest figure for strings nobody tuned the rules on.
HELD_OUT_FIRST_RUN = {"everyday": "24/27", "obfuscated": "6/9", "benign": "37/38"}
EVERYDAY += _HELD_OUT_POSITIVES
OBFUSCATED_CASES += _HELD_OUT_OBFUSCATED
BENIGN_CASES += _HELD_OUT_BENIGN

CASES: list[Case] = EVERYDAY + OBFUSCATED_CASES + BENIGN_CASES
EVERYDAY_CLASSES: tuple[str, ...] = tuple(dict.fromkeys(case.cls for case in EVERYDAY))


# --------------------------------------------------------------------------- scoring


@dataclass(frozen=True, slots=True)
class Figures:
    """Per class: (caught, total); ``missed`` and ``false_positives`` hold the cases."""

    per_class: dict[str, tuple[int, int]]
    missed: list[Case]
    false_positives: list[Case]

    def rate(self, classes: tuple[str, ...] | list[str]) -> float:
        caught = sum(self.per_class[c][0] for c in classes)
        total = sum(self.per_class[c][1] for c in classes)
        return caught / total if total else 1.0

    @property
    def everyday_rate(self) -> float:
        return self.rate(EVERYDAY_CLASSES)

    @property
    def obfuscated_rate(self) -> float:
        return self.rate([OBFUSCATED])

    @property
    def false_positive_rate(self) -> float:
        return len(self.false_positives) / len(BENIGN_CASES)


def caught(case: Case, spans: list[tuple[int, int]]) -> bool:
    """Whether a span overlaps the case's secret (its first occurrence in the text)."""
    assert case.secret is not None
    start = case.text.index(case.secret)
    end = start + len(case.secret)
    return any(s < end and start < e for s, e in spans)


def score(find) -> Figures:  # type: ignore[no-untyped-def]
    """Run ``find`` (text -> spans with ``start``/``end``) over the corpus."""
    per_class: dict[str, list[int]] = {}
    missed: list[Case] = []
    false_positives: list[Case] = []
    for case in CASES:
        spans = [(s.start, s.end) for s in find(case.text)]
        tally = per_class.setdefault(case.cls, [0, 0])
        tally[1] += 1
        if case.cls == BENIGN:
            if spans:
                false_positives.append(case)
            else:
                tally[0] += 1
        elif caught(case, spans):
            tally[0] += 1
        else:
            missed.append(case)
    return Figures({k: (v[0], v[1]) for k, v in per_class.items()}, missed, false_positives)


def score_cases(find, cases: list[Case]) -> dict[str, list[int]]:  # type: ignore[no-untyped-def]
    """(good, total) per group (``everyday``, ``obfuscated``, ``benign``) for some cases."""
    out = {"everyday": [0, 0], "obfuscated": [0, 0], "benign": [0, 0]}
    for case in cases:
        spans = [(s.start, s.end) for s in find(case.text)]
        group = case.cls if case.cls in (BENIGN, OBFUSCATED) else "everyday"
        good = not spans if case.cls == BENIGN else caught(case, spans)
        out[group][0] += good
        out[group][1] += 1
    return out
