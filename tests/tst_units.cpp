#include "core/units.h"

#include <QTest>

using namespace vl;

class TestUnits : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void formatBytes_data()
    {
        QTest::addColumn<qint64>("bytes");
        QTest::addColumn<int>("units");
        QTest::addColumn<QString>("expected");
        QTest::newRow("article 7B fp32 weights in GB")
            << qint64(28'000'000'000) << int(Units::GB) << QStringLiteral("28.0 GB");
        QTest::newRow("same bytes in GiB") << qint64(28'000'000'000) << int(Units::GiB) << QStringLiteral("26.1 GiB");
        QTest::newRow("article activation script 1.07 GB")
            << qint64(1'073'741'824) << int(Units::GB) << QStringLiteral("1.07 GB");
        QTest::newRow("exactly one GiB") << qint64(kGiB) << int(Units::GiB) << QStringLiteral("1.00 GiB");
        QTest::newRow("below a GiB falls to MiB") << qint64(400 * kMiB) << int(Units::GiB) << QStringLiteral("400 MiB");
        QTest::newRow("below a GB falls to MB") << qint64(512'000'000) << int(Units::GB) << QStringLiteral("512 MB");
        QTest::newRow("hundreds keep no decimals")
            << qint64(120'000'000'000) << int(Units::GB) << QStringLiteral("120 GB");
        QTest::newRow("zero") << qint64(0) << int(Units::GiB) << QStringLiteral("0 GiB");
        QTest::newRow("negative shortfall") << qint64(-2 * kGiB) << int(Units::GiB) << QStringLiteral("-2.00 GiB");
    }
    void formatBytes()
    {
        QFETCH(qint64, bytes);
        QFETCH(int, units);
        QFETCH(QString, expected);
        QCOMPARE(QString::fromStdString(vl::formatBytes(bytes, static_cast<Units>(units))), expected);
    }

    void parseCount_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<bool>("valid");
        QTest::addColumn<qint64>("expected");
        QTest::newRow("scientific 7e9") << QStringLiteral("7e9") << true << qint64(7'000'000'000);
        QTest::newRow("suffix 7B") << QStringLiteral("7B") << true << qint64(7'000'000'000);
        QTest::newRow("decimal suffix 6.7b") << QStringLiteral("6.7b") << true << qint64(6'700'000'000);
        QTest::newRow("exact Llama-2-7B count") << QStringLiteral("6738415616") << true << qint64(6'738'415'616);
        QTest::newRow("millions 1.5M") << QStringLiteral("1.5M") << true << qint64(1'500'000);
        QTest::newRow("surrounding spaces") << QStringLiteral(" 42 ") << true << qint64(42);
        QTest::newRow("fraction is no count") << QStringLiteral("1.5") << false << qint64(0);
        QTest::newRow("empty") << QString() << false << qint64(0);
        QTest::newRow("letters") << QStringLiteral("seven") << false << qint64(0);
        QTest::newRow("nan") << QStringLiteral("nan") << false << qint64(0);
        QTest::newRow("inf") << QStringLiteral("inf") << false << qint64(0);
        QTest::newRow("overflow") << QStringLiteral("1e30") << false << qint64(0);
    }
    void parseCount()
    {
        QFETCH(QString, text);
        QFETCH(bool, valid);
        QFETCH(qint64, expected);
        const auto parsed = vl::parseCount(text.toStdString());
        QCOMPARE(parsed.has_value(), valid);
        if (valid)
            QCOMPARE(*parsed, expected);
    }

    void parseSize_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<qint64>("bytes"); // -1: refused
        QTest::newRow("decimal GB") << "80GB" << qint64(80) * kGB;
        QTest::newRow("binary GiB") << "24GiB" << qint64(24) * kGiB;
        QTest::newRow("nvidia-smi MiB") << "81920MiB" << qint64(81920) * kMiB;
        QTest::newRow("fractional: RTX 4090 as reported") << "23.988GB" << qint64(23'988'000'000);
        QTest::newRow("fractional GiB") << "1.5GiB" << qint64(3) * kGiB / 2;
        QTest::newRow("NaN") << "nanGB" << qint64(-1);
        QTest::newRow("negative") << "-8GB" << qint64(-1);
        QTest::newRow("no unit") << "80" << qint64(-1);
        QTest::newRow("zero") << "0GB" << qint64(-1);
        QTest::newRow("absurd") << "99999999GiB" << qint64(-1);
        QTest::newRow("unit only") << "GB" << qint64(-1);
    }
    void parseSize()
    {
        QFETCH(QString, text);
        QFETCH(qint64, bytes);
        const auto parsed = vl::parseSize(text.toStdString());
        QCOMPARE(parsed.has_value(), bytes >= 0);
        if (parsed)
            QCOMPARE(*parsed, bytes);
    }

    void wholeMiBOfGiB_data()
    {
        QTest::addColumn<double>("gib");
        QTest::addColumn<qint64>("mib");
        QTest::newRow("24 GiB") << 24.0 << qint64(24576);
        QTest::newRow("A100 80GB: 81920 MiB") << 80.0 << qint64(81920);
        QTest::newRow("RTX 4090: 23.99 GiB is 24566 MiB") << 23.99 << qint64(24566);
        QTest::newRow("H100 NVL: 93.58 GiB is 95826 MiB") << 93.58 << qint64(95826);
    }
    void wholeMiBOfGiB()
    {
        QFETCH(double, gib);
        QFETCH(qint64, mib);
        QCOMPARE(vl::wholeMiBOfGiB(gib), mib * vl::kMiB);
    }

    void formatCount_data()
    {
        QTest::addColumn<qint64>("count");
        QTest::addColumn<QString>("expected");
        QTest::newRow("article style 7.00e9") << qint64(7'000'000'000) << QStringLiteral("7.00e9");
        QTest::newRow("GPT-2") << qint64(124'439'808) << QStringLiteral("1.24e8");
        QTest::newRow("small counts in full") << qint64(4096) << QStringLiteral("4096");
    }
    void formatCount()
    {
        QFETCH(qint64, count);
        QFETCH(QString, expected);
        QCOMPARE(QString::fromStdString(vl::formatCount(count)), expected);
    }
};

QTEST_APPLESS_MAIN(TestUnits)
#include "tst_units.moc"
