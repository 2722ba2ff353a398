// The user's own presets: imported models never replace an existing file, custom GPUs
// accumulate in one file, and a damaged file is reported, never overwritten.

#include "ui/userpresets.h"

#include <QDir>
#include <QFile>
#include <QStandardPaths>
#include <QTest>

using namespace vl;

namespace {

GpuPreset gpu(const std::string &id, Bytes capacity)
{
    GpuPreset g;
    g.id = id;
    g.name = id;
    g.label = "test";
    g.capacity = capacity;
    g.source = "test";
    return g;
}

} // namespace

class TestUserPresets : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QDir(userPresetDir()).removeRecursively();
    }

    void customGpusAccumulate()
    {
        QCOMPARE(saveUserGpu(gpu("custom-a", 24 * kGiB)), QString());
        QCOMPARE(saveUserGpu(gpu("custom-b", 48 * kGiB)), QString());
        QCOMPARE(saveUserGpu(gpu("custom-a", 32 * kGiB)), QString()); // same id: replaced, not doubled
        const PresetCatalog catalog = loadCatalog({}, userPresetDir().toStdString());
        QVERIFY(catalog.skipped.empty());
        QCOMPARE(catalog.gpus.size(), std::size_t(2));
        QCOMPARE(catalog.findGpu("custom-a")->capacity, 32 * kGiB);
        QCOMPARE(catalog.findGpu("custom-b")->capacity, 48 * kGiB);
    }

    void damagedFileIsNeverOverwritten()
    {
        const QString path = userPresetDir() + QStringLiteral("/gpus/custom.yaml");
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
        file.write("schema: 1\ngpus: [ {id: x, name: X\n"); // hand-edited and broken
        file.close();
        const QString error = saveUserGpu(gpu("custom-c", 16 * kGiB));
        QVERIFY2(error.contains(QStringLiteral("custom.yaml")), qPrintable(error));
        QVERIFY(file.open(QIODevice::ReadOnly));
        QCOMPARE(file.readAll(), QByteArray("schema: 1\ngpus: [ {id: x, name: X\n"));
    }

    void importedModelsGetTheirOwnFile()
    {
        ModelPreset model;
        model.id = "my-model";
        model.name = "Mine";
        model.source = "test";
        QString first, second;
        QCOMPARE(saveUserModel(model, &first), QString());
        QCOMPARE(saveUserModel(model, &second), QString());
        QVERIFY(first != second); // the second import did not replace the first
        QVERIFY(QFile::exists(first) && QFile::exists(second));
    }
};

QTEST_GUILESS_MAIN(TestUserPresets)
#include "tst_userpresets.moc"
