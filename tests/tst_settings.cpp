// Settings keep each choice by a stable name, so that reordering an enum never changes what a
// user chose; a number written by version 0.1 still reads as it meant, and anything else
// falls back to the default.

#include "ui/settings.h"

#include <QSettings>
#include <QStandardPaths>
#include <QTest>

using namespace vl;

class TestSettings : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true); // a throwaway settings file
        QCoreApplication::setOrganizationName(QStringLiteral("vram-ledger-tests"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_settings"));
    }
    void cleanup() { QSettings().clear(); }

    void themeByName_data()
    {
        QTest::addColumn<QVariant>("stored");
        QTest::addColumn<Theme>("read");
        QTest::newRow("the name 'dark'") << QVariant(QStringLiteral("dark")) << Theme::Dark;
        QTest::newRow("the name 'light'") << QVariant(QStringLiteral("light")) << Theme::Light;
        QTest::newRow("0.1's number 1 (dark)") << QVariant(1) << Theme::Dark;
        QTest::newRow("a number past the enum falls back") << QVariant(7) << Theme::Light;
        QTest::newRow("a negative number falls back") << QVariant(-1) << Theme::Light;
        QTest::newRow("an unknown name falls back") << QVariant(QStringLiteral("solarized")) << Theme::Light;
        QTest::newRow("nothing stored") << QVariant() << Theme::Light;
    }
    void themeByName()
    {
        QFETCH(QVariant, stored);
        QFETCH(Theme, read);
        if (stored.isValid())
            QSettings().setValue(QStringLiteral("display/theme"), stored);
        QCOMPARE(int(Settings::theme()), int(read));
    }

    void writtenAsNames_data()
    {
        QTest::addColumn<QString>("key");
        QTest::addColumn<QString>("written");
        QTest::newRow("theme") << "display/theme"
                               << "dark";
        QTest::newRow("units") << "display/units"
                               << "GB";
        QTest::newRow("fit rule") << "display/fitRule"
                                  << "peak";
        QTest::newRow("bar set") << "display/bars"
                                 << "zero-stages";
    }
    void writtenAsNames()
    {
        QFETCH(QString, key);
        QFETCH(QString, written);
        Settings::setTheme(Theme::Dark);
        Settings::setUnits(Units::GB);
        Settings::setFitRule(FitRule::Peak);
        Settings::setBarSet(BarSet::ZeroStages);
        QCOMPARE(QSettings().value(key).toString(), written);
        // And each reads back as what was set.
        QVERIFY(Settings::theme() == Theme::Dark);
        QVERIFY(Settings::units() == Units::GB);
        QVERIFY(Settings::fitRule() == FitRule::Peak);
        QVERIFY(Settings::barSet() == BarSet::ZeroStages);
    }
};

QTEST_GUILESS_MAIN(TestSettings)
#include "tst_settings.moc"
