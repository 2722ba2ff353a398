// Fetching config.json from the Hugging Face Hub, against a real HTTP server on the loopback
// address that the test starts itself (never the internet): configs served whole or after a
// redirect, gated and unknown models, answers that are no config, cut short, too large or slow,
// the token, the offline cache, and the CLI end to end.

#include "hubfixture.h"
#include "io/hubclient.h"

#include <QFile>
#include <QProcess>
#include <QSignalSpy>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>

#include <memory>

using namespace vl;

namespace {

QByteArray gpt2Config()
{
    QFile file(QStringLiteral(VL_TEST_DATA "/hf/gpt2.json"));
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

constexpr char kConfigPath[] = "/openai-community/gpt2/resolve/main/config.json";
constexpr char kInfoPath[] = "/api/models/openai-community/gpt2/revision/main";

HubResult fetched(const HubAccess &access, const char *model = "openai-community/gpt2")
{
    HubClient client(access);
    QSignalSpy done(&client, &HubClient::finished);
    client.fetch(*parseHubModelRef(model));
    if (!done.wait(20'000))
        return {HubFailure::Network, QStringLiteral("the test waited in vain"), {}, false, {}};
    return done.front().front().value<HubResult>();
}

} // namespace

class TestHub : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void modelIds_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("repo"); // empty: refused
        QTest::addColumn<QString>("revision");
        QTest::newRow("organisation and name") << "meta-llama/Llama-3.1-8B"
                                               << "meta-llama/Llama-3.1-8B"
                                               << "main";
        QTest::newRow("a revision") << "Qwen/Qwen2.5-72B-Instruct@v1.0"
                                    << "Qwen/Qwen2.5-72B-Instruct"
                                    << "v1.0";
        QTest::newRow("a legacy id without owner") << "gpt2"
                                                   << "gpt2"
                                                   << "main";
        QTest::newRow("a pull-request revision") << "org/model@refs/pr/1"
                                                 << "org/model"
                                                 << "refs/pr/1";
        QTest::newRow("empty") << ""
                               << ""
                               << "";
        QTest::newRow("two slashes") << "a/b/c"
                                     << ""
                                     << "";
        QTest::newRow("a parent folder") << "../etc"
                                         << ""
                                         << "";
        QTest::newRow("double dash") << "org/a--b"
                                     << ""
                                     << "";
        QTest::newRow("a space") << "org/my model"
                                 << ""
                                 << "";
        QTest::newRow("an empty revision") << "org/model@"
                                           << ""
                                           << "";
        QTest::newRow("a parent folder as revision") << "org/model@.."
                                                     << ""
                                                     << "";
        QTest::newRow("97 characters") << QString(97, QLatin1Char('a')) << ""
                                       << "";
    }
    void modelIds()
    {
        QFETCH(QString, text);
        QFETCH(QString, repo);
        QFETCH(QString, revision);
        const auto ref = parseHubModelRef(text.toStdString());
        QCOMPARE(ref.ok(), !repo.isEmpty());
        if (!ref) {
            QCOMPARE(QString::fromStdString(ref.error().field), QStringLiteral("hf-model"));
            return;
        }
        QCOMPARE(QString::fromStdString(ref->repo), repo);
        QCOMPARE(QString::fromStdString(ref->revision), revision);
    }

    void paths()
    {
        const HubModelRef ref = *parseHubModelRef("org/model@refs/pr/1");
        QCOMPARE(QString::fromStdString(hubConfigPath(ref)),
                 QStringLiteral("/org/model/resolve/refs%2Fpr%2F1/config.json"));
        QCOMPARE(QString::fromStdString(hubModelInfoPath(ref)),
                 QStringLiteral("/api/models/org/model/revision/refs%2Fpr%2F1"));
        QCOMPARE(publishedParameterCount(R"({"safetensors": {"total": 124439808}})"),
                 std::optional<std::int64_t>(124'439'808));
        QCOMPARE(publishedParameterCount(R"({"id": "gpt2"})"), std::nullopt);
        QCOMPARE(publishedParameterCount(R"({"safetensors": {"total": "many"}})"), std::nullopt);
        QCOMPARE(publishedParameterCount("[[[[not json"), std::nullopt);
    }

    // Every answer the Hub may give, and what the client makes of it.
    void answers_data()
    {
        QTest::addColumn<int>("configStatus");
        QTest::addColumn<QByteArray>("configBody");
        QTest::addColumn<qint64>("declaredLength");
        QTest::addColumn<bool>("redirect");
        QTest::addColumn<int>("failure");
        QTest::addColumn<QString>("message"); // a part of what the user reads
        const QByteArray config = gpt2Config();
        QTest::newRow("served whole") << 200 << config << qint64(-1) << false << int(HubFailure::None) << "";
        QTest::newRow("after a redirect") << 200 << config << qint64(-1) << true << int(HubFailure::None) << "";
        QTest::newRow("gated or private (401)") << 401 << QByteArray("Unauthorized") << qint64(-1) << false
                                                << int(HubFailure::NoAccess) << "Request access at http://127.0.0.1";
        QTest::newRow("forbidden (403)") << 403 << QByteArray("Forbidden") << qint64(-1) << false
                                         << int(HubFailure::NoAccess) << "HF_TOKEN";
        QTest::newRow("unknown model (404)") << 404 << QByteArray("Entry not found") << qint64(-1) << false
                                             << int(HubFailure::NotFound) << "check the id and the revision";
        QTest::newRow("a web page, not a config") << 200 << QByteArray("<html>login</html>") << qint64(-1) << false
                                                  << int(HubFailure::NotAConfig) << "not a config.json";
        QTest::newRow("cut short") << 200 << config.left(100) << qint64(config.size()) << false
                                   << int(HubFailure::Network) << "import a local config.json";
        QTest::newRow("server error (500)")
            << 500 << QByteArray("oops") << qint64(-1) << false << int(HubFailure::Network) << "HTTP 500";
        QTest::newRow("larger than any config") << 200 << QByteArray("{}") << qint64(HubClient::kMaxBytes + 1) << false
                                                << int(HubFailure::TooLarge) << "larger than 16 MiB";
    }
    void answers()
    {
        QFETCH(int, configStatus);
        QFETCH(QByteArray, configBody);
        QFETCH(qint64, declaredLength);
        QFETCH(bool, redirect);
        QFETCH(int, failure);
        QFETCH(QString, message);
        HubFixture hub;
        const HubFixture::Answer answer{configStatus, configBody, {}, declaredLength, 0};
        if (redirect) {
            hub.routes[kConfigPath] = {302, {}, "/cdn/gpt2/config.json", -1, 0};
            hub.routes["/cdn/gpt2/config.json"] = answer;
        } else {
            hub.routes[kConfigPath] = answer;
        }
        hub.routes[kInfoPath] = {
            200, R"({"id": "openai-community/gpt2", "safetensors": {"total": 137022720}})", {}, -1, 0};
        QTemporaryDir cache;
        const HubResult result = fetched({hub.endpoint(), {}, cache.path(), false});
        QCOMPARE(int(result.failure), failure);
        QVERIFY2(result.message.contains(message), qPrintable(result.message));
        if (result.ok()) {
            QCOMPARE(result.config, configBody);
            QCOMPARE(result.publishedParams, std::optional<qint64>(137'022'720));
            QVERIFY(!result.fromCache);
        }
    }

    void tokenGoesToTheHub()
    {
        HubFixture hub;
        hub.routes[kConfigPath] = {200, gpt2Config(), {}, -1, 0};
        QTemporaryDir cache;
        QVERIFY(fetched({hub.endpoint(), QStringLiteral("hf_secret"), cache.path(), false}).ok());
        QVERIFY(!hub.authorizations.isEmpty());
        QCOMPARE(hub.authorizations.front(), QByteArray("Bearer hf_secret"));
        // Without a token, no Authorization header at all.
        HubFixture anonymous;
        anonymous.routes[kConfigPath] = {200, gpt2Config(), {}, -1, 0};
        QVERIFY(fetched({anonymous.endpoint(), {}, cache.path(), false}).ok());
        QVERIFY(anonymous.authorizations.isEmpty());
    }

    // A fetched config stays for offline use and for when the network is gone.
    void cacheServesOfflineAndUnreachable()
    {
        QTemporaryDir cache;
        QString endpoint;
        {
            HubFixture hub;
            hub.routes[kConfigPath] = {200, gpt2Config(), {}, -1, 0};
            hub.routes[kInfoPath] = {200, R"({"safetensors": {"total": 124439808}})", {}, -1, 0};
            endpoint = hub.endpoint();
            QVERIFY(fetched({endpoint, {}, cache.path(), false}).ok());
        } // the server is gone: its port refuses connections
        const HubResult offline = fetched({endpoint, {}, cache.path(), true});
        QVERIFY2(offline.ok() && offline.fromCache, qPrintable(offline.message));
        QCOMPARE(offline.config, gpt2Config());
        QCOMPARE(offline.publishedParams, std::optional<qint64>(124'439'808));
        const HubResult unreachable = fetched({endpoint, {}, cache.path(), false});
        QVERIFY2(unreachable.ok() && unreachable.fromCache, qPrintable(unreachable.message));
        QVERIFY(unreachable.message.contains(QStringLiteral("using the copy fetched on")));
        QTemporaryDir empty;
        const HubResult nothing = fetched({endpoint, {}, empty.path(), true});
        QCOMPARE(int(nothing.failure), int(HubFailure::NotCached));
        QVERIFY(nothing.message.contains(QStringLiteral("import a local config.json")));
    }

    void cancelStopsASlowAnswer()
    {
        HubFixture hub;
        hub.routes[kConfigPath] = {200, gpt2Config(), {}, -1, 10'000};
        QTemporaryDir cache;
        HubClient client({hub.endpoint(), {}, cache.path(), false});
        QSignalSpy done(&client, &HubClient::finished);
        client.fetch(*parseHubModelRef("openai-community/gpt2"));
        QTimer::singleShot(200, &client, &HubClient::cancel);
        QVERIFY(done.wait(5'000)); // long before the server's ten seconds
        QCOMPARE(done.size(), 1);
        QCOMPARE(int(done.front().front().value<HubResult>().failure), int(HubFailure::Cancelled));
    }

    // The CLI end to end: the model's id in, the estimate out; a failure is exit 3 with what to do.
    void cli_data()
    {
        QTest::addColumn<int>("configStatus");
        QTest::addColumn<QByteArray>("info");
        QTest::addColumn<int>("exitCode");
        QTest::addColumn<QString>("stdoutPart");
        QTest::addColumn<QString>("stderrPart");
        QTest::newRow("estimates the fetched model")
            << 200 << QByteArray(R"({"safetensors": {"total": 124439808}})") << 0 << "\"total\": 124439808"
            << "";
        QTest::newRow("a different published count is said")
            << 200 << QByteArray(R"({"safetensors": {"total": 137022720}})") << 0 << "\"total\": 124439808"
            << "the Hub publishes 137022720 parameters for openai-community/gpt2; its config counts 124439808";
        QTest::newRow("gated: exit 3 and where to ask") << 401 << QByteArray() << 3 << ""
                                                        << "Request access at";
    }
    void cli()
    {
        QFETCH(int, configStatus);
        QFETCH(QByteArray, info);
        QFETCH(int, exitCode);
        QFETCH(QString, stdoutPart);
        QFETCH(QString, stderrPart);
        HubFixture hub;
        hub.routes[kConfigPath] = {configStatus, configStatus == 200 ? gpt2Config() : QByteArray("no"), {}, -1, 0};
        if (!info.isEmpty())
            hub.routes[kInfoPath] = {200, info, {}, -1, 0};
        QTemporaryDir home;
        QProcess cli;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("HF_ENDPOINT"), hub.endpoint());
        env.insert(QStringLiteral("XDG_CACHE_HOME"), home.path());
        env.insert(QStringLiteral("HF_HOME"), home.path());
        env.remove(QStringLiteral("HF_TOKEN"));
        env.remove(QStringLiteral("HF_HUB_OFFLINE"));
        cli.setProcessEnvironment(env);
        cli.start(QStringLiteral(VL_CLI),
                  {QStringLiteral("--hf-model"), QStringLiteral("openai-community/gpt2"), QStringLiteral("--format"),
                   QStringLiteral("json"), QStringLiteral("--presets"), QStringLiteral(VL_SOURCE_PRESETS)});
        // The server answers from this event loop, so wait without blocking it.
        QTRY_VERIFY_WITH_TIMEOUT(cli.state() == QProcess::NotRunning, 30'000);
        const QString out = QString::fromUtf8(cli.readAllStandardOutput());
        const QString err = QString::fromUtf8(cli.readAllStandardError());
        QVERIFY2(cli.exitCode() == exitCode, qPrintable(err));
        QVERIFY2(out.contains(stdoutPart), qPrintable(out));
        QVERIFY2(err.contains(stderrPart), qPrintable(err));
    }
};

QTEST_GUILESS_MAIN(TestHub)
#include "tst_hub.moc"
