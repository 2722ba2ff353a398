#pragma once
// Saving files so that the previous version survives any failure.

#include <QByteArray>
#include <QSaveFile>
#include <QString>

namespace vl {

// Finishes an atomic save. QSaveFile::commit() in Qt 6.4 reports success when flushing its last
// buffer fails (a full disk, a file-size limit) and replaces the previous file with a truncated
// one; flushing first and cancelling on error keeps the previous file. Returns an empty string on
// success, else the error for `path`.
QString commitChecked(QSaveFile &file, const QString &path);

// Writes `bytes` to `path` atomically; empty on success, else the error.
QString writeAtomically(const QString &path, const QByteArray &bytes);

} // namespace vl
