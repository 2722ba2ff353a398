#pragma once
// Fetches a model's config.json from the Hugging Face Hub, or a mirror, without blocking: the
// same file the local import reads, then the same importer. Reads what huggingface_hub reads
// (HF_ENDPOINT, HF_TOKEN or the token file its login writes, HF_HUB_OFFLINE), follows the system
// proxy, keeps a copy of every config it fetched for offline use, and says for every failure
// what happened and what to do.

#include "core/hubref.h"

#include <QByteArray>
#include <QNetworkAccessManager>
#include <QObject>
#include <QPointer>
#include <QString>

#include <optional>

class QNetworkReply;

namespace vl {

struct HubAccess {
    QString endpoint;     // HF_ENDPOINT, else https://huggingface.co
    QString token;        // HF_TOKEN, else the token file; sent, never stored by us
    QString cacheDir;     // fetched configs, for offline use
    bool offline = false; // HF_HUB_OFFLINE=1 or --offline: the cached copy only
};
// From the environment as huggingface_hub reads it; the cache under QStandardPaths::CacheLocation.
HubAccess hubAccessFromEnvironment();

enum class HubFailure { None, NotFound, NoAccess, Network, NotAConfig, TooLarge, Cancelled, NotCached };

struct HubResult {
    HubFailure failure = HubFailure::None;
    QString message;   // the failure, or a notice beside a success (a cached copy used)
    QByteArray config; // config.json as the Hub serves it
    bool fromCache = false;
    std::optional<qint64> publishedParams; // the Hub's count from the safetensors files, if it has one
    bool ok() const { return failure == HubFailure::None; }
};

class HubClient : public QObject {
    Q_OBJECT
public:
    explicit HubClient(HubAccess access, QObject *parent = nullptr);
    // Starts fetching; finished() follows exactly once, cancelled or not.
    void fetch(const HubModelRef &ref);
    void cancel();
    static constexpr qint64 kMaxBytes = 16 << 20; // what a config (or the model's information) may weigh

Q_SIGNALS:
    void progress(qint64 received, qint64 total);
    void finished(const vl::HubResult &result);

private:
    QNetworkReply *get(const std::string &path);
    void configArrived();
    void infoArrived();
    void finish(HubResult result);
    HubResult fromCache(HubFailure otherwise, const QString &why) const;
    QString cachePath(const char *file) const;
    QString modelPage() const;

    HubAccess m_access;
    QNetworkAccessManager m_network;
    QPointer<QNetworkReply> m_reply;
    HubModelRef m_ref;
    HubResult m_result;
    bool m_cancelled = false;
};

} // namespace vl

Q_DECLARE_METATYPE(vl::HubResult)
