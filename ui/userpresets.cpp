#include "ui/userpresets.h"

#include "io/atomicfile.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QStandardPaths>

namespace vl {

QString userPresetDir()
{
    return QStandardPaths::writableLocation(QStandardPaths::AppDataLocation) + QStringLiteral("/presets");
}

QString saveUserModel(const ModelPreset &model, QString *written)
{
    const QString dir = userPresetDir() + QStringLiteral("/models");
    QDir().mkpath(dir);
    const QString stem = dir + QLatin1Char('/') + QString::fromStdString(model.id);
    QString target = stem + QStringLiteral(".yaml");
    for (int n = 2; QFile::exists(target); ++n)
        target = stem + QStringLiteral("-%1.yaml").arg(n);
    *written = target;
    return writeAtomically(target, QByteArray::fromStdString(modelPresetToYaml(model)));
}

QString saveUserGpu(const GpuPreset &gpu)
{
    const QString dir = userPresetDir() + QStringLiteral("/gpus");
    QDir().mkpath(dir);
    const QString path = dir + QStringLiteral("/custom.yaml");
    std::vector<GpuPreset> gpus;
    if (QFile::exists(path)) {
        const auto text = readTextFile(path.toStdString());
        auto existing = text ? parseGpuPresets(*text, path.toStdString())
                             : Result<std::vector<GpuPreset>>(text.error());
        if (!existing) // never drop what the user saved because the file has a problem
            return QString::fromStdString(existing.error().describe());
        gpus = std::move(existing).value();
    }
    std::erase_if(gpus, [&](const GpuPreset &g) { return g.id == gpu.id; });
    gpus.push_back(gpu);
    return writeAtomically(path, QByteArray::fromStdString(gpuPresetsToYaml(gpus)));
}

} // namespace vl
