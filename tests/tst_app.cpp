// vram-ledger as a process: headless --screenshot and --export, and its errors.

#include <QDir>
#include <QImage>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

class TestApp : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;

    int run(const QStringList &args, QByteArray *err = nullptr)
    {
        QProcess p;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
        env.insert(QStringLiteral("XDG_DATA_HOME"), m_dir.path());
        p.setProcessEnvironment(env);
        p.start(QStringLiteral(VL_APP), args);
        if (!p.waitForFinished(120'000))
            return -1;
        if (err)
            *err = p.readAllStandardError();
        return p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    }

private Q_SLOTS:
    void screenshot_data()
    {
        QTest::addColumn<QStringList>("extra");
        QTest::addColumn<QSize>("size");
        QTest::newRow("1280×800, English, light") << QStringList{"--size", "1280x800"} << QSize(1280, 800);
        QTest::newRow("1920×1080, Chinese, dark")
            << QStringList{"--size", "1920x1080", "--lang", "zh_CN", "--theme", "dark"} << QSize(1920, 1080);
    }
    void screenshot()
    {
        QFETCH(QStringList, extra);
        QFETCH(QSize, size);
        const QString out = m_dir.filePath(QStringLiteral("shot-%1.png").arg(size.width()));
        QCOMPARE(run(QStringList{"--screenshot", out} + extra), 0);
        const QImage image(out);
        QCOMPARE(image.size(), size);
    }

    void screenshotShowsTheOpenedScenario()
    {
        // Regression: the explanation table must show the scenario opened, not the first launch's.
        QCOMPARE(run({QStringLiteral("--scenario"),
                      QStringLiteral(VL_SOURCE_DIR "/docs/scenarios/llama-3.1-70b-zero3-64.vramledger.yaml"),
                      QStringLiteral("--export"), m_dir.filePath(QStringLiteral("all.svg")), QStringLiteral("--view"),
                      QStringLiteral("all")}),
                 0);
        QFile svg(m_dir.filePath(QStringLiteral("all.svg")));
        QVERIFY(svg.open(QIODevice::ReadOnly));
        const QByteArray text = svg.readAll();
        QVERIFY2(text.contains("7.06e10"), "the 70B model's parameter count is in the explanation");
        QVERIFY(!text.contains("7.00e9"));
    }

    // Rendering a config.json for a script leaves the user's presets as they were.
    void headlessImportSavesNoPreset()
    {
        const QString out = m_dir.filePath(QStringLiteral("gpt2.png"));
        for (int i = 0; i < 2; ++i)
            QCOMPARE(run({QStringLiteral(VL_SOURCE_DIR "/tests/data/hf/gpt2.json"), QStringLiteral("--screenshot"), out,
                          QStringLiteral("--size"), QStringLiteral("1024x700")}),
                     0);
        QVERIFY(QImage(out).width() == 1024);
        const QDir models(m_dir.filePath(QStringLiteral("vram-ledger/vram-ledger/presets/models")));
        QVERIFY2(!models.exists() || models.isEmpty(), qPrintable(models.entryList().join(u' ')));
    }

    void exportViews_data()
    {
        QTest::addColumn<QString>("view");
        QTest::addColumn<QString>("suffix");
        QTest::newRow("chart as SVG") << "chart"
                                      << "svg";
        QTest::newRow("diagram as PDF") << "diagram"
                                        << "pdf";
        QTest::newRow("timeline as PNG") << "timeline"
                                         << "png";
        QTest::newRow("everything as PNG") << "all"
                                           << "png";
    }
    void exportViews()
    {
        QFETCH(QString, view);
        QFETCH(QString, suffix);
        const QString out = m_dir.filePath(view + QLatin1Char('.') + suffix);
        QCOMPARE(run({QStringLiteral("--export"), out, QStringLiteral("--view"), view}), 0);
        QVERIFY(QFileInfo(out).size() > 1000);
    }

    void errors_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<int>("code");
        QTest::addColumn<QString>("message");
        QTest::newRow("unknown view") << QStringList{"--export", "x.png", "--view", "pie"} << 2
                                      << "--view: 'pie' is not allowed";
        QTest::newRow("bad size") << QStringList{"--screenshot", "x.png", "--size", "big"} << 2
                                  << "--size: 'big' is not allowed";
        QTest::newRow("scale that is not a number")
            << QStringList{"--screenshot", "x.png", "--scale", "nan"} << 2 << "--scale: 'nan' is not allowed";
        QTest::newRow("unknown option, exit 2 as in the CLI")
            << QStringList{"--frobnicate"} << 2 << "Unknown option 'frobnicate'";
        QTest::newRow("an export too large to paint")
            << QStringList{"--export", "x.png", "--view", "all", "--scale", "8", "--size", "8192x8192"} << 2
            << "--scale: 8 × --size 8192×8192 would paint 65536 pixels a side";
        QTest::newRow("unknown language")
            << QStringList{"--screenshot", "x.png", "--lang", "tlh"} << 2 << "--lang: 'tlh' is not allowed";
        QTest::newRow("missing scenario")
            << QStringList{"--screenshot", "x.png", "--scenario", "/nonexistent.vramledger.yaml"} << 3
            << "cannot be read";
    }
    void errors()
    {
        QFETCH(QStringList, args);
        QFETCH(int, code);
        QFETCH(QString, message);
        QByteArray err;
        QCOMPARE(run(args, &err), code);
        QVERIFY2(QString::fromUtf8(err).contains(message), err.constData());
    }
};

QTEST_GUILESS_MAIN(TestApp)
#include "tst_app.moc"
