#include "io/atomicfile.h"

#include <QCoreApplication>

namespace vl {

namespace {

QString cannotWrite(const QString &path, const QString &why)
{
    return QCoreApplication::translate("vl::ui", "%1: cannot be written (%2)").arg(path, why);
}

} // namespace

QString commitChecked(QSaveFile &file, const QString &path)
{
    if (!file.flush() || file.error() != QFileDevice::NoError) {
        const QString why = file.errorString();
        file.cancelWriting();
        return cannotWrite(path, why);
    }
    if (!file.commit())
        return cannotWrite(path, file.errorString());
    return {};
}

QString writeAtomically(const QString &path, const QByteArray &bytes)
{
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        return cannotWrite(path, file.errorString());
    if (file.write(bytes) != bytes.size()) {
        const QString why = file.errorString();
        file.cancelWriting();
        return cannotWrite(path, why);
    }
    return commitChecked(file, path);
}

} // namespace vl
