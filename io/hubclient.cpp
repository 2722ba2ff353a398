#include "io/hubclient.h"

#include "io/atomicfile.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QNetworkProxyFactory>
#include <QNetworkReply>
#include <QNetworkRequest>
#include <QStandardPaths>
#include <QUrl>

namespace vl {

namespace {

constexpr int kTransferTimeoutMs = 30'000;

QString fromStd(const std::string &s)
{
    return QString::fromStdString(s);
}

// huggingface_hub's token: HF_TOKEN, else the file at HF_TOKEN_PATH, else $HF_HOME/token, else
// ~/.cache/huggingface/token (what `huggingface-cli login` writes).
QString tokenFromEnvironment()
{
    if (const QString token = qEnvironmentVariable("HF_TOKEN").trimmed(); !token.isEmpty())
        return token;
    QString path = qEnvironmentVariable("HF_TOKEN_PATH");
    if (path.isEmpty()) {
        const QString home = qEnvironmentVariable("HF_HOME", QDir::homePath() + QStringLiteral("/.cache/huggingface"));
        path = home + QStringLiteral("/token");
    }
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly) || file.size() > 4096)
        return {};
    return QString::fromUtf8(file.readAll()).trimmed();
}

} // namespace

HubAccess hubAccessFromEnvironment()
{
    HubAccess access;
    access.endpoint = qEnvironmentVariable("HF_ENDPOINT", QStringLiteral("https://huggingface.co"));
    while (access.endpoint.endsWith(QLatin1Char('/')))
        access.endpoint.chop(1);
    access.token = tokenFromEnvironment();
    access.cacheDir = QStandardPaths::writableLocation(QStandardPaths::CacheLocation) + QStringLiteral("/hub");
    const QString offline = qEnvironmentVariable("HF_HUB_OFFLINE").toLower();
    access.offline = offline == QLatin1String("1") || offline == QLatin1String("true")
        || offline == QLatin1String("yes");
    return access;
}

HubClient::HubClient(HubAccess access, QObject *parent) : QObject(parent), m_access(std::move(access))
{
    QNetworkProxyFactory::setUseSystemConfiguration(true);
    qRegisterMetaType<vl::HubResult>();
}

void HubClient::fetch(const HubModelRef &ref)
{
    m_ref = ref;
    m_result = {};
    m_cancelled = false;
    if (m_access.offline) {
        // Asynchronous all the same, so callers handle one path.
        QMetaObject::invokeMethod(
            this,
            [this] {
                finish(fromCache(HubFailure::NotCached,
                                 tr("offline, and no copy of %1 was fetched before; go online once, or import a local "
                                    "config.json")
                                     .arg(fromStd(m_ref.text()))));
            },
            Qt::QueuedConnection);
        return;
    }
    m_reply = get(hubConfigPath(ref));
    connect(m_reply, &QNetworkReply::finished, this, &HubClient::configArrived);
}

void HubClient::cancel()
{
    m_cancelled = true;
    if (m_reply)
        m_reply->abort();
}

QNetworkReply *HubClient::get(const std::string &path)
{
    QNetworkRequest request(QUrl(m_access.endpoint + fromStd(path)));
    request.setAttribute(QNetworkRequest::RedirectPolicyAttribute, QNetworkRequest::NoLessSafeRedirectPolicy);
    request.setTransferTimeout(kTransferTimeoutMs);
    request.setHeader(QNetworkRequest::UserAgentHeader, QStringLiteral("vram-ledger/" VL_VERSION));
    if (!m_access.token.isEmpty())
        request.setRawHeader("Authorization", "Bearer " + m_access.token.toUtf8());
    QNetworkReply *reply = m_network.get(request);
    connect(reply, &QNetworkReply::downloadProgress, this, [this, reply](qint64 received, qint64 total) {
        if (received > kMaxBytes || total > kMaxBytes) {
            m_result.failure = HubFailure::TooLarge;
            reply->abort();
            return;
        }
        Q_EMIT progress(received, total);
    });
    return reply;
}

QString HubClient::cachePath(const char *file) const
{
    // Both parts of the id were validated (no "..", no '/' inside a part); the revision is
    // percent-encoded by hubConfigPath's rule, so it is one safe path component.
    const QString revision = QString::fromUtf8(QUrl::toPercentEncoding(fromStd(m_ref.revision)));
    return m_access.cacheDir + QLatin1Char('/') + fromStd(m_ref.repo) + QLatin1Char('/') + revision + QLatin1Char('/')
        + QLatin1String(file);
}

QString HubClient::modelPage() const
{
    return m_access.endpoint + QLatin1Char('/') + fromStd(m_ref.repo);
}

HubResult HubClient::fromCache(HubFailure otherwise, const QString &why) const
{
    HubResult result;
    QFile config(cachePath("config.json"));
    if (!config.open(QIODevice::ReadOnly) || config.size() > kMaxBytes) {
        result.failure = otherwise;
        result.message = why;
        return result;
    }
    result.config = config.readAll();
    result.fromCache = true;
    result.message =
        tr("%1; using the copy fetched on %2").arg(why, QFileInfo(config).lastModified().toString(Qt::ISODate));
    QFile info(cachePath("model_info.json"));
    if (info.open(QIODevice::ReadOnly) && info.size() <= kMaxBytes)
        result.publishedParams = publishedParameterCount(info.readAll().toStdString());
    return result;
}

void HubClient::configArrived()
{
    QNetworkReply *reply = m_reply;
    reply->deleteLater();
    const int status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    const QString model = fromStd(m_ref.text());
    const QString host = QUrl(m_access.endpoint).host();
    if (m_cancelled) {
        finish({HubFailure::Cancelled, tr("cancelled"), {}, false, {}});
        return;
    }
    if (m_result.failure == HubFailure::TooLarge) {
        finish({HubFailure::TooLarge,
                tr("the answer for %1 is larger than %2 MiB; that is no config.json").arg(model).arg(kMaxBytes >> 20),
                {},
                false,
                {}});
        return;
    }
    if (status == 401 || status == 403) {
        finish({HubFailure::NoAccess,
                tr("%1 refused access to %2 (HTTP %3): the model is gated or private, or does not exist. Request "
                   "access at %4, then set HF_TOKEN or log in with huggingface-cli, and try again")
                    .arg(host, model)
                    .arg(status)
                    .arg(modelPage()),
                {},
                false,
                {}});
        return;
    }
    if (status == 404) {
        finish({HubFailure::NotFound,
                tr("%1 has no config.json for %2 (HTTP 404): check the id and the revision").arg(host, model),
                {},
                false,
                {}});
        return;
    }
    if (reply->error() != QNetworkReply::NoError || status != 200) {
        const QString why = status > 0 ? tr("%1 answered HTTP %2 for %3").arg(host).arg(status).arg(model)
                                       : tr("could not reach %1 (%2)").arg(host, reply->errorString());
        finish(fromCache(HubFailure::Network,
                         tr("%1; check the connection or the proxy, set HF_ENDPOINT for a mirror, or import a local "
                            "config.json")
                             .arg(why)));
        return;
    }
    const QByteArray body = reply->readAll();
    // A connection closed before the declared length arrived is not always reported as an error
    // (it depends on when the close is read): the length tells.
    if (const QVariant declared = reply->header(QNetworkRequest::ContentLengthHeader);
        declared.isValid() && body.size() < declared.toLongLong()) {
        finish(fromCache(HubFailure::Network,
                         tr("the answer for %1 from %2 was cut short (%3 of %4 bytes); try again, or import a local "
                            "config.json")
                             .arg(model, host)
                             .arg(body.size())
                             .arg(declared.toLongLong())));
        return;
    }
    const QJsonDocument json = QJsonDocument::fromJson(body);
    if (!json.isObject()) {
        finish({HubFailure::NotAConfig,
                tr("the answer for %1 from %2 is not a config.json (no JSON object)").arg(model, host),
                {},
                false,
                {}});
        return;
    }
    m_result.config = body;
    // A cache that cannot be written only costs the offline copy.
    const QString path = cachePath("config.json");
    if (QDir().mkpath(QFileInfo(path).path()))
        (void)writeAtomically(path, body);
    m_reply = get(hubModelInfoPath(m_ref));
    connect(m_reply, &QNetworkReply::finished, this, &HubClient::infoArrived);
}

void HubClient::infoArrived()
{
    QNetworkReply *reply = m_reply;
    reply->deleteLater();
    // The published count is a check, not a need: without it the config still imports.
    if (m_cancelled) {
        finish({HubFailure::Cancelled, tr("cancelled"), {}, false, {}});
        return;
    }
    if (reply->error() == QNetworkReply::NoError && m_result.failure == HubFailure::None) {
        const QByteArray body = reply->readAll();
        m_result.publishedParams = publishedParameterCount(body.toStdString());
        if (m_result.publishedParams)
            (void)writeAtomically(cachePath("model_info.json"), body);
    }
    HubResult result = m_result;
    result.failure = HubFailure::None;
    finish(result);
}

void HubClient::finish(HubResult result)
{
    m_reply = nullptr;
    Q_EMIT finished(result);
}

} // namespace vl
